#!/usr/bin/env bash
# Make sure Azure Blob Storage's emulator (Azurite, from npm) is installed for the object-store
# tests, then print the path of its blob server (the only line this script writes to stdout):
#
#     AZ=$(scripts/azurite.sh) && "$AZ" --blobHost 127.0.0.1 --blobPort 10000 --inMemoryPersistence --disableTelemetry
#
# Installed with `npm ci` from scripts/azurite/package.json and its package-lock.json (every
# version pinned, integrity-checked, no install scripts run) into target/azurite (override with
# B2SCHEMA_AZURITE). Needs node and npm (the machines have them; a bare one gets Debian's).
# The first run installs; later runs check a stamp (the lock file's hash) and return at once.
# Concurrent runs (parallel tests) are serialised with flock. npm's output goes to stderr.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
spec="$root/scripts/azurite"
dir="${B2SCHEMA_AZURITE:-$root/target/azurite}"
case "$dir" in
/*) ;;
*) dir="$PWD/$dir" ;;
esac
dir="${dir%/}"
bin="$dir/node_modules/.bin/azurite-blob"
stamp="$dir/.b2schema-stamp"

want_stamp() {
    printf 'b2schema-azurite lock-sha256=%s\n' "$(cat "$spec/package.json" "$spec/package-lock.json" | sha256sum | cut -d' ' -f1)"
}

is_ready() {
    [[ -f "$stamp" && -x "$bin" ]] && [[ "$(cat "$stamp")" == "$(want_stamp)" ]]
}

log() { printf 'azurite.sh: %s\n' "$*" >&2; }

build() {
    log "installing Azurite into $dir"
    if ! command -v npm >/dev/null 2>&1; then
        apt-get update -qq >&2 && apt-get install -y -qq nodejs npm >&2
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$spec/package.json" "$spec/package-lock.json" "$dir/"
    (cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2)
    [[ -x "$bin" ]] || { log "error: npm ci left no $bin"; exit 1; }
    want_stamp >"$stamp.tmp"
    mv -f "$stamp.tmp" "$stamp"
    log "done"
}

if ! is_ready; then
    mkdir -p "$(dirname "$dir")"
    exec 9>"$dir.lock"
    flock 9
    is_ready || build
    flock -u 9
    exec 9>&-
fi

printf '%s\n' "$bin"
