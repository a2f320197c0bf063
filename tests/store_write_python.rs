//! Stores written by b2schema (`b2schema::store::StoreWriter`) against the reference: random
//! DictStores and TreeStores as `.b2d` and `.b2z`, nested keys, NDArrays of random dtype and
//! shape (small and several-chunk) and SChunks of bytes, the small ones now and then embedded
//! in `embed.b2e` (a random threshold, as `DictStore(threshold=n)`), opened by python-blosc2 4.14.1
//! (`DictStore` / `TreeStore`, mode "r") with every key and every member's data equal; read back
//! by b2schema's own `Store` equal too; the empty embed store byte-identical to python-blosc2's.
//! Never skipped: without python-blosc2 (`scripts/pyenv.sh`) it fails.

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::frame::FrameHeader;
use b2schema::store::{Flavour, Store, StoreWriter};
use b2schema::writer::{CParams, Fill, NdArray, schunk};
use b2schema_tests::{python, python_checks};
use serde_json::json;
use std::collections::BTreeSet;

use b2schema_tests::XorShift as Rng;

const DTYPES: [(&str, usize); 8] =
    [("|i1", 1), ("|u1", 1), ("<i2", 2), ("<u4", 4), ("<i8", 8), ("<f4", 4), ("<f8", 8), ("|b1", 1)];
const NAMES: [&str; 5] = ["a", "data", "x1", "deep", "g"];

#[test]
fn random_stores_written_by_b2schema_open_in_python_blosc2_equal() {
    let dir = std::env::temp_dir().join(format!("b2schema-store-write-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x0570_7e00_d17e_u64 | 1);
    let mut entries = Vec::new();
    let mut written = Vec::new();
    let mut embedded = 0;
    for case in 0..24 {
        let flavour = if case % 2 == 0 { Flavour::Dict } else { Flavour::Tree };
        let zip = case % 4 < 2;
        // Now and then small members embedded in embed.b2e, as DictStore(threshold=n) does.
        let threshold = [0, 0, 64, 600, 1 << 20][rng.below(5) as usize];
        let mut w = StoreWriter::new(flavour).with_threshold(threshold);
        let mut taken = BTreeSet::new();
        let mut members = Vec::new();
        for i in 0..1 + rng.below(5) {
            let depth = 1 + rng.below(3);
            let key: String = (0..depth)
                .map(|d| format!("/{}{d}", NAMES[rng.below(NAMES.len() as u64) as usize]))
                .collect();
            let clash = taken.iter().any(|t: &String| {
                *t == key || t.starts_with(&format!("{key}/")) || key.starts_with(&format!("{t}/"))
            });
            if clash {
                // Refused by the writer as python-blosc2 would refuse it (a TreeStore leaf and group).
                if taken.contains(&key) || flavour == Flavour::Tree {
                    assert!(
                        w.insert(
                            &key,
                            NdArray::new(&[1], &[1], &[1], "|u1", 1, Fill::Zeros)
                                .to_frame()
                                .unwrap()
                                .to_vec()
                                .unwrap()
                        )
                        .is_err()
                    );
                }
                continue;
            }
            taken.insert(key.clone());
            let raw_path = dir.join(format!("c{case}-m{i}.raw"));
            let frame = if rng.below(5) == 0 {
                let n = 1 + rng.below(3000) as usize;
                let raw: Vec<u8> = (0..n).map(|_| rng.below(4) as u8).collect();
                std::fs::write(&raw_path, &raw).unwrap();
                members.push(json!({ "key": key, "schunk": true, "raw": raw_path }));
                schunk(&raw, 1, 512, CParams::default()).unwrap().to_vec().unwrap()
            } else {
                let (dtype, size) = DTYPES[rng.below(DTYPES.len() as u64) as usize];
                let big = rng.below(3) == 0;
                let ndim = 1 + rng.below(3) as usize;
                let shape: Vec<i64> = (0..ndim)
                    .map(|_| if big { 10 + rng.below(40) } else { 1 + rng.below(5) } as i64)
                    .collect();
                let chunks: Vec<i32> = shape.iter().map(|&s| 1 + s as i32 / 2).collect();
                let blocks: Vec<i32> = chunks.iter().map(|&c| 1 + c / 2).collect();
                let n: i64 = shape.iter().product();
                let raw: Vec<u8> = (0..n as usize * size)
                    .map(|_| if dtype == "|b1" { rng.below(2) as u8 } else { rng.next() as u8 })
                    .collect();
                std::fs::write(&raw_path, &raw).unwrap();
                members.push(
                    json!({ "key": key, "schunk": false, "dtype": dtype, "shape": shape, "raw": raw_path }),
                );
                NdArray::new(&shape, &chunks, &blocks, dtype, size, Fill::Data(&raw))
                    .to_frame()
                    .unwrap()
                    .to_vec()
                    .unwrap()
            };
            let nbytes = b2schema::frame::FrameView::from_slice(&frame).unwrap().header.nbytes;
            if (nbytes as u64) < threshold {
                embedded += 1;
            }
            w.insert(&key, frame).unwrap();
        }
        let path = dir.join(format!("c{case}.{}", if zip { "b2z" } else { "b2d" }));
        if zip {
            w.write_zip(&path).unwrap()
        } else {
            w.write_dir(&path).unwrap()
        }
        entries.push(json!({
            "name": format!("case {case}"),
            "path": path,
            "flavour": if flavour == Flavour::Tree { "tree" } else { "dict" },
            "members": members,
        }));
        written.push(path);
    }
    python_checks("check_stores.py", &dir, &entries);
    // b2schema reads its own stores back equal.
    for e in &entries {
        let store = Store::open(e["path"].as_str().unwrap()).unwrap();
        for m in e["members"].as_array().unwrap() {
            let f = store.open_member(m["key"].as_str().unwrap()).unwrap();
            let raw = std::fs::read(m["raw"].as_str().unwrap()).unwrap();
            let got = if m["schunk"].as_bool().unwrap() {
                let mut v = Vec::new();
                f.write_schunk(&mut v).unwrap();
                v
            } else {
                let r = ArrayReader::new(&f).unwrap();
                r.read(&Selection::all(r.shape()), &ReadOptions::default()).unwrap().0
            };
            assert!(got == raw, "{} {}", e["name"], m["key"]);
        }
    }
    assert!(embedded > 10, "embedded members: {embedded}");
    // A .b2d is written whole or not at all: an existing destination is refused, untouched.
    let again = StoreWriter::new(Flavour::Dict).write_dir(&written[2]);
    assert!(again.unwrap_err().to_string().contains("does not exist"));
    assert!(Store::open(&written[2]).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The embed store of a store with no embedded member is byte for byte python-blosc2's (but
/// for the thread counts of its header, python-blosc2's being the host's core count).
#[test]
fn the_empty_embed_store_is_python_blosc2_s_bytes() {
    let dir = std::env::temp_dir().join(format!("b2schema-embed-bytes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = "import blosc2, numpy as np, sys\n\
        for cls, name in ((blosc2.DictStore, 'd.b2d'), (blosc2.TreeStore, 't.b2d')):\n\
        \x20   with cls(sys.argv[1] + '/' + name, mode='w') as s:\n\
        \x20       s['/x'] = np.arange(3)\n";
    let out = std::process::Command::new(python()).arg("-c").arg(script).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for (flavour, name) in [(Flavour::Dict, "d.b2d"), (Flavour::Tree, "t.b2d")] {
        let mut python = std::fs::read(dir.join(name).join("embed.b2e")).unwrap();
        let ours = StoreWriter::new(flavour).embed_store().unwrap();
        let threads: i16 = FrameHeader::NTHREADS_COMP.read(&ours).unwrap();
        FrameHeader::NTHREADS_COMP.patch(&mut python, &threads).unwrap();
        FrameHeader::NTHREADS_DECOMP.patch(&mut python, &threads).unwrap();
        assert_eq!(ours, python, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
