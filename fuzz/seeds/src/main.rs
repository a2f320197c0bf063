//! Writes the seed corpora of the fuzz targets into `fuzz/seeds-out/<target>/` (or the directory
//! given as the first argument), from the fixtures in `tests/data/fixtures/` and the real files in
//! `tests/data/compat/`:
//!
//! - `frame`: every contiguous frame (and every sparse directory's `chunks.b2frame`) whole;
//! - `chunk`: the offsets chunk, the vlmetalayers and up to 8 stored chunks of every frame, and
//!   every `.cdata` (and the one `.bin`) of the compat files;
//! - `derived`, `roundtrip`, `dump`: every header, trailer and metalayer content;
//! - `value`: the metalayer contents, the decompressed vlmetalayers, headers and trailers;
//! - `b2nd`: the metalayer contents;
//! - `dtype`: the dtype of every `b2nd` metalayer and every string of `tests/data/dtype-cases.json`.
//!
//! `cargo run --manifest-path fuzz/Cargo.toml -p b2schema-fuzz-seeds`; see `fuzz/README.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use b2schema::frame::{ChunkLocation, FrameFile};

#[derive(Default)]
struct Seeds(BTreeMap<&'static str, BTreeMap<Vec<u8>, String>>);

impl Seeds {
    fn add(&mut self, target: &'static str, name: &str, bytes: &[u8]) {
        self.0.entry(target).or_default().entry(bytes.to_vec()).or_insert_with(|| name.replace('/', "_"));
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() && !p.join(b2schema::frame::SPARSE_INDEX).exists() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn frame(seeds: &mut Seeds, path: &Path, name: &str) {
    let Ok(f) = FrameFile::locate(path) else { return };
    let index_file =
        if path.is_dir() { path.join(b2schema::frame::SPARSE_INDEX) } else { path.to_path_buf() };
    if let Ok(bytes) = std::fs::read(&index_file) {
        seeds.add("frame", name, &bytes);
    }
    for target in ["derived", "roundtrip", "dump", "value"] {
        seeds.add(target, &format!("{name}.header"), f.header_bytes());
        seeds.add(target, &format!("{name}.trailer"), f.trailer_bytes());
    }
    if !f.index_bytes().is_empty() {
        seeds.add("chunk", &format!("{name}.index"), f.index_bytes());
    }
    let Ok(v) = f.view() else { return };
    for (meta, _, content) in v.header.metalayers.iter() {
        for target in ["derived", "roundtrip", "dump", "value", "b2nd"] {
            seeds.add(target, &format!("{name}.meta-{meta}"), content);
        }
        if let Ok(m) = b2schema::b2nd::read_compat(content)
            && let Some(dtype) = &m.dtype
        {
            seeds.add("dtype", &format!("{name}.dtype"), dtype.as_bytes());
        }
    }
    for (meta, _, content) in v.trailer.vlmetalayers.iter() {
        seeds.add("chunk", &format!("{name}.vlmeta-{meta}"), content);
        if let Ok(value) = b2schema::chunk::decompress(content) {
            seeds.add("value", &format!("{name}.vlmeta-{meta}"), &value);
        }
    }
    if let Ok(locations) = v.chunk_locations() {
        let stored = locations.iter().filter(|l| !matches!(l, ChunkLocation::Special(_)));
        for (i, loc) in stored.take(8).enumerate() {
            if let Ok(c) = f.read_chunk(*loc) {
                seeds.add("chunk", &format!("{name}.chunk{i}"), &c);
            }
        }
    }
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(|| root.join("fuzz/seeds-out"));
    let mut seeds = Seeds::default();

    let mut paths = Vec::new();
    files(&root.join("tests/data/fixtures"), &mut paths);
    files(&root.join("tests/data/compat"), &mut paths);
    for p in &paths {
        let rel = p.strip_prefix(&root).unwrap_or(p).to_string_lossy().into_owned();
        let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext {
            "cdata" | "bin" => {
                if let Ok(bytes) = std::fs::read(p) {
                    seeds.add("chunk", &rel, &bytes);
                }
            }
            "md" => {}
            _ => frame(&mut seeds, p, &rel),
        }
    }

    let cases = std::fs::read_to_string(root.join("tests/data/dtype-cases.json")).expect("dtype-cases.json");
    let cases: serde_json::Value = serde_json::from_str(&cases).expect("dtype-cases.json is JSON");
    let mut dtypes = BTreeSet::new();
    for case in cases["cases"].as_array().into_iter().flatten() {
        if let Some(s) = case["written"].as_str() {
            dtypes.insert(s.to_string());
        }
    }
    for (i, s) in dtypes.iter().enumerate() {
        seeds.add("dtype", &format!("dtype-case-{i}"), s.as_bytes());
    }

    for (target, set) in &seeds.0 {
        let dir = out.join(target);
        std::fs::create_dir_all(&dir).expect("create the corpus directory");
        let mut total = 0;
        for (bytes, name) in set {
            std::fs::write(dir.join(name), bytes).expect("write a seed");
            total += bytes.len();
        }
        println!("{target}: {} seeds, {total} bytes -> {}", set.len(), dir.display());
    }
}
