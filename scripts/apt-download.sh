#!/usr/bin/env bash
# Debian packages of one suite unpacked into a folder, never touching the system's apt sources:
# `apt-get download` through a private apt configuration under .cache/apt/<suite>, then
# `dpkg-deb -x` into DEST. Used for etcd (scripts/install-etcd.sh) and compose v2
# (scripts/compose-test.sh).
#
#   scripts/apt-download.sh SUITE DEST PACKAGE[=VERSION]...
set -euo pipefail
cd "$(dirname "$0")/.."
suite="$1" dest="$2"
shift 2
apt="$PWD/.cache/apt/$suite"
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/cache" "$dest"
printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian %s main\n' "$suite" >"$apt/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o "Dir::Cache::Archives=$apt/archives"
  -o Debug::NoLocking=1 -o APT::Sandbox::User=root -qq)
echo "fetching $* from Debian $suite (private apt config in $apt)" >&2
apt-get "${opts[@]}" update >&2
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get "${opts[@]}" download "$@" >&2)
for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$dest"; done
