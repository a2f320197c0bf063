//! The `b2schema` binary on real files: `inspect --json` against what python-blosc2 reported,
//! the human output, `verify` on every fixture and compat frame, errors on broken input, and
//! `inspect` over many paths (JSON Lines).

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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

/// The JSON Lines of `inspect --json PATH...`, one value per line.
fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o).lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// An empty directory of its own under the temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
    let fixture_count = paths.len();
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
    assert!(fixture_count >= 118, "{fixture_count} fixtures");
    assert_eq!(paths.len() - fixture_count, 28, "frames in tests/data/compat");
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
    // One line, naming the file and the part that failed.
    assert_eq!(
        out,
        format!(
            "FAIL {}: header: does not decode: expected int32 marker d2 at offset 47 (typesize), found d3 (int64)\n",
            path.display()
        )
    );
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

#[test]
fn inspect_json_lines_over_the_fixture_directory() {
    let dir = "tests/data/fixtures";
    let not_frames = ["tests/data/fixtures.json", "tests/data/generate.py", "tests/data/README.md"];
    let o = b2schema(&[&["inspect", "--json", dir][..], &not_frames].concat());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");

    let mut names: Vec<String> = std::fs::read_dir(repo_root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let lines = json_lines(&o);
    let paths: Vec<&str> = lines.iter().map(|l| l["path"].as_str().unwrap()).collect();
    let mut want: Vec<String> = names.iter().map(|n| format!("{dir}/{n}")).collect();
    want.extend(not_frames.map(String::from));
    assert_eq!(paths, want, "the directory's entries sorted by name, then the paths as given");
    assert!(paths[..names.len()].is_sorted());
    assert_eq!(err, format!("b2schema: 3 of {} inputs could not be read\n", want.len()));

    let fixtures = fixtures();
    assert!(names.iter().filter(|n| n.ends_with(".b2nd") || n.ends_with(".b2frame")).count() > 100);
    let mut compared = 0;
    for (name, line) in names.iter().zip(&lines) {
        if fixtures.contains_key(name) {
            assert_eq!(*line, inspect_json(&Path::new(dir).join(name)), "{name}");
            compared += 1;
        }
    }
    assert_eq!(compared, fixtures.len(), "every fixture has its line");

    for (path, line) in not_frames.iter().zip(&lines[names.len()..]) {
        let fields: Vec<&String> = line.as_object().unwrap().keys().collect();
        assert_eq!(fields, ["path", "error"], "{path}: {line}");
        let message = line["error"].as_str().unwrap();
        assert!(
            message.starts_with(
                "not a Blosc2 frame (no b2frame magic at offset 2); expected int32 marker d2 at offset 10 (header_len), found "
            ),
            "{message}"
        );
    }
}

#[test]
fn inspect_json_lines_of_two_good_files_exit_0() {
    let paths = ["tests/data/fixtures/nd-2d-u2.b2nd", "tests/data/fixtures/sparse-special-2d-f8.b2nd"];
    let o = b2schema(&[&["inspect", "--json"][..], &paths].concat());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty());
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 2);
    for (path, line) in paths.iter().zip(&lines) {
        assert_eq!(*line, inspect_json(Path::new(path)), "{path}");
    }
}

#[test]
fn inspect_expands_a_plain_directory_without_recursing() {
    let fx = repo_root().join("tests/data/fixtures");
    let dir = temp_dir("scan");
    std::fs::write(dir.join("a.txt"), "not a frame\n".repeat(10)).unwrap();
    std::fs::copy(fx.join("nd-2d-u2.b2nd"), dir.join("b.b2nd")).unwrap();
    std::fs::create_dir(dir.join("c-sparse.b2nd")).unwrap();
    for e in std::fs::read_dir(fx.join("sparse-2d-i4.b2nd")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join("c-sparse.b2nd").join(e.file_name())).unwrap();
    }
    std::fs::create_dir(dir.join("d-plain")).unwrap();
    std::fs::copy(fx.join("nd-2d-u2.b2nd"), dir.join("d-plain/skipped.b2nd")).unwrap();
    let (a, b, c) = (dir.join("a.txt"), dir.join("b.b2nd"), dir.join("c-sparse.b2nd"));
    let text = |p: &Path| p.to_str().unwrap().to_owned();

    let o = b2schema(&["inspect", "--json", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let lines = json_lines(&o);
    let paths: Vec<&str> = lines.iter().map(|l| l["path"].as_str().unwrap()).collect();
    assert_eq!(paths, [text(&a), text(&b), text(&c)], "files and sparse frames, sorted, not recursing");
    assert!(lines[0]["error"].as_str().unwrap().contains("(header_len)"), "{}", lines[0]);
    assert_eq!(lines[1], inspect_json(&b));
    assert_eq!(lines[2], inspect_json(&c));
    assert_eq!(lines[2]["kind"], "sframe");

    // Human reports, one after the other with an empty line between; the error on stderr.
    let o = b2schema(&["inspect", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let single = |p: &Path| stdout(&b2schema(&["inspect", p.to_str().unwrap()]));
    assert_eq!(stdout(&o), format!("{}\n{}", single(&b), single(&c)));
    let err = String::from_utf8_lossy(&o.stderr);
    let first = err.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "b2schema: {}: not a Blosc2 frame (no b2frame magic at offset 2); expected int32 marker d2 at offset 10",
            text(&a)
        )),
        "{err}"
    );
    assert_eq!(err.lines().nth(1), Some("b2schema: 1 of 3 inputs could not be read"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inspect_offset_applies_to_every_path() {
    let dir = temp_dir("offset");
    let mut paths = Vec::new();
    for name in ["nd-2d-u2.b2nd", "schunk-vlmeta-values.b2frame"] {
        let mut bytes = vec![0xa5; 100];
        bytes.extend(std::fs::read(repo_root().join("tests/data/fixtures").join(name)).unwrap());
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        paths.push(path.to_str().unwrap().to_owned());
    }
    let o = b2schema(&["inspect", "--json", "--offset", "100", &paths[0], &paths[1]]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 2);
    for (path, line) in paths.iter().zip(&lines) {
        assert_eq!(line["path"], json!(path));
        assert!(line.get("error").is_none() && line["nchunks"].as_u64() > Some(0), "{line}");
    }
    let o = b2schema(&["inspect", "--json", &paths[0], &paths[1]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(json_lines(&o).iter().all(|l| l.get("error").is_some()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inspect_ends_quietly_when_the_reader_closes_the_pipe() {
    // Far more output than a pipe holds, so the writer meets the closed pipe.
    let args: Vec<&str> =
        ["inspect", "--json"].into_iter().chain(std::iter::repeat_n("tests/data/fixtures", 30)).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_b2schema"))
        .current_dir(repo_root())
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(serde_json::from_str::<Value>(&first).is_ok(), "{first}");
    let o = child.wait_with_output().unwrap();
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn layout_ends_quietly_when_the_reader_closes_the_pipe() {
    // The reader gone before the command writes: every write meets the closed pipe.
    for args in [&["layout"][..], &["layout", "frame-header"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_b2schema"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert!(o.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(o.status.code(), Some(0), "{args:?}");
    }
}
