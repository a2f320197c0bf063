#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 600), two at a time, then minimises each corpus.
# Usage: fuzz/run-all.sh [SECONDS] [TARGET...]   (from anywhere; logs go to fuzz/logs/)
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(frame chunk derived value b2nd dtype dump roundtrip cli npy serve_request zstd zstd_encode store edit)
export RUSTC_BOOTSTRAP=1
mkdir -p fuzz/logs
cargo fuzz build >/dev/null 2>&1 || { echo "cargo fuzz build failed" >&2; exit 1; }
run() {
    local t=$1 limits=(-timeout=10)
    # cli: an allocation or a loop sized by the input is a finding (issue 17).
    [ "$t" = cli ] && limits=(-timeout=5 -malloc_limit_mb=512 -rss_limit_mb=1024 -max_len=65536)
    mkdir -p "fuzz/corpus/$t"
    cargo fuzz run "$t" "fuzz/corpus/$t" -- -max_total_time="$secs" -print_final_stats=1 \
        "${limits[@]}" >"fuzz/logs/$t.log" 2>&1
    echo "$t: exit $? $(grep -E '^stat::number_of_executed_units' "fuzz/logs/$t.log")"
}
i=0
while [ $i -lt ${#targets[@]} ]; do
    run "${targets[$i]}" &
    [ $((i + 1)) -lt ${#targets[@]} ] && run "${targets[$((i + 1))]}" &
    wait
    i=$((i + 2))
done
