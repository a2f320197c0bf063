//! CTables read through b2schema's Arrow reader (`CTable::arrow_reader`, feature `arrow`) equal
//! to python-blosc2's `to_arrow()`: random CTables python-blosc2 4.14.1 writes (every kind with
//! an Arrow type: the integers and floats, `bool`, `string`, `bytes`, `vlstring`, `vlbytes`,
//! `utf8`, `dictionary`, `timestamp`, `ndarray` (a `FixedSizeList`); nulls in a mask or as a sentinel; deleted rows; 0 to 60
//! rows, and one of 100,000 rows), each read in batches of a random size, some through a
//! projection, written as an Arrow IPC stream that pyarrow reads and compares
//! (tests/python/arrow_tables.py). Never skipped: without python-blosc2 and pyarrow it fails.

use arrow_array::RecordBatchReader;
use b2schema::store::CTable;
use b2schema_tests::XorShift as Rng;
use b2schema_tests::python_checks;
use serde_json::{Value, json};

const KINDS: [&str; 19] = [
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "bool",
    "string",
    "bytes",
    "vlstring",
    "vlbytes",
    "utf8",
    "dictionary",
    "timestamp",
    "ndarray",
];

fn column(rng: &mut Rng, i: usize) -> Value {
    let kind = KINDS[rng.below(KINDS.len() as u64) as usize];
    let mut c = json!({ "name": format!("c{i}"), "kind": kind });
    match kind {
        "string" | "bytes" => c["max_length"] = json!(1 + rng.below(12)),
        "timestamp" => c["unit"] = json!(["s", "ms", "us", "ns"][rng.below(4) as usize]),
        "ndarray" => {
            c["item_shape"] = [json!([2]), json!([2, 3]), json!([1, 1, 4])][rng.below(3) as usize].clone();
            c["dtype"] = json!(["float64", "float32", "int32", "uint8", "int64", "bool"][rng.below(6) as usize]);
        }
        _ => {}
    }
    match rng.below(4) {
        0 | 3 if kind != "dictionary" => c["nullable"] = json!(true),
        1 if kind.starts_with("int") => c["null_value"] = json!(-1),
        2 if matches!(kind, "utf8" | "timestamp" | "float64") => {
            c["nullable"] = json!(true);
            c["null_storage"] = json!("sentinel");
        }
        _ => {}
    }
    c
}

/// Reads the table at `path` through Arrow (`columns`, or all; `batch` rows a batch) and writes
/// it as an IPC stream at `path.ours.arrows`; returns the rows read.
fn write_ours(path: &str, columns: Option<&[&str]>, batch: usize) -> usize {
    let t = CTable::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let r = t.arrow_reader(columns, batch).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file = std::fs::File::create(format!("{path}.ours.arrows")).unwrap();
    let mut w = arrow_ipc::writer::StreamWriter::try_new(file, &r.schema()).unwrap();
    let mut rows = 0;
    for b in r {
        let b = b.unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(b.num_rows() <= batch && b.num_rows() > 0, "{path}: a batch of {}", b.num_rows());
        rows += b.num_rows();
        w.write(&b).unwrap();
    }
    w.finish().unwrap();
    rows
}

#[test]
fn ctables_through_arrow_equal_python_blosc2_to_arrow() {
    let dir = std::env::temp_dir().join(format!("b2schema-arrow-py-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0xa770_77ab_1e5e_ed01 | 1);
    let mut tables = Vec::new();
    for case in 0..30 {
        let columns: Vec<Value> = (0..1 + rng.below(6) as usize).map(|i| column(&mut rng, i)).collect();
        let rows = if case < 2 { 0 } else { rng.below(60) };
        let deletes: Vec<u64> = (0..rng.below(4)).map(|_| rng.next() % 1000).collect();
        let form = if case % 3 == 0 { "b2z" } else { "b2d" };
        tables.push(json!({
            "name": format!("table {case}"),
            "kind": "table",
            "path": dir.join(format!("t{case}.{form}")),
            "seed": rng.next() % 1_000_000,
            "columns": columns,
            "rows": rows,
            "deletes": deletes,
        }));
    }
    let kinds: std::collections::BTreeSet<&str> = tables
        .iter()
        .filter(|e| e["rows"].as_u64() > Some(4))
        .flat_map(|e| e["columns"].as_array().unwrap().iter().map(|c| c["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds.len(), KINDS.len(), "kinds drawn: {kinds:?}");
    python_checks("write_tables.py", &dir, &tables);
    let big = dir.join("big.b2d");
    python_checks(
        "arrow_tables.py",
        &dir,
        &[json!({"name": "big", "kind": "big", "path": big, "rows": 100_000, "seed": 7})],
    );
    let mut checks = Vec::new();
    let mut total = 0;
    for e in &tables {
        let path = e["path"].as_str().unwrap();
        let names: Vec<&str> =
            e["columns"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
        // Every other table through a projection: its columns reversed, the first left out.
        let projected: Vec<&str> = names.iter().rev().skip(1).copied().collect();
        let columns = (rng.below(2) == 0 && !projected.is_empty()).then_some(projected);
        total += write_ours(path, columns.as_deref(), 1 + rng.below(20) as usize);
        checks.push(json!({"name": e["name"], "kind": "check", "path": path, "columns": columns}));
    }
    let big = big.to_str().unwrap();
    assert_eq!(write_ours(big, Some(&["x", "i", "b", "u"]), 30_000), 100_000 - 100_000usize.div_ceil(7));
    checks.push(json!({"name": "big", "kind": "check", "path": big, "columns": ["x", "i", "b", "u"]}));
    let out = python_checks("arrow_tables.py", &dir, &checks);
    assert!(out.contains(&format!("{} passed, 0 failed", checks.len())), "{out}");
    assert!(total > 300, "{total} rows");
    std::fs::remove_dir_all(&dir).unwrap();
}
