#!/usr/bin/env bash
# Make sure the Python environment used for the test fixtures exists, then
# print the path of its interpreter (the only line this script writes to stdout):
#
#     PY=$(scripts/pyenv.sh) && "$PY" tests/data/generate.py
#
# The environment is a virtual environment at target/pyenv (override with
# B2SCHEMA_PYENV) holding exactly the packages pinned in scripts/requirements.txt,
# installed from PyPI with pip. The base interpreter is python3 (override with
# B2SCHEMA_PYTHON); it must be CPython >= 3.11.
#
# The first run creates the environment; later runs only check a stamp file
# (hash of requirements.txt + this script's layout version) and return at once.
# A missing or stale stamp (changed requirements, or a run that was interrupted
# half-way) makes the script delete the environment and build it again.
# Concurrent runs (e.g. parallel tests) are serialised with flock.
# Everything pip and venv print goes to stderr.
set -euo pipefail

LAYOUT=1 # bump to force a rebuild when this script changes how it builds

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
req="$root/scripts/requirements.txt"
venv="${B2SCHEMA_PYENV:-$root/target/pyenv}"
case "$venv" in
/*) ;;
*) venv="$PWD/$venv" ;;
esac
venv="${venv%/}"
base_python="${B2SCHEMA_PYTHON:-python3}"
py="$venv/bin/python"
stamp="$venv/.b2schema-stamp"

want_stamp() {
    printf 'b2schema-pyenv layout=%s requirements-sha256=%s\n' \
        "$LAYOUT" "$(sha256sum <"$req" | cut -d' ' -f1)"
}

is_ready() {
    [[ -f "$stamp" && -x "$py" ]] &&
        [[ "$(cat "$stamp")" == "$(want_stamp)" ]] &&
        "$py" -c 'import sys' >/dev/null 2>&1
}

log() { printf 'pyenv.sh: %s\n' "$*" >&2; }

build() {
    log "creating the Python environment in $venv"
    rm -rf "$venv"
    if ! "$base_python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
        log "error: $base_python is missing or older than Python 3.11 (set B2SCHEMA_PYTHON)"
        exit 1
    fi
    "$base_python" -m venv "$venv" >&2
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PIP_USER=0 \
        "$py" -m pip install --quiet --only-binary=:all: --requirement "$req" >&2
    # Fail loudly if the environment does not give what the fixtures rely on.
    "$py" - >&2 <<'EOF'
import blosc2, msgpack, numpy, numcodecs.blosc, zarr
assert blosc2.__version__ == "4.14.1", blosc2.__version__
assert numcodecs.blosc.VERSION_STRING.startswith("1.21."), numcodecs.blosc.VERSION_STRING
assert zarr.__version__ == "3.1.6", zarr.__version__
assert blosc2.blosclib_version.startswith("3.3.5"), blosc2.blosclib_version
EOF
    # Write the stamp last, atomically: its presence means the build completed.
    want_stamp >"$stamp.tmp"
    mv -f "$stamp.tmp" "$stamp"
    log "done"
}

if ! is_ready; then
    mkdir -p "$(dirname "$venv")"
    exec 9>"$venv.lock"
    flock 9
    # Another process may have finished the build while this one waited.
    is_ready || build
    flock -u 9
    exec 9>&-
fi

printf '%s\n' "$py"
