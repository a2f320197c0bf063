//! Stores against the reference: python-blosc2 4.14.1 writes random stores (DictStore and
//! TreeStore as `.b2z` and `.b2d`, some `.b2z` rewritten by Python's `zipfile` with zip64
//! records and extra fields, EmbedStores), with nested keys, arrays of random dtype and
//! shape, small (embedded) and large (member files), and SChunks of bytes (`.b2f`); b2schema lists
//! every key and reads every member equal to the data python-blosc2 wrote. Never skipped: without
//! python-blosc2 (`scripts/pyenv.sh`) it fails.

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::store::{Kind, Place, Store};
use b2schema_tests::python_checks;
use serde_json::json;
use std::collections::BTreeSet;

use b2schema_tests::XorShift as Rng;

const DTYPES: [&str; 10] = ["|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<f4", "<f8", "|b1"];
const FORMS: [&str; 5] = ["dict.b2z", "tree.b2z", "dict.b2d", "tree.b2d", "embed.b2e"];
const NAMES: [&str; 6] = ["a", "b", "data", "x1", "deep", "g"];

/// A key of one to four parts, none of them a prefix-clash with `taken` (a TreeStore's leaf
/// cannot also be a group).
fn key(rng: &mut Rng, taken: &BTreeSet<String>) -> Option<String> {
    let depth = 1 + rng.below(4);
    let mut k = String::new();
    for i in 0..depth {
        k.push('/');
        k.push_str(NAMES[rng.below(NAMES.len() as u64) as usize]);
        k.push_str(&i.to_string());
    }
    let clash =
        taken.iter().any(|t| t == &k || t.starts_with(&format!("{k}/")) || k.starts_with(&format!("{t}/")));
    (!clash).then_some(k)
}

#[test]
fn random_python_blosc2_stores_read_equal() {
    let dir = std::env::temp_dir().join(format!("b2schema-stores-py-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x05ee_d570_00e5_u64 | 1);
    let mut entries = Vec::new();
    let mut zip64s = 0;
    for case in 0..40 {
        let form = FORMS[case % FORMS.len()];
        let mut taken = BTreeSet::new();
        let mut members = Vec::new();
        for i in 0..1 + rng.below(6) {
            let Some(k) = key(&mut rng, &taken) else { continue };
            taken.insert(k.clone());
            let ndim = rng.below(4) as usize;
            // Small arrays and, now and then, large ones (beyond the threshold, several chunks).
            let big = rng.below(4) == 0;
            let shape: Vec<u64> =
                (0..ndim).map(|_| if big { 20 + rng.below(60) } else { 1 + rng.below(6) }).collect();
            let dtype = DTYPES[rng.below(DTYPES.len() as u64) as usize];
            // Now and then an SChunk of bytes instead of an array (a `.b2f` member).
            let schunk = rng.below(6) == 0;
            members.push(json!({
                "schunk": schunk,
                "key": k,
                "dtype": dtype,
                "shape": shape,
                "seed": rng.next() % 1_000_000,
                "raw": dir.join(format!("c{case}-m{i}.raw")),
            }));
        }
        let path = dir.join(format!("c{case}-{form}"));
        let threshold = [0, 64, 4096][rng.below(3) as usize];
        // Every other .b2z rewritten by Python's zipfile with zip64 records and extra fields.
        let zip64 = form.ends_with("b2z") && rng.below(2) == 0;
        zip64s += usize::from(zip64);
        entries.push(json!({
            "name": format!("case {case} ({form}{})", if zip64 { ", zip64" } else { "" }),
            "form": form,
            "path": path,
            "zip64": zip64,
            "threshold": threshold,
            "members": members,
        }));
    }
    python_checks("write_stores.py", &dir, &entries);
    let mut embedded = 0;
    let mut files = 0;
    let mut schunks = 0;
    for e in &entries {
        let store =
            Store::open(e["path"].as_str().unwrap()).unwrap_or_else(|err| panic!("{}: {err}", e["name"]));
        let members = e["members"].as_array().unwrap();
        let want: BTreeSet<&str> = members.iter().map(|m| m["key"].as_str().unwrap()).collect();
        let got: BTreeSet<&str> = store.members().iter().map(|m| m.key.as_str()).collect();
        assert_eq!(got, want, "{}", e["name"]);
        for m in members {
            let key = m["key"].as_str().unwrap();
            match store.member(key).unwrap().place {
                Place::Embedded(_) => embedded += 1,
                _ => files += 1,
            }
            let d = store.describe(key).unwrap();
            let raw = std::fs::read(m["raw"].as_str().unwrap()).unwrap();
            let f = store.open_member(key).unwrap();
            if m["schunk"].as_bool().unwrap() {
                assert_eq!(d.kind, Kind::SChunk, "{} {key}", e["name"]);
                let mut data = Vec::new();
                f.write_schunk(&mut data).unwrap();
                assert!(data == raw, "{} {key}: SChunk data differs", e["name"]);
                schunks += 1;
                continue;
            }
            assert_eq!(d.kind, Kind::NdArray);
            assert_eq!(d.dtype.as_deref(), m["dtype"].as_str(), "{} {key}", e["name"]);
            let shape: Vec<i64> =
                m["shape"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            assert_eq!(d.shape.as_deref(), Some(shape.as_slice()), "{} {key}", e["name"]);
            let r = ArrayReader::new(&f).unwrap();
            let (bytes, _) = r.read(&Selection::all(r.shape()), &ReadOptions::default()).unwrap();
            assert!(bytes == raw, "{} {key}: data differs", e["name"]);
        }
    }
    // Both places were exercised.
    assert!(
        embedded > 10 && files > 10 && schunks > 5 && zip64s > 4,
        "embedded {embedded}, files {files}, schunks {schunks}, zip64 {zip64s}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
