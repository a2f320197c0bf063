//! The host's side, never in the module: building the module and running node scripts over it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The release module, built by `scripts/wasm.sh` (which installs the toolchain when it is
/// missing); fails with the script's messages when it cannot.
pub fn module() -> PathBuf {
    let build = Command::new("bash").arg(root().join("scripts/wasm.sh")).output().expect("bash runs");
    assert!(build.status.success(), "scripts/wasm.sh failed:\n{}", String::from_utf8_lossy(&build.stderr));
    PathBuf::from(String::from_utf8(build.stdout).expect("a UTF-8 path").trim())
}

/// The static viewer's release module (`b2schema-wasm`: the readers and serve's answers), built
/// by `scripts/wasm.sh viewer`; fails with the script's messages when it cannot.
pub fn viewer_module() -> PathBuf {
    let build =
        Command::new("bash").arg(root().join("scripts/wasm.sh")).arg("viewer").output().expect("bash runs");
    assert!(
        build.status.success(),
        "scripts/wasm.sh viewer failed:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    PathBuf::from(String::from_utf8(build.stdout).expect("a UTF-8 path").trim())
}

/// `node tests/wasm/<script> <module> <dir>`, run to its end.
pub fn node(script: &str, module: &Path, dir: &Path) -> Output {
    Command::new("node")
        .arg(root().join("tests/wasm").join(script))
        .arg(module)
        .arg(dir)
        .output()
        .expect("node runs (Debian's nodejs)")
}
