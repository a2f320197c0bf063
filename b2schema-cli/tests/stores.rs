//! `inspect` and `cat --key` of python-blosc2 stores (`tests/data/stores/`, written by
//! python-blosc2 4.14.1): one JSON line per member that follows the schema's `store_member`,
//! keys escaped on a terminal, a member's data (or a slice of it) as python-blosc2 reads it.

use std::process::{Command, Output};

use b2schema_tests::repo_root;
use serde_json::Value;

fn b2schema(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_b2schema")).current_dir(repo_root()).args(args).output().unwrap()
}

fn schema() -> (boon::Schemas, boon::SchemaIndex) {
    let text = std::fs::read_to_string(repo_root().join("b2schema-cli/schema/inspect.schema.json")).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("file:///inspect.schema.json", value).unwrap();
    let index = compiler.compile("file:///inspect.schema.json", &mut schemas).unwrap();
    (schemas, index)
}

const STORES: [&str; 5] = ["dict.b2z", "tree.b2z", "dict.b2d", "embed.b2e", "small.b2z"];

#[test]
fn inspect_json_lists_every_member_by_the_schema() {
    let (schemas, index) = schema();
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("tests/data/stores/stores.json")).unwrap(),
    )
    .unwrap();
    for name in STORES {
        let path = format!("tests/data/stores/{name}");
        let o = b2schema(&["inspect", "--json", &path]);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8(o.stdout).unwrap();
        let mut keys = Vec::new();
        for line in out.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            if let Err(e) = schemas.validate(&v, index) {
                panic!("{name}: {e:#}\n{line}");
            }
            let key = v["key"].as_str().unwrap().to_string();
            let want = &manifest["stores"][name][&key];
            assert_eq!(v["dtype"], want["dtype"], "{name} {key}");
            assert_eq!(v["shape"], want["shape"], "{name} {key}");
            keys.push(key);
        }
        let want: Vec<&String> = manifest["stores"][name].as_object().unwrap().keys().collect();
        assert_eq!(keys.iter().collect::<Vec<_>>(), want, "{name}");
    }
}

/// A scan (`-r`, several paths) lists the stores it meets as `inspect STORE` does, one line per
/// member by the schema, beside the frames' reports (it said "not a Blosc2 frame" of a `.b2z`).
#[test]
fn a_scan_lists_the_stores_it_meets() {
    let (schemas, index) = schema();
    let o = b2schema(&[
        "inspect",
        "--json",
        "tests/data/stores/tree.b2z",
        "tests/data/stores/embed.b2e",
        "tests/data/fixtures/chunks-10.b2nd",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<Value> =
        String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for v in &lines {
        if let Err(e) = schemas.validate(v, index) {
            panic!("{e:#}\n{v}");
        }
    }
    let of = |path: &str| lines.iter().filter(|v| v["path"] == path).collect::<Vec<_>>();
    let tree = of("tests/data/stores/tree.b2z");
    assert_eq!(tree.len(), 4);
    assert!(tree.iter().all(|v| v["kind"] == "store-member"));
    assert_eq!(of("tests/data/stores/embed.b2e").len(), 4);
    assert_eq!(of("tests/data/fixtures/chunks-10.b2nd")[0]["kind"], "cframe");
    // With -r over the stores' folder: every .b2z is listed by member (the lying .b2e files and
    // the files that are not frames fail, exit 2, the scan goes on).
    let o = b2schema(&["inspect", "-r", "tests/data/stores"]);
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8(o.stdout).unwrap();
    for name in ["dict.b2z", "tree.b2z", "small.b2z", "kinds.b2z"] {
        assert!(out.contains(&format!("tests/data/stores/{name}: zip store, ")), "{name}: {out}");
    }
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("dict.b2z"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn cat_key_writes_a_member_or_its_slice() {
    for name in STORES {
        let path = format!("tests/data/stores/{name}");
        let o = b2schema(&["cat", &path, "--key", "/g/x"]);
        if name == "small.b2z" {
            assert_eq!(o.status.code(), Some(2));
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("a key of the store, one of /a"), "{err}");
            continue;
        }
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let items: Vec<u16> = o.stdout.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        assert_eq!(items, [0, 1, 2, 3, 4], "{name}");
        let o = b2schema(&["cat", &path, "--key", "/big", "--slice", "1,2:5"]);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let items: Vec<f64> =
            o.stdout.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(items, [52.0, 53.0, 54.0], "{name}");
    }
    let o = b2schema(&["cat", "tests/data/stores/tree.b2z", "--key", "/x", "--offset", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("leave out --offset"));
}

/// A key from a member's name that would move a terminal (a bidirectional override is no
/// control character, so the library accepts it) is written escaped.
#[test]
fn store_keys_reach_the_terminal_escaped() {
    let frame = std::fs::read(repo_root().join("tests/data/stores/dict.b2d/x.b2nd")).unwrap();
    let name = "a\u{202e}b.b2nd";
    let zip = zip_of(name, &frame, 0);
    let dir = std::env::temp_dir().join(format!("b2schema-store-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bidi.b2z");
    std::fs::write(&path, &zip).unwrap();
    let o = b2schema(&["inspect", path.to_str().unwrap()]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("/a\\u{202e}b  ndarray  (10,) <i4"), "{out}");
    assert!(!out.contains('\u{202e}'));
    let o = b2schema(&["cat", path.to_str().unwrap(), "--key", "/a\u{202e}b", "--slice", "9"]);
    assert_eq!(o.stdout, 9i32.to_le_bytes());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A member that cannot be read is listed with its error (JSON: `error`), the others are
/// listed, and the exit code is 2; a store that cannot be opened at all is an error naming it.
#[test]
fn inspect_lists_a_broken_member_with_its_error() {
    let (schemas, index) = schema();
    let o = b2schema(&["inspect", "--json", "tests/data/stores/lie-past-end.b2e"]);
    assert_eq!(o.status.code(), Some(2));
    let line = String::from_utf8(o.stdout).unwrap();
    let v: Value = serde_json::from_str(line.trim()).unwrap();
    schemas.validate(&v, index).unwrap();
    assert!(v["error"].as_str().unwrap().contains("embed_map[\"/x\"].offset"), "{line}");
    let o = b2schema(&["inspect", "tests/data/stores/lie-dotdot.b2e"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("lie-dotdot.b2e") && err.contains("a . or .. part"), "{err}");
}

/// A ZIP of one member `name` holding `data`, written here byte by byte (`method` 0: stored).
fn zip_of(name: &str, data: &[u8], method: u16) -> Vec<u8> {
    let mut zip = Vec::new();
    let mut central = Vec::new();
    let le16 = |v: &mut Vec<u8>, x: u16| v.extend_from_slice(&x.to_le_bytes());
    let le32 = |v: &mut Vec<u8>, x: u32| v.extend_from_slice(&x.to_le_bytes());
    le32(&mut zip, 0x0403_4b50);
    zip.extend_from_slice(&[20, 0, 0, 0]);
    le16(&mut zip, method);
    zip.extend_from_slice(&[0; 8]);
    le32(&mut zip, data.len() as u32);
    le32(&mut zip, data.len() as u32);
    le16(&mut zip, name.len() as u16);
    le16(&mut zip, 0);
    zip.extend_from_slice(name.as_bytes());
    zip.extend_from_slice(data);
    le32(&mut central, 0x0201_4b50);
    central.extend_from_slice(&[20, 3, 20, 0, 0, 8]);
    le16(&mut central, method);
    central.extend_from_slice(&[0; 8]);
    le32(&mut central, data.len() as u32);
    le32(&mut central, data.len() as u32);
    le16(&mut central, name.len() as u16);
    central.extend_from_slice(&[0; 12]);
    le32(&mut central, 0);
    central.extend_from_slice(name.as_bytes());
    let cd_at = zip.len() as u32;
    zip.extend_from_slice(&central);
    le32(&mut zip, 0x0605_4b50);
    zip.extend_from_slice(&[0, 0, 0, 0, 1, 0, 1, 0]);
    le32(&mut zip, central.len() as u32);
    le32(&mut zip, cd_at);
    le16(&mut zip, 0);
    zip
}

/// Crafted stores run through the binary under 512 MiB of address space and 5 s of CPU
/// (`prlimit`): each ends cleanly, exit 0 or 2 with a `b2schema:` message, never a panic.
#[test]
fn crafted_stores_end_cleanly_within_5_s_and_512_mib() {
    let frame = std::fs::read(repo_root().join("tests/data/stores/dict.b2d/x.b2nd")).unwrap();
    let good = zip_of("g/x.b2nd", &frame, 0);
    let eocd = good.len() - 22;
    let patched = |at: usize, v: &[u8]| {
        let mut b = good.clone();
        b[at..at + v.len()].copy_from_slice(v);
        b
    };
    let cases: Vec<(&str, Vec<u8>, i32, &str)> = vec![
        ("good", good.clone(), 0, ""),
        ("deflated", zip_of("g/x.b2nd", &frame, 8), 2, "deflate"),
        ("cd-size-4GB", patched(eocd + 12, &[0xfe, 0xff, 0xff, 0xff]), 2, "central directory"),
        ("count-65534", patched(eocd + 8, &[0xfe, 0xff, 0xfe, 0xff]), 2, "entry count"),
        (
            "member-4GB",
            patched(good.len() - 22 - 8 - 46 + 20, &[0xfe, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff]),
            2,
            "overlap",
        ),
        ("dotdot", zip_of("../../x.b2nd", &frame, 0), 2, "store key"),
        ("truncated-frame", zip_of("g/x.b2nd", &frame[..frame.len() / 2], 0), 2, "frame_len"),
    ];
    let dir = std::env::temp_dir().join(format!("b2schema-store-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_b2schema");
    for (name, bytes, code, needle) in cases {
        let path = dir.join(format!("{name}.b2z"));
        std::fs::write(&path, &bytes).unwrap();
        let p = path.to_str().unwrap();
        for args in [vec!["inspect", p], vec!["inspect", "--json", p], vec!["cat", p, "--key", "/g/x"]] {
            let o = Command::new("prlimit")
                .args(["--as=536870912", "--cpu=5", "--"])
                .arg(bin)
                .args(&args)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(!err.contains("panicked"), "{name} {args:?}: {err}");
            // inspect lists a deflated or broken member with its error (exit 2); cat refuses it.
            assert_eq!(o.status.code(), Some(code), "{name} {args:?}: {err}");
            if code == 2 {
                let all = format!("{out}{err}");
                assert!(all.contains(needle), "{name} {args:?}: {all}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A CTable (`tests/data/tables/table.b2d`, written by python-blosc2 4.14.1): `inspect` heads the
/// member listing with its schema and row count (a `ctable` object by the schema with `--json`);
/// `cat` writes its live rows as JSON Lines equal to python-blosc2's (`tables.json`), or CSV,
/// `--key NAME` one column; `cat B.b2b --json` a BatchArray's items.
#[test]
fn a_ctable_and_a_batch_array_from_the_command_line() {
    let (schemas, index) = schema();
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("tests/data/tables/tables.json")).unwrap(),
    )
    .unwrap();
    let table = "tests/data/tables/table.b2d";
    let o = b2schema(&["inspect", table]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with("tests/data/tables/table.b2d: CTable, 6 rows, 7 columns\n  id  int64\n"),
        "{out}"
    );
    assert!(out.contains("  raw  vlbytes  nullable\n"), "{out}");
    let o = b2schema(&["inspect", "--json", table]);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    for line in out.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if let Err(e) = schemas.validate(&v, index) {
            panic!("{e:#}\n{line}");
        }
    }
    let head: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(head["kind"], "ctable");
    assert_eq!(head["n_rows"], 6);

    let o = b2schema(&["cat", table]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<Value> =
        String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(Value::Array(rows), manifest["table.b2d"]["rows"]);

    let o = b2schema(&["cat", table, "--csv"]);
    let csv = String::from_utf8(o.stdout).unwrap();
    assert_eq!(csv.lines().next(), Some("id,x,ok,name,raw,s,n32"));
    assert_eq!(csv.lines().nth(2), Some("2,1.0,true,nn,0202,ab,"));

    let o = b2schema(&["cat", table, "--key", "name"]);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "\"\"\n\"nn\"\n\"nnn\"\n\"nnnn\"\n\"nnnnn\"\n\"nnnnnn\"\n"
    );
    let o = b2schema(&["cat", table, "--key", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a column of the table"));

    for name in ["batch.b2b", "blocks.b2b"] {
        let o = b2schema(&["cat", "--json", &format!("tests/data/tables/{name}")]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let items: Vec<Value> =
            String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(Value::Array(items), manifest[name], "{name}");
    }
    let o = b2schema(&["cat", "--csv", "tests/data/tables/batch.b2b"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A `.b2z` of `n` empty stored members (`0.b2f`, `1.b2f`, ...), with zip64 end records when
/// there are more than a classic ZIP counts (65 535).
fn zip_of_empty_members(n: u32) -> Vec<u8> {
    let mut zip = Vec::new();
    let mut central = Vec::new();
    let le16 = |v: &mut Vec<u8>, x: u16| v.extend_from_slice(&x.to_le_bytes());
    let le32 = |v: &mut Vec<u8>, x: u32| v.extend_from_slice(&x.to_le_bytes());
    let le64 = |v: &mut Vec<u8>, x: u64| v.extend_from_slice(&x.to_le_bytes());
    for i in 0..n {
        let name = format!("{i}.b2f");
        let at = zip.len() as u32;
        le32(&mut zip, 0x0403_4b50);
        zip.extend_from_slice(&[20, 0, 0, 0, 0, 0]);
        zip.extend_from_slice(&[0; 16]);
        le16(&mut zip, name.len() as u16);
        le16(&mut zip, 0);
        zip.extend_from_slice(name.as_bytes());
        le32(&mut central, 0x0201_4b50);
        central.extend_from_slice(&[20, 3, 20, 0, 0, 8, 0, 0]);
        central.extend_from_slice(&[0; 16]);
        le16(&mut central, name.len() as u16);
        central.extend_from_slice(&[0; 12]);
        le32(&mut central, at);
        central.extend_from_slice(name.as_bytes());
    }
    let cd_at = zip.len() as u64;
    zip.extend_from_slice(&central);
    let record_at = zip.len() as u64;
    // The zip64 end-of-central-directory record and its locator.
    le32(&mut zip, 0x0606_4b50);
    le64(&mut zip, 44);
    zip.extend_from_slice(&[45, 3, 45, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    le64(&mut zip, n as u64);
    le64(&mut zip, n as u64);
    le64(&mut zip, central.len() as u64);
    le64(&mut zip, cd_at);
    le32(&mut zip, 0x0706_4b50);
    le32(&mut zip, 0);
    le64(&mut zip, record_at);
    le32(&mut zip, 1);
    le32(&mut zip, 0x0605_4b50);
    zip.extend_from_slice(&[0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
    le32(&mut zip, central.len() as u32);
    le32(&mut zip, cd_at as u32);
    le16(&mut zip, 0);
    zip
}

/// Members are looked up by key in logarithmic time: `inspect` of a `.b2z` of 120 000 empty
/// members (11 MB; the default budget allows 4 M) lists each with its error within 8 s of CPU
/// in a debug build (2 s here), where a linear lookup per member (quadratic in all) takes a minute.
#[test]
fn inspect_of_120_000_members_is_linear() {
    let n = 120_000;
    let dir = std::env::temp_dir().join(format!("b2schema-store-many-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("many.b2z");
    std::fs::write(&path, zip_of_empty_members(n)).unwrap();
    let o = Command::new("prlimit")
        .args(["--cpu=8", "--"])
        .arg(env!("CARGO_BIN_EXE_b2schema"))
        .arg("inspect")
        .arg(&path)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    // Exit 2: every member is listed with its error (an empty member is no frame).
    assert_eq!(o.status.code(), Some(2), "{:?} {err}", o.status);
    assert!(out.starts_with(&format!("{}: zip store, {n} members\n", path.display())), "{err}");
    assert_eq!(out.lines().count(), n as usize + 1);
    assert!(out.contains("\n  /119999  "), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
