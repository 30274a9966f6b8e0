#!/usr/bin/env bash
# Makes an etcd of the wanted line available to the project, never touching the system's apt
# sources: Debian's etcd-server/etcd-client packages are fetched with `apt-get download` through a
# private apt configuration under .cache/apt and unpacked with `dpkg-deb -x` into
# .cache/etcd-<version>/. The binaries are static (libc only).
#
#   scripts/install-etcd.sh          etcd ≥ 3.5: an etcd on PATH that is new enough, else 3.5.16
#                                    from Debian trixie, linked into .cache/bin (which the Makefile
#                                    and .ci/run put first on PATH)
#   scripts/install-etcd.sh 3.4      etcd 3.4.23 from Debian bookworm into .cache/etcd-3.4.23/
#                                    (the legacy test group); prints the binary's path
#   scripts/install-etcd.sh 3.5.16   Debian trixie's 3.5.16 into .cache/etcd-3.5.16/ whatever is on
#                                    PATH (the compose job's etcd image); prints its folder
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/.cache"
line="${1:-3.5}"

# A binary's "etcd Version: X.Y.Z" as X.Y.Z.
etcd_version() { "$1" --version 2>/dev/null | sed -n 's/^etcd Version: //p' | head -n 1; }
at_least_3_5() { local v="$1"; [ -n "$v" ] && [ "$(printf '%s\n3.5.0\n' "$v" | sort -V | head -n 1)" = "3.5.0" ]; }

# The two packages of one Debian suite into dest (scripts/apt-download.sh).
fetch_debs() { scripts/apt-download.sh "$1" "$3" "etcd-server=$2" "etcd-client=$2"; }

case "$line" in
  3.4)
    dir="$root/etcd-3.4.23"
    if [ ! -x "$dir/usr/bin/etcd" ]; then fetch_debs bookworm 3.4.23-4+b4 "$dir"; fi
    echo "$dir/usr/bin/etcd"
    ;;
  3.5.16)
    dir="$root/etcd-3.5.16"
    if [ ! -x "$dir/usr/bin/etcd" ]; then fetch_debs trixie 3.5.16-4 "$dir"; fi
    echo "$dir"
    ;;
  3.5)
    mkdir -p "$root/bin"
    # The project-local link wins on PATH; keep it when it already points at a good binary.
    if [ -x "$root/bin/etcd" ] && at_least_3_5 "$(etcd_version "$root/bin/etcd")"; then exit 0; fi
    found="$(command -v etcd || true)"
    if [ -n "$found" ] && at_least_3_5 "$(etcd_version "$found")"; then exit 0; fi
    dir="$root/etcd-3.5.16"
    if [ ! -x "$dir/usr/bin/etcd" ]; then fetch_debs trixie 3.5.16-4 "$dir"; fi
    ln -sf "$dir/usr/bin/etcd" "$root/bin/etcd"
    ln -sf "$dir/usr/bin/etcdctl" "$root/bin/etcdctl"
    echo "etcd $(etcd_version "$root/bin/etcd") in $root/bin" >&2
    ;;
  *)
    echo "usage: scripts/install-etcd.sh [3.5|3.4|3.5.16]" >&2
    exit 2
    ;;
esac
