//! Shared helpers of the integration tests in `tests/`: where the data lives and how snapshots are
//! taken.

use std::path::PathBuf;

/// The repository's root (the directory of the top-level `Cargo.toml`).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/compat-files/<rel>`: real files from older Blosc writers, beside the repository.
pub fn compat_file(rel: &str) -> PathBuf {
    repo_root().join("../shared/compat-files").join(rel)
}

/// Reads a compat file, failing the test with the path when it is missing.
pub fn read_compat(rel: &str) -> Vec<u8> {
    let path = compat_file(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Asserts a text snapshot stored under the top-level `snapshots/` directory as
/// `snapshots/<name>.snap`.
#[macro_export]
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        ::insta::with_settings!({
            snapshot_path => $crate::repo_root().join("snapshots"),
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            ::insta::assert_snapshot!($name, $value);
        })
    };
}

/// One annotated case of a snapshot: a title line, then the dump of `bytes` (one value per line).
pub fn case(title: &str, bytes: &[u8]) -> String {
    format!("# {title}\n{}\n", b2schema::dump::annotate(bytes))
}
