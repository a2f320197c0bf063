#!/usr/bin/env bash
# Builds the Python package's wheel (b2schema-python, abi3 for CPython >= 3.10) with the pinned
# maturin of scripts/pyenv.sh's environment, and prints its path (the only line on stdout).
#
# Its own cargo target directory, $CARGO_TARGET_DIR/python-wheel (target/python-wheel by
# default): a release build with PyO3's features, nothing shared with the workspace's debug
# build, and no lock shared with a `cargo test` running the test that calls this script
# (tests/python_package.rs). A fresh build compiles the library and its dependencies in release
# (a few minutes on 2 cores); afterwards cargo finds it up to date in seconds, so CI builds it
# once before the test command (.ci/run) and the test only checks it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
py=$(bash "$root/scripts/pyenv.sh")
target="${CARGO_TARGET_DIR:-$root/target}"
case "$target" in
/*) ;;
*) target="$PWD/$target" ;;
esac
out="$target/python-wheel/wheels"
mkdir -p "$out"
exec 9>"$target/python-wheel/.lock"
flock 9
rm -f "$out"/b2schema-*.whl
CARGO_TARGET_DIR="$target/python-wheel" "$(dirname "$py")/maturin" build --release --locked \
    --manifest-path "$root/b2schema-python/Cargo.toml" --interpreter "$py" \
    --compatibility linux --out "$out" >&2
wheels=("$out"/b2schema-*.whl)
if [[ ${#wheels[@]} -ne 1 || ! -f "${wheels[0]}" ]]; then
    echo "python_wheel.sh: expected one wheel in $out, found: ${wheels[*]}" >&2
    exit 1
fi
printf '%s\n' "${wheels[0]}"
