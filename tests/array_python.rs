//! Slices against the reference: random arrays (shape, chunk and block shapes, dtype with both
//! byte orders, codec, level, filter pipeline) written by the pinned python-blosc2, and random
//! slices of each read by b2schema at 1, 2 and 8 threads, equal the same slice of the data
//! written, and python-blosc2's `arr[slices]`, except where c-blosc2 is wrong: c-blosc2 3.3.5
//! decodes a block whose chunk has a delta filter without the chunk's first block (its delta
//! reference) when a slice leaves that block out, and returns whatever was in its buffer (two
//! runs give different bytes). Those slices are counted, and must be delta pipelines.
//! Never skipped: python-blosc2 comes from `scripts/pyenv.sh`.

use std::ops::Range;
use std::process::Command;

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::frame::FrameFile;
use b2schema_tests::{Rng, python, repo_root, sha256_hex};
use serde_json::{Value, json};

const DTYPES: &[&str] = &["|i1", "|u1", "<i2", ">u2", "<i4", ">i4", "<u4", "<i8", ">i8", "<f4", "<f8", ">f8"];
const CODECS: &[&str] = &["blosclz", "lz4", "lz4hc", "zlib", "zstd"];
const PIPELINES: &[&[&str]] =
    &[&[], &["shuffle"], &["bitshuffle"], &["delta", "shuffle"], &["shuffle", "bytedelta"]];

fn pick<'a, T>(rng: &mut Rng, from: &'a [T]) -> &'a T {
    &from[rng.below(from.len())]
}

/// A random range inside `0..len` (possibly empty).
fn range(rng: &mut Rng, len: u64) -> Range<u64> {
    let a = rng.below(len as usize + 1) as u64;
    let b = rng.below(len as usize + 1) as u64;
    a.min(b)..a.max(b)
}

fn case(rng: &mut Rng, i: usize) -> Value {
    let ndim = if i.is_multiple_of(17) { 0 } else { 1 + rng.below(4) };
    let mut shape = Vec::new();
    for _ in 0..ndim {
        let budget = 20_000 / shape.iter().product::<usize>().max(1);
        shape.push(1 + rng.below(budget.clamp(1, if ndim == 1 { 5000 } else { 40 })));
    }
    let chunks: Vec<usize> = shape.iter().map(|&s| 1 + rng.below(s)).collect();
    let blocks: Vec<usize> = chunks.iter().map(|&c| 1 + rng.below(c)).collect();
    let slices: Vec<Vec<[u64; 2]>> = (0..6)
        .map(|k| {
            shape
                .iter()
                .map(|&s| {
                    // One in three slices is a single item, the rest random ranges.
                    let r = if k % 3 == 0 {
                        let i = rng.below(s) as u64;
                        i..i + 1
                    } else {
                        range(rng, s as u64)
                    };
                    [r.start, r.end]
                })
                .collect()
        })
        .collect();
    json!({
        "name": format!("case{i:03}"),
        "shape": shape,
        "chunks": chunks,
        "blocks": blocks,
        "dtype": pick(rng, DTYPES),
        "codec": pick(rng, CODECS),
        "clevel": rng.below(10),
        "filters": pick(rng, PIPELINES),
        "seed": i,
        "slices": slices,
    })
}

#[test]
fn random_slices_of_random_arrays_equal_python_blosc2() {
    let py = python();
    let dir = std::env::temp_dir().join(format!("b2schema-slices-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x5_11ce);
    let cases: Vec<Value> = (0..60).map(|i| case(&mut rng, i)).collect();
    let spec = dir.join("cases.json");
    std::fs::write(&spec, serde_json::to_vec(&cases).unwrap()).unwrap();
    let out = Command::new(&py)
        .arg(repo_root().join("tests/python/slices.py"))
        .arg(&spec)
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "python-blosc2 failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let (mut checked, mut c_blosc2_wrong) = (0, 0);
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let want: Value = serde_json::from_str(line).unwrap();
        let name = want["name"].as_str().unwrap();
        let file =
            FrameFile::open(dir.join(format!("{name}.b2nd"))).unwrap_or_else(|e| panic!("{name}: {e}"));
        let reader = ArrayReader::new(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ranges: Vec<Range<u64>> = want["slice"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r[0].as_u64().unwrap()..r[1].as_u64().unwrap())
            .collect();
        let sel = Selection::new(ranges.clone(), reader.shape()).unwrap();
        for nthreads in [1, 2, 8] {
            let opts = ReadOptions { nthreads, min_thread_bytes: 0, ..ReadOptions::default() };
            let (got, _) = reader.read(&sel, &opts).unwrap_or_else(|e| panic!("{name} {ranges:?}: {e}"));
            assert_eq!(
                sha256_hex(&got),
                want["truth"].as_str().unwrap(),
                "{name} {ranges:?} at {nthreads} threads"
            );
            // The typed read (decoded straight into the result for little-endian numbers,
            // converted for big-endian ones) gives the same items, in the host's order.
            assert_eq!(
                typed_as_le(&reader, &sel, &opts),
                le_items(reader.dtype().unwrap(), &got),
                "{name} typed"
            );
        }
        if want["sha256"] != want["truth"] {
            let case = cases.iter().find(|c| c["name"] == name).unwrap();
            assert!(
                case["filters"].as_array().unwrap().iter().any(|f| f == "delta"),
                "{name} {ranges:?}: python-blosc2 reads other data than it wrote, without a delta filter"
            );
            c_blosc2_wrong += 1;
        }
        checked += 1;
    }
    assert_eq!(checked, 60 * 6, "slices checked");
    eprintln!(
        "{checked} slices equal the data written; python-blosc2 read {c_blosc2_wrong} of them wrong (delta)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The items of `sel` read as the dtype's Rust type (`read_as` and `read_as_into`, which must
/// agree), as little-endian bytes.
fn typed_as_le(reader: &ArrayReader<'_>, sel: &Selection, opts: &ReadOptions) -> Vec<u8> {
    macro_rules! typed {
        ($t:ty) => {{
            let v: Vec<$t> = reader.read_as(sel, opts).unwrap();
            let mut into = vec![<$t>::default(); v.len()];
            reader.read_as_into(sel, &mut into, opts).unwrap();
            assert_eq!(v, into, "read_as and read_as_into");
            v.iter().flat_map(|x| x.to_le_bytes()).collect()
        }};
    }
    match &reader.dtype().unwrap()[1..] {
        "i1" => typed!(i8),
        "u1" => typed!(u8),
        "i2" => typed!(i16),
        "u2" => typed!(u16),
        "i4" => typed!(i32),
        "u4" => typed!(u32),
        "i8" => typed!(i64),
        "f4" => typed!(f32),
        "f8" => typed!(f64),
        other => panic!("a dtype of the cases: {other}"),
    }
}

/// `bytes` (items of `dtype`, in its byte order) as little-endian items.
fn le_items(dtype: &str, bytes: &[u8]) -> Vec<u8> {
    let size: usize = dtype[2..].parse().unwrap();
    if dtype.starts_with('>') {
        bytes.chunks(size).flat_map(|c| c.iter().rev().copied().collect::<Vec<u8>>()).collect()
    } else {
        bytes.to_vec()
    }
}
