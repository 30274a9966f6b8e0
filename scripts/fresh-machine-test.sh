#!/usr/bin/env bash
# The README's two commands on a fresh Debian bookworm machine: a container of a minbase image
# (scripts/docker/debian-base-image.sh) on a private Docker engine (scripts/docker/private-dockerd.sh),
# given only the README's prerequisites, runs `make test` (the full suite) and then `make run` until
# it reports ready. It gets a fresh `git clone` of HEAD: committed work only, no node_modules,
# .cache or dist. Prints how long each step took; removes the container and stops the engine at
# the end. Needs root. Exits non-zero when either command fails.
#
# The cluster tests (test/cluster/) make network namespaces, bridges and veth pairs: the container
# gets CAP_NET_ADMIN and CAP_SYS_ADMIN without the seccomp and AppArmor filters. (--privileged
# would do, but fails where the engine itself lacks a capability, CAP_SYS_RESOURCE here.)
# kubectl is a prerequisite the project does not install (the README's tour and the e2e tests
# drive every minor 1.27–1.33): this machine's kubectl and its kubectl.1.* are copied in.
# So is what this network needs of any machine on it: the local CA certificates the host trusts
# (/usr/local/share/ca-certificates, an egress proxy's here) and NODE_EXTRA_CA_CERTS when the host
# sets it, since Node does not read the system's store.
#
#   scripts/fresh-machine-test.sh [DOCKERD_DIR]    (default /var/tmp/svc-dockerd)
# shellcheck disable=SC2016  # the in_container scripts expand inside the container, not here
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
dockerd_dir="${1:-/var/tmp/svc-dockerd}"
image=svc-bookworm-base
container="svc-fresh-machine-$$"
work="$(mktemp -d)"
# The README's prerequisites (README.md, "Prerequisites"): what a fresh Debian lacks of them.
prerequisites=(git make ca-certificates curl npm)

started=$SECONDS
step_start=$SECONDS
step() { echo "==> $* ($(date -u +%H:%M:%S))"; step_start=$SECONDS; }
took() { echo "==> took $((SECONDS - step_start)) s"; }

cleanup() {
  local code=$?
  set +e
  if [ -n "${DOCKER_HOST:-}" ]; then docker rm -f "$container" >/dev/null 2>&1; fi
  scripts/docker/private-dockerd.sh stop "$dockerd_dir"
  rm -rf "$work"
  echo "==> fresh-machine-test: $([ "$code" -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s"
  exit "$code"
}
trap cleanup EXIT
# Ctrl-C or a kill still removes the container and stops the engine (through the EXIT trap).
trap 'exit 130' INT TERM

step "private dockerd"
export "$(scripts/docker/private-dockerd.sh start "$dockerd_dir")"
took

step "base image $image"
scripts/docker/debian-base-image.sh "$image"
took

step "git clone of HEAD ($(git rev-parse --short HEAD)) into a container"
git clone --quiet --no-hardlinks "$repo" "$work/svc-apiserver"
git -C "$work/svc-apiserver" checkout --quiet --detach "$(git rev-parse HEAD)"
env=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then env+=(-e "NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS"); fi
# --shm-size: Docker's 64 MB /dev/shm is far below a machine's (half its memory); the tests keep
# etcd's data dirs there, and each etcd preallocates a 64 MB WAL.
docker create "${env[@]}" --shm-size=4g --cap-add NET_ADMIN --cap-add SYS_ADMIN --security-opt seccomp=unconfined \
  --security-opt apparmor=unconfined --name "$container" "$image" sleep infinity >/dev/null
docker start "$container" >/dev/null
docker cp "$work/svc-apiserver" "$container:/root/svc-apiserver"
if [ -d /usr/local/share/ca-certificates ]; then
  docker cp /usr/local/share/ca-certificates/. "$container:/usr/local/share/ca-certificates/"
fi
kubectl_dir="$(dirname "$(realpath "$(command -v kubectl)")")"
for f in "$kubectl_dir"/kubectl "$kubectl_dir"/kubectl.1.*; do docker cp -L "$f" "$container:/usr/local/bin/"; done
took

in_container() { docker exec -w /root/svc-apiserver "$container" bash -c "$1"; }

step "prerequisites: apt-get install ${prerequisites[*]}"
in_container "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends ${prerequisites[*]} >/dev/null && update-ca-certificates >/dev/null"
in_container 'echo "node $(node --version), npm $(npm --version), $(git --version), $(make --version | head -n 1)"'
took

step "make test"
status=0
in_container 'make test' || status=$?
in_container 'PATH="$PWD/.cache/bin:$PATH" node scripts/test-summary.js' || status=1
took
if [ "$status" -ne 0 ]; then echo "==> make test failed"; exit 1; fi

step "make run (until ready, then Ctrl-C)"
# setsid: make run and its children in their own group, which the INT below stops as Ctrl-C does.
in_container '
  setsid make run >/root/make-run.log 2>&1 </dev/null &
  pid=$!
  ready=
  for _ in $(seq 1 1200); do
    if grep -q "is ready on" /root/make-run.log; then ready=1; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill -INT -- "-$pid" 2>/dev/null
  wait "$pid"
  cat /root/make-run.log
  [ -n "$ready" ]
' || { echo "==> make run did not report ready"; exit 1; }
took
