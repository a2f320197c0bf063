#![allow(missing_docs)]
//! Shared helpers of the integration tests in `tests/`: where the data lives and how snapshots are
//! taken.

use std::path::PathBuf;

/// The README's examples, compiled and run as doc tests of this crate (`cargo test --workspace`).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;

/// The guides' examples (`docs/*.md`), compiled and run as doc tests of this crate: this crate
/// has every feature they use and the test server of `http_server`, and is never packaged.
#[cfg(doctest)]
pub mod guides {
    #[doc = include_str!("../../docs/format-and-derive.md")]
    pub struct FormatAndDerive;
    #[doc = include_str!("../../docs/reading.md")]
    pub struct Reading;
    #[doc = include_str!("../../docs/writing.md")]
    pub struct Writing;
    #[doc = include_str!("../../docs/stores-and-tables.md")]
    pub struct StoresAndTables;
    #[doc = include_str!("../../docs/remote.md")]
    pub struct Remote;
    #[doc = include_str!("../../docs/command-line.md")]
    pub struct CommandLine;
    #[doc = include_str!("../../docs/python.md")]
    pub struct Python;
    #[doc = include_str!("../../docs/development.md")]
    pub struct Development;
    #[doc = include_str!("../../docs/tables-written.md")]
    pub struct TablesWritten;
    #[doc = include_str!("../../docs/store-edits.md")]
    pub struct StoreEdits;
    #[doc = include_str!("../../docs/object-stores.md")]
    pub struct ObjectStores;
    #[doc = include_str!("../../docs/viewer.md")]
    pub struct Viewer;
    #[doc = include_str!("../../docs/cli-reports.md")]
    pub struct CliReports;
}

// Reading files, listing them, hand-made chunk headers: written once, in the chunk codec's test
// helpers, which need nothing but std.
#[path = "../../b2schema-chunk/tests/common/files.rs"]
mod files;
pub use files::{chunk_header, files_with_ext, read_file};

/// The repository's root (the directory of the top-level `Cargo.toml`).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The one root of the test data: `tests/data/` (see its README).
pub fn data_root() -> PathBuf {
    repo_root().join("tests/data")
}

/// `tests/data/compat/<rel>`: real files from older Blosc writers, kept verbatim with their
/// provenance (`tests/data/compat/MANIFEST.md`).
pub fn compat_file(rel: &str) -> PathBuf {
    data_root().join("compat").join(rel)
}

/// `tests/data/fixtures/<name>`: a frame python-blosc2 wrote for this project
/// (`tests/data/fixtures.json` says what it holds).
pub fn fixture_file(name: &str) -> PathBuf {
    data_root().join("fixtures").join(name)
}

/// `tests/data/chunks/<rel>`: the chunk decoder's corpus (`chunks/*.chunk`, `frames/*`, and the
/// c-blosc2 reference hashes in `ref/refs.json`), written by `tests/data/chunks/ref/make_refs.py`.
pub fn chunk_corpus(rel: &str) -> PathBuf {
    data_root().join("chunks").join(rel)
}

/// Reads a compat file, failing the test with the path when it is missing.
pub fn read_compat(rel: &str) -> Vec<u8> {
    read_file(&compat_file(rel))
}

/// The pinned python-blosc2's interpreter: `scripts/pyenv.sh` installs it on first use (into
/// `target/pyenv`, or `$B2SCHEMA_PYENV`). A test that needs it fails, never skips, without it.
pub fn python() -> PathBuf {
    let out = std::process::Command::new("bash")
        .arg(repo_root().join("scripts/pyenv.sh"))
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "scripts/pyenv.sh failed:\n{}", String::from_utf8_lossy(&out.stderr));
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// Writes `entries` as the JSON manifest `dir/manifest.json`, runs the checker
/// `tests/python/SCRIPT` on it with the pinned python-blosc2 (see `tests/python/manifest.py`),
/// asserts that it checked every entry and none failed, and returns what it printed.
pub fn python_checks<T: serde::Serialize>(script: &str, dir: &std::path::Path, entries: &[T]) -> String {
    let manifest = dir.join("manifest.json");
    std::fs::write(&manifest, serde_json::to_vec(entries).unwrap()).unwrap();
    let out = std::process::Command::new(python())
        .arg(repo_root().join("tests/python").join(script))
        .arg(&manifest)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "python-blosc2 disagrees ({script}):\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(&format!("{} passed, 0 failed", entries.len())), "{script}'s summary:\n{stdout}");
    stdout
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex(&Sha256::digest(bytes))
}

pub mod frame_chunks;

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

/// What python-blosc2 reported for one fixture (`tests/data/fixtures.json`, written by
/// `tests/data/generate.py`).
#[derive(serde::Deserialize, Debug, Clone)]
pub struct Fixture {
    /// `"cframe"` or `"sframe"`.
    pub kind: String,
    /// `SChunk` properties.
    pub schunk: SChunkInfo,
    /// Compression parameters.
    pub cparams: CParams,
    /// Metalayers in order.
    pub meta: Vec<Layer>,
    /// Vlmetalayers in order.
    pub vlmeta: Vec<Layer>,
    /// NDArray properties, for arrays.
    pub ndarray: Option<NdArrayInfo>,
    /// Every chunk.
    pub chunks: Vec<ChunkInfo>,
    /// SHA-256 of the C-order data, when reproducible.
    #[serde(default)]
    pub data_sha256: Option<String>,
}

/// `SChunk` properties.
#[derive(serde::Deserialize, Debug, Clone)]
pub struct SChunkInfo {
    pub nbytes: i64,
    pub cbytes: i64,
    pub typesize: i32,
    pub blocksize: i64,
    pub chunksize: i64,
    pub nchunks: u64,
}

/// Compression parameters.
#[derive(serde::Deserialize, Debug, Clone)]
pub struct CParams {
    pub codec: String,
    pub codec_value: i64,
    pub codec_meta: i64,
    pub clevel: i64,
    pub filters: [i64; 6],
    pub filters_meta: [i64; 6],
    pub splitmode: String,
    pub splitmode_value: i64,
    pub use_dict: bool,
}

/// A metalayer or vlmetalayer.
#[derive(serde::Deserialize, Debug, Clone)]
pub struct Layer {
    pub name: String,
    /// The raw content (metalayers) or the decompressed value bytes (vlmetalayers), in hex.
    pub raw_hex: Option<String>,
    /// The value as python decodes it (JSON: bytes as `{"__bytes__": hex}`).
    #[serde(default)]
    pub decoded: Option<serde_json::Value>,
}

/// NDArray properties.
#[derive(serde::Deserialize, Debug, Clone)]
pub struct NdArrayInfo {
    pub shape: Vec<i64>,
    pub chunks: Vec<i64>,
    pub blocks: Vec<i64>,
    pub dtype_str: String,
    /// `str(dtype)`: what python-blosc2 stores for structured and void dtypes.
    pub dtype_repr: String,
    pub itemsize: i64,
    pub data_sha256: Option<String>,
}

/// One chunk as `SChunk.get_chunk(i)` returns it.
#[derive(serde::Deserialize, Debug, Clone)]
pub struct ChunkInfo {
    pub index: u64,
    pub special: String,
    pub len: usize,
    pub head_hex: String,
    pub nbytes: usize,
    pub data_sha256: Option<String>,
}

#[derive(serde::Deserialize)]
struct FixtureFile {
    fixtures: std::collections::BTreeMap<String, Fixture>,
}

/// Every fixture, by its path under `tests/data/fixtures/`.
pub fn fixtures() -> std::collections::BTreeMap<String, Fixture> {
    let path = repo_root().join("tests/data/fixtures.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str::<FixtureFile>(&text).unwrap().fixtures
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A deterministic xorshift64* generator for mutation tests (no dependency, same sequence on
/// every machine).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Marsaglia's xorshift64 (shifts 13, 7, 17): the generator of the store and table tests, whose
/// cases are the sequences it gives from their seeds.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `frame` with its metalayers replaced by `layers` (header_len and frame_len follow; chunk and
/// vlmetalayer offsets are relative to their sections, so they stay right).
pub fn with_metalayers(frame: &[u8], layers: &[(&str, &[u8])]) -> Vec<u8> {
    use b2schema::frame::{FrameView, MetaLayers};
    let v = FrameView::from_slice(frame).unwrap();
    let mut h = v.header.clone();
    h.metalayers = MetaLayers::build(layers, 87);
    let old = v.header_bytes.len();
    h.frame_len = (frame.len() - old + 87 + h.metalayers.encoded_len()) as i64;
    let mut out = b2schema::to_vec(&h).unwrap();
    out.extend_from_slice(&frame[old..]);
    out
}

/// A [`b2schema::Value`] as the python checkers write what python-blosc2 reads back
/// (`tests/python/write_tables.py`, `tests/data/tables/generate.py`): bytes as
/// `{"__bytes__": hex}`, a tuple as `{"__tuple__": [...]}`, a NaN as `"NaN"`.
pub fn value_json(v: &b2schema::Value) -> serde_json::Value {
    use b2schema::Value;
    use serde_json::json;
    let float = |f: f64| if f.is_nan() { json!("NaN") } else { json!(f) };
    match v {
        Value::Nil => serde_json::Value::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => match i64::try_from(*i) {
            Ok(i) => json!(i),
            Err(_) => json!(u64::try_from(*i).expect("msgpack's range")),
        },
        Value::F32(f) => float(f64::from(*f)),
        Value::F64(f) => float(*f),
        Value::Str(s) => json!(s),
        Value::Bin(b) => json!({ "__bytes__": hex(b) }),
        Value::Array(a) => a.iter().map(value_json).collect(),
        Value::Tuple(a) => json!({ "__tuple__": a.iter().map(value_json).collect::<Vec<_>>() }),
        Value::Map(m) => serde_json::Value::Object(
            m.iter().map(|(k, v)| (k.as_str().expect("string keys").to_string(), value_json(v))).collect(),
        ),
        Value::Complex { re, im } => json!({ "__complex__": [float(*re), float(*im)] }),
        other => panic!("not written by the checkers: {other:?}"),
    }
}

pub mod azurite_server;
pub mod http_server;
pub mod s3_server;
pub mod stored_zip;
/// The `https://` server of the TLS tests (a TLS front before `http_server`'s).
pub mod tls_server;
