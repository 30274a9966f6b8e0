#!/usr/bin/env bash
# `make run`: a local etcd under data/etcd, the apiserver on https://127.0.0.1:6443 with its PKI
# under data/pki, data/admin.kubeconfig for kubectl, and the controller manager (CSR signing with
# the cluster CA, serviceaccount and namespace controllers; /healthz and /metrics on :10257).
# Each process logs to data/<name>.log. NAMING=k8s serves upstream's names (--api-naming=k8s) from
# data-k8s/ instead: the server refuses a data directory written with the other naming, so the two
# profiles never share one. APISERVER_FLAGS adds flags to the apiserver's command line. DATA,
# ETCD_PORT, PORT and CM_PORT move it elsewhere (the e2e test of this script runs it beside a
# developer's own `make run`). Ready is reported only once etcd's /health, the
# apiserver's /readyz and the controller manager's /healthz answer 200; a process that exits or
# never gets there stops everything with its last log lines. Ctrl-C stops all three.
#
#   scripts/run.sh                  start everything
#   scripts/run.sh --check-ports    only refuse ports in use (make run does this before it builds)
set -euo pipefail
cd "$(dirname "$0")/.."
NAMING="${NAMING:-svc}"
case "$NAMING" in
  svc) DATA="${DATA:-data}" ;;
  k8s) DATA="${DATA:-data-k8s}" ;;
  *) echo "make run: NAMING is svc (the default) or k8s, not \"$NAMING\"" >&2; exit 2 ;;
esac
ETCD_PORT="${ETCD_PORT:-2379}"
PORT="${PORT:-6443}"
CM_PORT="${CM_PORT:-10257}"
READY_TIMEOUT_S=60

# Another server already on a port would answer our readiness probes: refuse to start instead.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in "$ETCD_PORT" "$((ETCD_PORT + 1))" "$PORT" "$CM_PORT"; do
  if port_in_use "$p"; then
    echo "make run: 127.0.0.1:$p is already in use (another make run?); stop that process first" >&2
    exit 1
  fi
done
if [ "${1:-}" = "--check-ports" ]; then exit 0; fi

mkdir -p "$DATA/etcd" "$DATA/pki"
chmod 700 "$DATA/etcd"  # etcd warns about a data dir others can read
DATA="$(cd "$DATA" && pwd)"
# Split on blanks, never globbed: APISERVER_FLAGS="--v=4 --runtime-config=…".
read -r -a extra_flags <<<"${APISERVER_FLAGS:-}"

pids=()
names=()
# Stops the processes newest first, each before the next: the controller manager and the apiserver
# shut down gracefully while etcd still answers (a request waiting on a stopped etcd would hold the
# apiserver's drain until its timeout), then etcd.
cleanup() {
  trap - INT TERM EXIT
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[$i]}" 2>/dev/null || true
    wait "${pids[$i]}" 2>/dev/null || true
  done
}
trap cleanup EXIT
# Ctrl-C (or a TERM) ends the run quietly: the processes' own exits are not failures then.
trap 'cleanup; exit 130' INT TERM

fail() {
  local name="$1" log="$2" why="$3"
  echo >&2
  echo "make run: $name $why. Last lines of $log:" >&2
  tail -n 25 "$log" >&2 || true
  exit 1
}

# start NAME LOG COMMAND...: runs it in the background with its output in LOG.
start() {
  local name="$1" log="$2"
  shift 2
  "$@" >"$log" 2>&1 &
  pids+=($!)
  names+=("$name")
}

# The same in a session of its own, out of reach of the terminal's Ctrl-C: cleanup stops it last.
start_detached() {
  local name="$1" log="$2"
  shift 2
  setsid "$@" >"$log" 2>&1 &
  pids+=($!)
  names+=("$name")
}

# wait_ready NAME LOG PROBE...: until PROBE succeeds; fails when the newest process exits first
# or the deadline passes.
wait_ready() {
  local name="$1" log="$2" pid="${pids[-1]}"
  shift 2
  local deadline=$((SECONDS + READY_TIMEOUT_S))
  until "$@" >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null; then fail "$name" "$log" "exited before it was ready"; fi
    if [ "$SECONDS" -ge "$deadline" ]; then fail "$name" "$log" "was not ready after ${READY_TIMEOUT_S}s"; fi
    sleep 0.2
  done
}

start_detached etcd "$DATA/etcd.log" etcd --logger=zap --log-level=warn --data-dir "$DATA/etcd" --name local \
  --listen-client-urls "http://127.0.0.1:${ETCD_PORT}" --advertise-client-urls "http://127.0.0.1:${ETCD_PORT}" \
  --listen-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" --initial-advertise-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" \
  --initial-cluster "local=http://127.0.0.1:$((ETCD_PORT + 1))"
wait_ready etcd "$DATA/etcd.log" curl -fsS "http://127.0.0.1:${ETCD_PORT}/health"

start svc-apiserver "$DATA/apiserver.log" node bin/svc-apiserver \
  --etcd-servers "http://127.0.0.1:${ETCD_PORT}" \
  --bind-address 127.0.0.1 --secure-port "${PORT}" \
  --cert-dir "$DATA/pki" --write-kubeconfig "$DATA/admin.kubeconfig" \
  --api-naming "$NAMING" ${extra_flags[@]+"${extra_flags[@]}"}
# -f: only a 200 counts; the CA is the one the apiserver generates, so no -k.
wait_ready svc-apiserver "$DATA/apiserver.log" bash -c "[ -f '$DATA/pki/ca.crt' ] && [ -f '$DATA/admin.kubeconfig' ] && \
  [ -f '$DATA/controller-manager.kubeconfig' ] && curl -fsS --cacert '$DATA/pki/ca.crt' https://127.0.0.1:${PORT}/readyz"

start svc-controller-manager "$DATA/controller-manager.log" node bin/svc-controller-manager \
  --kubeconfig "$DATA/controller-manager.kubeconfig" \
  --cluster-signing-cert-file "$DATA/pki/ca.crt" --cluster-signing-key-file "$DATA/pki/ca.key" \
  --bind-address 127.0.0.1 --secure-port "${CM_PORT}"
wait_ready svc-controller-manager "$DATA/controller-manager.log" curl -fsSk "https://127.0.0.1:${CM_PORT}/healthz"

echo
echo "svc-apiserver is ready on https://127.0.0.1:${PORT} (${NAMING} naming); svc-controller-manager serves https://127.0.0.1:${CM_PORT}/healthz"
echo "  export KUBECONFIG=$DATA/admin.kubeconfig"
echo "  kubectl api-resources"
# The typed commands that hard-code upstream's group names work only with those names.
if [ "$NAMING" = k8s ]; then echo "  kubectl auth whoami"; fi
echo "Logs: $DATA/etcd.log, $DATA/apiserver.log, $DATA/controller-manager.log. Ctrl-C stops all three."

# Whichever process ends first ends the run, loudly — unless it was stopped: a Ctrl-C reaches the
# whole process group, and where this shell started with INT ignored (a background job of a
# script) its trap never runs; the servers exit 0 only when an INT or TERM asked them to.
code=0
wait -n "${pids[@]}" || code=$?
if [ "$code" -eq 0 ] || [ "$code" -eq 130 ] || [ "$code" -eq 143 ]; then
  cleanup
  exit $((code == 0 ? 130 : code))
fi
for i in "${!pids[@]}"; do
  if ! kill -0 "${pids[$i]}" 2>/dev/null; then
    fail "${names[$i]}" "$DATA/${names[$i]#svc-}.log" "exited (code $code)"
  fi
done
