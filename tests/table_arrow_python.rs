//! CTables read through b2schema's Arrow reader (`CTable::arrow_reader`, feature `arrow`) equal
//! to python-blosc2's `to_arrow()`: random CTables python-blosc2 4.14.1 writes (every kind with
//! an Arrow type: the integers and floats, `bool`, `string`, `bytes`, `vlstring`, `vlbytes`,
//! `utf8`, `dictionary`, `timestamp`, `ndarray` (a `FixedSizeList`); nulls in a mask or as a sentinel; deleted rows; 0 to 60
//! rows, and one of 100,000 rows), each read in batches of a random size, some through a
//! projection, written as an Arrow IPC stream that pyarrow reads and compares
//! (tests/python/arrow_tables.py). Never skipped: without python-blosc2 and pyarrow it fails.

use arrow_array::RecordBatchReader;
use b2schema::table::CTable;
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
            c["dtype"] =
                json!(["float64", "float32", "int32", "uint8", "int64", "bool"][rng.below(6) as usize]);
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

/// A random Arrow column of `rows` rows of one of the types [`CTableWriter`] writes (some
/// nullable, with nulls).
fn arrow_column(rng: &mut Rng, i: usize, rows: usize) -> (arrow_schema::Field, arrow_array::ArrayRef) {
    use arrow_array::*;
    use arrow_schema::{DataType, Field, TimeUnit};
    use std::sync::Arc;
    let nullable = rng.below(2) == 0;
    let valid: Vec<bool> = (0..rows).map(|_| !nullable || rng.below(4) != 0).collect();
    let which = rng.below(13);
    let mut ints = |lo: i128, hi: i128| -> Vec<i128> {
        (0..rows).map(|_| lo + (rng.next() as i128).rem_euclid(hi - lo + 1)).collect()
    };
    macro_rules! prim {
        ($arr:ty, $t:ty, $lo:expr, $hi:expr) => {{
            let v = ints($lo as i128, $hi as i128);
            Arc::new(<$arr>::from_iter(v.iter().zip(&valid).map(|(x, ok)| ok.then_some(*x as $t))))
                as ArrayRef
        }};
    }
    let (dt, a): (DataType, ArrayRef) = match which {
        0 => (DataType::Int8, prim!(Int8Array, i8, i8::MIN, i8::MAX)),
        1 => (DataType::Int16, prim!(Int16Array, i16, i16::MIN, i16::MAX)),
        2 => (DataType::Int32, prim!(Int32Array, i32, i32::MIN, i32::MAX)),
        3 => (DataType::Int64, prim!(Int64Array, i64, i64::MIN, i64::MAX)),
        4 => (DataType::UInt8, prim!(UInt8Array, u8, 0, u8::MAX)),
        5 => (DataType::UInt16, prim!(UInt16Array, u16, 0, u16::MAX)),
        6 => (DataType::UInt32, prim!(UInt32Array, u32, 0, u32::MAX)),
        7 => (DataType::UInt64, prim!(UInt64Array, u64, 0, u64::MAX)),
        8 => (DataType::Float32, prim!(Float32Array, f32, -1000, 1000)),
        9 => (DataType::Float64, prim!(Float64Array, f64, -1_000_000, 1_000_000)),
        10 => {
            let v = ints(0, 1);
            (
                DataType::Boolean,
                Arc::new(BooleanArray::from_iter(v.iter().zip(&valid).map(|(x, ok)| ok.then_some(*x == 1)))),
            )
        }
        11 => (
            DataType::Timestamp(TimeUnit::Millisecond, None),
            prim!(TimestampMillisecondArray, i64, -(1i64 << 40), 1i64 << 40),
        ),
        _ => {
            let tz: Arc<str> = Arc::from("UTC");
            let a = prim!(TimestampNanosecondArray, i64, -(1i64 << 60), 1i64 << 60);
            let a = a
                .as_any()
                .downcast_ref::<TimestampNanosecondArray>()
                .unwrap()
                .clone()
                .with_timezone(tz.clone());
            (DataType::Timestamp(TimeUnit::Nanosecond, Some(tz)), Arc::new(a))
        }
    };
    (Field::new(format!("c{i}"), dt, nullable), a)
}

#[test]
fn ctables_written_from_arrow_read_by_python_blosc2_equal() {
    use arrow_array::RecordBatch;
    use b2schema::table::{CTableWriter, ColumnType};
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("b2schema-arrow-write-py-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x005e_ed0f_a770_3417 | 1);
    let mut checks = Vec::new();
    for case in 0..16 {
        let rows = [0, 1, 7, 100, 3000][case % 5];
        let cols: Vec<_> = (0..1 + rng.below(5) as usize).map(|i| arrow_column(&mut rng, i, rows)).collect();
        let schema =
            Arc::new(arrow_schema::Schema::new(cols.iter().map(|c| c.0.clone()).collect::<Vec<_>>()));
        let batch = RecordBatch::try_new(schema.clone(), cols.iter().map(|c| c.1.clone()).collect()).unwrap();
        let mut w = CTableWriter::from_arrow_schema(&schema).unwrap();
        // The rows in two batches: the second appended to the first, in the writer (.b2d) or to
        // the .b2z written with the first (reopened, appended, written anew over it).
        let cut = rows / 3;
        w.push_batch(&batch.slice(0, cut)).unwrap();
        let path = dir.join(format!("w{case}.{}", if case % 2 == 0 { "b2z" } else { "b2d" }));
        if case % 2 == 0 {
            w.write_zip(&path).unwrap();
            let mut w = CTableWriter::from_table(&CTable::open(&path).unwrap()).unwrap();
            w.push_batch(&batch.slice(cut, rows - cut)).unwrap();
            w.write_zip(&path).unwrap();
        } else {
            w.push_batch(&batch.slice(cut, rows - cut)).unwrap();
            w.write_dir(&path).unwrap();
        }
        // What python-blosc2 must read: the batch, with the metadata key the check looks for.
        let meta = std::collections::HashMap::from([("b2schema.ctable.schema".to_string(), String::new())]);
        let ipc_schema = Arc::new(schema.as_ref().clone().with_metadata(meta));
        let file = std::fs::File::create(format!("{}.ours.arrows", path.display())).unwrap();
        let mut s = arrow_ipc::writer::StreamWriter::try_new(file, &ipc_schema).unwrap();
        s.write(&batch.with_schema(ipc_schema.clone()).unwrap()).unwrap();
        s.finish().unwrap();
        checks
            .push(json!({"name": format!("written {case}"), "kind": "check", "path": path, "columns": null}));
    }
    // Typed Rust columns.
    let path = dir.join("typed.b2d");
    let mut w = CTableWriter::new();
    w.column("id", ColumnType::Int64, false).unwrap();
    w.column("temp", ColumnType::Float32, true).unwrap();
    w.column("ok", ColumnType::Bool, true).unwrap();
    w.push("id", &[Some(1i64), Some(-2), Some(3)]).unwrap();
    w.push("temp", &[Some(20.5f32), None, Some(-0.25)]).unwrap();
    w.push("ok", &[None, Some(true), Some(false)]).unwrap();
    assert!(w.push("id", &[None::<i64>]).is_err(), "a null in a column that is not nullable");
    assert!(w.push("temp", &[Some(1.0f64)]).is_err(), "f64 into a float32 column");
    w.write_dir(&path).unwrap();
    let t = CTable::open(&path).unwrap();
    let r = t.arrow_reader(None, 10).unwrap();
    let file = std::fs::File::create(format!("{}.ours.arrows", path.display())).unwrap();
    let mut s = arrow_ipc::writer::StreamWriter::try_new(file, &r.schema()).unwrap();
    for b in r {
        s.write(&b.unwrap()).unwrap();
    }
    s.finish().unwrap();
    checks.push(json!({"name": "typed", "kind": "check", "path": path, "columns": null}));
    let out = python_checks("arrow_tables.py", &dir, &checks);
    assert!(out.contains(&format!("{} passed, 0 failed", checks.len())), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
