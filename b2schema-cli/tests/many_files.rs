//! The command for people who keep thousands of files (issue 37): `verify` as a health check
//! over many paths and trees, `-r`, frames through pipes (`-`), and JSON a script can use (filter
//! names, file names that round-trip).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use b2schema_tests::repo_root;
use serde_json::Value;

const ND: &str = "tests/data/fixtures/nd-meta-vlmeta.b2nd";
/// An NDArray whose chunks are zstd-compressed (not memcpyed): overwritten bytes show.
const ZSTD: &str = "tests/data/fixtures/codec-zstd-9.b2nd";

fn b2schema_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_b2schema"));
    c.current_dir(dir).args(args).env_remove("NO_COLOR");
    c.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        // A refusal may close the pipe early: what was not written does not matter then.
        let _ = pipe.write_all(bytes);
    }
    child.wait_with_output().unwrap()
}

fn b2schema(args: &[&str]) -> Output {
    b2schema_in(&repo_root(), args, None)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-many-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(repo_root().join(rel)).unwrap()
}

fn json_lines(o: &Output) -> Vec<Value> {
    text(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The compiled JSON Schema `b2schema-cli/schema/NAME`.
fn schema(name: &str) -> (boon::Schemas, boon::SchemaIndex) {
    let path = repo_root().join("b2schema-cli/schema").join(name);
    let value: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let url = format!("file:///{name}");
    compiler.add_resource(&url, value).unwrap();
    let index = compiler.compile(&url, &mut schemas).unwrap();
    (schemas, index)
}

#[test]
fn verify_takes_many_paths_and_names_each_file_on_its_line() {
    let o = b2schema(&["verify", ND, "tests/data/fixtures/sparse-schunk.b2frame", "README.md"]);
    assert_eq!(o.status.code(), Some(2), "an unreadable file: exit 2, as inspect");
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with(&format!("ok {ND}: header 266 bytes, trailer 202 bytes, 6 chunks")),
        "{out}"
    );
    assert!(lines[1].starts_with("ok tests/data/fixtures/sparse-schunk.b2frame: "), "{out}");
    assert!(lines[2].starts_with("FAIL README.md: not a Blosc2 frame"), "{out}");
    assert!(text(&o.stderr).contains("1 of 3 frames failed verification"));
    // A directory stands for its frames; every chunk of every fixture python-blosc2 wrote
    // decodes to the size its geometry says.
    let o = b2schema(&["verify", "--deep", "tests/data/fixtures"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).lines().count() >= 118);
    assert!(text(&o.stdout).lines().all(|l| l.starts_with("ok tests/data/fixtures/")));
}

#[test]
fn verify_json_reports_a_truncated_file_on_stdout() {
    let dir = temp_dir("truncated");
    let truncated = dir.join("truncated.b2nd");
    std::fs::write(&truncated, &fixture(ND)[..600]).unwrap();
    let t = truncated.to_str().unwrap();
    let o = b2schema(&["verify", "--json", t, ND]);
    assert_eq!(o.status.code(), Some(2));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 2, "{}", text(&o.stdout));
    assert_eq!((&lines[0]["path"], &lines[0]["ok"]), (&Value::from(t), &Value::from(false)));
    assert!(lines[0]["error"].as_str().unwrap().starts_with("truncated: the header says 1108 bytes"));
    assert_eq!(lines[1]["ok"], true);
    let (schemas, index) = schema("verify.schema.json");
    for l in &lines {
        assert!(schemas.validate(l, index).is_ok(), "{l}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_deep_fails_a_file_whose_chunk_bytes_were_overwritten() {
    let dir = temp_dir("overwritten");
    let mut bytes = fixture(ZSTD);
    // Inside the first chunk (the header is 146 bytes, the chunk 329).
    bytes[146 + 100..146 + 300].fill(0x55);
    let bad = dir.join("bad.b2nd");
    std::fs::write(&bad, &bytes).unwrap();
    let b = bad.to_str().unwrap();
    assert_eq!(b2schema(&["cat", b]).status.code(), Some(2), "the data cannot be read");
    // The metadata alone is fine: the quick check passes and says it did not look at the data;
    // verify decodes the chunks and fails (--deep, the old spelling, does the same).
    let o = b2schema(&["verify", "--quick", b]);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).contains("(not decoded: --quick)"), "{}", text(&o.stdout));
    assert_eq!(b2schema(&["verify", b]).status.code(), Some(1), "verify decodes the chunks by default");
    let o = b2schema(&["verify", "--deep", b, ZSTD]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    let out = text(&o.stdout);
    assert!(out.starts_with(&format!("FAIL {b}: chunks: ")), "{out}");
    // Where, in the file: the chunk starts after the 146-byte header, its csize at 123 in it.
    assert!(out.contains("at offset 269 (chunks[0].csize), found 1431655765\n"), "{out}");
    assert!(out.contains(&format!("\nok {ZSTD}: ")) && out.contains("3 chunks decoded"), "{out}");
    let o = b2schema(&["verify", "--deep", "--json", b]);
    let v = &json_lines(&o)[0];
    assert_eq!((&v["ok"], &v["chunks"]["valid"]), (&Value::from(false), &Value::from(false)), "{v}");
    assert_eq!(v["header"]["identical"], true);
    let (schemas, index) = schema("verify.schema.json");
    assert!(schemas.validate(v, index).is_ok(), "{v}");
    let good = &json_lines(&b2schema(&["verify", "--deep", "--json", ZSTD]))[0];
    assert_eq!(good["chunks"], serde_json::json!({"decoded": 3, "valid": true}));
    assert!(schemas.validate(good, index).is_ok(), "{good}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_deep_checks_the_chunks_against_the_array_geometry() {
    let dir = temp_dir("geometry");
    let mut bytes = fixture(ND);
    // The b2nd metalayer's content starts at 154: 97 00 02 92 d3 <shape[0] as int64>; 6 -> 9
    // rows need 3 x 3 chunks of 4 x 4, the frame holds 6.
    assert_eq!(&bytes[154..159], [0x97, 0x00, 0x02, 0x92, 0xd3]);
    assert_eq!(bytes[166], 6);
    bytes[166] = 9;
    let bad = dir.join("taller.b2nd");
    std::fs::write(&bad, &bytes).unwrap();
    let b = bad.to_str().unwrap();
    assert_eq!(b2schema(&["verify", "--quick", b]).status.code(), Some(0));
    let o = b2schema(&["verify", b]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stdout), format!("FAIL {b}: chunks: 6 chunks, the array's shape needs 9\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn recursive_enters_subdirectories_and_an_empty_directory_is_said() {
    let dir = temp_dir("tree");
    std::fs::create_dir_all(dir.join("2024/01")).unwrap();
    std::fs::create_dir_all(dir.join("2024/02")).unwrap();
    std::fs::write(dir.join("2024/01/a.b2nd"), fixture(ND)).unwrap();
    std::fs::write(dir.join("2024/02/b.b2nd"), fixture(ZSTD)).unwrap();
    let d = dir.to_str().unwrap();
    // Without -r: nothing, but said.
    for cmd in ["inspect", "verify"] {
        let o = b2schema(&[cmd, "--json", d]);
        assert_eq!(o.status.code(), Some(0), "{cmd}");
        assert_eq!(o.stdout, b"", "{cmd}");
        let err = text(&o.stderr);
        assert_eq!(
            err,
            format!(
                "b2schema: warning: {d}: no frame directly inside; 1 subdirectories not entered (use -r)\n"
            ),
            "{cmd}"
        );
        let o = b2schema(&[cmd, "--json", "-r", d]);
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", text(&o.stderr));
        let paths: Vec<Value> = json_lines(&o).iter().map(|v| v["path"].clone()).collect();
        let want = [format!("{d}/2024/01/a.b2nd"), format!("{d}/2024/02/b.b2nd")];
        assert_eq!(paths, want.map(Value::from), "{cmd}");
    }
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let o = b2schema(&["verify", "-r", dir.join("empty").to_str().unwrap()]);
    assert!(text(&o.stderr).ends_with("empty: no frame found\n"), "{}", text(&o.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dash_reads_a_frame_from_stdin_and_cat_writes_stdout() {
    let dir = temp_dir("pipes");
    let frame = fixture(ND);
    let want = b2schema(&["cat", ND]).stdout;
    assert!(!want.is_empty());
    let o = b2schema_in(&dir, &["cat", "-"], Some(&frame));
    assert_eq!((o.status.code(), &o.stdout), (Some(0), &want), "{}", text(&o.stderr));
    let o = b2schema_in(&dir, &["cat", "--npy", "-o", "-", "-"], Some(&frame));
    assert!(o.status.success() && o.stdout.starts_with(b"\x93NUMPY"), "{}", text(&o.stderr));
    let src = repo_root().join(ND);
    let o = b2schema_in(&dir, &["cat", "-o", "-", src.to_str().unwrap()], None);
    assert_eq!((o.status.code(), &o.stdout), (Some(0), &want));
    assert!(!dir.join("-").exists(), "-o - is stdout, not a file named -");
    let o = b2schema_in(&dir, &["inspect", "--json", "-"], Some(&frame));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v = &json_lines(&o)[0];
    assert_eq!((&v["path"], &v["nchunks"]), (&Value::from("-"), &Value::from(6)));
    // The names scripts give stdin read a pipe as `-` does (a pipe opened as a file was refused).
    for name in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"] {
        let o = b2schema_in(&dir, &["inspect", "--json", name], Some(&frame));
        assert!(o.status.success(), "{name}: {}", text(&o.stderr));
        assert_eq!(json_lines(&o)[0]["nchunks"], Value::from(6), "{name}");
        let o = b2schema_in(&dir, &["cat", name], Some(&frame));
        assert_eq!((o.status.code(), &o.stdout), (Some(0), &want), "{name}: {}", text(&o.stderr));
    }
    let o = b2schema_in(&dir, &["verify", "--deep", "-"], Some(&frame));
    assert_eq!(
        text(&o.stdout),
        "ok -: header 266 bytes, trailer 202 bytes, 6 chunks indexed, 6 chunks decoded, header and trailer re-encoded identically\n"
    );
    // Within the budget: more than --max-decompressed-total on stdin is refused, not cut.
    let o = b2schema_in(&dir, &["--max-decompressed-total", "1K", "inspect", "-"], Some(&frame));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--max-decompressed-total"), "{}", text(&o.stderr));
    // Nothing is left behind in the temporary directory.
    let left = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with(".b2schema-stdin.")
        })
        .count();
    assert_eq!(left, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pack_and_unpack_read_and_write_pipes() {
    let dir = temp_dir("pack-pipes");
    let frame = fixture(ND);
    // unpack - -: a frame on stdin, the .npy on stdout (no file named -).
    let o = b2schema_in(&dir, &["unpack", "-", "-"], Some(&frame));
    assert!(o.status.success() && o.stdout.starts_with(b"\x93NUMPY"), "{}", text(&o.stderr));
    let npy = o.stdout;
    assert_eq!(npy, b2schema_in(&dir, &["cat", "--npy", "-"], Some(&frame)).stdout);
    // pack - -: the .npy on stdin, the .b2nd on stdout; its data is the same.
    let o = b2schema_in(&dir, &["pack", "-", "-"], Some(&npy));
    assert!(o.status.success() && o.stdout[1..9] == *b"\xa8b2frame", "{}", text(&o.stderr));
    let packed = o.stdout;
    assert_eq!(b2schema_in(&dir, &["cat", "-"], Some(&packed)).stdout, b2schema(&["cat", ND]).stdout);
    assert!(!dir.join("-").exists());
    // Within the budget, and a short pipe is an error, not a short array.
    let o = b2schema_in(&dir, &["--max-decompressed-total", "100", "pack", "-", "x.b2nd"], Some(&npy));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("over the limit of 100 (raise --max-decompressed-total)"),
        "{}",
        text(&o.stderr)
    );
    let o = b2schema_in(&dir, &["pack", "-", "x.b2nd"], Some(&npy[..npy.len() - 8]));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("truncated"), "{}", text(&o.stderr));
    assert!(!dir.join("x.b2nd").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn json_names_the_filters_and_gives_back_a_non_utf8_file_name() {
    let o = b2schema(&["inspect", "--json", ND]);
    let v = &json_lines(&o)[0];
    assert_eq!(v["header"]["filters"], serde_json::json!([0, 0, 0, 0, 0, 1]));
    assert_eq!(
        v["header"]["filter_names"],
        serde_json::json!(["none", "none", "none", "none", "none", "shuffle"])
    );
    assert!(v.get("path_hex").is_none(), "only for names that are not UTF-8");
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let dir = temp_dir("names");
        let raw: &[u8] = b"caf\xe9-\xff.b2nd";
        let name = std::ffi::OsStr::from_bytes(raw);
        std::fs::write(dir.join(name), fixture(ND)).unwrap();
        // A frame's magic and nothing else: Blosc2 that fails (a file that is not Blosc2 at all
        // is skipped by verify's scan).
        std::fs::write(dir.join(std::ffi::OsStr::from_bytes(b"bad\xfe")), b"\0\0b2frame\0 broken").unwrap();
        let (inspect_schema, inspect_index) = schema("inspect.schema.json");
        let (verify_schema, verify_index) = schema("verify.schema.json");
        for (cmd, schemas, index) in
            [("inspect", &inspect_schema, inspect_index), ("verify", &verify_schema, verify_index)]
        {
            let o = b2schema(&[cmd, "--json", dir.to_str().unwrap()]);
            let lines = json_lines(&o);
            assert_eq!(lines.len(), 2, "{cmd}");
            for l in &lines {
                assert!(schemas.validate(l, index).is_ok(), "{cmd}: {l}");
                let hex = l["path_hex"].as_str().unwrap();
                let bytes: Vec<u8> = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect();
                let path = Path::new(std::ffi::OsStr::from_bytes(&bytes));
                assert!(path.exists(), "{cmd}: {} found again", path.display());
            }
            assert!(lines[1]["path_hex"].as_str().unwrap().ends_with(&b2schema_hex(raw)), "{cmd}");
        }
        // The human report names the file with its bytes that are not UTF-8 as \xNN.
        let mut c = Command::new(env!("CARGO_BIN_EXE_b2schema"));
        let human = c.arg("inspect").arg(dir.join(name)).output().unwrap();
        assert!(
            text(&human.stdout)
                .starts_with(&format!("{}/caf\\xe9-\\xff.b2nd: contiguous frame", dir.display())),
            "{}",
            text(&human.stdout)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

fn b2schema_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
