#!/usr/bin/env bash
# The size and build time of `#[derive(B2Layout)]`'s expansion beside serde's derive, on one struct
# of N `i32` fields (`#[b2(array16)]` for b2schema; `Serialize` + `Deserialize` for serde), N = 16,
# 64 and 128 (issue 38, part 5). Lines: `-Zunpretty=expanded` of the crate holding the struct (the
# crate's own few lines included on both sides). Build time: a debug `cargo build` of that crate
# alone (its dependencies built before, no incremental reuse), the median of RUNS runs, each side in turn.
#
#   bash scripts/bench_derive_expansion.sh        # RUNS=5 by default
set -euo pipefail
repo="${B2SCHEMA_REPO:-$(cd "$(dirname "$0")/.." && pwd)}"
runs="${RUNS:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0 # a whole rebuild of the crate each time

make_crate() { # name, derive line(s), attribute line
    local dir="$work/$1"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
b2schema = { path = "$repo/b2schema" }
serde = { version = "1", features = ["derive"] }

[workspace]
EOF
}

write_struct() { # dir, n, kind
    local n=$2 fields=""
    for ((i = 0; i < n; i++)); do fields+="    pub f$i: i32,"$'\n'; done
    if [[ $3 == b2 ]]; then
        printf '#[derive(b2schema::B2Layout)]\n#[b2(array16)]\npub struct Wide {\n%s}\n' "$fields"
    else
        printf '#[derive(serde::Serialize, serde::Deserialize)]\npub struct Wide {\n%s}\n' "$fields"
    fi >"$1/src/lib.rs"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

build_time() { # dir
    local t0 t1
    touch "$1/src/lib.rs"
    t0=$(date +%s.%N)
    cargo build -q --manifest-path "$1/Cargo.toml"
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc
}

make_crate wide_b2
make_crate wide_serde

printf '| fields | b2schema lines | serde lines | lines ratio | b2schema build s | serde build s | build ratio |\n'
printf '|---:|---:|---:|---:|---:|---:|---:|\n'
for n in 16 64 128; do
    write_struct "$work/wide_b2" "$n" b2
    write_struct "$work/wide_serde" "$n" serde
    declare -A lines
    for k in b2 serde; do
        lines[$k]=$(RUSTC_BOOTSTRAP=1 cargo rustc -q --manifest-path "$work/wide_$k/Cargo.toml" --lib \
            -- -Zunpretty=expanded | wc -l)
        cargo build -q --manifest-path "$work/wide_$k/Cargo.toml"
    done
    tb=() ts=()
    for ((r = 0; r < runs; r++)); do
        tb+=("$(build_time "$work/wide_b2")")
        ts+=("$(build_time "$work/wide_serde")")
    done
    b=$(printf '%s\n' "${tb[@]}" | median)
    s=$(printf '%s\n' "${ts[@]}" | median)
    printf '| %d | %d | %d | %.2f | %.2f | %.2f | %.2f |\n' "$n" "${lines[b2]}" "${lines[serde]}" \
        "$(echo "${lines[b2]} / ${lines[serde]}" | bc -l)" "$b" "$s" "$(echo "$b / $s" | bc -l)"
done
