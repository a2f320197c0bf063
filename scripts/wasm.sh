#!/usr/bin/env bash
# Build b2schema-chunk and the readers for wasm32-unknown-unknown, installing the toolchain when
# it is missing.
#
#     WASM=$(scripts/wasm.sh)          # the release .wasm of tests/wasm (the only line on stdout)
#     WASM=$(scripts/wasm.sh viewer)   # the static viewer's module: b2schema-wasm (the readers,
#                                      # with serve's answers), its release .wasm
#     scripts/wasm.sh no-std           # b2schema-chunk alone, without std (core + alloc)
#
# rustup cannot add the wasm32 target's standard library here (no network but the package
# registries), so the standard library is built from source with cargo's `-Zbuild-std`, by
# Debian's Rust: `rustc-web` and `cargo-web` (rustc and cargo 1.96 as /usr/bin/rustc and
# /usr/bin/cargo; rustup's proxies stay first on PATH), `rust-web-src` (the library sources, whose
# own dependencies cargo fetches from crates.io) and `lld-22` (wasm-ld: Debian's rustc has no
# rust-lld); and `nodejs` when there is no node. They come from apt-get (as root, `apt-get update`
# first). RUSTC_BOOTSTRAP=1 lets that stable cargo take `-Z`. The build goes to
# `$CARGO_TARGET_DIR/wasm` (default `target/wasm`), apart from rustup's builds. Concurrent runs are
# serialised with flock; anything apt or cargo prints goes to stderr. Exits non-zero when
# something cannot be installed or built: the node test fails then, it never skips.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
packages=(rustc-web cargo-web rust-web-src lld-22)
# node runs the module (tests/wasm/run.mjs): the machines have it; a bare one gets Debian's.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
linker=wasm-ld-22

installed() {
    local p
    for p in "${packages[@]}"; do
        [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] || return 1
    done
}

lock="${TMPDIR:-/tmp}/b2schema-wasm.lock"
exec 9>"$lock"
flock 9
if ! installed; then
    if [[ $(id -u) -ne 0 ]]; then
        echo "scripts/wasm.sh: the Debian packages ${packages[*]} are missing and this is not root: install them" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y --no-install-recommends "${packages[@]}" >&2
    installed || {
        echo "scripts/wasm.sh: ${packages[*]} still missing after apt-get install" >&2
        exit 1
    }
fi

# Debian's toolchain, whatever the caller's cargo set (a test run inherits cargo's variables).
target_dir="$(realpath -m "${CARGO_TARGET_DIR:-$root/target}")/wasm"
wasm_cargo() {
    env -u RUSTC_WRAPPER -u RUSTC_WORKSPACE_WRAPPER -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS \
        -u CARGO_BUILD_TARGET -u CARGO_BUILD_RUSTFLAGS \
        RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc CARGO=/usr/bin/cargo RUSTC_BOOTSTRAP=1 \
        CARGO_TARGET_DIR="$target_dir" CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$linker" \
        /usr/bin/cargo "$@" --locked --target wasm32-unknown-unknown --manifest-path "$root/Cargo.toml"
}

case "${1:-harness}" in
harness)
    wasm_cargo build -Zbuild-std=std,panic_abort --release -p b2schema-wasm-test >&2
    echo "$target_dir/wasm32-unknown-unknown/release/b2schema_wasm_test.wasm"
    ;;
viewer)
    wasm_cargo build -Zbuild-std=std,panic_abort --release -p b2schema-wasm >&2
    echo "$target_dir/wasm32-unknown-unknown/release/b2schema_wasm.wasm"
    ;;
no-std)
    wasm_cargo build -Zbuild-std=core,alloc --release -p b2schema-chunk --no-default-features \
        --features blosclz,lz4,zlib,zstd >&2
    ;;
*)
    echo "usage: scripts/wasm.sh [harness|viewer|no-std]" >&2
    exit 2
    ;;
esac
