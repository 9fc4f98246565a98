#!/usr/bin/env bash
# Stops the Kafka and S3Proxy JVMs that scripts/infra/up.sh started (by their pid files; a process
# this script did not start is never touched). PostgreSQL and Redis are system services shared with
# other work on the machine and are left running.
#
# Usage: scripts/infra/down.sh [--purge]   --purge also deletes Kafka and S3 data (.infra/*-data)
set -euo pipefail

# shellcheck source=scripts/infra/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PURGE=0
[[ "${1:-}" == "--purge" ]] && PURGE=1

mkdir -p "$RUN_DIR"
exec 9>"$RUN_DIR/up.lock" # don't race an up.sh in progress
flock -w 300 9 || die "up.sh held the lock for 300s"

# SIGTERM, then wait: Kafka does a controlled shutdown and flushes logs (a few seconds); after
# $2 seconds fall back to SIGKILL (a later start then recovers the log segments).
stop() {
  local name="$1" match="$2" grace="$3" pid
  if ! pid="$(live_pid "$name" "$match")"; then
    log "$name: not running"
    rm -f "$RUN_DIR/$name.pid"
    return
  fi
  log "$name: stopping pid $pid"
  kill -TERM "$pid"
  local deadline=$((SECONDS + grace))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      log "$name: still alive after ${grace}s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      break
    fi
    sleep 0.3
  done
  rm -f "$RUN_DIR/$name.pid"
  log "$name: stopped"
}

stop kafka kafka.Kafka 40
stop s3proxy org.gaul.s3proxy.Main 15

if ((PURGE)); then
  log "purging $INFRA_DIR/kafka-data and $INFRA_DIR/s3-data"
  rm -rf "$INFRA_DIR/kafka-data" "$INFRA_DIR/s3-data"
fi
