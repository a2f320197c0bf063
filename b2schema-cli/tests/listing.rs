//! `ls`, `du`, `diff` and `vlmeta` (issue 37): what such tools have, run as a process over a
//! small tree.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use b2schema_tests::repo_root;

fn b2schema(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_b2schema")).current_dir(repo_root()).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A tree: `lz4/a.b2nd` (lz4, <i4), `zstd/b.b2nd` (zstd, <i4), `zstd/deeper/c.b2nd` (vlmeta,
/// <i4), `zstd/s.b2frame` (an SChunk).
fn tree(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-listing-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("lz4")).unwrap();
    std::fs::create_dir_all(dir.join("zstd/deeper")).unwrap();
    let copy = |from: &str, to: &str| {
        std::fs::copy(repo_root().join("tests/data/fixtures").join(from), dir.join(to)).unwrap();
    };
    copy("codec-lz4-9.b2nd", "lz4/a.b2nd");
    copy("codec-zstd-9.b2nd", "zstd/b.b2nd");
    copy("nd-meta-vlmeta.b2nd", "zstd/deeper/c.b2nd");
    copy("schunk-vlmeta-values.b2frame", "zstd/s.b2frame");
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn ls_lists_one_line_per_frame_and_selects_by_codec_dtype_and_vlmeta() {
    let dir = tree("ls");
    let o = b2schema(&["ls", "-r", s(&dir)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let d = s(&dir);
    // The sizes are python-blosc2's (tests/data/fixtures.json: schunk.nbytes, schunk.cbytes).
    assert_eq!(
        text(&o.stdout),
        format!(
            "{d}/lz4/a.b2nd\t600\t<i4\tlz4\t2400\t1071\t2.24\n\
             {d}/zstd/b.b2nd\t600\t<i4\tzstd\t2400\t916\t2.62\n\
             {d}/zstd/deeper/c.b2nd\t6x10\t<i4\tzstd\t384\t560\t0.69\n\
             {d}/zstd/s.b2frame\t-\t-\tzstd\t500\t564\t0.89\n"
        )
    );
    let names = |args: &[&str]| -> Vec<String> {
        let o = b2schema(&[&["ls", "-r"], args, &[d]].concat());
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        text(&o.stdout).lines().map(|l| l.split('\t').next().unwrap().replace(d, "")).collect()
    };
    assert_eq!(names(&["--codec", "lz4"]), ["/lz4/a.b2nd"]);
    assert_eq!(names(&["--codec", "ZSTD", "--dtype", "i4"]), ["/zstd/b.b2nd", "/zstd/deeper/c.b2nd"]);
    assert_eq!(names(&["--has-vlmeta", "attrs"]), ["/zstd/deeper/c.b2nd"]);
    assert_eq!(names(&["--dtype", ">i4"]), Vec::<String>::new());
    // The same selection in the other subcommands that take many paths.
    let o = b2schema(&["inspect", "--json", "-r", "--codec", "lz4", d]);
    let lines: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("\"codec\":\"lz4\""), "{}", lines[0]);
    let o = b2schema(&["verify", "-r", "--has-vlmeta", "attrs", d]);
    assert_eq!(text(&o.stdout).lines().count(), 1, "{}", text(&o.stdout));
    assert!(text(&o.stdout).starts_with(&format!("ok {d}/zstd/deeper/c.b2nd: ")));
    let o = b2schema(&["ls", "--codec", "nope", d]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("expected a codec name (blosclz, lz4"), "{}", text(&o.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn du_totals_each_tree_and_all_of_them() {
    let dir = tree("du");
    let (lz4, zstd) = (dir.join("lz4"), dir.join("zstd"));
    let o = b2schema(&["du", "-r", s(&lz4), s(&zstd)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        format!(
            "1\t2400\t1071\t2.24\t{}\n3\t3284\t2040\t1.61\t{}\n4\t5684\t3111\t1.83\ttotal\n",
            s(&lz4),
            s(&zstd)
        )
    );
    // Without -r only what is directly inside; a file that is not Blosc2 is skipped with a
    // warning (issue 45), and the exit code stays 0.
    std::fs::write(zstd.join("notes.txt"), b"not a frame").unwrap();
    let o = b2schema(&["du", s(&zstd)]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stdout), format!("2\t2900\t1480\t1.96\t{}\n", s(&zstd)));
    assert!(text(&o.stderr).contains("notes.txt: not a Blosc2 file, skipped"), "{}", text(&o.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn diff_says_each_value_that_differs() {
    let dir = tree("diff");
    let (a, b) = (dir.join("lz4/a.b2nd"), dir.join("zstd/b.b2nd"));
    let o = b2schema(&["diff", s(&a), s(&a)]);
    assert_eq!((o.status.code(), o.stdout.len()), (Some(0), 0));
    let o = b2schema(&["diff", s(&a), s(&b)]);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(out.contains("header.codec: \"lz4\" -> \"zstd\"\n"), "{out}");
    assert!(out.contains("header.cbytes: 1071 -> 916\n"), "{out}");
    assert!(!out.contains("path"), "{out}");
    // A vlmetalayer added is one line, keyed by its name.
    let o = b2schema(&["vlmeta", "set", s(&b), "note", "\"hi\""]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = b2schema(&["diff", s(&dir.join("lz4/a.b2nd")), s(&b)]);
    let out = text(&o.stdout);
    assert!(out.contains("vlmetalayers[note].value: (none) -> \"hi\"\n"), "{out}");
    let o = b2schema(&["diff", s(&a), "README.md"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn vlmeta_get_set_and_del_from_the_shell() {
    let dir = tree("vlmeta");
    let f = dir.join("zstd/deeper/c.b2nd");
    let get = |key: &str| b2schema(&["vlmeta", "get", s(&f), key]);
    assert_eq!(text(&get("title").stdout), "\"a small array\"\n");
    let o = b2schema(&["vlmeta", "set", s(&f), "units", r#"{"unit": "m", "scale": 2.5, "n": [1, -3]}"#]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&get("units").stdout), "{\"unit\":\"m\",\"scale\":2.5,\"n\":[1,-3]}\n");
    // As python-blosc2 stores it: msgpack with the smallest widths.
    let o = b2schema(&["vlmeta", "get", "--raw", s(&f), "units"]);
    assert_eq!(o.stdout, b"\x83\xa4unit\xa1m\xa5scale\xcb\x40\x04\x00\x00\x00\x00\x00\x00\xa1n\x92\x01\xfd");
    // Updated in place in the order; the frame stays whole and every chunk still decodes.
    let o = b2schema(&["vlmeta", "set", s(&f), "title", "\"renamed\""]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&get("title").stdout), "\"renamed\"\n");
    assert_eq!(b2schema(&["verify", "--deep", s(&f)]).status.code(), Some(0));
    let o = b2schema(&["vlmeta", "del", s(&f), "units"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = get("units");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("no vlmetalayer named \"units\" (it has: title, attrs)"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(b2schema(&["vlmeta", "del", s(&f), "units"]).status.code(), Some(2));
    assert_eq!(b2schema(&["verify", "--deep", s(&f)]).status.code(), Some(0));
    // Not JSON: refused before anything is written.
    let before = std::fs::read(&f).unwrap();
    let o = b2schema(&["vlmeta", "set", s(&f), "x", "{not json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--raw"), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(&f).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn vlmeta_set_refuses_what_is_not_a_regular_frame_file() {
    let dir = tree("vlmeta-refuses");
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    // Opened without blocking, then refused (a blocking open would wait for a writer forever).
    let o = b2schema(&["vlmeta", "set", s(&fifo), "k", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("not a regular file"), "{}", text(&o.stderr));
    let o = b2schema(&["vlmeta", "set", s(&dir), "k", "1"]);
    assert_eq!(o.status.code(), Some(2));
    // A frame with bytes after it: the writer would put its tail inside them.
    let f = dir.join("lz4/a.b2nd");
    let mut bytes = std::fs::read(&f).unwrap();
    bytes.extend_from_slice(b"trailing");
    std::fs::write(&f, &bytes).unwrap();
    let o = b2schema(&["vlmeta", "set", s(&f), "k", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&f).unwrap(), bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}
