//! `store add`, `store rm` and `store vlmeta` (issue 50): python-blosc2 stores (`.b2d`, `.b2z`,
//! `.b2e`) changed from the shell, each change crash-safe (a `store add` killed by a file-size
//! limit at every length of the new `.b2z` leaves the old one, byte for byte, and the next add
//! completes) and never made to one of the command's own inputs; the man page lists them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use b2schema::store::{Flavour, Store, StoreWriter};
use b2schema::writer::{Fill, NdArray};

const BIN: &str = env!("CARGO_BIN_EXE_b2schema");

fn b2schema(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("b2schema-cli-store-edits-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn ok(out: &Output) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, b"", "a change prints nothing");
}

fn refused(out: &Output, says: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(says), "{err}");
}

/// A `<i4` array frame of `n` items from `seed`, written to `path`.
fn array(path: &Path, seed: i32, n: usize) {
    let data: Vec<u8> = (0..n as i32).flat_map(|i| (i + seed).to_le_bytes()).collect();
    NdArray::new(&[n as i64], &[64], &[16], "<i4", 4, Fill::Data(&data))
        .to_frame()
        .unwrap()
        .write_file(path)
        .unwrap();
}

/// A TreeStore with the member `/a` as a `.b2d`, a `.b2z` and a `.b2e` in `d`.
fn stores(d: &Path) -> [PathBuf; 3] {
    let a = d.join("a.b2nd");
    array(&a, 0, 10);
    let mut w = StoreWriter::new(Flavour::Tree);
    w.insert("/a", std::fs::read(&a).unwrap()).unwrap();
    w.write_dir(d.join("s.b2d")).unwrap();
    w.write_zip(d.join("s.b2z")).unwrap();
    let mut e = StoreWriter::new(Flavour::Tree).with_threshold(u64::MAX);
    e.insert("/a", std::fs::read(&a).unwrap()).unwrap();
    std::fs::write(d.join("s.b2e"), e.embed_store().unwrap()).unwrap();
    [d.join("s.b2d"), d.join("s.b2z"), d.join("s.b2e")]
}

fn keys(store: &Path) -> Vec<String> {
    Store::open(store).unwrap().keys().map(String::from).collect()
}

#[test]
fn store_add_rm_and_vlmeta_change_each_form_from_the_shell() {
    let d = dir("run");
    let x = d.join("x.b2nd");
    array(&x, 100, 7);
    for s in stores(&d) {
        let s = s.to_str().unwrap();
        ok(&b2schema(&["store", "add", s, "/g/x", x.to_str().unwrap()]));
        assert_eq!(keys(s.as_ref()), ["/a", "/g/x"]);
        refused(&b2schema(&["store", "add", s, "/g/x", x.to_str().unwrap()]), "--replace");
        refused(&b2schema(&["store", "add", s, "/g", x.to_str().unwrap()]), "group");
        refused(&b2schema(&["store", "add", s, "/../x", x.to_str().unwrap()]), "store key");
        ok(&b2schema(&["store", "add", "--replace", s, "/a", x.to_str().unwrap()]));
        let store = Store::open(s).unwrap();
        assert_eq!(store.get("/a").unwrap().read_as::<i32>("...").unwrap(), (100..107).collect::<Vec<_>>());
        ok(&b2schema(&["store", "vlmeta", "set", s, "title", r#"{"run": 7, "units": "m"}"#]));
        let got = b2schema(&["store", "vlmeta", "get", s, "title"]);
        assert_eq!(String::from_utf8_lossy(&got.stdout).trim(), r#"{"run":7,"units":"m"}"#);
        ok(&b2schema(&["store", "vlmeta", "del", s, "title"]));
        refused(&b2schema(&["store", "vlmeta", "rm", s, "title"]), "title");
        refused(&b2schema(&["store", "vlmeta", "get", s, "title"]), "no store vlmeta");
        ok(&b2schema(&["store", "rm", s, "/g"]));
        assert_eq!(keys(s.as_ref()), ["/a"]);
        refused(&b2schema(&["store", "rm", s, "/g/x"]), "/g/x");
    }
    let man = String::from_utf8_lossy(&b2schema(&["man"]).stdout).into_owned();
    for needed in ["STORE ADD", "STORE RM", "STORE VLMETA SET", "\\-\\-replace"] {
        assert!(man.contains(needed), "the man page lacks {needed}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn store_add_refuses_the_commands_own_inputs() {
    let d = dir("inputs");
    let [b2d, _, b2e] = stores(&d);
    let link = d.join("link.b2e");
    std::fs::hard_link(&b2e, &link).unwrap();
    let before = std::fs::read(&b2e).unwrap();
    let member = b2d.join("a.b2nd");
    for (store, file, says) in [
        (&b2e, &b2e, "is the input"),
        (&link, &b2e, "is the input"),
        (&b2e, &link, "is the input"),
        (&b2d, &member, "holds the input"),
    ] {
        refused(
            &b2schema(&["store", "add", "--replace", store.to_str().unwrap(), "/y", file.to_str().unwrap()]),
            says,
        );
    }
    assert_eq!(std::fs::read(&b2e).unwrap(), before);
    assert_eq!(keys(&b2d), ["/a"]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_store_add_killed_at_any_length_leaves_the_old_b2z() {
    let d = dir("killed");
    let [_, b2z, _] = stores(&d);
    let big = d.join("big.b2nd");
    array(&big, 5, 20_000);
    let old = std::fs::read(&b2z).unwrap();
    let grown = d.join("grown.b2z");
    std::fs::copy(&b2z, &grown).unwrap();
    ok(&b2schema(&["store", "add", grown.to_str().unwrap(), "/big", big.to_str().unwrap()]));
    let new_len = std::fs::metadata(&grown).unwrap().len() as usize;
    let step = (new_len / 10).max(1);
    for (i, limit) in (0..new_len).step_by(step).enumerate() {
        std::fs::write(&b2z, &old).unwrap();
        let trap = if i % 2 == 0 { "trap '' XFSZ; " } else { "" };
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("{trap}exec prlimit --fsize=\"$1\" -- \"$2\" store add \"$3\" /big \"$4\""))
            .args(["sh", &limit.to_string(), BIN, b2z.to_str().unwrap(), big.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(!out.status.success(), "limit {limit}");
        assert_eq!(std::fs::read(&b2z).unwrap(), old, "limit {limit}");
        assert_eq!(keys(&b2z), ["/a"], "limit {limit}");
        ok(&b2schema(&["store", "add", b2z.to_str().unwrap(), "/big", big.to_str().unwrap()]));
        assert_eq!(std::fs::read(&b2z).unwrap(), std::fs::read(&grown).unwrap(), "limit {limit}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
