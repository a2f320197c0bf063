//! `append IN.arrows TABLE.b2d` (and `.b2z`) is crash-safe: killed while it writes (a file-size
//! limit, `prlimit --fsize=N`, SIGXFSZ killing it or, ignored, failing the write with EFBIG as on
//! a full disk; or SIGKILL at several moments), the table still opens in b2schema and in
//! python-blosc2 4.14.1 as the old table or the new one, whole: the new table is written beside
//! the old one, then put in its place in one step (a `.b2d` swapped with it by
//! `renameat2(RENAME_EXCHANGE)`, a `.b2z` renamed onto it).

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use b2schema::table::CTable;
use b2schema_tests::{python, python_checks};
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_b2schema");

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

/// `append` under a file-size limit of `limit` bytes (SIGXFSZ ignored or not).
fn append_limited(input: &Path, table: &Path, limit: u64, ignore_signal: bool) -> Output {
    let trap = if ignore_signal { "trap '' XFSZ; " } else { "" };
    Command::new("sh")
        .arg("-c")
        .arg(format!("{trap}exec prlimit --fsize=\"$1\" -- \"$2\" append \"$3\" \"$4\""))
        .args(["sh", &limit.to_string(), BIN, input.to_str().unwrap(), table.to_str().unwrap()])
        .output()
        .unwrap()
}

/// Copies the table `from` (a `.b2d` directory or a `.b2z`) to `to`.
fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            copy(&e.path(), &to.join(e.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

/// The sizes of the files under `p`.
fn sizes(p: &Path) -> Vec<u64> {
    if p.is_dir() {
        std::fs::read_dir(p).unwrap().flat_map(|e| sizes(&e.unwrap().path())).collect()
    } else {
        vec![std::fs::metadata(p).unwrap().len()]
    }
}

/// Nothing but the table is left beside it (no temporary of a finished run).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    v.sort();
    v
}

#[test]
fn an_append_to_a_table_killed_at_any_point_leaves_the_old_table_or_the_new() {
    let dir = std::env::temp_dir().join(format!("b2schema-table-append-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // The old rows, the rows appended, and both: Arrow IPC streams pyarrow writes.
    let script = r#"
import sys, pyarrow as pa
d, n, m = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def rows(a, b):
    i = list(range(a, b))
    return pa.table({
        "id": pa.array(i, pa.int64()),
        "temp": pa.array([None if k % 7 == 0 else k / 4 for k in i], pa.float64()),
        "name": pa.array([None if k % 5 == 0 else f"row {k} é" for k in i], pa.string()),
        "station": pa.array([["north", "south", "east"][k % 3] for k in i]).dictionary_encode(),
        "raw": pa.array([bytes([k % 256]) * (k % 4) for k in i], pa.binary()),
    })
for name, t in [("old", rows(0, n)), ("more", rows(n, n + m)), ("new", rows(0, n + m))]:
    with pa.ipc.new_stream(f"{d}/{name}.arrows", t.schema) as w:
        w.write_table(t, max_chunksize=7000)
"#;
    let (n, m) = (30_000u64, 20_000u64);
    let o = Command::new(python())
        .args(["-c", script, dir.to_str().unwrap(), &n.to_string(), &m.to_string()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (old_s, more, new_s) = (dir.join("old.arrows"), dir.join("more.arrows"), dir.join("new.arrows"));
    let mut checks = Vec::new();
    let mut outcomes = [0usize; 2];
    let mut check = |table: &Path, what: &str, checks: &mut Vec<serde_json::Value>| {
        let t = CTable::open(table).unwrap_or_else(|e| panic!("{what}: {e}"));
        let rows = t.n_rows().unwrap();
        assert!(rows == n || rows == n + m, "{what}: {rows} rows");
        let ids = t.column::<i64>("id").unwrap();
        assert!(ids.iter().enumerate().all(|(i, v)| *v == Some(i as i64)), "{what}");
        outcomes[usize::from(rows == n + m)] += 1;
        let stream = if rows == n { &old_s } else { &new_s };
        checks.push(json!({"name": what, "kind": "check", "path": table, "stream": stream, "loose": true}));
    };
    for form in ["b2d", "b2z"] {
        let base = dir.join(format!("base.{form}"));
        let o = run(&["pack", old_s.to_str().unwrap(), base.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // An uninterrupted append: the new table, nothing left beside it.
        let sub = dir.join(format!("clean-{form}"));
        std::fs::create_dir_all(&sub).unwrap();
        let clean = sub.join(format!("t.{form}"));
        copy(&base, &clean);
        let o = run(&["append", more.to_str().unwrap(), clean.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(names(&sub), [format!("t.{form}")]);
        check(&clean, &format!("clean {form}"), &mut checks);
        // Killed by the file-size limit at every tenth of the largest file written.
        let largest = sizes(&clean).into_iter().max().unwrap();
        for (k, limit) in (1..=10).map(|k| (k, largest * k / 11)) {
            let sub = dir.join(format!("fsize-{form}-{k}"));
            std::fs::create_dir_all(&sub).unwrap();
            let t = sub.join(format!("t.{form}"));
            copy(&base, &t);
            let ignore_signal = k % 2 == 0;
            let o = append_limited(&more, &t, limit, ignore_signal);
            let err = String::from_utf8_lossy(&o.stderr);
            if ignore_signal {
                assert_eq!(o.status.code(), Some(2), "limit {limit}: {err}");
                // A failed write removes its temporary.
                assert_eq!(names(&sub), [format!("t.{form}")], "limit {limit}");
            } else {
                assert_eq!(o.status.signal(), Some(libc::SIGXFSZ), "limit {limit}: {:?} {err}", o.status);
            }
            check(&t, &format!("fsize {form} {limit}"), &mut checks);
            // The next append (to a copy, the table left is checked by python-blosc2 below),
            // uninterrupted, makes the new table.
            let next = sub.join(format!("next.{form}"));
            copy(&t, &next);
            let o = run(&["append", more.to_str().unwrap(), next.to_str().unwrap()]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            assert_eq!(CTable::open(&next).unwrap().n_rows().unwrap(), n + m);
        }
        // SIGKILL at moments spread over an append's run.
        for k in 0..8u64 {
            let sub: PathBuf = dir.join(format!("kill-{form}-{k}"));
            std::fs::create_dir_all(&sub).unwrap();
            let t = sub.join(format!("t.{form}"));
            copy(&base, &t);
            let mut child = Command::new(BIN)
                .args(["append", more.to_str().unwrap(), t.to_str().unwrap()])
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(std::time::Duration::from_millis(k * k * 15));
            let _ = child.kill();
            let _ = child.wait();
            check(&t, &format!("kill {form} {k}"), &mut checks);
        }
    }
    // Some runs were cut short (the old table) and some finished (the new one).
    assert!(outcomes[0] >= 10 && outcomes[1] >= 2, "{outcomes:?}");
    let out = python_checks("arrow_tables.py", &dir, &checks);
    assert!(out.contains(&format!("{} passed, 0 failed", checks.len())), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
