//! Stores changed in place (`b2schema::store::StoreMut`, issue 50): random sequences of adds,
//! replacements, removals and store-vlmeta changes on `.b2d`, `.b2z` and `.b2e` stores checked
//! against a model after every step; the writer's lock; TreeStore key rules; keys and store
//! directories that try to send a write outside the store; crafted ZIPs refused unchanged.
//! (python-blosc2 reading and editing the results: `tests/store_edits_python.rs`.)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use b2schema::ErrorKind;
use b2schema::store::{Flavour, Store, StoreMut, StoreWriter};
use b2schema::writer::{Fill, NdArray, schunk};
use b2schema_tests::XorShift as Rng;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-store-edits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small `<i4` array of `n` items from `seed`.
pub fn array(seed: i32, n: usize) -> Vec<u8> {
    let data: Vec<u8> = (0..n as i32).flat_map(|i| (i * 7 + seed).to_le_bytes()).collect();
    NdArray::new(&[n as i64], &[4], &[2], "<i4", 4, Fill::Data(&data)).to_frame().unwrap().to_vec().unwrap()
}

/// The three forms, each with member `/a` (a file, or embedded in the `.b2e`).
pub fn stores(dir: &Path, flavour: Flavour) -> Vec<PathBuf> {
    let mut w = StoreWriter::new(flavour);
    w.insert("/a", array(1, 5)).unwrap();
    let (d, z, e) = (dir.join("s.b2d"), dir.join("s.b2z"), dir.join("s.b2e"));
    w.write_dir(&d).unwrap();
    w.write_zip(&z).unwrap();
    let mut all_embedded = StoreWriter::new(flavour).with_threshold(u64::MAX);
    all_embedded.insert("/a", array(1, 5)).unwrap();
    std::fs::write(&e, all_embedded.embed_store().unwrap()).unwrap();
    vec![d, z, e]
}

/// Every member's frame bytes, by key, as b2schema reads the store.
fn contents(path: &Path) -> BTreeMap<String, Vec<i32>> {
    let store = Store::open(path).unwrap();
    store.keys().map(|k| (k.to_string(), store.get(k).unwrap().read_as::<i32>("...").unwrap())).collect()
}

fn items(frame: &[u8]) -> Vec<i32> {
    b2schema::handle::Container::from_frame(
        b2schema::frame::FrameFile::from_bytes(frame.to_vec(), "m", Default::default()).unwrap(),
    )
    .unwrap()
    .read_as::<i32>("...")
    .unwrap()
}

#[test]
fn random_changes_to_each_form_match_a_model() {
    let dir = tmp("model");
    let mut rng = Rng(0x5703_ed17);
    for flavour in [Flavour::Dict, Flavour::Tree] {
        let sub = dir.join(format!("{flavour:?}"));
        std::fs::create_dir_all(&sub).unwrap();
        for path in stores(&sub, flavour) {
            let mut model: BTreeMap<String, Vec<i32>> = BTreeMap::from([("/a".into(), items(&array(1, 5)))]);
            let mut vlmeta: BTreeMap<String, i64> = BTreeMap::new();
            let mut s = StoreMut::open(&path).unwrap();
            for step in 0..24 {
                let key = ["/a", "/b", "/g/c", "/g/d", "/h/i/j"][rng.below(5) as usize];
                let what = rng.below(6);
                let at = format!("{} step {step}: {what} {key}", path.display());
                match what {
                    0 | 1 => {
                        let frame = array(step, 1 + rng.below(9) as usize);
                        let r = s.insert(key, frame.clone());
                        if model.contains_key(key) {
                            assert!(matches!(r.unwrap_err().kind(), ErrorKind::KeyExists { .. }), "{at}");
                        } else {
                            r.unwrap();
                            model.insert(key.into(), items(&frame));
                        }
                    }
                    2 => {
                        let frame = array(-step, 1 + rng.below(9) as usize);
                        s.set(key, frame.clone()).unwrap();
                        model.insert(key.into(), items(&frame));
                    }
                    3 => {
                        let r = s.remove(key);
                        if model.remove(key).is_none() {
                            assert!(matches!(r.unwrap_err().kind(), ErrorKind::NoSuchKey { .. }), "{at}");
                        } else {
                            r.unwrap();
                        }
                    }
                    4 => {
                        let name = ["units", "n"][rng.below(2) as usize];
                        s.set_vlmeta(name, &(step as i64)).unwrap();
                        vlmeta.insert(name.into(), step as i64);
                    }
                    _ => {
                        let name = ["units", "n"][rng.below(2) as usize];
                        let r = s.delete_vlmeta(name);
                        if vlmeta.remove(name).is_none() {
                            assert!(matches!(r.unwrap_err().kind(), ErrorKind::NoSuchKey { .. }), "{at}");
                        } else {
                            r.unwrap();
                        }
                    }
                }
                assert_eq!(contents(&path), model, "{at}");
                let got: BTreeMap<String, i64> = Store::open(&path)
                    .unwrap()
                    .vlmeta()
                    .unwrap()
                    .into_iter()
                    .map(|(k, v)| (k, v.as_i64().unwrap()))
                    .collect();
                assert_eq!(got, vlmeta, "{at}");
            }
            drop(s);
            // Nothing is left beside the store (no temporary file).
            let names: Vec<_> = std::fs::read_dir(&sub).unwrap().map(|e| e.unwrap().file_name()).collect();
            assert!(names.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")), "{names:?}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_writer_is_refused_while_the_first_holds_the_store() {
    let dir = tmp("lock");
    for path in stores(&dir, Flavour::Dict) {
        let mut first = StoreMut::open(&path).unwrap();
        assert!(StoreMut::open(&path).unwrap_err().to_string().contains("locked"), "{}", path.display());
        // The lock passes to the file a rewrite renames onto the store's name.
        first.insert("/b", array(2, 3)).unwrap();
        let err = StoreMut::open(&path).unwrap_err();
        assert!(err.to_string().contains("locked"), "{}: {err}", path.display());
        drop(first);
        StoreMut::open(&path).unwrap().remove("/b").unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tree_store_keys_are_refused_as_python_blosc2_refuses_them() {
    let dir = tmp("tree");
    for path in stores(&dir, Flavour::Tree) {
        let mut s = StoreMut::open(&path).unwrap();
        s.insert("/g/x", array(3, 2)).unwrap();
        let before = contents(&path);
        for (key, what) in
            [("/g", "a leaf where a group is"), ("/a/b", "below a leaf"), ("/g/x/y", "below a leaf")]
        {
            let e = s.insert(key, array(4, 2)).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Invalid(_)), "{}: {key} ({what}): {e}", path.display());
            assert!(s.set(key, array(4, 2)).is_err(), "{key}");
        }
        for key in [
            "/__vlmeta__",
            "/g/__vlmeta__",
            "x",
            "/",
            "/a/",
            "//a",
            "/a/../b",
            "/./a",
            "/a\\..\\b",
            "/\\b",
            "/c:x",
            "/a\n",
        ] {
            let e = s.insert(key, array(4, 2)).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Invalid(_)), "{key:?}: {e}");
            assert!(s.remove(key).is_err(), "{key:?}");
        }
        // A `\` inside a part, as python-blosc2 takes it (and writes it: a struct field's
        // escaped dot).
        s.insert("/a.b\\.c", array(4, 2)).unwrap();
        s.remove("/a.b\\.c").unwrap();
        // A group removed takes everything below it.
        s.insert("/g/y/z", array(5, 2)).unwrap();
        s.remove("/g").unwrap();
        assert_eq!(contents(&path).into_keys().collect::<Vec<_>>(), ["/a"]);
        assert_eq!(before.len(), 2);
        assert!(matches!(s.remove("/g").unwrap_err().kind(), ErrorKind::NoSuchKey { .. }));
        assert!(matches!(s.delete_vlmeta("nope").unwrap_err().kind(), ErrorKind::NoSuchKey { .. }));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file under `root` with its bytes.
fn tree_of(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                todo.push(p);
            } else if m.is_file() {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

#[cfg(unix)]
#[test]
fn no_key_nor_link_makes_a_directory_store_write_outside_itself() {
    let dir = tmp("outside");
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("victim.b2nd"), b"keep").unwrap();
    let d = stores(&dir, Flavour::Dict).remove(0);
    // A group directory that is a link out of the store, a member file that is a link out of it.
    std::os::unix::fs::symlink(&outside, d.join("g")).unwrap();
    std::os::unix::fs::symlink(outside.join("victim.b2nd"), d.join("v.b2nd")).unwrap();
    let before = tree_of(&outside);
    let mut s = StoreMut::open(&d).unwrap_or_else(|e| panic!("{e}"));
    for key in ["/../outside/x", "/g/../../outside/x", "/g/x", "/g/victim", "/./x", "//x"] {
        assert!(s.insert(key, array(6, 2)).is_err(), "{key}");
        assert!(s.set(key, array(6, 2)).is_err(), "{key}");
        assert!(s.remove(key).is_err(), "{key}");
    }
    // The member behind a link is replaced by a file of the store: the link goes, its target stays.
    s.set("/v", array(7, 3)).unwrap();
    assert!(!std::fs::symlink_metadata(d.join("v.b2nd")).unwrap().file_type().is_symlink());
    s.remove("/v").unwrap();
    assert_eq!(tree_of(&outside), before);
    let listed: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    let mut listed = listed;
    listed.sort();
    assert_eq!(listed, ["outside", "s.b2d", "s.b2e", "s.b2z"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn crafted_zips_are_refused_and_left_as_they_were() {
    let dir = tmp("crafted");
    let a = array(1, 5);
    let embed = StoreWriter::new(Flavour::Dict).embed_store().unwrap();
    // CRC-32 of 0 (the bytes say otherwise); a deflated member; a name that climbs out.
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("bad-crc", b2schema_tests::stored_zip::zip_of(&[("a.b2nd", &a), ("embed.b2e", &embed)], 0)),
        ("deflated", b2schema_tests::stored_zip::zip_of(&[("a.b2nd", &a), ("embed.b2e", &embed)], 8)),
        ("climbs", b2schema_tests::stored_zip::zip_of(&[("../a.b2nd", &a), ("embed.b2e", &embed)], 0)),
    ];
    for (name, bytes) in cases {
        let p = dir.join(format!("{name}.b2z"));
        std::fs::write(&p, &bytes).unwrap();
        let r = StoreMut::open(&p).and_then(|mut s| s.insert("/b", array(2, 2)));
        assert!(r.is_err(), "{name}");
        assert_eq!(std::fs::read(&p).unwrap(), bytes, "{name}");
    }
    let mut listed: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    listed.sort();
    assert_eq!(listed, ["bad-crc.b2z", "climbs.b2z", "deflated.b2z"]);
    // A frame that is not one, or a sparse frame's index, is refused as a member.
    let z = stores(&dir, Flavour::Dict).remove(1);
    let mut s = StoreMut::open(&z).unwrap();
    assert!(s.insert("/x", b"not a frame".to_vec()).is_err());
    let sparse = dir.join("sp.b2frame");
    schunk(&[1u8; 100], 1, 50, Default::default()).unwrap().write_sparse(&sparse).unwrap();
    assert!(s.insert("/x", std::fs::read(sparse.join("chunks.b2frame")).unwrap()).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
