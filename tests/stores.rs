//! python-blosc2's stores (`b2schema::store`): the fixtures of `tests/data/stores/` (written by
//! python-blosc2 4.14.1, listed in its `stores.json`) listed and read back equal; crafted ZIPs
//! and embed maps that lie refused with errors, never a panic.

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::store::{Kind, Place, Store};
use proptest::prelude::*;
use serde_json::Value;
use std::path::PathBuf;

fn stores_dir() -> PathBuf {
    b2schema_tests::data_root().join("stores")
}

fn manifest() -> Value {
    serde_json::from_str(&std::fs::read_to_string(stores_dir().join("stores.json")).unwrap()).unwrap()
}

/// Items of `bytes` (little-endian `dtype`) as f64.
pub fn values(dtype: &str, bytes: &[u8]) -> Vec<f64> {
    let n = match &dtype[1..] {
        "i1" | "u1" | "b1" => 1,
        "i2" | "u2" | "f2" => 2,
        "i4" | "u4" | "f4" => 4,
        _ => 8,
    };
    bytes
        .chunks_exact(n)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..n].copy_from_slice(c);
            match &dtype[1..] {
                "i1" => c[0] as i8 as f64,
                "u1" | "b1" => c[0] as f64,
                "i2" => i16::from_le_bytes([c[0], c[1]]) as f64,
                "u2" => u16::from_le_bytes([c[0], c[1]]) as f64,
                "i4" => i32::from_le_bytes(b[..4].try_into().unwrap()) as f64,
                "u4" => u32::from_le_bytes(b[..4].try_into().unwrap()) as f64,
                "f4" => f32::from_le_bytes(b[..4].try_into().unwrap()) as f64,
                "i8" => i64::from_le_bytes(b) as f64,
                "u8" => u64::from_le_bytes(b) as f64,
                "f8" => f64::from_le_bytes(b),
                other => panic!("dtype {other} not compared"),
            }
        })
        .collect()
}

/// Every array of `store` read whole, with its key, shape and dtype.
pub fn read_all(store: &Store) -> Vec<(String, Vec<i64>, String, Vec<u8>)> {
    let mut out = Vec::new();
    for m in store.members() {
        let d = store.describe(&m.key).unwrap();
        assert_eq!(d.kind, Kind::NdArray, "{}", m.key);
        let f = store.open_member(&m.key).unwrap();
        let r = ArrayReader::new(&f).unwrap();
        let (bytes, _) = r.read(&Selection::all(r.shape()), &ReadOptions::default()).unwrap();
        out.push((m.key.clone(), d.shape.unwrap(), d.dtype.unwrap(), bytes));
    }
    out
}

#[test]
fn store_fixtures_read_as_python_blosc2_reads_them() {
    let m = manifest();
    let stores = m["stores"].as_object().unwrap();
    assert_eq!(stores.len(), 5);
    for (name, expected) in stores {
        let store = Store::open(stores_dir().join(name)).unwrap();
        let got = read_all(&store);
        let keys: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
        let want: Vec<&str> = expected.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, want, "{name}");
        for (key, shape, dtype, bytes) in got {
            let e = &expected[&key];
            assert_eq!(dtype, e["dtype"].as_str().unwrap(), "{name} {key}");
            let eshape: Vec<i64> =
                e["shape"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            assert_eq!(shape, eshape, "{name} {key}");
            let edata: Vec<f64> = e["data"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            assert_eq!(values(&dtype, &bytes), edata, "{name} {key}");
        }
    }
}

#[test]
fn store_forms_and_places() {
    let dict = Store::open(stores_dir().join("dict.b2z")).unwrap();
    assert_eq!(dict.form().name(), "zip");
    // The small arrays went to embed.b2e (threshold 1000 bytes), the big one is a member.
    assert!(matches!(dict.member("/x").unwrap().place, Place::Embedded(_)));
    assert!(matches!(dict.member("/big").unwrap().place, Place::Zip { .. }));
    let tree = Store::open(stores_dir().join("tree.b2z")).unwrap();
    assert!(
        matches!(&tree.member("/g/h/deep").unwrap().place, Place::Zip { name, .. } if name == "g/h/deep.b2nd")
    );
    assert_eq!(Store::open(stores_dir().join("dict.b2d")).unwrap().form().name(), "directory");
    assert_eq!(Store::open(stores_dir().join("embed.b2e")).unwrap().form().name(), "embed");
    let e = tree.open_member("/nope").unwrap_err().to_string();
    assert!(e.contains("key"), "{e}");
}

/// Opening one member of a ZIP reads its local header and its frame's metadata, not the other
/// members.
#[test]
fn store_member_reads_only_its_bytes() {
    let path = stores_dir().join("tree.b2z");
    let len = std::fs::metadata(&path).unwrap().len();
    let store = Store::open(&path).unwrap();
    let Place::Zip { len: member_len, .. } = store.member("/g/x").unwrap().place else { panic!() };
    let f = store.open_member("/g/x").unwrap();
    assert!(f.bytes_read() <= member_len, "{} of {member_len}", f.bytes_read());
    assert!(f.offset() > 0 && f.offset() + f.frame_len() <= len);
}

pub use b2schema_tests::stored_zip::zip_of;

fn open_bytes(name: &str, bytes: &[u8]) -> Result<Store, b2schema::Error> {
    let dir = std::env::temp_dir().join(format!("b2schema-stores-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let r = Store::open(&path);
    // Open every member too: errors are fine, panics are not.
    if let Ok(s) = &r {
        for m in s.members() {
            if let Ok(f) = s.open_member(&m.key)
                && let Ok(r) = ArrayReader::new(&f)
            {
                let _ = r.read(&Selection::all(r.shape()), &ReadOptions::one_thread(1 << 24));
            }
        }
    }
    r
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(stores_dir().join(name)).unwrap()
}

fn x_frame() -> Vec<u8> {
    std::fs::read(stores_dir().join("dict.b2d/x.b2nd")).unwrap()
}

#[test]
fn crafted_zips_are_read_or_refused_by_name() {
    let x = x_frame();
    // Written here: a stored member is read like python-blosc2's.
    let s = open_bytes("ok.b2z", &zip_of(&[("g/x.b2nd", &x)], 0)).unwrap();
    assert_eq!(s.members()[0].key, "/g/x");
    let f = s.open_member("/g/x").unwrap();
    assert_eq!(ArrayReader::new(&f).unwrap().shape(), &[10]);
    // A deflated member is listed, and refused by name when opened.
    let s = open_bytes("deflated.b2z", &zip_of(&[("g/x.b2nd", &x)], 8)).unwrap();
    let e = s.open_member("/g/x").unwrap_err().to_string();
    assert!(e.contains("g/x.b2nd") && e.contains("deflate"), "{e}");
    // Keys with .. or control characters.
    for bad in ["../x.b2nd", "a/../../x.b2nd", "x\u{1b}[2J.b2nd", "/x.b2nd"] {
        let e = open_bytes("bad.b2z", &zip_of(&[(bad, &x)], 0)).unwrap_err().to_string();
        assert!(e.contains("store key"), "{bad}: {e}");
    }
    let good = zip_of(&[("x.b2nd", &x), ("y.b2nd", &x)], 0);
    let eocd = good.len() - 22;
    let cd_at = u32::from_le_bytes(good[eocd + 16..eocd + 20].try_into().unwrap()) as usize;
    let patch = |at: usize, v: &[u8]| {
        let mut b = good.clone();
        b[at..at + v.len()].copy_from_slice(v);
        b
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("cd past the end", patch(eocd + 16, &u32::MAX.to_le_bytes()[..3]), "central directory"),
        ("huge count", patch(eocd + 8, &[0xfe, 0xff, 0xfe, 0xff]), "entry count"),
        // The second member's local header offset moved into the first member.
        ("overlap", patch(cd_at + 46 + 6 + 42, &10u32.to_le_bytes()), "overlap"),
        // zip64 fields with no locator.
        ("zip64 lie", patch(eocd + 12, &u32::MAX.to_le_bytes()), "zip64"),
        ("no end record", good[..good.len() - 10].to_vec(), "end-of-central-directory"),
        ("bad signature", patch(cd_at, b"PK\x09\x09"), "signature"),
        ("local header lies", patch(0, b"PK\x09\x09"), "local file header"),
    ];
    for (what, bytes, needle) in cases {
        let r = open_bytes("crafted.b2z", &bytes);
        let e = match r {
            Err(e) => e.to_string(),
            Ok(s) => s.open_member("/x").map(|_| ()).unwrap_err().to_string(),
        };
        assert!(e.contains(needle), "{what}: {e}");
    }
}

#[test]
fn embed_offsets_outside_the_data_are_refused() {
    // dict.b2z's embed.b2e maps /x and /g/x: make its map point past the data by rewriting
    // the store through python-blosc2's own layout (an EmbedStore whose map lies) is not
    // possible from python, so the map's bytes are patched: the msgpack of `"length": n` with n
    // a positive fixint or uint16 becomes a larger one of the same width.
    let mut bytes = fixture("embed.b2e");
    let store = Store::open(stores_dir().join("embed.b2e")).unwrap();
    assert_eq!(store.members().len(), 4);
    // The map is a memcpyed or compressed vlmeta chunk: find `length` then `cd hi lo`.
    let at =
        bytes.windows(7).position(|w| w == b"length\xcd").expect("an uncompressed map with uint16 lengths");
    bytes[at + 7] = 0x7f;
    let e = open_bytes("lie.b2e", &bytes).map(|s| {
        s.members()
            .iter()
            .map(|m| s.open_member(&m.key).map(|_| ()).map_err(|e| e.to_string()))
            .collect::<Vec<_>>()
    });
    let text = format!("{e:?}");
    assert!(text.contains("ending by"), "{text}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Any few bytes of any store fixture changed: an error or a store, never a panic.
    #[test]
    fn mutated_stores_never_panic(which in 0usize..5, edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let name = ["dict.b2z", "tree.b2z", "small.b2z", "embed.b2e", "lie-past-end.b2e"][which];
        let mut bytes = fixture(name);
        for (i, v) in edits {
            let at = i.index(bytes.len());
            bytes[at] = v;
        }
        let _ = open_bytes(&format!("mut{which}.{}", &name[name.len() - 3..]), &bytes);
    }

    /// The same, aimed at the central directory and end records of a ZIP of five members
    /// (their last 400 bytes), with values that are often extreme (0, 0xff).
    #[test]
    fn mutated_central_directories_never_panic(edits in proptest::collection::vec((0usize..400, prop_oneof![Just(0u8), Just(0xff), any::<u8>()]), 1..12)) {
        let mut bytes = fixture("tree.b2z");
        let n = bytes.len();
        for (back, v) in edits {
            bytes[n - 1 - back] = v;
        }
        let _ = open_bytes("mutcd.b2z", &bytes);
    }
}

/// `zip` (from [`zip_of`]) with its end record moved into zip64 records: the end record's
/// fields 0xffff..., a zip64 end record and its locator before it. `count`, `cd_size` and
/// `cd_offset` override the zip64 record's values, `record_at` the locator's pointer.
fn zip64_of(zip: &[u8], count: Option<u64>, cd_offset: Option<u64>, record_at: Option<u64>) -> Vec<u8> {
    let eocd = zip.len() - 22;
    let n = u16::from_le_bytes([zip[eocd + 10], zip[eocd + 11]]) as u64;
    let size = u32::from_le_bytes(zip[eocd + 12..eocd + 16].try_into().unwrap()) as u64;
    let at = u32::from_le_bytes(zip[eocd + 16..eocd + 20].try_into().unwrap()) as u64;
    let mut out = zip[..eocd].to_vec();
    let rec = out.len() as u64;
    out.extend_from_slice(&0x0606_4b50u32.to_le_bytes());
    out.extend_from_slice(&44u64.to_le_bytes());
    out.extend_from_slice(&[45, 0, 45, 0]);
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&count.unwrap_or(n).to_le_bytes());
    out.extend_from_slice(&count.unwrap_or(n).to_le_bytes());
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&cd_offset.unwrap_or(at).to_le_bytes());
    out.extend_from_slice(&0x0706_4b50u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&record_at.unwrap_or(rec).to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&[0xff; 16]);
    out.extend_from_slice(&[0; 2]);
    out
}

#[test]
fn zip64_records_are_read_and_their_lies_refused() {
    let x = x_frame();
    let zip = zip_of(&[("x.b2nd", &x), ("g/y.b2nd", &x)], 0);
    let s = open_bytes("z64.b2z", &zip64_of(&zip, None, None, None)).unwrap();
    let keys: Vec<&str> = s.members().iter().map(|m| m.key.as_str()).collect();
    assert_eq!(keys, ["/g/y", "/x"]);
    assert_eq!(ArrayReader::new(&s.open_member("/g/y").unwrap()).unwrap().shape(), &[10]);
    let lies = [
        ("huge count", zip64_of(&zip, Some(u64::MAX / 2), None, None), "entry count"),
        ("count of three", zip64_of(&zip, Some(3), None, None), "entry count"),
        ("cd offset past the end", zip64_of(&zip, None, Some(u64::MAX - 10), None), "central directory"),
        ("record past the locator", zip64_of(&zip, None, None, Some(1 << 40)), "zip64"),
        ("record elsewhere", zip64_of(&zip, None, None, Some(0)), "zip64 end-of-central-directory signature"),
    ];
    for (what, bytes, needle) in lies {
        let e = open_bytes("z64lie.b2z", &bytes).unwrap_err().to_string();
        assert!(e.contains(needle), "{what}: {e}");
    }
}

fn u16_at(b: &[u8], at: usize) -> usize {
    u16::from_le_bytes([b[at], b[at + 1]]) as usize
}

fn u32_at(b: &[u8], at: usize) -> u64 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as u64
}

/// `zip` (from [`zip_of`]: no extra field, no comment) with each central entry's size,
/// compressed size and local header offset moved into a zip64 extra field (the fixed fields
/// 0xffffffff, as Python's `zipfile` writes them past 4 GiB), the values passed through `lie`
/// first and `cut` bytes taken off the end of every extra field.
fn zip64_extra_of(zip: &[u8], lie: impl Fn(usize, &mut [u64; 3]), cut: usize) -> Vec<u8> {
    let eocd = zip.len() - 22;
    let n = u16_at(zip, eocd + 10);
    let cd_at = u32_at(zip, eocd + 16) as usize;
    let mut out = zip[..cd_at].to_vec();
    let mut at = cd_at;
    for i in 0..n {
        let name_len = u16_at(zip, at + 28);
        let mut fixed = zip[at..at + 46].to_vec();
        let mut v = [u32_at(zip, at + 24), u32_at(zip, at + 20), u32_at(zip, at + 42)];
        lie(i, &mut v);
        for f in [20, 24, 42] {
            fixed[f..f + 4].copy_from_slice(&[0xff; 4]);
        }
        let mut extra = vec![1, 0];
        extra.extend_from_slice(&((24 - cut) as u16).to_le_bytes());
        v.iter().for_each(|x| extra.extend_from_slice(&x.to_le_bytes()));
        extra.truncate(4 + 24 - cut);
        fixed[30..32].copy_from_slice(&(extra.len() as u16).to_le_bytes());
        out.extend_from_slice(&fixed);
        out.extend_from_slice(&zip[at + 46..at + 46 + name_len]);
        out.extend_from_slice(&extra);
        at += 46 + name_len;
    }
    let cd_size = (out.len() - cd_at) as u32;
    out.extend_from_slice(&zip[eocd..eocd + 12]);
    out.extend_from_slice(&cd_size.to_le_bytes());
    out.extend_from_slice(&(cd_at as u32).to_le_bytes());
    out.extend_from_slice(&[0; 2]);
    out
}

/// Central entries whose sizes and offsets are in zip64 extra fields: read when they are
/// true; refused by name when they point past the end, overlap, overflow or are cut short.
#[test]
fn zip64_extra_fields_are_read_and_their_lies_refused() {
    let x = x_frame();
    let zip = zip_of(&[("x.b2nd", &x), ("g/y.b2nd", &x)], 0);
    let honest = zip64_extra_of(&zip, |_, _| {}, 0);
    let s = open_bytes("z64x.b2z", &honest).unwrap();
    assert_eq!(s.members().len(), 2);
    assert_eq!(ArrayReader::new(&s.open_member("/g/y").unwrap()).unwrap().shape(), &[10]);
    let both = zip64_of(&honest, None, None, None);
    assert_eq!(
        ArrayReader::new(&open_bytes("z64b.b2z", &both).unwrap().open_member("/x").unwrap()).unwrap().shape(),
        &[10]
    );
    let lies: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "offset past the end",
            zip64_extra_of(
                &zip,
                |i, v| {
                    if i == 1 {
                        v[2] = 1 << 40
                    }
                },
                0,
            ),
            "do not overlap",
        ),
        (
            "offset at u64::MAX",
            zip64_extra_of(
                &zip,
                |i, v| {
                    if i == 0 {
                        v[2] = u64::MAX
                    }
                },
                0,
            ),
            "do not overlap",
        ),
        ("huge compressed size", zip64_extra_of(&zip, |_, v| v[1] = u64::MAX - 3, 0), "do not overlap"),
        ("same offset twice", zip64_extra_of(&zip, |_, v| v[2] = 0, 0), "do not overlap"),
        ("offset field cut", zip64_extra_of(&zip, |_, _| {}, 8), "8-byte zip64 value"),
        ("every field cut", zip64_extra_of(&zip, |_, _| {}, 24), "8-byte zip64 value"),
    ];
    for (what, bytes, needle) in lies {
        let e = open_bytes("z64xlie.b2z", &bytes).unwrap_err().to_string();
        assert!(e.contains(needle) && e.contains("central_directory"), "{what}: {e}");
    }
}

#[test]
fn stores_are_read_within_the_budget() {
    use b2schema::Limits;
    let path = stores_dir().join("tree.b2z");
    // Five entries, counted against max_chunks.
    let e = Store::open_with_limits(&path, Limits::default().with_max_chunks(4)).unwrap_err();
    assert!(matches!(e.kind(), b2schema::ErrorKind::BudgetExceeded { .. }), "{e}");
    // The central directory is read within max_decompressed.
    let e = Store::open_with_limits(&path, Limits::default().with_max_decompressed(100)).unwrap_err();
    assert!(matches!(e.kind(), b2schema::ErrorKind::BudgetExceeded { .. }), "{e}");
    // An embedded member is gathered within max_decompressed.
    let store =
        Store::open_with_limits(stores_dir().join("embed.b2e"), Limits::default().with_max_decompressed(600))
            .unwrap();
    let e = store.open_member("/big").unwrap_err();
    assert!(matches!(e.kind(), b2schema::ErrorKind::BudgetExceeded { .. }), "{e}");
    // The whole embed store's data is one chunk of about 1.5 KB: within 2000 bytes, all opens.
    let store = Store::open_with_limits(
        stores_dir().join("embed.b2e"),
        Limits::default().with_max_decompressed(2000),
    )
    .unwrap();
    assert!(store.members().iter().all(|m| store.open_member(&m.key).is_ok()));
}

/// EmbedStores whose `estore_metadata` lies (written by python-blosc2 through the SChunk's
/// vlmeta, see `tests/data/stores/generate.py`): each refused, on opening or on reading the
/// member, with the field named.
#[test]
fn embed_maps_that_lie_are_refused_by_field() {
    let cases = [
        ("dotdot", "a . or .. part"),
        ("control", "the character \\u{1b}"),
        ("past-end", "embed_map[\"/x\"].offset"),
        ("huge", "embed_map[\"/x\"].offset"),
        ("negative", "non-negative"),
        ("not-a-frame", "header_len"),
        ("no-length", "{offset, length}"),
    ];
    for (name, needle) in cases {
        let path = stores_dir().join(format!("lie-{name}.b2e"));
        let e = match Store::open(&path) {
            Err(e) => e.to_string(),
            Ok(s) => s.members().iter().map(|m| s.open_member(&m.key).unwrap_err().to_string()).collect(),
        };
        assert!(e.contains(needle), "{name}: {e}");
    }
}

/// A ZIP comment moves the end record back from the end: it is searched for in the last 64 KiB.
#[test]
fn a_zip_comment_is_looked_past() {
    let x = x_frame();
    let mut zip = zip_of(&[("x.b2nd", &x)], 0);
    let n = zip.len();
    let comment = b"written by hand, PK\x05\x06 inside";
    zip[n - 2..].copy_from_slice(&(comment.len() as u16).to_le_bytes());
    zip.extend_from_slice(comment);
    let s = open_bytes("comment.b2z", &zip).unwrap();
    assert_eq!(s.members()[0].key, "/x");
    // Without the record, the search fails by name.
    let e = open_bytes("nocomment.b2z", &zip[..n - 22]).unwrap_err().to_string();
    assert!(e.contains("end-of-central-directory"), "{e}");
}

#[test]
fn a_key_twice_and_a_frame_that_is_no_store_are_refused() {
    let x = x_frame();
    for names in [["x.b2nd", "x.b2nd"], ["x.b2nd", "x.b2f"]] {
        let e =
            open_bytes("twice.b2z", &zip_of(&[(names[0], &x), (names[1], &x)], 0)).unwrap_err().to_string();
        assert!(e.contains("one member per key") && e.contains("\"/x\""), "{names:?}: {e}");
    }
    let e = open_bytes("plain.b2e", &x).unwrap_err().to_string();
    assert!(e.contains("b2embed"), "{e}");
}

/// Each kind python-blosc2 keeps in a store is named as python-blosc2 opens it.
#[test]
fn member_kinds_are_python_blosc2s() {
    let m = manifest();
    let store = Store::open(stores_dir().join("kinds.b2z")).unwrap();
    let kinds = m["kinds"].as_object().unwrap();
    assert_eq!(store.members().len(), kinds.len());
    for (key, python) in kinds {
        let d = store.describe(key).unwrap();
        let want = match python.as_str().unwrap() {
            "NDArray" => Kind::NdArray,
            "BatchArray" => Kind::BatchArray,
            "ObjectArray" => Kind::ObjectArray,
            "SChunk" => Kind::SChunk,
            other => panic!("{key}: {other}"),
        };
        assert_eq!(d.kind, want, "{key}");
    }
    let mut data = Vec::new();
    store.open_member("/schunk").unwrap().write_schunk(&mut data).unwrap();
    assert_eq!(data, (0..200u8).collect::<Vec<u8>>());
}

#[test]
fn an_encrypted_member_and_a_second_embed_store_are_named() {
    let x = x_frame();
    let mut zip = zip_of(&[("x.b2nd", &x)], 0);
    // Flag bit 0 in the central directory entry (after the local header and the member).
    let cd = 30 + "x.b2nd".len() + x.len();
    zip[cd + 8] = 1;
    let s = open_bytes("encrypted.b2z", &zip).unwrap();
    let e = s.open_member("/x").unwrap_err().to_string();
    assert!(e.contains("encrypted") && e.contains("x.b2nd"), "{e}");
    let embed = fixture("embed.b2e");
    let e = open_bytes("two-embeds.b2z", &zip_of(&[("embed.b2e", &embed), ("embed.b2e", &embed)], 0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("one embed.b2e"), "{e}");
}
