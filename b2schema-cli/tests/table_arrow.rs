//! `cat TABLE --arrow`: an Arrow IPC stream that pyarrow reads equal to python-blosc2's
//! `to_arrow()` (the python-blosc2 fixture `tests/data/tables/table.b2d`), with `--columns` and
//! `--rows`; `-o FILE` written whole; refused for what is not a CTable and for a terminal.

use std::process::{Command, Output};

use b2schema_tests::repo_root;

const TABLE: &str = "tests/data/tables/table.b2d";

fn b2schema(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_b2schema")).current_dir(repo_root()).args(args).output().unwrap()
}

/// pyarrow reads the stream at `stream` (a file) and compares it with python-blosc2's
/// `to_arrow()` of `columns`, rows `start:stop`: prints `equal` or what differs.
fn compare(stream: &std::path::Path, columns: &str, start: usize, stop: usize) -> String {
    let script = r#"
import sys, blosc2, pyarrow as pa, pyarrow.ipc
path, table, cols, a, b = sys.argv[1], sys.argv[2], sys.argv[3].split(","), int(sys.argv[4]), int(sys.argv[5])
ours = pa.ipc.open_stream(path).read_all()
theirs = blosc2.CTable.open(table).to_arrow().select(cols).slice(a, b - a)
same = ours.schema.remove_metadata().equals(theirs.schema) and ours.to_pylist() == theirs.to_pylist()
print("equal" if same else f"differ:\n{ours}\n{theirs}")
"#;
    let o = Command::new(b2schema_tests::python())
        .current_dir(repo_root())
        .args(["-c", script, stream.to_str().unwrap(), TABLE, columns, &start.to_string(), &stop.to_string()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

#[test]
fn cat_arrow_is_a_stream_pyarrow_reads_equal_to_python_blosc2() {
    let dir = std::env::temp_dir().join(format!("b2schema-cat-arrow-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Every column, through a pipe.
    let o = b2schema(&["cat", TABLE, "--arrow"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let piped = dir.join("all.arrows");
    std::fs::write(&piped, &o.stdout).unwrap();
    assert_eq!(compare(&piped, "id,x,ok,name,raw,s,n32", 0, 6), "equal");
    // A projection and a range of live rows, to a file.
    let file = dir.join("some.arrows");
    let o = b2schema(&[
        "cat",
        TABLE,
        "--arrow",
        "--columns",
        "n32,name,id",
        "--rows",
        "1:4",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success() && o.stdout.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(compare(&file, "n32,name,id", 1, 4), "equal");
    let o = b2schema(&["cat", TABLE, "--arrow", "--rows", "4:", "-o", file.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(compare(&file, "id,x,ok,name,raw,s,n32", 4, 6), "equal");

    // A column the table does not have: exit 2, and no file left.
    let bad = dir.join("bad.arrows");
    let o = b2schema(&["cat", TABLE, "--arrow", "--columns", "id,ghost", "-o", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("ghost"));
    assert!(!bad.exists());
    let o = b2schema(&["cat", TABLE, "--arrow", "--rows", "5:2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--rows"), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cat_arrow_is_refused_for_what_is_not_a_table_and_for_a_terminal() {
    for other in [
        "tests/data/tables/batch.b2b",
        "tests/data/stores/dict.b2z",
        "tests/data/tables/table.b2d/_cols/id.b2nd",
    ] {
        let o = b2schema(&["cat", other, "--arrow"]);
        assert_eq!(o.status.code(), Some(2), "{other}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains("--arrow") && e.contains("no CTable"), "{other}: {e}");
        assert!(o.stdout.is_empty(), "{other}");
    }
    let table = repo_root().join(TABLE);
    let (out, ok) = crate::terminal::on_a_terminal(&["cat", table.to_str().unwrap(), "--arrow"]);
    let text = String::from_utf8_lossy(&out);
    assert!(!ok && text.contains("terminal as binary"), "{text}");
    assert!(!text.contains("ARROW1") && !out.contains(&0xff), "no stream reached the terminal: {text:?}");
    // --columns and --rows belong to --arrow.
    let o = b2schema(&["cat", TABLE, "--columns", "id"]);
    assert_eq!(o.status.code(), Some(2));
}

/// python-blosc2 reads the table `packed` as the fixture's `columns` (comma-separated: the same
/// Arrow schema and rows), or, `columns` empty, as all of the fixture's rows (the same values: a
/// string's or bytes' Arrow type is python-blosc2's own for the kind written from Arrow).
/// Prints `equal` or what differs.
fn python_reads_as_fixture(packed: &std::path::Path, columns: &str) -> String {
    let script = r#"
import sys, blosc2
ours = blosc2.CTable.open(sys.argv[1]).to_arrow()
theirs = blosc2.CTable.open(sys.argv[2]).to_arrow()
if sys.argv[3]:
    theirs = theirs.select(sys.argv[3].split(","))
same = (not sys.argv[3] or ours.schema.equals(theirs.schema)) and ours.to_pylist() == theirs.to_pylist()
print("equal" if same else f"differ:\n{ours}\n{theirs}")
"#;
    let o = Command::new(b2schema_tests::python())
        .current_dir(repo_root())
        .args(["-c", script, packed.to_str().unwrap(), TABLE, columns])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

#[test]
fn pack_arrow_stream_is_a_ctable_python_blosc2_reads_equal() {
    let dir = std::env::temp_dir().join(format!("b2schema-pack-arrow-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let stream = dir.join("fixed.arrows");
    let o = b2schema(&["cat", TABLE, "--arrow", "--columns", "id,x,ok,n32", "-o", stream.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for out in ["packed.b2z", "packed.b2d"] {
        let packed = dir.join(out);
        let o = b2schema(&["pack", stream.to_str().unwrap(), packed.to_str().unwrap()]);
        assert!(o.status.success(), "{out}: {}", String::from_utf8_lossy(&o.stderr));
        // python-blosc2 reads what was packed as the fixture's own rows.
        assert_eq!(python_reads_as_fixture(&packed, "id,x,ok,n32"), "equal", "{out}");
    }
    // Every column of the fixture, strings and bytes too: the same values (their Arrow types are
    // python-blosc2's own for what it writes from Arrow: `utf8`, `vlbytes`).
    let all = dir.join("all.arrows");
    let o = b2schema(&["cat", TABLE, "--arrow", "-o", all.to_str().unwrap()]);
    assert!(o.status.success());
    let packed = dir.join("all.b2d");
    let o = b2schema(&["pack", all.to_str().unwrap(), packed.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(python_reads_as_fixture(&packed, ""), "equal");
    // A list column is packed as python-blosc2's `list` column; a map column has no CTable kind
    // (python-blosc2 refuses it too): refused, named, nothing left.
    let lists = dir.join("lists.arrows");
    let maps = dir.join("maps.arrows");
    let script = r#"
import sys, pyarrow as pa
t = pa.table({"id": pa.array([1, 2], pa.int64()), "tags": pa.array([[1], None], pa.list_(pa.int32()))})
with pa.ipc.new_stream(sys.argv[1], t.schema) as w:
    w.write_table(t)
t = pa.table({"tags": pa.array([[("a", 1)]], pa.map_(pa.string(), pa.int32()))})
with pa.ipc.new_stream(sys.argv[2], t.schema) as w:
    w.write_table(t)
"#;
    let o = Command::new(b2schema_tests::python())
        .args(["-c", script, lists.to_str().unwrap(), maps.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let packed = dir.join("lists.b2z");
    let o = b2schema(&["pack", lists.to_str().unwrap(), packed.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(b2schema_tests::python())
        .args(["-c", "import sys, blosc2; print(blosc2.CTable.open(sys.argv[1]).to_arrow().to_pylist())"])
        .arg(&packed)
        .output()
        .unwrap();
    let read = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        read.trim(),
        "[{'id': 1, 'tags': [1]}, {'id': 2, 'tags': None}]",
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let refused = dir.join("refused.b2z");
    let o = b2schema(&["pack", maps.to_str().unwrap(), refused.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("tags") && e.contains("Map"), "{e}");
    assert!(!refused.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
