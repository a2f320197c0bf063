//! The command as its users expect it (issue 22): the `inspect --json` contract checked against
//! its JSON Schema for every fixture and compat frame, keys in the order of the format, one set
//! of options (`--offset` everywhere, absolute offsets), first words that tell the story, a
//! `dump` that explains every byte, completions, the man page, colour and the exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use b2schema_tests::{compat_file, repo_root, snapshot};
use serde_json::Value;

fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_b2schema"));
    c.current_dir(repo_root()).args(args).env_remove("NO_COLOR");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn b2schema(args: &[&str]) -> Output {
    run(args, &[])
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-contract-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn schema_text() -> String {
    std::fs::read_to_string(repo_root().join("b2schema-cli/schema/inspect.schema.json")).unwrap()
}

/// The compiled schema of `inspect --json`.
fn schema() -> (boon::Schemas, boon::SchemaIndex) {
    let value: Value = serde_json::from_str(&schema_text()).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("file:///inspect.schema.json", value).unwrap();
    let index = compiler.compile("file:///inspect.schema.json", &mut schemas).unwrap();
    (schemas, index)
}

/// Every directory holding fixture or compat frames (`inspect DIR` scans the frames directly
/// inside it), with the number of frames in it.
fn frame_dirs() -> Vec<(PathBuf, usize)> {
    let mut dirs = Vec::new();
    let mut stack = vec![repo_root().join("tests/data/fixtures"), compat_file("")];
    while let Some(dir) = stack.pop() {
        let mut frames = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let is_frame = matches!(p.extension().and_then(|e| e.to_str()), Some("b2nd" | "b2frame"));
            if p.is_dir() && !p.join("chunks.b2frame").exists() {
                stack.push(p);
            } else if is_frame {
                frames += 1;
            }
        }
        if frames > 0 {
            dirs.push((dir, frames));
        }
    }
    dirs
}

/// The keys of every object in `v` come in the order of the schema's `properties`.
fn check_order(v: &Value, schema: &Value, defs: &Value, at: &str) {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => &defs[r.trim_start_matches("#/$defs/")],
        None => schema,
    };
    match v {
        Value::Object(m) => {
            let Some(props) = schema.get("properties").and_then(Value::as_object) else { return };
            let order: Vec<&String> = props.keys().collect();
            let mut last = 0;
            for (k, child) in m {
                let i = order
                    .iter()
                    .position(|p| *p == k)
                    .unwrap_or_else(|| panic!("{at}.{k}: not in the schema"));
                assert!(i >= last, "{at}: key {k} comes after {}, against the schema's order", order[last]);
                last = i;
                check_order(child, &props[k], defs, &format!("{at}.{k}"));
            }
        }
        Value::Array(a) => {
            if let Some(items) = schema.get("items") {
                for (i, x) in a.iter().enumerate() {
                    check_order(x, items, defs, &format!("{at}[{i}]"));
                }
            }
        }
        _ => {}
    }
}

#[test]
fn inspect_json_of_every_fixture_and_compat_frame_follows_the_schema() {
    let (schemas, index) = schema();
    let schema_json: Value = serde_json::from_str(&schema_text()).unwrap();
    let defs = &schema_json["$defs"];
    let mut checked = 0;
    for (dir, frames) in frame_dirs() {
        let o = b2schema(&["inspect", "--json", dir.to_str().unwrap()]);
        let out = text(&o.stdout);
        let mut reports = 0;
        for line in out.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            if let Err(e) = schemas.validate(&v, index) {
                panic!("{}: {e:#}\n{line}", dir.display());
            }
            if v.get("error").is_none() {
                assert_eq!(v.as_object().unwrap().keys().next().map(String::as_str), Some("schema"));
                check_order(&v, &defs["report"], defs, &format!("{}", v["path"]));
                reports += 1;
            }
            checked += 1;
        }
        assert!(reports >= frames.min(1), "{}: {reports} reports for {frames} frames", dir.display());
    }
    assert!(checked >= 118 + 28, "{checked} objects checked");
}

#[test]
fn inspect_json_holds_every_value_the_human_output_shows() {
    let f = "tests/data/fixtures/nd-meta-vlmeta.b2nd";
    let v: Value = serde_json::from_str(&text(&b2schema(&["inspect", "--json", f]).stdout)).unwrap();
    let metas = v["metalayers"].as_array().unwrap();
    let value = |name: &str| metas.iter().find(|m| m["name"] == name).unwrap()["value"].clone();
    // The same special forms as the vlmetalayers: bytes, tuples (python-blosc2's lists).
    assert_eq!(value("unit"), serde_json::json!("m"));
    assert_eq!(value("raw"), serde_json::json!({"__bytes__": "000102"}));
    assert_eq!(value("origin"), serde_json::json!(["__tuple__", 0.5, -0.5]));
    assert_eq!(v["schema"], 2);
    assert_eq!(v["offset"], 0);
    // A failure in a scan is an object of the contract too.
    let (schemas, index) = schema();
    let o = b2schema(&["inspect", "--json", "README.md", f]);
    assert_eq!(o.status.code(), Some(2));
    let lines: Vec<Value> = text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert!(schemas.validate(l, index).is_ok(), "{l}");
    }
    assert!(lines[0]["error"].as_str().unwrap().starts_with("not a Blosc2 frame"));
}

/// `bytes` in a new file `name` of `dir`.
fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_owned()
}

#[test]
fn first_words_tell_the_story_before_the_detail() {
    let dir = temp_dir("first-words");
    let frame = std::fs::read(repo_root().join("tests/data/fixtures/nd-meta-15-user.b2nd")).unwrap();
    let truncated = write(&dir, "truncated.b2nd", &frame[..600]);
    let mut shifted = vec![0u8; 8];
    shifted.extend_from_slice(&frame[..600]);
    let shifted = write(&dir, "shifted.b2nd", &shifted);
    let index = "tests/data/fixtures/sparse-schunk.b2frame/chunks.b2frame";
    let mut seen = String::new();
    for (args, first) in [
        (vec!["README.md"], "not a Blosc2 frame (no b2frame magic at offset 2)"),
        (vec!["README.md", "--offset", "4"], "not a Blosc2 frame (no b2frame magic at offset 6)"),
        (vec![index], "a sparse frame: give the directory (tests/data/fixtures/sparse-schunk.b2frame)"),
        (vec![truncated.as_str()], "truncated: the header says 861 bytes, the file has 600"),
        (vec![shifted.as_str(), "--offset", "8"], "truncated: the header says 861 bytes, the file has 600"),
        (vec!["tests/data"], "not a sparse frame: the directory has no chunks.b2frame"),
    ] {
        for cmd in ["inspect", "verify", "cat"] {
            if cmd != "cat" && args[0] == "tests/data" {
                continue; // inspect and verify scan a plain directory
            }
            let mut a = vec![cmd];
            a.extend(&args);
            let o = b2schema(&a);
            let err = text(&o.stderr).replace(&dir.display().to_string(), "TMP");
            assert_eq!(o.status.code(), Some(2), "{a:?}: {err}");
            let (_, message) = err.split_once(": ").unwrap();
            let message = message.split_once(": ").map_or(message, |(_, m)| m);
            assert!(message.starts_with(first), "{a:?}: {err}");
            if cmd == "inspect" || args[0] == "tests/data" {
                let line = a.join(" ").replace(&dir.display().to_string(), "TMP");
                seen.push_str(&format!("$ b2schema {line}\n{err}"));
            }
        }
    }
    // The detail's offsets are absolute in the file, with the frame's start stated.
    let o = b2schema(&["inspect", &shifted, "--offset", "8"]);
    let err = text(&o.stderr);
    assert!(err.contains("at offset 24 (frame_len)") && err.contains("the frame starts at 8"), "{err}");
    snapshot!("first_words", seen);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn offset_is_one_option_of_every_reading_subcommand() {
    let dir = temp_dir("offset");
    let src = "tests/data/fixtures/nd-meta-vlmeta.b2nd";
    let frame = std::fs::read(repo_root().join(src)).unwrap();
    let mut bytes = b"12345678".to_vec();
    bytes.extend_from_slice(&frame);
    let shifted = write(&dir, "shifted.b2nd", &bytes);
    let o = b2schema(&["verify", "--offset", "8", &shifted]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    assert!(text(&o.stdout).starts_with(&format!("ok {shifted} (frame at offset 8): header 266 bytes")));
    assert_eq!(b2schema(&["cat", "--offset", "8", &shifted]).stdout, b2schema(&["cat", src]).stdout);
    let d = text(&b2schema(&["dump", "--offset", "8", &shifted]).stdout);
    let plain = text(&b2schema(&["dump", src]).stdout);
    assert!(d.starts_with("# header (266 bytes at 8)\n0008  9e"), "{d}");
    assert_eq!(d.lines().count(), plain.lines().count());
    let v: Value =
        serde_json::from_str(&text(&b2schema(&["inspect", "--json", "--offset", "8", &shifted]).stdout))
            .unwrap();
    assert_eq!(v["offset"], 8);
    // --all lists what is cut, as for dump.
    let listed = |extra: &[&str]| {
        let o = b2schema(&[&["inspect", "--json", "--max-items", "1", src], extra].concat());
        serde_json::from_str::<Value>(&text(&o.stdout)).unwrap()["chunks"].as_array().unwrap().len()
    };
    assert_eq!((listed(&[]), listed(&["--all"])), (1, 6));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Lines of the dump whose bytes column overflows (more than a marker and 8 bytes on a line).
fn misaligned(dump: &str) -> Vec<&str> {
    dump.lines()
        .filter(|l| l.len() > 6 && l.as_bytes()[..4].iter().all(u8::is_ascii_hexdigit))
        .filter(|l| {
            let bytes = &l[6..l.len().min(6 + 26)];
            let rest = l.get(6 + 26..).unwrap_or("");
            !(rest.is_empty() || rest.starts_with("  "))
                || bytes.split(' ').filter(|t| t.len() == 2).count() > 9
        })
        .collect()
}

#[test]
fn dump_explains_every_byte() {
    let f = "tests/data/fixtures/nd-meta-vlmeta.b2nd";
    let cut = text(&b2schema(&["dump", f]).stdout);
    let all = text(&b2schema(&["dump", "--all", f]).stdout);
    assert!(cut.contains("more bytes"), "the default dump cuts long values");
    assert!(!all.contains("more bytes"), "--all cuts nothing");
    assert!(all.contains("# metalayer b2nd (53 bytes at 154), layout b2nd\n009a  97"), "{all}");
    assert!(all.contains("# metalayer unit (2 bytes at 212), msgpack\n00d4  a1"), "{all}");
    assert!(all.contains("= {\"long_name\":\"distance from the origin\""), "{all}");
    assert_eq!(misaligned(&all), Vec::<&str>::new());
    assert_eq!(misaligned(&cut), Vec::<&str>::new());
    snapshot!("dump_all_nd_meta_vlmeta", all);
}

#[test]
fn completions_man_page_exit_codes_and_colour() {
    for shell in ["bash", "zsh", "fish"] {
        let o = b2schema(&["completions", shell]);
        assert!(o.status.success());
        let s = text(&o.stdout);
        assert!(s.contains("b2schema") && s.contains("inspect") && s.contains("offset"), "{shell}");
    }
    let man = text(&b2schema(&["man"]).stdout);
    assert!(man.starts_with(".ie") || man.starts_with(".TH"), "{}", &man[..man.len().min(200)]);
    assert!(man.contains("b2schema") && man.contains("Exit codes"));
    let help = text(&b2schema(&["--help"]).stdout);
    assert!(help.contains("Exit codes:\n  0  success\n  1  verify found a difference\n  2  unreadable"));
    // Colour only on a terminal (stderr here is a pipe), unless asked; NO_COLOR wins over auto.
    let bad = ["inspect", "README.md"];
    let has_escape = |o: Output| o.stderr.contains(&0x1b);
    assert!(!has_escape(b2schema(&bad)));
    assert!(!has_escape(b2schema(&[&bad[..], &["--color", "never"]].concat())));
    assert!(has_escape(b2schema(&[&bad[..], &["--color", "always"]].concat())));
    assert!(!has_escape(run(&bad, &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")])));
    assert!(has_escape(run(&bad, &[("CLICOLOR_FORCE", "1")])));
}

#[test]
fn unpack_streams_and_draws_no_progress_on_a_non_terminal() {
    let dir = temp_dir("unpack");
    let src = "tests/data/fixtures/nd-meta-vlmeta.b2nd";
    let npy = dir.join("a.npy");
    let o = b2schema(&["unpack", src, npy.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(o.stderr, b"", "stderr is a pipe here: no progress bar");
    let written = std::fs::read(&npy).unwrap();
    let data = b2schema(&["cat", src]).stdout;
    assert!(written.starts_with(b"\x93NUMPY") && written.ends_with(&data));
    assert_eq!((written.len() - data.len()) % 64, 0, "the header pads to 64 bytes");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_json_says_each_section() {
    let f = "tests/data/fixtures/nd-meta-vlmeta.b2nd";
    let o = b2schema(&["verify", "--json", f]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["schema", "path", "ok", "offset", "header", "trailer", "frame", "chunks"]);
    assert_eq!(v["chunks"], serde_json::json!({"decoded": 6, "valid": true}));
    let quick: Value =
        serde_json::from_str(&text(&b2schema(&["verify", "--quick", "--json", f]).stdout)).unwrap();
    assert!(quick.get("chunks").is_none(), "--quick decodes no chunk: {quick}");
    assert_eq!(v["ok"], true);
    assert_eq!(v["header"], serde_json::json!({"len": 266, "identical": true}));
    assert_eq!(v["frame"]["nchunks"], 6);
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<String>>();
    assert_eq!(keys(&v["frame"]), ["valid", "nchunks", "index_len", "index_offset"], "{v}");
    // A flipped byte of the header: exit 1, the section says where.
    let dir = temp_dir("verify-json");
    let mut bytes = std::fs::read(repo_root().join(f)).unwrap();
    bytes[47] = 0xd3; // typesize's int32 marker
    let bad = write(&dir, "bad.b2nd", &bytes);
    let o = b2schema(&["verify", "--json", &bad]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let v: Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(v["header"]["identical"], false, "{v}");
    // A section that differs has no length: its keys are the contract's, in its order.
    assert_eq!(keys(&v["header"]), ["identical", "error"], "{v}");
    assert!(v["header"]["error"].as_str().unwrap().contains("at offset 47 (typesize)"), "{v}");
    assert_eq!(v["trailer"]["identical"], true, "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unpack_and_inspect_problems_take_the_frame_offset() {
    let dir = temp_dir("offset-problems");
    let src = "tests/data/fixtures/nd-meta-vlmeta.b2nd";
    let frame = std::fs::read(repo_root().join(src)).unwrap();
    let mut bytes = b"12345678".to_vec();
    bytes.extend_from_slice(&frame);
    let shifted = write(&dir, "shifted.b2nd", &bytes);
    // unpack --offset 8 writes the same .npy as the frame alone.
    let (a, b) = (dir.join("a.npy"), dir.join("b.npy"));
    assert!(b2schema(&["unpack", src, a.to_str().unwrap()]).status.success());
    let o = b2schema(&["unpack", "--offset", "8", &shifted, b.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // A chunk whose header lies (cbytes): inspect's problem names the offset in the file.
    let view = b2schema::frame::FrameView::from_slice(&frame).unwrap();
    let at = view
        .chunk_locations()
        .unwrap()
        .iter()
        .find_map(|l| match l {
            // Offsets in the index count from the end of the header.
            b2schema::frame::ChunkLocation::Offset(o) => Some(view.header.header_len as usize + *o as usize),
            _ => None,
        })
        .unwrap();
    let mut bad = bytes.clone();
    bad[8 + at + 12..8 + at + 16].copy_from_slice(&[0xff; 4]);
    let bad = write(&dir, "bad-chunk.b2nd", &bad);
    let o = b2schema(&["inspect", "--offset", "8", &bad]);
    let out = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("the frame starts at 8"), "{out}");
    assert!(out.contains(&format!("at offset {} ([0].cbytes)", 8 + at + 12)), "{at} {out}");
}

/// `"chunks"` is a list in every report, also of a frame with no chunks and with
/// `--all-chunks` (it was left out there), and the report follows the schema.
#[test]
fn inspect_json_lists_chunks_as_an_empty_list_with_or_without_all_chunks() {
    let dir = temp_dir("no-chunks");
    let bytes = b2schema::writer::Frame::new(4).to_vec().unwrap();
    let path = write(&dir, "empty.b2frame", &bytes);
    let (schemas, index) = schema();
    for extra in [&[][..], &["--all-chunks"][..]] {
        let o = b2schema(&[&["inspect", "--json", path.as_str()], extra].concat());
        assert!(o.status.success(), "{}", text(&o.stderr));
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["chunks"], serde_json::json!([]), "{extra:?}: {v}");
        schemas.validate(&v, index).unwrap_or_else(|e| panic!("{extra:?}: {e}"));
    }
}
