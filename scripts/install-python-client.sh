#!/usr/bin/env bash
# The Python Kubernetes client the e2e suite drives (test/e2e/pythonClient.test.ts): Debian's
# python3-kubernetes for the system Python (/usr/bin/python3), installed through apt when missing.
set -euo pipefail
if /usr/bin/python3 -c 'import kubernetes' 2>/dev/null; then exit 0; fi
install=(apt-get install -y -qq --no-install-recommends python3 python3-kubernetes)
if [ "$(id -u)" -eq 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && "${install[@]}"; } >/dev/null
elif command -v sudo >/dev/null; then
  { sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive "${install[@]}"; } >/dev/null
else
  echo "python3-kubernetes is missing and apt needs root: apt-get install python3-kubernetes" >&2
  exit 1
fi
/usr/bin/python3 -c 'import kubernetes' || { echo "python3-kubernetes did not install" >&2; exit 1; }
