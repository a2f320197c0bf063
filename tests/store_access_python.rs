//! A store as a new user reads it (issue 51): a TreeStore python-blosc2 wrote, with groups, the
//! store's own vlmeta and members of several kinds, read in one line each through
//! `Store::get`, `keys`, `groups`, `vlmeta`; `b2schema::open` of a store says what it is; errors
//! name the store and the member.

use b2schema::store::Store;
use b2schema_tests::python;
use serde_json::json;

const WRITE: &str = r#"
import sys, blosc2, numpy as np
with blosc2.TreeStore(sys.argv[1], mode="w") as ts:
    ts["/fields/temp"] = np.arange(12, dtype=np.float32).reshape(3, 4)
    ts["/fields/deep/p"] = np.arange(5, dtype=np.int64)
    ts["/stations"] = np.array([b"lhasa", b"oslo"])
    ts.vlmeta["title"] = "climate"
    ts.vlmeta["grid"] = {"dx": 0.25, "n": [3, 4]}
"#;

#[test]
fn a_python_tree_store_reads_in_one_line_each() {
    let dir = std::env::temp_dir().join(format!("b2schema-store-access-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("climate.b2z");
    let out = std::process::Command::new(python()).arg("-c").arg(WRITE).arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let store = Store::open(&path).unwrap();
    assert_eq!(store.keys().collect::<Vec<_>>(), ["/fields/deep/p", "/fields/temp", "/stations"]);
    assert!(
        store.member(b2schema::store::VLMETA_KEY).is_some(),
        "python kept the store's vlmeta in a member"
    );
    assert_eq!(store.groups(), ["/fields", "/fields/deep"]);
    assert_eq!(store.get("/fields/temp").unwrap().read_as::<f32>("2").unwrap(), [8.0, 9.0, 10.0, 11.0]);
    assert_eq!(store.get("/fields/deep/p").unwrap().read_as::<i64>("...").unwrap(), [0, 1, 2, 3, 4]);
    assert_eq!(store.vlmeta_as::<String>("title").unwrap().as_deref(), Some("climate"));
    let grid: serde_json::Value = store.vlmeta_as("grid").unwrap().unwrap();
    assert_eq!(grid, json!({"dx": 0.25, "n": [3, 4]}));
    let names: Vec<String> = store.vlmeta().unwrap().into_iter().map(|(k, _)| k).collect();
    assert_eq!(names, ["title", "grid"]);

    // Errors name the store and the member, without an offset that means nothing.
    let e = store.get("/fields/temp").unwrap().read_as::<i64>("0").unwrap_err().to_string();
    assert!(e.contains("/fields/temp"), "{e}");
    let e = store.get("/nope").unwrap_err();
    assert_eq!(e.file(), Some(path.display().to_string().as_str()), "{e}");
    // Matched by kind (issue 46), with the key asked for and a few of the store's.
    assert!(
        matches!(e.kind(), b2schema::ErrorKind::NoSuchKey { key, keys, .. }
            if key == "/nope" && keys.iter().any(|k| k == "/fields/temp")),
        "{e:?}"
    );
    assert!(e.to_string().contains("/nope") && e.to_string().contains("/fields/temp"), "{e}");

    // b2schema::open of a store: not "not a Blosc2 frame", but what it is and what to call.
    let e = b2schema::open(&path).unwrap_err();
    assert!(
        matches!(e.kind(), b2schema::ErrorKind::AStore { keys, .. } if keys.iter().any(|k| k == "/fields/temp")),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(e.contains("store") && e.contains("Store::open") && e.contains("/fields/temp"), "{e}");
    assert!(!e.contains("  "), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The library's openers name the file in their errors, I/O ones included (issue 51).
#[test]
fn every_opener_names_the_file() {
    let missing = std::env::temp_dir().join(format!("b2schema-missing-{}.b2nd", std::process::id()));
    let e = b2schema::frame::FrameFile::open(&missing).unwrap_err();
    assert_eq!(e.file(), Some(missing.display().to_string().as_str()), "{e}");
    assert!(
        matches!(e.kind(), b2schema::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound),
        "{e:?}"
    );
    assert!(e.to_string().starts_with(&format!("{}: ", missing.display())), "{e}");
    let e = b2schema::frame::FrameFile::open_at(&missing, 8).unwrap_err();
    assert_eq!(e.file(), Some(missing.display().to_string().as_str()), "{e}");
    let e = Store::open(&missing).unwrap_err();
    assert!(e.to_string().contains(&missing.display().to_string()), "{e}");
    let e = b2schema::open(&missing).unwrap_err().to_string();
    assert_eq!(e.matches(&missing.display().to_string()).count(), 1, "{e}");
}
