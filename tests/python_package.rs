//! The Python package `b2schema` (`b2schema-python`): its wheel built by `scripts/python_wheel.sh`
//! (maturin, release, abi3; a no-op when CI built it before the test command), installed into the
//! pinned environment of `scripts/pyenv.sh` when it changed, then its pytest suite
//! (`b2schema-python/tests`): every held fixture and random arrays against python-blosc2, slices
//! against NumPy, the numcodecs codecs against numcodecs' c-blosc and `blosc2.compress2`, Zarr v2
//! arrays, crafted files, threads, a Dask cluster of 2 worker processes and the xarray backend.
//! Nothing is skipped: the test fails when pytest reports a skip or an error, or fewer tests
//! than the suite holds.

use std::path::{Path, PathBuf};
use std::process::Command;

use b2schema_tests::{python, repo_root, sha256_hex};

/// Builds the wheel (or finds it up to date) and returns its path.
fn wheel() -> PathBuf {
    let out =
        Command::new("bash").arg(repo_root().join("scripts/python_wheel.sh")).output().expect("bash runs");
    assert!(
        out.status.success(),
        "scripts/python_wheel.sh failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// Installs `wheel` into the environment of `py` unless that very wheel is installed (a stamp
/// beside the environment holds its hash).
fn install(py: &Path, wheel: &Path) {
    let hash = sha256_hex(&std::fs::read(wheel).unwrap());
    let venv = py.parent().unwrap().parent().unwrap();
    let stamp = venv.join(".b2schema-wheel");
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s == hash) {
        return;
    }
    let out = Command::new(py)
        .args(["-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", "--no-index"])
        .arg(wheel)
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
        .output()
        .expect("pip runs");
    assert!(
        out.status.success(),
        "pip install {} failed:\n{}",
        wheel.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(&stamp, hash).unwrap();
}

#[test]
fn the_python_package_passes_its_pytest_suite() {
    let py = python();
    install(&py, &wheel());
    let tmp = std::env::temp_dir().join(format!("b2schema-pytest-{}", std::process::id()));
    let out = Command::new(&py)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rfEs",
            "-W",
            "error::pytest.PytestUnraisableExceptionWarning",
        ])
        .arg("--basetemp")
        .arg(&tmp)
        .arg(repo_root().join("b2schema-python/tests"))
        .current_dir(repo_root())
        .output()
        .expect("python runs");
    let _ = std::fs::remove_dir_all(&tmp);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    assert!(
        out.status.success(),
        "the Python package's tests failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!last.contains("skipped") && !last.contains("error"), "skips or errors: {last}");
    let passed: usize = last.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(passed >= 300, "fewer tests than the suite holds ran: {last}");
}
