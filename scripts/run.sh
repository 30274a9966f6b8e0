#!/usr/bin/env bash
# `make run`: a local etcd under data/etcd, the apiserver on https://127.0.0.1:6443 with its PKI
# under data/pki, data/admin.kubeconfig for kubectl, and the controller manager (CSR signing with
# the cluster CA, serviceaccount and namespace controllers; /healthz and /metrics on :10257).
# Ctrl-C stops all three.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p data/etcd data/pki
ETCD_PORT="${ETCD_PORT:-2379}"
PORT="${PORT:-6443}"
CM_PORT="${CM_PORT:-10257}"

pids=()
cleanup() {
  trap - INT TERM EXIT
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup INT TERM EXIT

etcd --logger=zap --log-level=warn --data-dir data/etcd --name local \
  --listen-client-urls "http://127.0.0.1:${ETCD_PORT}" --advertise-client-urls "http://127.0.0.1:${ETCD_PORT}" \
  --listen-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" --initial-advertise-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" \
  --initial-cluster "local=http://127.0.0.1:$((ETCD_PORT + 1))" >data/etcd.log 2>&1 &
pids+=($!)

for _ in $(seq 1 100); do
  if curl -fsS "http://127.0.0.1:${ETCD_PORT}/health" >/dev/null 2>&1; then break; fi
  sleep 0.1
done

node bin/svc-apiserver \
  --etcd-servers "http://127.0.0.1:${ETCD_PORT}" \
  --bind-address 127.0.0.1 --secure-port "${PORT}" \
  --cert-dir data/pki --write-kubeconfig data/admin.kubeconfig &
pids+=($!)

for _ in $(seq 1 100); do
  if [ -f data/admin.kubeconfig ] && [ -f data/controller-manager.kubeconfig ] && curl -fsSk "https://127.0.0.1:${PORT}/readyz" >/dev/null 2>&1; then break; fi
  sleep 0.1
done

node bin/svc-controller-manager \
  --kubeconfig data/controller-manager.kubeconfig \
  --cluster-signing-cert-file data/pki/ca.crt --cluster-signing-key-file data/pki/ca.key \
  --bind-address 127.0.0.1 --secure-port "${CM_PORT}" &
pids+=($!)

echo
echo "svc-apiserver is ready on https://127.0.0.1:${PORT}; svc-controller-manager serves https://127.0.0.1:${CM_PORT}/healthz"
echo "  export KUBECONFIG=$PWD/data/admin.kubeconfig"
echo "  kubectl api-resources"
echo "Ctrl-C stops etcd, the apiserver and the controller manager."
wait -n "${pids[@]}"
