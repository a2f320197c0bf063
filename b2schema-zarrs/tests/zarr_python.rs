//! The `blosc` codec the way a Zarr user meets it, against zarr-python 3.1.6 and numcodecs 0.16.6
//! (the pinned environment of `scripts/pyenv.sh`; without it the test fails, never skips):
//!
//! * zarr-python writes v2 and v3 arrays with `blosc` for every cname and shuffle (and two whose
//!   chunks hold several blocks); zarrs, with this crate's codec and without its own, reads each
//!   equal to the data zarr-python wrote;
//! * zarrs with this crate's codec writes the same matrix, v2 and v3; zarr-python reads each
//!   equal, and every chunk on disk is a Blosc1 chunk (what numcodecs reads).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use zarrs::array::{Array, ArrayBytes, ArrayMetadata};
use zarrs::filesystem::FilesystemStore;

const CNAMES: [&str; 5] = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"];
const SHUFFLES: [&str; 3] = ["noshuffle", "shuffle", "bitshuffle"];
/// (numpy dtype, Zarr v3 data type, bytes per item).
const DTYPES: [(&str, &str, usize); 5] = [
    ("<f4", "float32", 4),
    ("<u2", "uint16", 2),
    ("<i8", "int64", 8),
    ("|u1", "uint8", 1),
    ("<f8", "float64", 8),
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The pinned interpreter (`scripts/pyenv.sh` installs it on first use).
fn python() -> PathBuf {
    let out = Command::new("bash").arg(repo_root().join("scripts/pyenv.sh")).output().expect("bash runs");
    assert!(out.status.success(), "scripts/pyenv.sh failed:\n{}", String::from_utf8_lossy(&out.stderr));
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// Runs `tests/python/SCRIPT DIR MANIFEST` and returns what it printed; fails on its failure.
fn run_python(script: &str, dir: &Path, manifest: &Path) -> String {
    let out = Command::new(python())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python").join(script))
        .arg(dir)
        .arg(manifest)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{script} failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-zarrs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The array's whole data as zarrs decodes it, and whether its bytes-to-bytes codec is ours.
fn read_with_zarrs(store: &Arc<FilesystemStore>, name: &str) -> (Vec<u8>, bool) {
    let array = Array::open(store.clone(), &format!("/{name}")).unwrap_or_else(|e| panic!("{name}: {e}"));
    let ours = array
        .codecs()
        .bytes_to_bytes_codecs()
        .iter()
        .any(|c| c.as_any().downcast_ref::<b2schema_zarrs::BloscCodec>().is_some());
    let bytes: ArrayBytes =
        array.retrieve_array_subset(&array.subset_all()).unwrap_or_else(|e| panic!("{name}: {e}"));
    (bytes.into_fixed().unwrap().into_owned(), ours)
}

#[test]
fn zarrs_reads_what_zarr_python_writes() {
    let dir = temp_dir("read");
    let manifest = dir.join("manifest.json");
    eprintln!("{}", run_python("write_arrays.py", &dir, &manifest));
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    assert_eq!(entries.len(), 2 * (CNAMES.len() * SHUFFLES.len() + 2));
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    for e in &entries {
        let name = e["name"].as_str().unwrap();
        let (got, ours) = read_with_zarrs(&store, name);
        assert!(ours, "{name}: decoded by b2schema-zarrs' codec");
        let want = std::fs::read(dir.join(format!("{name}.raw"))).unwrap();
        assert!(got == want, "{name}: zarrs reads other data than zarr-python wrote");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Data of `n` items of `size` bytes: a ramp with a little noise, little-endian.
fn data(dtype: &str, n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .flat_map(|i| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let v = i as u64 / 3 + s % 4;
            match dtype {
                "<f4" => (v as f32 * 0.25).to_le_bytes().to_vec(),
                "<u2" => (v as u16).to_le_bytes().to_vec(),
                "<i8" => (v as i64 - 1000).to_le_bytes().to_vec(),
                "|u1" => vec![(v % 250) as u8],
                _ => (v as f64 * 0.5).to_le_bytes().to_vec(),
            }
        })
        .collect()
}

/// Zarr metadata of an array written with `blosc` (v2: numcodecs' compressor; v3: the codec).
#[allow(clippy::too_many_arguments)]
fn metadata(
    format: u8,
    cname: &str,
    shuffle: usize,
    dtype: usize,
    shape: [u64; 2],
    chunks: [u64; 2],
    clevel: u8,
) -> String {
    let (np, v3, size) = DTYPES[dtype];
    if format == 2 {
        serde_json::json!({
            "zarr_format": 2, "shape": shape, "chunks": chunks, "dtype": np, "order": "C",
            "fill_value": 0, "filters": null,
            "compressor": {"id": "blosc", "cname": cname, "clevel": clevel, "shuffle": shuffle, "blocksize": 0},
        })
    } else {
        serde_json::json!({
            "zarr_format": 3, "node_type": "array", "shape": shape, "data_type": v3, "fill_value": 0,
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": chunks}},
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
            "codecs": [
                {"name": "bytes", "configuration": {"endian": "little"}},
                {"name": "blosc", "configuration": {"cname": cname, "clevel": clevel,
                    "shuffle": SHUFFLES[shuffle], "typesize": size, "blocksize": 0}},
            ],
        })
    }
    .to_string()
}

/// Every chunk file under `dir` (the `.raw`, `.json` and metadata files aside).
fn chunk_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            chunk_files(&path, out);
        } else if !file.starts_with('.') && !file.contains('.') {
            out.push(path);
        }
    }
}

#[test]
fn zarr_python_reads_what_zarrs_writes() {
    let dir = temp_dir("write");
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let mut entries = Vec::new();
    let mut write =
        |name: String, format: u8, cname: &str, shuffle: usize, dtype: usize, shape, chunks, clevel| {
            let meta: ArrayMetadata =
                serde_json::from_str(&metadata(format, cname, shuffle, dtype, shape, chunks, clevel))
                    .unwrap();
            let array = Array::new_with_metadata(store.clone(), &format!("/{name}"), meta).unwrap();
            let n = (shape[0] * shape[1]) as usize;
            let bytes = data(DTYPES[dtype].0, n, entries.len() as u64);
            array.store_metadata().unwrap();
            array.store_array_subset(&array.subset_all(), ArrayBytes::new_flen(bytes.clone())).unwrap();
            std::fs::write(dir.join(format!("{name}.raw")), &bytes).unwrap();
            // zarrs reads back its own writing too.
            assert_eq!(read_with_zarrs(&store, &name), (bytes, true), "{name}");
            entries.push(serde_json::json!({"name": name, "format": format, "dtype": DTYPES[dtype].0}));
        };
    for format in [2u8, 3] {
        for (i, cname) in CNAMES.iter().enumerate() {
            for (j, shuffle) in SHUFFLES.iter().enumerate() {
                let name = format!("v{format}_{cname}_{shuffle}");
                write(
                    name,
                    format,
                    cname,
                    j,
                    (i + j) % DTYPES.len(),
                    [130, 90],
                    [64, 50],
                    1 + ((i + j) % 9) as u8,
                );
            }
        }
        write(format!("v{format}_large_lz4"), format, "lz4", 1, 4, [600, 700], [300, 700], 5);
        write(format!("v{format}_large_zstd"), format, "zstd", 2, 2, [600, 700], [300, 700], 3);
    }
    let mut chunks = Vec::new();
    chunk_files(&dir, &mut chunks);
    assert!(chunks.len() >= entries.len() * 2, "{} chunk files", chunks.len());
    for c in &chunks {
        let bytes = std::fs::read(c).unwrap();
        assert_eq!(bytes[0], 2, "{}: a Blosc1 chunk (format version 2)", c.display());
    }
    let manifest = dir.join("manifest.json");
    std::fs::write(&manifest, serde_json::to_vec(&entries).unwrap()).unwrap();
    let out = run_python("check_arrays.py", &dir, &manifest);
    assert!(out.contains(&format!("{} passed, 0 failed", entries.len())), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
