#!/usr/bin/env bash
# The container test (docs/operations.md, "The image"): builds the real Dockerfile, unchanged,
# with podman on the stand-in base (base-image.sh), then runs container.check.ts against the
# services scripts/infra/up.sh started (`source scripts/infra/env.sh` first). Needs root,
# podman, buildah, runc and debootstrap (.ci/run installs them) and a built dist/ (the check
# is compiled with the rest). Only the builds reach outside 127.0.0.1: Debian's mirror and the
# npm registry. Prints how long each step took.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
cd "$repo"
export CONTAINERS_CONF="$here/containers.conf"
export VERITY_IMAGE="${VERITY_IMAGE:-localhost/verity:ci}"

[[ "$(id -u)" -eq 0 ]] || { echo "the container test runs podman as root" >&2; exit 1; }
: "${KAFKA_BROKERS:?source scripts/infra/env.sh first}"

step() {
  local what="$1" started=$SECONDS
  shift
  "$@"
  echo "== container test: $what took $((SECONDS - started)) s"
}
build() { podman build --quiet --network host --file Dockerfile "$@" . >/dev/null; }

step "base image" bash "$here/base-image.sh"
# The build stage is tagged too, so pruning the untagged leftovers of earlier runs keeps the
# layers of its `npm ci` for the next run.
step "build stage" build --target build --tag "$VERITY_IMAGE-build"
step "image" build --tag "$VERITY_IMAGE"
echo "== container test: image $(podman image inspect "$VERITY_IMAGE" --format '{{.Size}}') bytes"
step "containers" node --test --test-reporter=spec dist/test/deploy/container/container.check.js
podman image prune --force >/dev/null
