//! b2schema-chunk compiled to wasm32-unknown-unknown gives, under node, exactly the native
//! results: this test builds the module (`scripts/wasm.sh`, which installs Debian's Rust for the
//! target when it is missing), works out every case natively with the same functions
//! (`b2schema_wasm_test::{decompress, compress}`), writes them to a directory, and runs
//! `run.mjs` over them. The cases:
//!
//! - every chunk file of `tests/data` (the Blosc2 chunk corpus, c-blosc 1.x's Blosc1 `.cdata`
//!   chunks, the rainfall chunk) and every chunk of every frame there (`.b2frame`, `.b2nd`):
//!   its decompressed bytes, or its error; and the same decoded block by block, last block first,
//!   each block from its own bytes (`decompress_blocks`);
//! - mutants of the chunk files (truncated, bytes flipped in the header or anywhere), decoded
//!   under a 16 MiB limit: the same error, or the same bytes;
//! - compressions of c-blosc2's plugins (ZFP, ndcell, ndmean, with the array's shapes) and over
//!   random parameters (every codec, clevel, filter pipeline, split mode,
//!   typesize, blocksize, dictionaries) and data (ramps, noise, runs, empty): the same chunk
//!   bytes, or the same error; the module's chunk, decompressed by the module, must give what
//!   the native chunk gives natively (the data, but for trunc_prec, which is lossy).
//!
//! The random cases come from a fixed seed, or `B2SCHEMA_WASM_SEED` (printed either way).

use b2schema_tests::{
    XorShift, chunk_corpus, compat_file, data_root, files_with_ext, frame_chunks, read_file, sha256_hex,
};
use b2schema_wasm_test::{compress, decompress, decompress_as, decompress_blocks, host};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Decoding limit of the real chunks (the crate's default) and of the mutants.
const REAL_LIMIT: usize = b2schema_chunk::DEFAULT_MAX_NBYTES;
const MUTANT_LIMIT: usize = 16 << 20;

/// The outcome as `run.mjs` describes the module's.
fn expect(result: &Result<Vec<u8>, String>) -> Value {
    match result {
        Ok(bytes) => json!({"ok": true, "len": bytes.len(), "sha256": sha256_hex(bytes)}),
        Err(error) => json!({"ok": false, "error": error}),
    }
}

/// Writes the cases' inputs into `dir` and collects the cases.
struct Cases {
    dir: PathBuf,
    list: Vec<Value>,
}

impl Cases {
    fn input(&mut self, bytes: &[u8]) -> String {
        let name = format!("{:05}.bin", self.list.len());
        std::fs::write(self.dir.join(&name), bytes).unwrap();
        name
    }

    fn decompress(&mut self, name: String, chunk: &[u8], limit: usize) {
        let whole = decompress(chunk, limit);
        let blocks = decompress_blocks(chunk, limit);
        if let (Ok(w), Ok(b)) = (&whole, &blocks) {
            assert!(w == b, "{name}: decoded block by block, the bytes differ");
        }
        let (expect, blocks) = (expect(&whole), expect(&blocks));
        let input = self.input(chunk);
        self.list.push(json!({"name": name, "op": "decompress", "input": input, "limit": limit, "expect": expect, "blocks": blocks}));
    }

    fn compress(&mut self, name: String, data: &[u8], spec: String) {
        let result = compress(data, &spec);
        // What the chunk decompresses to: the data, but for the lossy trunc_prec, ZFP and ndmean.
        let decoded = result
            .as_ref()
            .map(|chunk| decompress_as(chunk, &spec, REAL_LIMIT))
            .unwrap_or(Err(String::new()));
        if result.is_ok() && !["trunc_prec", "zfp", "ndmean"].iter().any(|lossy| spec.contains(lossy)) {
            assert_eq!(decoded.as_deref(), Ok(data), "{name}: {spec}");
        }
        let (expect, decoded) = (expect(&result), expect(&decoded));
        let input = self.input(data);
        self.list.push(json!({"name": name, "op": "compress", "input": input, "spec": spec, "expect": expect, "decoded": decoded}));
    }
}

/// `tests/data/...` relative to the data root, for case names.
fn rel(path: &Path) -> String {
    path.strip_prefix(data_root()).unwrap_or(path).display().to_string()
}

/// The chunk files: Blosc2 chunks, Blosc1 chunks of c-blosc 1.x, the rainfall chunk.
fn chunk_files() -> Vec<PathBuf> {
    let mut files = files_with_ext(&chunk_corpus("chunks"), "chunk");
    files.extend(files_with_ext(&compat_file("c-blosc2/compat"), "cdata"));
    files.push(compat_file("c-blosc2/bench/rainfall-grid-150x150.bin"));
    files
}

/// Every frame of the test data.
fn frame_files() -> Vec<PathBuf> {
    let mut files = files_with_ext(&data_root(), "b2frame");
    files.extend(files_with_ext(&data_root(), "b2nd"));
    files.sort();
    files
}

/// A mutant of `chunk`: cut short, or one to four bytes changed (in the header or anywhere).
fn mutant(rng: &mut XorShift, chunk: &[u8]) -> Vec<u8> {
    let mut m = chunk.to_vec();
    if m.is_empty() {
        return m;
    }
    match rng.below(3) {
        0 => m.truncate(rng.below(m.len() as u64) as usize),
        kind => {
            let span = if kind == 1 { m.len().min(32) } else { m.len() };
            for _ in 0..=rng.below(4) {
                let at = rng.below(span as u64) as usize;
                m[at] ^= 1 << rng.below(8);
            }
        }
    }
    m
}

/// Random data of about `len` bytes: a ramp of `typesize`-byte items, noise, runs, or a mix.
fn data(rng: &mut XorShift, len: usize) -> Vec<u8> {
    match rng.below(4) {
        0 => (0..len).map(|i| ((i / 7) as u32).to_le_bytes()[i % 4]).collect(),
        1 => (0..len).map(|_| rng.next() as u8).collect(),
        2 => (0..len).map(|i| (i / 5000) as u8).collect(),
        _ => (0..len).map(|i| if i % 3 == 0 { rng.next() as u8 } else { (i / 64) as u8 }).collect(),
    }
}

/// A random compression spec (`b2schema_wasm_test::params` reads it).
fn spec(rng: &mut XorShift) -> String {
    const CODECS: [&str; 5] = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"];
    const PIPELINES: [(&str, &str); 7] = [
        ("nofilter,nofilter,nofilter,nofilter,nofilter,nofilter", "0,0,0,0,0,0"),
        ("nofilter,nofilter,nofilter,nofilter,nofilter,shuffle", "0,0,0,0,0,0"),
        ("nofilter,nofilter,nofilter,nofilter,nofilter,bitshuffle", "0,0,0,0,0,0"),
        ("nofilter,nofilter,nofilter,nofilter,delta,shuffle", "0,0,0,0,0,0"),
        ("nofilter,nofilter,nofilter,nofilter,shuffle,bytedelta", "0,0,0,0,0,0"),
        ("nofilter,nofilter,nofilter,nofilter,trunc_prec,shuffle", "0,0,0,0,10,0"),
        ("nofilter,nofilter,nofilter,delta,bitshuffle,nofilter", "0,0,0,0,0,0"),
    ];
    const TYPESIZES: [u64; 8] = [1, 2, 3, 4, 8, 16, 300, 256];
    const BLOCKSIZES: [u64; 4] = [0, 0, 4096, 1500];
    let codec = CODECS[rng.below(5) as usize];
    let (filters, metas) = PIPELINES[rng.below(7) as usize];
    let dict = u8::from(rng.below(4) == 0);
    format!(
        "codec={codec} clevel={} typesize={} filters={filters} metas={metas} split={} blocksize={} dict={dict} nthreads={}",
        rng.below(10),
        TYPESIZES[rng.below(8) as usize],
        1 + rng.below(4),
        BLOCKSIZES[rng.below(4) as usize],
        1 + rng.below(4),
    )
}

/// Specs of c-blosc2's plugins (ZFP in its three modes over 1 to 4 dimensions, ndcell and
/// ndmean), each with the number of items of its chunk.
fn plugin_specs() -> Vec<(String, usize)> {
    let none = "filters=nofilter,nofilter,nofilter,nofilter,nofilter,nofilter metas=0,0,0,0,0,0";
    let mut out = Vec::new();
    for (codec, meta) in [("zfp_acc", 253), ("zfp_acc", 0), ("zfp_prec", 12), ("zfp_rate", 40)] {
        for (dims, ts) in [(1, 4), (2, 8), (3, 4), (4, 8)] {
            let block: Vec<usize> = [7, 6, 5, 4][..dims].to_vec();
            let chunk: Vec<usize> =
                block.iter().enumerate().map(|(i, &b)| if i == 0 { 2 * b } else { b }).collect();
            let join = |s: &[usize]| s.iter().map(usize::to_string).collect::<Vec<_>>().join("x");
            let bs = block.iter().product::<usize>() * ts;
            out.push((
                format!(
                    "codec={codec} meta={meta} typesize={ts} {none} blocksize={bs} shapes={};{}",
                    join(&chunk),
                    join(&block)
                ),
                chunk.iter().product(),
            ));
        }
    }
    for (filter, meta, ts) in [("ndcell", 3, 4), ("ndcell", 4, 8), ("ndmean", 3, 4), ("ndmean", 5, 8)] {
        out.push((
            format!(
                "codec=lz4 typesize={ts} filters={filter},shuffle,nofilter,nofilter,nofilter,nofilter metas={meta},0,0,0,0,0 blocksize={} shapes=18x7;9x7",
                9 * 7 * ts
            ),
            18 * 7,
        ));
    }
    out
}

/// `items` floats of `typesize` 4 or 8 bytes: a smooth signal with a little noise.
fn floats(rng: &mut XorShift, items: usize, typesize: usize) -> Vec<u8> {
    (0..items)
        .flat_map(|i| {
            let v = (i as f64 * 0.1).sin() + rng.below(1000) as f64 * 1e-6;
            if typesize == 4 { (v as f32).to_le_bytes().to_vec() } else { v.to_le_bytes().to_vec() }
        })
        .collect()
}

fn cases(dir: &Path, seed: u64) -> Vec<Value> {
    let mut c = Cases { dir: dir.to_path_buf(), list: Vec::new() };
    let mut rng = XorShift(seed);
    for path in chunk_files() {
        let chunk = read_file(&path);
        c.decompress(rel(&path), &chunk, REAL_LIMIT);
        for k in 0..4 {
            let m = mutant(&mut rng, &chunk);
            c.decompress(format!("{} mutant {k}", rel(&path)), &m, MUTANT_LIMIT);
        }
    }
    let mut frames = 0;
    for path in frame_files() {
        // A frame this helper cannot cut into chunks (sparse, or one of the malformed ones) is
        // left to the frame tests.
        let Ok(chunks) = frame_chunks::chunks(&read_file(&path)) else { continue };
        frames += 1;
        for (i, chunk) in chunks.iter().enumerate() {
            c.decompress(format!("{} chunk {i}", rel(&path)), chunk.bytes(), REAL_LIMIT);
        }
    }
    assert!(frames >= 100, "only {frames} frames cut into chunks");
    for (k, (spec, items)) in plugin_specs().into_iter().enumerate() {
        let bytes = floats(&mut rng, items, if spec.contains("typesize=4") { 4 } else { 8 });
        c.compress(format!("plugin {k}"), &bytes, spec);
    }
    for k in 0..240 {
        let len = match rng.below(4) {
            0 => rng.below(64) as usize,
            1 => rng.below(20_000) as usize,
            _ => rng.below(300_000) as usize,
        };
        let bytes = data(&mut rng, len);
        c.compress(format!("compress {k}"), &bytes, spec(&mut rng));
    }
    c.list
}

#[test]
fn wasm_module_under_node_gives_the_native_results() {
    let seed =
        std::env::var("B2SCHEMA_WASM_SEED").map_or(0x2545_F491_4F6C_DD1D, |s| s.parse().expect("a u64 seed"));
    println!("B2SCHEMA_WASM_SEED={seed}");

    let module = host::module();

    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("wasm-cases");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let list = cases(&dir, seed);
    let (oks, errs) = list.iter().partition::<Vec<_>, _>(|c| c["expect"]["ok"] == true);
    assert!(oks.len() >= 400 && errs.len() >= 100, "{} ok and {} error cases", oks.len(), errs.len());
    std::fs::write(dir.join("cases.json"), serde_json::to_vec(&json!({"cases": list})).unwrap()).unwrap();

    let run = host::node("run.mjs", &module, &dir);
    let stdout = String::from_utf8_lossy(&run.stdout);
    println!("{stdout}");
    assert!(
        run.status.success(),
        "the module differs from native:\n{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
}
