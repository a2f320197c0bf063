//! The `b2schema` binary on real files: `inspect --json` against what python-blosc2 reported,
//! the human output, `verify` on every fixture and compat frame, and errors on broken input.

use std::path::Path;
use std::process::{Command, Output};

use b2schema_tests::{compat_file, fixtures, repo_root, snapshot};
use serde_json::{Value, json};

fn b2schema(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_b2schema")).current_dir(repo_root()).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn inspect_json(path: &Path) -> Value {
    let o = b2schema(&["inspect", "--json", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 1, "exactly one JSON object on one line");
    serde_json::from_str(&text).unwrap()
}

/// python-blosc2 decodes `["__tuple__", ...]` into a tuple, which the fixture JSON writes as
/// `{"__tuple__": [...]}`; msgpack holds the list.
fn python_to_msgpack_json(v: &Value) -> Value {
    match v {
        Value::Object(m) if m.len() == 1 && m.contains_key("__tuple__") => {
            let mut items = vec![json!("__tuple__")];
            items.extend(m["__tuple__"].as_array().unwrap().iter().map(python_to_msgpack_json));
            Value::Array(items)
        }
        Value::Object(m) if m.contains_key("__bytes__") => v.clone(),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), python_to_msgpack_json(v))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(python_to_msgpack_json).collect()),
        _ => v.clone(),
    }
}

#[test]
fn inspect_json_matches_python_blosc2_on_every_fixture() {
    for (name, fx) in fixtures() {
        let path = repo_root().join("tests/data/fixtures").join(&name);
        let j = inspect_json(&path);
        let h = &j["header"];
        let ctx = |what: &str| format!("{name}: {what}");
        assert_eq!(j["kind"], json!(fx.kind), "{}", ctx("kind"));
        assert_eq!(h["nbytes"], json!(fx.schunk.nbytes), "{}", ctx("nbytes"));
        assert_eq!(h["cbytes"], json!(fx.schunk.cbytes), "{}", ctx("cbytes"));
        assert_eq!(h["typesize"], json!(fx.schunk.typesize), "{}", ctx("typesize"));
        assert_eq!(j["nchunks"], json!(fx.schunk.nchunks), "{}", ctx("nchunks"));
        assert_eq!(h["codec_id"], json!(fx.cparams.codec_value), "{}", ctx("codec_id"));
        assert_eq!(h["codec"], json!(fx.cparams.codec.to_lowercase()), "{}", ctx("codec"));
        assert_eq!(h["clevel"], json!(fx.cparams.clevel), "{}", ctx("clevel"));
        assert_eq!(h["filters"], json!(fx.cparams.filters), "{}", ctx("filters"));
        let metas: Vec<i64> = fx.cparams.filters_meta.iter().map(|m| m & 0xff).collect();
        assert_eq!(h["filters_meta"], json!(metas), "{}", ctx("filters_meta"));
        let split = fx.cparams.splitmode.trim_end_matches("_SPLIT").to_lowercase();
        assert_eq!(h["splitmode"], json!(split), "{}", ctx("splitmode"));
        assert_eq!(h["use_dict"], json!(fx.cparams.use_dict), "{}", ctx("use_dict"));

        let metas = j["metalayers"].as_array().unwrap();
        assert_eq!(metas.len(), fx.meta.len(), "{}", ctx("metalayers"));
        for (m, want) in metas.iter().zip(&fx.meta) {
            assert_eq!(m["name"], json!(want.name), "{}", ctx("metalayer name"));
            assert_eq!(m["hex"], json!(want.raw_hex), "{}", ctx("metalayer bytes"));
        }
        if let Some(nd) = &fx.ndarray {
            let b = &metas[0]["b2nd"];
            assert_eq!(b["shape"], json!(nd.shape), "{}", ctx("shape"));
            assert_eq!(b["chunkshape"], json!(nd.chunks), "{}", ctx("chunkshape"));
            assert_eq!(b["blockshape"], json!(nd.blocks), "{}", ctx("blockshape"));
            assert_eq!(b["layout"], json!("b2nd-7"), "{}", ctx("layout"));
        }

        let vls = j["vlmetalayers"].as_array().unwrap();
        assert_eq!(vls.len(), fx.vlmeta.len(), "{}", ctx("vlmetalayers"));
        for (m, want) in vls.iter().zip(&fx.vlmeta) {
            assert_eq!(m["name"], json!(want.name), "{}", ctx("vlmeta name"));
            assert_eq!(m["hex"], json!(want.raw_hex), "{}", ctx("vlmeta bytes"));
            if let Some(decoded) = &want.decoded {
                assert_eq!(
                    m["value"],
                    python_to_msgpack_json(decoded),
                    "{}",
                    ctx(&format!("vlmeta {}", want.name))
                );
            }
        }

        let chunks = j["chunks"].as_array().unwrap();
        assert_eq!(chunks.len(), fx.chunks.len(), "{}", ctx("chunks"));
        for (c, want) in chunks.iter().zip(&fx.chunks) {
            let special = match want.special.as_str() {
                "ZERO" => json!("zeros"),
                "NAN" => json!("nan"),
                "UNINIT" => json!("uninit"),
                "VALUE" => json!("value"),
                _ => Value::Null,
            };
            assert_eq!(c["special"], special, "{}", ctx(&format!("chunk {} special", want.index)));
            assert_eq!(c["nbytes"], json!(want.nbytes), "{}", ctx(&format!("chunk {} nbytes", want.index)));
            if c["cbytes"] != json!(0) {
                assert_eq!(c["cbytes"], json!(want.len), "{}", ctx(&format!("chunk {} cbytes", want.index)));
            }
        }
    }
}

#[test]
fn verify_passes_on_every_fixture_and_compat_frame() {
    let mut paths: Vec<_> =
        fixtures().keys().map(|n| repo_root().join("tests/data/fixtures").join(n)).collect();
    let mut stack = vec![compat_file("")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("b2nd" | "b2frame")) {
                paths.push(p);
            }
        }
    }
    assert!(paths.len() > 150);
    for p in paths {
        let o = b2schema(&["verify", p.to_str().unwrap()]);
        assert!(o.status.success(), "{}: {}", p.display(), stdout(&o));
    }
}

#[test]
fn verify_names_the_offset_and_field_of_a_flipped_byte() {
    let src = compat_file("c-blosc2/plugins/test_data/example_day_month_temp.b2nd");
    let mut bytes = std::fs::read(src).unwrap();
    bytes[47] = 0xd3; // typesize's int32 marker
    let path = std::env::temp_dir().join(format!("b2schema-cli-{}.b2nd", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let o = b2schema(&["verify", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains(
            "header   does not decode: expected int32 marker d2 at offset 47 (typesize), found d3 (int64)"
        ),
        "{out}"
    );
    assert!(out.contains("trailer  35 bytes, re-encoded identically"), "{out}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn unreadable_input_is_reported_with_exit_code_2() {
    let dir = std::env::temp_dir().join(format!("b2schema-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let frame = std::fs::read(compat_file("c-blosc2/plugins/test_data/example_day_month_temp.b2nd")).unwrap();
    let mut seed = 0x2545f4914f6cdd1du64;
    let mut cases: Vec<Vec<u8>> =
        vec![vec![], b"not a frame".to_vec(), frame[..100].to_vec(), frame[..2600].to_vec()];
    cases.push(
        (0..3000)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect(),
    );
    for (i, bytes) in cases.iter().enumerate() {
        let path = dir.join(format!("case{i}"));
        std::fs::write(&path, bytes).unwrap();
        for cmd in ["inspect", "verify", "dump"] {
            let o = b2schema(&[cmd, path.to_str().unwrap()]);
            if cmd == "dump" && o.status.success() {
                continue; // a dump shows what it can
            }
            assert_eq!(o.status.code(), Some(2), "{cmd} case{i}: {}", stdout(&o));
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.starts_with("b2schema: ") && !err.contains("panicked"), "{cmd} case{i}: {err}");
        }
    }
    let o = b2schema(&["inspect", dir.join("missing").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn human_output_snapshots() {
    for (name, rel) in [
        ("inspect_nd_meta_vlmeta", "tests/data/fixtures/nd-meta-vlmeta.b2nd"),
        ("inspect_sparse", "tests/data/fixtures/sparse-special-2d-f8.b2nd"),
        ("inspect_schunk_vlmeta", "tests/data/fixtures/schunk-vlmeta-values.b2frame"),
    ] {
        let o = b2schema(&["inspect", rel]);
        assert!(o.status.success());
        snapshot!(name, stdout(&o));
    }
    let o = b2schema(&["dump", "tests/data/fixtures/nd-2d-u2.b2nd"]);
    snapshot!("dump_nd_2d", stdout(&o));
    let o = b2schema(&["layout", "frame-header"]);
    snapshot!("layout_frame_header", stdout(&o));
}

#[test]
fn cat_exports_array_data_in_c_order() {
    use sha2::{Digest, Sha256};
    for (name, fx) in fixtures() {
        let Some(h) = fx.ndarray.as_ref().and_then(|n| n.data_sha256.clone()) else { continue };
        if !name.starts_with("nd-") && !name.starts_with("dtype-") {
            continue;
        }
        let o = b2schema(&["cat", &format!("tests/data/fixtures/{name}")]);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let got: String = Sha256::digest(&o.stdout).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, h, "{name}");
    }
}
