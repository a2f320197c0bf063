//! The chunk codec against c-blosc2 on chunks python-blosc2 writes (the pinned environment of
//! `scripts/pyenv.sh`, installed on first use): one binary, `cargo test -p b2schema-chunk --test
//! python`, apart from the `chunk` binary, which needs no python.

// The shared data shapes; this binary uses a part of them.
#[allow(dead_code, unused_imports)]
mod common;
mod lz4_python;
mod zstd_python;

use std::path::PathBuf;
use std::process::Command;

/// The pinned python-blosc2 environment's interpreter (`scripts/pyenv.sh` prints it, building
/// the environment on first use; `B2SCHEMA_PYENV` names another one).
fn python() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let out = Command::new("bash").arg(root.join("scripts/pyenv.sh")).output().unwrap();
    assert!(out.status.success(), "scripts/pyenv.sh failed:\n{}", String::from_utf8_lossy(&out.stderr));
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}
