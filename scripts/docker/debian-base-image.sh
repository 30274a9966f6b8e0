#!/usr/bin/env bash
# A Debian bookworm base image built from Debian's archive, since no registry image can be pulled
# here: `mmdebstrap --variant=minbase` (essential packages plus apt) streamed into `docker import`.
# Skipped when the image already exists. Uses the engine DOCKER_HOST names (see
# scripts/docker/private-dockerd.sh). Needs root (mmdebstrap's root mode).
#
#   scripts/docker/debian-base-image.sh [IMAGE]     IMAGE defaults to svc-bookworm-base
set -euo pipefail
image="${1:-svc-bookworm-base}"
if docker image inspect "$image" >/dev/null 2>&1; then
  echo "image $image exists" >&2
  exit 0
fi
if ! command -v mmdebstrap >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then echo "debian-base-image.sh: mmdebstrap is missing and apt needs root: apt-get install mmdebstrap" >&2; exit 1; fi
  echo "installing mmdebstrap" >&2
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends mmdebstrap; } >/dev/null
fi
echo "building $image with mmdebstrap (Debian bookworm, minbase)" >&2
# The sources a Debian install has: the release, its updates and security.
mmdebstrap --quiet --variant=minbase bookworm - \
  'deb http://deb.debian.org/debian bookworm main' \
  'deb http://deb.debian.org/debian bookworm-updates main' \
  'deb http://deb.debian.org/debian-security bookworm-security main' |
  docker import - "$image" >/dev/null
echo "image $image built" >&2
