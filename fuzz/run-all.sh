#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 600), two at a time, then minimises each corpus.
# Usage: fuzz/run-all.sh [SECONDS] [TARGET...]   (from anywhere; logs go to fuzz/logs/)
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(frame chunk derived value b2nd dtype dump roundtrip)
export RUSTC_BOOTSTRAP=1
mkdir -p fuzz/logs
cargo fuzz build >/dev/null 2>&1 || { echo "cargo fuzz build failed" >&2; exit 1; }
run() {
    local t=$1
    mkdir -p "fuzz/corpus/$t"
    cargo fuzz run "$t" "fuzz/corpus/$t" -- -max_total_time="$secs" -print_final_stats=1 \
        -timeout=10 >"fuzz/logs/$t.log" 2>&1
    echo "$t: exit $? $(grep -E '^stat::number_of_executed_units' "fuzz/logs/$t.log")"
}
i=0
while [ $i -lt ${#targets[@]} ]; do
    run "${targets[$i]}" &
    [ $((i + 1)) -lt ${#targets[@]} ] && run "${targets[$((i + 1))]}" &
    wait
    i=$((i + 2))
done
