//! Files written by b2schema, opened by the reference: a pinned python-blosc2 (installed on first
//! use by `scripts/pyenv.sh`, so this test needs nothing installed by hand) opens each one,
//! finds the data, metalayers and vlmetalayers written, and keeps working on it (resize, write,
//! append, new vlmeta). This test never skips: without python-blosc2 it fails.

use std::path::Path;

use b2schema::Config;
use b2schema::frame::{Codec, Filter, SpecialValue};
use b2schema::writer::{self, CParams, Chunk, Fill, Frame, NdArray};
use b2schema_tests::{hex, python_checks};
use serde_json::{Value, json};

fn msgpack(v: &Value) -> Vec<u8> {
    b2schema::to_vec_with(v, Config::minimal()).unwrap()
}

/// Deterministic pseudo-random bytes.
fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect()
}

struct Case {
    name: String,
    manifest: Value,
}

fn array_case(dir: &Path, name: &str, a: &NdArray<'_>, sparse: bool) -> Case {
    let path = dir.join(name);
    let frame = a.to_frame().unwrap_or_else(|e| panic!("{name}: {e}"));
    if sparse {
        frame.write_sparse(&path).unwrap()
    } else {
        frame.write_file(&path).unwrap()
    }
    let (fill, data_hex, value_hex) = match a.fill {
        Fill::Data(d) => ("data", hex(d), String::new()),
        Fill::Zeros => ("zeros", String::new(), String::new()),
        // python-blosc2 reads uninitialized chunks as whatever memory held: nothing to compare.
        Fill::Uninit => ("uninit", String::new(), String::new()),
        Fill::Nan => ("nan", String::new(), String::new()),
        Fill::Value(v) => ("value", String::new(), hex(v)),
    };
    let mut meta = vec![json!(["b2nd", hex(&frame.metalayers[0].1)])];
    meta.extend(a.metalayers.iter().map(|(n, c)| json!([n, hex(c)])));
    Case {
        name: name.into(),
        manifest: json!({
            "name": name, "path": path.display().to_string(), "kind": "ndarray",
            "shape": a.shape, "chunks": a.chunkshape, "blocks": a.blockshape, "dtype": a.dtype,
            "fill": fill, "data_hex": data_hex, "value_hex": value_hex, "meta": meta,
            "vlmeta": a.vlmetalayers.iter().map(|(n, c)| json!([n, hex(c)])).collect::<Vec<_>>(),
        }),
    }
}

fn cases(dir: &Path) -> Vec<Case> {
    let mut out = Vec::new();
    let mut add = |name: &str, a: NdArray<'_>| out.push(array_case(dir, name, &a, false));

    // 1 to 16 dimensions, edge chunks everywhere.
    for nd in [1usize, 2, 3, 4, 8, 16] {
        let shape: Vec<i64> = (0..nd).map(|i| if nd > 8 { 2 } else { 3 + i as i64 }).collect();
        let chunks: Vec<i32> = shape.iter().map(|&s| (s as i32 + 1) / 2).collect();
        let blocks: Vec<i32> = chunks.iter().map(|&c| (c + 1) / 2).collect();
        let n: i64 = shape.iter().product();
        let data = bytes(n as usize * 2, nd as u64);
        add(
            &format!("nd-{nd}d-i2.b2nd"),
            NdArray::new(&shape, &chunks, &blocks, "<i2", 2, Fill::Data(&data)),
        );
    }
    // Many dtypes, including structured and strings.
    for (dtype, ts) in [
        ("|b1", 1),
        ("|u1", 1),
        ("<u8", 8),
        (">i4", 4),
        ("<f4", 4),
        ("<c16", 16),
        ("<U5", 20),
        ("|S7", 7),
        ("<M8[ms]", 8),
        ("[('a', '<i4'), ('b', '<f8')]", 12),
        ("[('x', '<f8', (3,)), ('n', '|u1')]", 25),
    ] {
        let mut data = bytes(23 * ts, ts as u64);
        if dtype == "|b1" {
            data.iter_mut().for_each(|b| *b &= 1);
        }
        if !dtype.starts_with('[') && (dtype == "<M8[ms]" || dtype.contains("<f") || dtype.contains("<c")) {
            // Keep floats and dates finite and comparable.
            data = (0..23 * ts / 4).flat_map(|i| (i as f32).to_le_bytes()).collect();
            if dtype == "<M8[ms]" {
                data = (0..23i64).flat_map(|i| (i * 1000).to_le_bytes()).collect();
            }
        }
        let name = format!("dtype-{}.b2nd", dtype.replace(|c: char| !c.is_ascii_alphanumeric(), ""));
        add(&name, NdArray::new(&[23], &[10], &[4], dtype, ts, Fill::Data(&data)));
    }
    // A scalar, zero-length dimensions, special fills.
    add("scalar-f8.b2nd", NdArray::new(&[], &[], &[], "<f8", 8, Fill::Data(&2.5f64.to_le_bytes())));
    add("empty-3x0x2.b2nd", NdArray::new(&[3, 0, 2], &[2, 0, 2], &[1, 0, 1], "<i4", 4, Fill::Zeros));
    add("zeros.b2nd", NdArray::new(&[50, 7], &[20, 7], &[5, 7], "<f8", 8, Fill::Zeros));
    add("nans.b2nd", NdArray::new(&[33], &[10], &[5], "<f4", 4, Fill::Nan));
    add("uninit.b2nd", NdArray::new(&[33], &[10], &[5], "<i8", 8, Fill::Uninit));
    add("full.b2nd", NdArray::new(&[4, 9], &[3, 4], &[3, 2], "<i2", 2, Fill::Value(&(-7i16).to_le_bytes())));
    // User metalayers and vlmetalayers (python-blosc2 writes msgpack in both).
    let data = bytes(60 * 4, 7);
    let mut a = NdArray::new(&[6, 10], &[4, 4], &[2, 2], "<i4", 4, Fill::Data(&data));
    a.metalayers = vec![
        ("unit".into(), msgpack(&json!("m/s"))),
        ("scale".into(), msgpack(&json!([1, 2.5, -3]))),
        ("info".into(), msgpack(&json!({"version": 1, "serializer": "msgpack"}))),
    ];
    a.vlmetalayers = vec![
        ("title".into(), msgpack(&json!("a small array"))),
        ("attrs".into(), msgpack(&json!({"long_name": "distance from the origin", "valid_range": [0, 100]}))),
    ];
    add("meta-vlmeta.b2nd", a);
    let mut a = NdArray::new(&[64], &[16], &[16], "<u2", 2, Fill::Data(&data[..128]));
    a.cparams = CParams {
        codec: Codec::Lz4,
        clevel: 9,
        filters: [0, 0, 0, 0, 0, 2].map(Filter::from_id),
        ..CParams::default()
    };
    add("lz4-bitshuffle-params.b2nd", a);

    // Sparse frames.
    let data = bytes(40 * 8, 9);
    out.push(array_case(dir, "sparse.b2nd", &NdArray::new(&[40], &[16], &[8], "<f8", 8, Fill::Zeros), true));
    out.push(array_case(
        dir,
        "sparse-data.b2nd",
        &NdArray::new(&[5, 8], &[2, 8], &[1, 4], "<i8", 8, Fill::Data(&data)),
        true,
    ));

    // Plain SChunks, one grown with appends and a vlmeta by b2schema before python sees it.
    for (name, data, chunksize) in
        [("schunk.b2frame", bytes(1000, 3), 256usize), ("schunk-ts8.b2frame", bytes(800, 4), 160)]
    {
        let path = dir.join(name);
        let ts = if name.contains("ts8") { 8 } else { 1 };
        let mut f: Frame = writer::schunk(&data, ts, chunksize, CParams::default()).unwrap();
        f.vlmetalayers = vec![("note".into(), msgpack(&json!({"by": "b2schema"})))];
        f.write_file(&path).unwrap();
        out.push(Case {
            name: name.into(),
            manifest: json!({"name": name, "path": path.display().to_string(), "kind": "schunk",
                             "data_hex": hex(&data), "meta": [], "vlmeta": [["note", hex(&msgpack(&json!({"by": "b2schema"})))]]}),
        });
    }
    let path = dir.join("appended.b2frame");
    let data = bytes(300, 5);
    writer::schunk(&data[..200], 1, 100, CParams::default()).unwrap().write_file(&path).unwrap();
    let piece = writer::chunk::memcpy(&data[200..], 1, 0, &CParams::default()).unwrap();
    writer::append_chunk(&path, &Chunk::Stored(piece)).unwrap();
    writer::append_chunk(&path, &Chunk::Special { kind: SpecialValue::Zeros, nbytes: 100 }).unwrap();
    writer::set_vlmetalayer(&path, "note", &msgpack(&json!("appended"))).unwrap();
    let mut all = data.clone();
    all.extend([0u8; 100]);
    out.push(Case {
        name: "appended.b2frame".into(),
        manifest: json!({"name": "appended.b2frame", "path": path.display().to_string(), "kind": "schunk",
                         "data_hex": hex(&all), "meta": [], "vlmeta": [["note", hex(&msgpack(&json!("appended")))]]}),
    });
    out
}

#[test]
fn python_blosc2_opens_what_b2schema_writes() {
    let dir = std::env::temp_dir().join(format!("b2schema-python-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cases = cases(&dir);
    assert!(cases.len() >= 30, "{} cases", cases.len());
    assert!(cases.iter().all(|c| c.manifest["name"] == c.name.as_str()));
    let entries: Vec<&serde_json::Value> = cases.iter().map(|c| &c.manifest).collect();
    let text = python_checks("check_written.py", &dir, &entries);
    println!("{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
