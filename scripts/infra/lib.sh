#!/usr/bin/env bash
# Shared helpers for up.sh / down.sh. Sourced, never run directly.
# Everything at runtime lives under $INFRA_DIR (.infra/ at the repo root, git-ignored).

INFRA_SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$INFRA_SCRIPTS/../.." && pwd)"
INFRA_DIR="${INFRA_DIR:-$REPO_ROOT/.infra}"
LOG_DIR="$INFRA_DIR/logs"
RUN_DIR="$INFRA_DIR/run"

KAFKA_HOST=127.0.0.1
KAFKA_PORT=19092
KAFKA_CONTROLLER_PORT=19093
S3_PORT=19000

log() { printf '[infra %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  log "ERROR: $*"
  exit 1
}

# True when something accepts TCP connections on 127.0.0.1:$1 (bash /dev/tcp, no extra tools).
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Prints the pid recorded in $RUN_DIR/$1.pid if that process is alive and its command line still
# contains $2 (guards against a recycled pid after a reboot or a crash).
live_pid() {
  local file="$RUN_DIR/$1.pid" pid
  [[ -f "$file" ]] || return 1
  pid="$(cat "$file")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$2" || return 1
  echo "$pid"
}

# Starts a long-running command detached from the caller (own session, so it survives the shell,
# CI step or test runner that called up.sh), stdout+stderr to $LOG_DIR/$1.log, pid to $RUN_DIR/$1.pid.
# The inner bash writes its own pid and then exec's the command, so the pid file names the JVM itself.
spawn() {
  local name="$1"
  shift
  : >"$LOG_DIR/$name.log"
  # 9>&- : don't let the daemon inherit up.sh's lock fd, or it would hold the lock forever.
  PIDFILE="$RUN_DIR/$name.pid" setsid bash -c 'echo $$ >"$PIDFILE"; exec "$@"' _ "$@" \
    </dev/null >>"$LOG_DIR/$name.log" 2>&1 9>&- &
  # Wait (briefly) for the pid file so callers can read it right away.
  local i
  for i in $(seq 1 50); do
    [[ -s "$RUN_DIR/$name.pid" ]] && return 0
    sleep 0.1
  done
  die "$name did not start (no pid file)"
}

# Polls "$@" until it succeeds or $timeout seconds pass. Usage: wait_for <seconds> <what> cmd...
wait_for() {
  local timeout="$1" what="$2"
  shift 2
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      log "timed out after ${timeout}s waiting for $what"
      return 1
    fi
    sleep 0.5
  done
}
