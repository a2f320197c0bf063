//! `b2schema serve s3://bucket/prefix/` against moto (on 127.0.0.1, started by the test): the
//! prefix is listed as a directory is (its objects, a sparse frame's objects as one entry), and
//! each file shows what the same file in a local directory shows.

use std::path::Path;

use b2schema_tests::fixture_file;
use serde_json::{Value, json};

use crate::objects::moto;
use crate::serve::{TempDir, http, start_server, start_server_with};

#[test]
fn serve_lists_and_shows_an_s3_prefix_as_a_local_directory() {
    let s3 = moto();
    let dir = TempDir::new("serve-s3-prefix");
    let files = ["nd-3d-f8-zstd.b2nd", "special-nans-f8.b2nd", "sub/schunk-meta-values.b2frame"];
    for rel in files {
        let bytes =
            std::fs::read(fixture_file(Path::new(rel).file_name().unwrap().to_str().unwrap())).unwrap();
        std::fs::create_dir_all(dir.0.join(rel).parent().unwrap()).unwrap();
        std::fs::write(dir.0.join(rel), &bytes).unwrap();
        s3.put("data", &format!("served/{rel}"), &bytes);
    }
    let sparse = "sparse-2d-i4.b2nd";
    std::fs::create_dir(dir.0.join(sparse)).unwrap();
    for e in std::fs::read_dir(fixture_file(sparse)).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        std::fs::copy(&p, dir.0.join(sparse).join(&name)).unwrap();
        s3.put("data", &format!("served/{sparse}/{name}"), &std::fs::read(&p).unwrap());
    }
    let root = "s3://data/served/";
    let (_l, lp) = start_server(&[&dir.0]);
    let (_r, rp) = start_server_with(&[Path::new(root)], &s3.env());
    let get = |port: u16, q: &str| {
        let (status, _, body) = http(port, "GET", q, &format!("127.0.0.1:{port}"), None);
        (status, serde_json::from_slice::<Value>(&body).unwrap_or(Value::Null))
    };
    let (ls, mut l) = get(lp, "/api/files");
    let (rs, mut r) = get(rp, "/api/files");
    assert_eq!((ls, rs), (200, 200));
    assert_eq!(r["roots"], json!([root]));
    l["roots"] = Value::Null;
    r["roots"] = Value::Null;
    // The size of a remote sparse frame is its index's frame length.
    for v in [&mut l, &mut r] {
        for f in v["files"].as_array_mut().unwrap() {
            if f["path"] == json!(sparse) {
                f["size"] = Value::Null;
            }
        }
    }
    assert_eq!(l, r);
    let paths: Vec<&str> =
        r["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        ["nd-3d-f8-zstd.b2nd", sparse, "special-nans-f8.b2nd", "sub/schunk-meta-values.b2frame"]
    );
    assert!(r["files"].as_array().unwrap().iter().all(|f| f.get("error").is_none()), "{r}");
    for rel in paths {
        for q in [format!("/api/file?root=0&path={rel}"), format!("/api/value?root=0&path={rel}&at=0")] {
            let (ls, lb) = get(lp, &q);
            let (rs, rb) = get(rp, &q);
            assert_eq!((ls, &lb), (rs, &rb), "{q}");
        }
    }
    // Only what the listing shows: no key outside it, no escape (a frame beside the prefix).
    s3.put("data", "outside.b2nd", &std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap());
    for bad in ["nope.b2nd", "../outside.b2nd", "sub/../../outside.b2nd", "sparse-2d-i4.b2nd/00000000.chunk"]
    {
        let (status, _) = get(rp, &format!("/api/file?root=0&path={bad}"));
        assert!(status >= 400, "{bad}: {status}");
    }
}
