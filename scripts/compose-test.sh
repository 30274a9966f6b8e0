#!/usr/bin/env bash
# make test-compose: deploy/docker-compose.yml run for real, end to end, on a private Docker engine
# (scripts/docker/private-dockerd.sh), with stand-in images built from Debian and npm packages
# (scripts/docker/stand-in-images.sh) and compose v2 from Debian trixie's docker-compose package
# (scripts/apt-download.sh into .cache/, the system's apt sources untouched). Steps, each timed:
# build the svc image (classic builder); `compose up --wait`; a smoke test through the load
# balancer (test/compose/driver.mjs) and the README's kubectl; each component's share of the PKI;
# Prometheus targets all up; an etcd snapshot into the backup volume as docs/operations.md does
# it, and a restore from it; one apiserver and the etcd leader killed, the replicas scaled
# 3 → 4 → 2 (HAProxy and Prometheus find them through Docker's DNS), then a rolling upgrade to a
# new image (only the svc containers replaced), each under a writer and a watcher (0
# acknowledged writes lost); `down -v`. Everything it starts is stopped; the engine's changes to
# the host firewall are undone by private-dockerd.sh stop.
# Needs root.
#
#   scripts/compose-test.sh [DOCKERD_DIR]    (default /var/tmp/svc-dockerd)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
dockerd_dir="${1:-/var/tmp/svc-dockerd}"
project=svc-compose-ci
work="$(mktemp -d)"
compose_dir="$repo/.cache/docker-compose-2.26.1"
compose_bin="$compose_dir/usr/libexec/docker/cli-plugins/docker-compose"

started=$SECONDS
step_start=$SECONDS
step() { echo "==> $* ($(date -u +%H:%M:%S))"; step_start=$SECONDS; }
took() { echo "==> took $((SECONDS - step_start)) s${1:+ ($1)}"; }

compose() { "$compose_bin" --progress quiet -p "$project" -f deploy/docker-compose.yml "$@"; }

cleanup() {
  local code=$?
  set +e
  if [ -n "${DOCKER_HOST:-}" ]; then
    if [ "$code" -ne 0 ]; then compose ps -a; compose logs --no-color --tail=30; fi
    docker rm -f "$project-load" >/dev/null 2>&1
    compose down -v --remove-orphans >/dev/null 2>&1
  fi
  scripts/docker/private-dockerd.sh stop "$dockerd_dir"
  rm -rf "$work"
  echo "==> compose-test: $([ "$code" -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "compose v2 (Debian trixie's docker-compose 2.26.1)"
[ -x "$compose_bin" ] || scripts/apt-download.sh trixie "$compose_dir" docker-compose=2.26.1-4
"$compose_bin" version
took

step "private dockerd"
export "$(scripts/docker/private-dockerd.sh start "$dockerd_dir")"
took

step "stand-in base images (cached by recipe hash)"
while IFS= read -r line; do export "${line?}"; echo "  $line"; done < <(scripts/docker/stand-in-images.sh)
took

step "svc image (classic builder)"
# The host's extra CAs (a TLS-inspecting egress proxy's here) for npm inside the build.
EXTRA_CA_CERT="$(cat /usr/local/share/ca-certificates/*.crt 2>/dev/null || true)"
export EXTRA_CA_CERT
DOCKER_BUILDKIT=0 docker build -q --network host -f deploy/Dockerfile -t svc-apiserver:local \
  --build-arg NODE_IMAGE --build-arg RUNTIME_BASE_IMAGE --build-arg EXTRA_CA_CERT . >/dev/null
took "$(docker image inspect -f '{{.Size}}' svc-apiserver:local | awk '{ printf "%d MB", $1 / 1e6 }')"

# Free host ports (another make run or test may hold 6443 and 9090), through the compose variables.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
SVC_API_PORT="$(free_port)" SVC_PROMETHEUS_PORT="$(free_port)"
export SVC_API_PORT SVC_PROMETHEUS_PORT
step "compose up, until every service is healthy (load balancer on 127.0.0.1:$SVC_API_PORT, Prometheus on :$SVC_PROMETHEUS_PORT)"
compose up -d --no-build --wait --wait-timeout 300
took "time to healthy"

# The driver runs in a container of the svc image on the compose network with the PKI volume.
driver() {
  docker run --rm --name "$project-$1" --network "${project}_default" -v "${project}_pki:/var/lib/svc/pki:ro" \
    -v "$repo/test/compose:/driver:ro" -v "$work:/work" --user 0 --no-healthcheck --entrypoint node svc-apiserver:local /driver/driver.mjs "$1" /work
}

step "smoke test through the load balancer"
openssl req -new -newkey rsa:2048 -nodes -keyout "$work/csr.key" -subj "/CN=compose-ci/O=ci" -out "$work/csr.pem" 2>/dev/null
driver smoke
# The README's commands: the admin kubeconfig out of the PKI (pki-init's container), kubectl on the host.
compose cp pki-init:/var/lib/svc/pki/admin.kubeconfig "$work/admin.kubeconfig"
kubectl --kubeconfig "$work/admin.kubeconfig" --server "https://localhost:$SVC_API_PORT" get namespaces compose-ci
# Each component has only its share of the PKI: no CA key on a replica, no admin key on etcd.
compose exec -T --index 1 apiserver test ! -e /var/lib/svc/pki/ca.key
compose exec -T --index 1 apiserver test -r /var/lib/svc/pki/apiserver.key
compose exec -T etcd-1 test ! -e /var/lib/svc/pki/admin.kubeconfig
echo "  PKI shares: a replica reads its key and has no ca.key, etcd-1 has no admin.kubeconfig"
took "smoke"

# Every Prometheus target up, N of them in the apiserver job (found through Docker's DNS).
prometheus_up() {
  local n="$1"
  for _ in $(seq 1 60); do
    if curl -fsS "http://127.0.0.1:$SVC_PROMETHEUS_PORT/api/v1/targets" | python3 -c '
import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
a = [x for x in t if x["labels"]["job"] == "apiserver"]
print("  ", len([x for x in t if x["health"] == "up"]), "of", len(t), "targets up,", len(a), "apiserver replicas")
sys.exit(0 if t and all(x["health"] == "up" for x in t) and len(a) == int(sys.argv[1]) else 1)' "$n"; then return 0; fi
    sleep 2
  done
  echo "Prometheus: not every target up, or not $n apiserver replicas"; return 1
}
step "Prometheus: every target up"
prometheus_up 3
took

etcdctl() { compose exec -T "$1" /usr/local/bin/etcdctl --endpoints="https://$1:2379" --cacert=/var/lib/svc/pki/etcd/ca.crt \
  --cert=/var/lib/svc/pki/etcd/healthcheck-client.crt --key=/var/lib/svc/pki/etcd/healthcheck-client.key "${@:2}"; }

step "backup: etcdctl snapshot save into the backup volume (docs/operations.md)"
etcdctl etcd-1 snapshot save "/backup/etcd-$(date +%F).db"
compose exec -T etcd-1 /usr/local/bin/etcdutl snapshot status "/backup/etcd-$(date +%F).db" -w table
took

step "restore: etcdutl snapshot restore from the backup volume into a fresh member"
# A one-member cluster from the file in a throwaway container of the etcd image; the smoke test's
# 20 ConfigMaps must be among the restored keys.
restored="$(docker run --rm -v "${project}_backup:/backup:ro" --entrypoint sh "$ETCD_IMAGE" -c '
  set -e
  etcdutl snapshot restore "/backup/etcd-$(date +%F).db" --data-dir=/tmp/restored --name=etcd-1 \
    --initial-cluster=etcd-1=http://127.0.0.1:2380 --initial-advertise-peer-urls=http://127.0.0.1:2380 \
    --initial-cluster-token=svc-etcd-cluster-restored >/dev/null 2>&1
  etcd --data-dir=/tmp/restored --name=etcd-1 --listen-client-urls=http://127.0.0.1:2379 \
    --advertise-client-urls=http://127.0.0.1:2379 --listen-peer-urls=http://127.0.0.1:2380 >/tmp/etcd.log 2>&1 &
  for _ in $(seq 1 100); do etcdctl endpoint health >/dev/null 2>&1 && break; sleep 0.2; done
  etcdctl get /registry/ --prefix --keys-only | grep -c "compose-ci/across-"')"
echo "  $restored of 20 ConfigMaps restored"
[ "$restored" -eq 20 ] || { echo "restore lost objects"; exit 1; }
took

wait_healthy() {
  for _ in $(seq 1 120); do
    [ "$(docker inspect -f '{{.State.Health.Status}}' "$1")" = healthy ] && return 0
    sleep 1
  done
  echo "$1 did not turn healthy"; return 1
}
cid() { compose ps -a -q "$1"; }
# The replicas of the one apiserver service are containers <project>-apiserver-<n>.
replica() { echo "$project-apiserver-$1"; }
# How many apiserver servers HAProxy has UP (its stats on the health port, as CSV).
lb_up_count() {
  compose exec -T apiserver-lb wget -q -O - "http://127.0.0.1:8404/stats;csv" |
    awk -F, '$1 == "apiservers" && $2 != "BACKEND" && $18 ~ /^UP/ { n++ } END { print n + 0 }'
}
wait_lb_up() {
  for _ in $(seq 1 120); do [ "$(lb_up_count)" -eq "$1" ] && return 0; sleep 0.5; done
  echo "HAProxy has $(lb_up_count) replicas UP, not $1"; return 1
}

# A writer and a watcher (test/compose/driver.mjs load) from start_load until stop_load, which
# fails when an acknowledged write is lost or unseen and prints the longest gap between acks.
start_load() {
  rm -f "$work/stop" "$work/load.started"
  docker run -d --name "$project-load" --network "${project}_default" -v "${project}_pki:/var/lib/svc/pki:ro" \
    -v "$repo/test/compose:/driver:ro" -v "$work:/work" --user 0 --no-healthcheck --entrypoint node svc-apiserver:local /driver/driver.mjs load /work >/dev/null
  for _ in $(seq 1 100); do [ -f "$work/load.started" ] && break; sleep 0.2; done
  sleep 3
}
stop_load() {
  local status
  sleep 3
  touch "$work/stop"
  status="$(docker wait "$project-load")"
  docker logs "$project-load" 2>&1 | grep '^RESULT' || docker logs "$project-load" 2>&1 | tail -n 20
  docker rm "$project-load" >/dev/null
  [ "$status" -eq 0 ] || { echo "acknowledged writes lost or unseen"; exit 1; }
}

step "faults under a writer and a watcher"
start_load
t=$SECONDS
echo "  docker kill $(replica 2) (not undone by restart: unless-stopped), then docker start"
docker kill "$(replica 2)" >/dev/null
sleep 5
docker start "$(replica 2)" >/dev/null
wait_healthy "$(replica 2)"
echo "  $(replica 2) back healthy after $((SECONDS - t)) s"
leader_id="$(etcdctl etcd-1 endpoint status --cluster -w json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s[0]["Status"]["leader"])')"
leader="$(etcdctl etcd-1 member list -w json | python3 -c "import json,sys; print([m['name'] for m in json.load(sys.stdin)['members'] if m['ID']==$leader_id][0])")"
t=$SECONDS
echo "  docker kill the etcd leader $leader, then docker start"
docker kill "$(cid "$leader")" >/dev/null
sleep 5
docker start "$(cid "$leader")" >/dev/null
wait_healthy "$(cid "$leader")"
echo "  $leader back healthy after $((SECONDS - t)) s"
stop_load
took "faults"

step "scaling under a writer: apiserver 3 -> 4 -> 2 (docs/operations.md)"
start_load
for n in 4 2; do
  t=$SECONDS
  compose up -d --no-deps --no-recreate --wait --scale "apiserver=$n" apiserver
  wait_lb_up "$n"
  echo "  $n replicas, all UP in HAProxy after $((SECONDS - t)) s ($(date -u +%T))"
  prometheus_up "$n"
done
stop_load
took "scaling"

step "rolling upgrade under a writer (docs/operations.md): a new svc image, one replica at a time"
# Every container but the replicas, by service: the upgrade must leave them alone except the
# controller managers.
ids() { for c in $(compose ps -a -q); do docker inspect -f '{{index .Config.Labels "com.docker.compose.service"}} {{.Id}}/{{.State.StartedAt}}' "$c"; done | grep -v '^apiserver ' | sort; }
ids >"$work/ids.before"
# An image change: the same build under a new tag with a new label (a new image ID).
printf 'FROM svc-apiserver:local\nLABEL svc.upgrade=ci\n' | DOCKER_BUILDKIT=0 docker build -q -t svc-apiserver:ci-upgrade - >/dev/null 2>&1
export SVC_IMAGE=svc-apiserver:ci-upgrade
start_load
# Surge, then retire: a replica on the new image joins (--no-recreate leaves the old ones as they
# are) and is UP in HAProxy before an old one stops gracefully, so the pool never shrinks.
old="$(compose ps -q apiserver)"
n="$(echo "$old" | wc -l)"
for c in $old; do
  t=$SECONDS
  compose up -d --no-deps --no-recreate --wait --scale "apiserver=$((n + 1))" apiserver
  wait_lb_up "$((n + 1))"
  docker stop -t 40 "$c" >/dev/null
  docker rm "$c" >/dev/null
  wait_lb_up "$n"
  echo "  a replica on the new image UP, an old one retired, after $((SECONDS - t)) s ($(date -u +%T))"
done
# Then the controller managers. Not a plain `up`: after the --no-deps steps compose 2.26 re-runs
# pki-init and recreates every replica at once (an 8.7 s write gap measured).
for s in controller-manager-2 controller-manager-1; do compose up -d --no-deps --wait "$s"; done
echo "  controller managers on the new image ($(date -u +%T))"
stop_load
ids >"$work/ids.after"
changed="$(join "$work/ids.before" "$work/ids.after" | awk '$2 != $3 { print $1 }' | sort | tr '\n' ' ')"
echo "  recreated or restarted besides the replicas: $changed"
[ "$changed" = "controller-manager-1 controller-manager-2 " ] ||
  { echo "the upgrade recreated or restarted more than the svc containers"; exit 1; }
images="$(for c in $(compose ps -q apiserver); do docker inspect -f '{{.Config.Image}}' "$c"; done | sort | uniq -c | tr -s ' ')"
echo "  replicas:$images"
[ "$images" = " $n svc-apiserver:ci-upgrade" ] || { echo "not every replica on the new image"; exit 1; }
took "upgrade"

step "compose down -v"
compose down -v --remove-orphans
took
