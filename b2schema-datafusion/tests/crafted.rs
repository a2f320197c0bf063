//! Crafted tables queried: a column shorter than `/_valid_rows`, a schema whose `n_rows` lies, a
//! column whose dtype is not its kind's, a query reading a kind without an Arrow type: DataFusion
//! errors that hold b2schema's error (its kind `Invalid`, its path naming the member), never a
//! panic; the table's other columns still read.

use std::path::{Path, PathBuf};

use b2schema::error::Segment;
use b2schema::writer::{Fill, NdArray};
use b2schema::{ErrorKind, Value};
use b2schema_datafusion::{CTableProvider, register_ctable};
use datafusion::prelude::SessionContext;

use crate::{b2schema_error, fixture, query, scratch, session};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &p);
        } else {
            std::fs::copy(e.path(), p).unwrap();
        }
    }
}

/// A copy of the fixture table in `dir`.
fn fresh(dir: &Path, name: &str) -> PathBuf {
    let t = dir.join(name);
    copy_dir(&fixture(), &t);
    t
}

fn set_schema(table: &Path, json: &str) {
    let msgpack = Value::from(json).to_msgpack().unwrap();
    b2schema::writer::set_vlmetalayer(table.join("_meta.b2f"), "schema", &msgpack).unwrap();
}

/// Asserts that `e` is an `Invalid` error of b2schema whose path names the member `key`.
fn names_member(e: &b2schema::Error, key: &str) {
    assert!(matches!(e.kind(), ErrorKind::Invalid(_)), "{e}");
    assert!(e.path().any(|s| matches!(s, Segment::Key(k) if k == key)), "{key} not in {e}");
}

#[test]
fn crafted_tables_are_datafusion_errors_holding_b2schemas() {
    let dir = scratch("crafted");
    // A float64 column of 3 rows where /_valid_rows has 7.
    let t = fresh(&dir, "short");
    let items: Vec<u8> = [1.0f64, 2.0, 3.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::remove_file(t.join("_cols/x.b2nd")).unwrap();
    NdArray::new(&[3], &[3], &[3], "<f8", 8, Fill::Data(&items))
        .to_frame()
        .unwrap()
        .write_file(t.join("_cols/x.b2nd"))
        .unwrap();
    let ctx = session(CTableProvider::open(&t).unwrap(), 2, 4);
    for sql in ["SELECT sum(x) FROM t", "SELECT id, x FROM t LIMIT 6", "SELECT * FROM t WHERE x > 100"] {
        let e = query(&ctx, sql).unwrap_err();
        names_member(b2schema_error(&e).unwrap_or_else(|| panic!("{sql}: {e}")), "/_cols/x");
    }
    // The other columns still read.
    assert!(query(&ctx, "SELECT sum(id) FROM t").is_ok());

    // A schema whose n_rows lies: refused when the table is registered.
    let t = fresh(&dir, "n_rows");
    let cols = r#"{"name": "id", "kind": "int64"}, {"name": "x", "kind": "float64"}"#;
    set_schema(&t, &format!(r#"{{"version": 3, "columns": [{cols}], "n_rows": 50}}"#));
    let e = register_ctable(&SessionContext::new(), "t", &t).unwrap_err();
    let found = b2schema_error(&e).unwrap_or_else(|| panic!("{e}"));
    assert!(matches!(found.kind(), ErrorKind::Invalid(_)) && found.to_string().contains("n_rows"), "{e}");

    // A float64 column said to be int64: its cells refused when read.
    let t = fresh(&dir, "dtype");
    set_schema(&t, r#"{"version": 3, "columns": [{"name": "x", "kind": "int64"}], "n_rows": 6}"#);
    let ctx = session(CTableProvider::open(&t).unwrap(), 1, 1024);
    let e = query(&ctx, "SELECT sum(x) FROM t").unwrap_err();
    names_member(b2schema_error(&e).unwrap_or_else(|| panic!("{e}")), "/_cols/x");

    // A kind without an Arrow type: the table registered, its other columns read, the column
    // refused by name when a query reads it.
    let t = fresh(&dir, "kind");
    let cols = r#"{"name": "id", "kind": "int64"}, {"name": "x", "kind": "complex128"}"#;
    set_schema(&t, &format!(r#"{{"version": 3, "columns": [{cols}], "n_rows": 6}}"#));
    let ctx = SessionContext::new();
    register_ctable(&ctx, "t", &t).unwrap();
    for sql in ["SELECT sum(id) FROM t", "SELECT count(*) FROM t", "SELECT id FROM t WHERE id > 2"] {
        query(&ctx, sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    for sql in ["SELECT x FROM t", "SELECT * FROM t", "SELECT id, x FROM t LIMIT 2"] {
        let e = query(&ctx, sql).unwrap_err();
        names_member(b2schema_error(&e).unwrap_or_else(|| panic!("{sql}: {e}")), "/_cols/x");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
