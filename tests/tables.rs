//! python-blosc2's BatchArray (`.b2b`, VL-block chunks) and CTable (`b2schema::store::{BatchArray,
//! CTable}`): the fixtures of `tests/data/tables/` (written by python-blosc2 4.14.1, its reading
//! in `tables.json`) read back equal; crafted batches and tables that lie refused with errors
//! that name the place, never a panic.

use b2schema::store::{BatchArray, CTable};
use serde_json::json;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    b2schema_tests::data_root().join("tables")
}

fn manifest() -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir().join("tables.json")).unwrap()).unwrap()
}

use b2schema_tests::value_json as to_json;

#[test]
fn batch_arrays_read_equal_to_python_blosc2() {
    let m = manifest();
    for name in ["batch.b2b", "blocks.b2b"] {
        let b = BatchArray::open(dir().join(name)).unwrap();
        assert_eq!(b.meta().serializer, "msgpack");
        let items: Vec<_> = b.items().unwrap().iter().map(to_json).collect();
        assert_eq!(serde_json::Value::Array(items), m[name], "{name}");
        assert_eq!(b.len_items().unwrap() as usize, m[name].as_array().unwrap().len());
    }
    // Two items per block: batches of 5 and 3 items are 3 and 2 VL blocks.
    let b = BatchArray::open(dir().join("blocks.b2b")).unwrap();
    assert_eq!(b.meta().items_per_block, Some(2));
    assert_eq!(b.batch_lengths(), Some(&[5u64, 3][..]));
    let f = b.frame();
    let chunk = f.read_chunk(f.chunks().unwrap()[0].location).unwrap();
    let blocks = b2schema::chunk::Decoder::new(f.registry()).decompress_vl_blocks(&chunk).unwrap();
    assert_eq!(blocks.len(), 3);
}

#[test]
fn a_ctable_reads_its_schema_columns_and_live_rows_as_python_blosc2() {
    let m = &manifest()["table.b2d"];
    let t = CTable::open(dir().join("table.b2d")).unwrap();
    let names: Vec<&str> = t.columns().iter().map(|c| c.name.as_str()).collect();
    assert_eq!(json!(names), m["columns"]);
    assert_eq!(t.n_rows().unwrap(), m["n_rows"].as_u64().unwrap());
    let rows = t.rows().unwrap();
    let got: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            serde_json::Value::Object(names.iter().zip(r).map(|(n, v)| (n.to_string(), to_json(v))).collect())
        })
        .collect();
    assert_eq!(json!(got), m["rows"]);
    // A column alone: every physical row, the deleted one included.
    assert_eq!(t.column_cells("id").unwrap().len(), 7);
    assert!(t.column_cells("nope").unwrap_err().to_string().contains("a column of the table"));
}

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

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("b2schema-tables-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}
