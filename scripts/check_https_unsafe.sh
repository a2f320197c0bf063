#!/usr/bin/env bash
# Checks the crates that the library's feature `https` adds (rustls and its crypto provider,
# graviola) against the rule of SECURITY.md: no `unsafe` code parses input; a dependency whose
# `unsafe` only computes over bounds safe code fixed is allowed when it is listed with its reason.
#
# For each crate of `cargo tree -p b2schema --features https -e normal` that is not in the tree
# without it: `#![forbid(unsafe_code)]` at its root, or no line with the word `unsafe` in its `.rs`
# files, or listed in ALLOWED with the reason and the count of lines with `unsafe` read at the
# audit (a new version with another count fails here until it is read again and the entry
# updated). graviola's `unsafe` must stay in its `low` module (its `mid` and `high` modules
# `#![deny(unsafe_code)]`). The decode path's own crates are checked by check_decode_unsafe.sh.
# Usage: scripts/check_https_unsafe.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
names() { cargo tree -p b2schema "$@" -e normal --prefix none -f '{p}' | awk '{print $1}' | sort -u; }
added=$(comm -13 <(names --features http) <(names --features https))
meta=$(mktemp)
trap 'rm -f "$meta"' EXIT
cargo metadata --format-version 1 --locked >"$meta" 2>/dev/null || cargo metadata --format-version 1 >"$meta"
python3 - "$meta" "$added" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
from unsafe_audit import audit
# name: (version audited, lines with `unsafe` in its .rs files then, the reason it is accepted)
ALLOWED = {
    "graviola": ("0.4.4", 346,
        "the provider's cryptography (AES-GCM, ChaCha20-Poly1305, SHA-2, HMAC, X25519, P-256/P-384, "
        "RSA and ECDSA verification): its unsafe is the s2n-bignum assembly (formally verified) and "
        "intrinsics in src/low only (x86_64: 197 lines, aarch64: 144, generic ct_equal: 1), each "
        "block with a SAFETY comment; they compute over keys, blocks and bignums of sizes the "
        "safe layers above fixed; records, handshakes and certificates are parsed by rustls, "
        "rustls-webpki and untrusted, which have none"),
    "getrandom": ("0.4.3", 114,
        "the OS's random bytes (getrandom(2) and the like) written into a buffer it is given; "
        "sees no input"),
    "once_cell": ("1.21.4", 51, "rustls's lazily made statics; sees no input"),
    "zeroize": ("1.9.2", 21, "volatile writes of zeros over secrets as they are dropped; sees no input"),
    "subtle": ("2.6.1", 2, "constant-time comparisons of MACs and keys (an optimisation barrier, a "
        "transmute to Ordering); no parsing"),
    "rustls-pki-types": ("1.16.0", 2, "a from_utf8_unchecked of a checked ASCII host name less its "
        "final dot, and a [u16; 8] to [u8; 16] transmute of an IPv6 address: both over the URL's "
        "host, which our code gives, never the peer's bytes"),
}
def graviola_in_low(name, src_dir, where):
    """graviola's unsafe stays in its `low` module, `mid` and `high` deny it."""
    if name != "graviola":
        return None
    outside = [f for f in where if not f.startswith("low" + os.sep) and f != "lib.rs"]
    guards = [m for m in ("mid/mod.rs", "high/mod.rs")
              if "#![deny(unsafe_code)]" not in open(os.path.join(src_dir, m)).read()]
    if outside or guards:
        return f"graviola: unsafe outside src/low {outside}, or no deny(unsafe_code) in {guards}"
    return None


audit(sys.argv[1], sys.argv[2].split(), ALLOWED, "https", graviola_in_low)
print("https: every crate the feature adds forbids unsafe, has none, or is listed with its reason")
PY
