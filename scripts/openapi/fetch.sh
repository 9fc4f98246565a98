#!/usr/bin/env bash
# Fetches, once, what the generated-client test (test/e2e/openapi-clients.e2e.spec.ts) runs, from
# Maven Central into .infra/lib (git-ignored), and prints where it is:
#   fetch.sh generator              the OpenAPI Generator CLI jar (OPENAPI_GENERATOR_VERSION)
#   fetch.sh java-deps <pom.xml>    the compile and runtime jars a generated Java client's pom
#                                   names, in a directory keyed by the pom's sha256
# Progress goes to stderr; Maven's local repository (~/.m2) caches the downloads.
set -euo pipefail
# shellcheck source=../infra/lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../infra/lib.sh"

# 7.25.0: the newest release Maven Central served when the test was written.
OPENAPI_GENERATOR_VERSION="${OPENAPI_GENERATOR_VERSION:-7.25.0}"
LIB_DIR="$INFRA_DIR/lib"

command -v mvn >/dev/null || die "mvn not found: install Maven (Debian package maven)"

generator() {
  local dir="$LIB_DIR/openapi-generator"
  local jar="$dir/openapi-generator-cli-$OPENAPI_GENERATOR_VERSION.jar"
  if [[ ! -s "$jar" ]]; then
    log "fetching openapi-generator-cli $OPENAPI_GENERATOR_VERSION"
    mkdir -p "$dir"
    mvn -B -q dependency:copy \
      -Dartifact="org.openapitools:openapi-generator-cli:$OPENAPI_GENERATOR_VERSION" \
      -DoutputDirectory="$dir" >&2
  fi
  echo "$jar"
}

java_deps() {
  local pom="$1"
  [[ -f "$pom" ]] || die "no pom at $pom"
  local sum
  sum="$(sha256sum "$pom" | cut -c1-16)"
  local dir="$LIB_DIR/openapi-java-client/$sum"
  if [[ ! -f "$dir/.complete" ]]; then
    log "fetching the generated Java client's dependencies"
    rm -rf "$dir"
    mkdir -p "$dir"
    # compile scope: compile, provided (jakarta.annotation) and runtime jars, no test jars.
    mvn -B -q -f "$pom" dependency:copy-dependencies -DincludeScope=compile \
      -DoutputDirectory="$dir" >&2
    touch "$dir/.complete"
  fi
  echo "$dir"
}

case "${1:-}" in
  generator) generator ;;
  java-deps) java_deps "${2:?usage: fetch.sh java-deps <pom.xml>}" ;;
  *) die "usage: fetch.sh generator | java-deps <pom.xml>" ;;
esac
