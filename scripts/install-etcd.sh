#!/usr/bin/env bash
# Installs etcd from Debian's etcd-server package (DESIGN.md §2b). Needs root or sudo.
set -euo pipefail
if command -v etcd >/dev/null 2>&1; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "etcd not found on PATH: installing the Debian package etcd-server" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq etcd-server >/dev/null
# The package starts a system etcd on 2379; this project runs its own, so stop that one.
$SUDO systemctl stop etcd >/dev/null 2>&1 || $SUDO service etcd stop >/dev/null 2>&1 || true
command -v etcd >/dev/null
