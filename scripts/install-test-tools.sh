#!/usr/bin/env bash
# The system tools the tests run besides Node, etcd and the Python client (each has its own
# script), installed from Debian through apt when missing; `make test`, e2e, unit, test-cluster
# and cluster depend on it (the `test-tools` target). Idempotent: nothing happens when all are there.
#   docker-compose, haproxy, promtool   check the generated deploy/ files (test/e2e/deployConfig.test.ts);
#                                       Debian bookworm's docker-compose is 1.29.2
#   haproxy, prometheus, ip (iproute2)  the local twin: make cluster and test/cluster/
#   openssl, curl                       certificates in the e2e and unit tests; curl talks to test servers
#   cc (gcc, libc6-dev)                 native/mallocTrim.c's own test builds it
set -euo pipefail

# command:package[+package…]; the test for a command also looks in /usr/sbin and /sbin, which a
# non-root PATH may lack (haproxy lives there).
tools=(docker-compose:docker-compose haproxy:haproxy promtool:prometheus prometheus:prometheus
  ip:iproute2 openssl:openssl curl:curl cc:gcc+libc6-dev)
missing=()
for tool in "${tools[@]}"; do
  name="${tool%%:*}"
  if command -v "$name" >/dev/null || [ -x "/usr/sbin/$name" ] || [ -x "/sbin/$name" ]; then continue; fi
  IFS=+ read -r -a packages <<<"${tool#*:}"
  missing+=("${packages[@]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if [ "$(id -u)" -ne 0 ]; then
  echo "the tests need ${missing[*]}, and apt needs root: apt-get install ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]} (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "could not install ${missing[*]}" >&2
  exit 1
fi
