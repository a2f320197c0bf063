//! CTables read through b2schema's Arrow reader (`CTable::arrow_reader`, feature `arrow`) equal
//! to python-blosc2's `to_arrow()`: random CTables python-blosc2 4.14.1 writes (every kind with
//! an Arrow type: the integers and floats, `bool`, `string`, `bytes`, `vlstring`, `vlbytes`,
//! `utf8`, `dictionary`, `timestamp`, `ndarray` (a `FixedSizeList`), `list` (of six item kinds, batch
//! and vl storage) and `struct` (nested `List` and `Struct`); nulls in a mask or as a sentinel; deleted rows; 0 to 60
//! rows, and one of 100,000 rows), each read in batches of a random size, some through a
//! projection, written as an Arrow IPC stream that pyarrow reads and compares
//! (tests/python/arrow_tables.py). Never skipped: without python-blosc2 and pyarrow it fails.

use arrow_array::RecordBatchReader;
use b2schema::table::CTable;
use b2schema_tests::XorShift as Rng;
use b2schema_tests::python_checks;
use serde_json::{Value, json};

const KINDS: [&str; 21] = [
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
    "list",
    "struct",
];

fn column(rng: &mut Rng, i: usize) -> Value {
    let kind = KINDS[rng.below(KINDS.len() as u64) as usize];
    let mut c = json!({ "name": format!("c{i}"), "kind": kind });
    match kind {
        "string" | "bytes" => c["max_length"] = json!(1 + rng.below(12)),
        "timestamp" => c["unit"] = json!(["s", "ms", "us", "ns"][rng.below(4) as usize]),
        "list" => {
            c["item"] =
                json!(["int32", "float64", "bool", "string", "vlstring", "uint8"][rng.below(6) as usize]);
            c["storage"] = json!(["batch", "vl"][rng.below(2) as usize]);
        }
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

/// A random string of 0 to 12 characters, some beyond ASCII.
fn text(rng: &mut Rng) -> String {
    const CHARS: [char; 8] = ['a', 'Z', '0', ' ', 'é', '中', '🦀', '"'];
    (0..rng.below(13)).map(|_| CHARS[rng.below(CHARS.len() as u64) as usize]).collect()
}

/// A random type of a list's items or a struct's fields, `depth` lists and structs deep: a
/// number, bool, timestamp, string, large string, binary, or (above depth 3) a list, large list
/// or struct of those (a field named `a.b` among a struct's, to be escaped).
fn nested_type(rng: &mut Rng, depth: usize) -> arrow_schema::DataType {
    use arrow_schema::{DataType, Field, TimeUnit};
    use std::sync::Arc;
    let field =
        |rng: &mut Rng, name: String| Field::new(name, nested_type(rng, depth + 1), rng.below(3) != 0);
    match rng.below(if depth < 3 { 13 } else { 10 }) {
        0 => DataType::Int32,
        1 => DataType::Int64,
        2 => DataType::UInt16,
        3 => DataType::Float32,
        4 => DataType::Float64,
        5 => DataType::Boolean,
        6 => DataType::Utf8,
        7 => DataType::LargeUtf8,
        8 => DataType::Binary,
        9 => DataType::Timestamp(TimeUnit::Millisecond, None),
        10 => DataType::List(Arc::new(Field::new("item", list_item(rng, depth + 1), rng.below(3) != 0))),
        11 => DataType::LargeList(Arc::new(Field::new("item", list_item(rng, depth + 1), rng.below(3) != 0))),
        _ => DataType::Struct(
            (0..1 + rng.below(3))
                .map(|j| field(rng, if j == 1 { "a.b".into() } else { format!("f{j}") }))
                .collect(),
        ),
    }
}

/// A random type of a list's items: a [`nested_type`], or what only a list
/// holds as a cell: a fixed-size list of 1 to 3 float64s or int32s, a dictionary of strings (one
/// draw in two).
fn list_item(rng: &mut Rng, depth: usize) -> arrow_schema::DataType {
    use arrow_schema::{DataType, Field};
    use std::sync::Arc;
    match rng.below(4) {
        0 => {
            let item = [DataType::Float64, DataType::Int32][rng.below(2) as usize].clone();
            DataType::FixedSizeList(Arc::new(Field::new("item", item, true)), 1 + rng.below(3) as i32)
        }
        1 => DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
        _ => nested_type(rng, depth),
    }
}

/// A random array of `dt` (a [`nested_type`], or a list or struct of them) of `n` rows, nulls
/// among them when `nullable`, lists of 0 to 3 items. With `flat`, what python-blosc2 gives back
/// of the same draws written by b2schema as a struct column's leaves: the structs' nulls (and
/// the rows `flat` says are null) pushed down into their leaves, the structs never null, every
/// field nullable.
fn random_array(
    rng: &mut Rng,
    dt: &arrow_schema::DataType,
    n: usize,
    nullable: bool,
    flat: Option<&[bool]>,
) -> arrow_array::ArrayRef {
    use arrow_array::*;
    use arrow_buffer::{NullBuffer, OffsetBuffer};
    use arrow_schema::{DataType, Field};
    use std::sync::Arc;
    let valid: Vec<bool> = (0..n).map(|_| !nullable || rng.below(4) != 0).collect();
    let shown: Vec<bool> = match flat {
        Some(m) => valid.iter().zip(m).map(|(a, b)| *a && *b).collect(),
        None => valid.clone(),
    };
    let nulls = shown.contains(&false).then(|| NullBuffer::from(shown.clone()));
    let strs = |rng: &mut Rng| -> Vec<Option<String>> {
        valid.iter().zip(&shown).map(|(&v, &s)| v.then(|| text(rng)).filter(|_| s)).collect()
    };
    let lens = |rng: &mut Rng| -> Vec<usize> {
        valid.iter().map(|&v| if v { rng.below(4) as usize } else { 0 }).collect()
    };
    match dt {
        DataType::Int32 => Arc::new(Int32Array::new((0..n).map(|_| rng.next() as i32).collect(), nulls)),
        DataType::Int64 => Arc::new(Int64Array::new((0..n).map(|_| rng.next() as i64).collect(), nulls)),
        DataType::UInt16 => Arc::new(UInt16Array::new((0..n).map(|_| rng.next() as u16).collect(), nulls)),
        DataType::Float32 => {
            Arc::new(Float32Array::new((0..n).map(|_| rng.below(4000) as f32 / 4.0 - 500.0).collect(), nulls))
        }
        DataType::Float64 => {
            Arc::new(Float64Array::new((0..n).map(|_| rng.below(1 << 40) as f64 / 1024.0).collect(), nulls))
        }
        DataType::Boolean => Arc::new(BooleanArray::new((0..n).map(|_| rng.below(2) == 0).collect(), nulls)),
        DataType::Timestamp(..) => Arc::new(TimestampMillisecondArray::new(
            (0..n).map(|_| rng.below(1 << 40) as i64).collect(),
            nulls,
        )),
        DataType::Utf8 => Arc::new(StringArray::from(strs(rng))),
        DataType::LargeUtf8 => Arc::new(LargeStringArray::from(strs(rng))),
        DataType::Binary => {
            let v: Vec<Option<Vec<u8>>> = strs(rng).into_iter().map(|s| s.map(String::into_bytes)).collect();
            Arc::new(BinaryArray::from(v.iter().map(Option::as_deref).collect::<Vec<_>>()))
        }
        DataType::FixedSizeList(f, size) => {
            let items = random_array(rng, f.data_type(), n * *size as usize, f.is_nullable(), None);
            Arc::new(FixedSizeListArray::new(f.clone(), *size, items, nulls))
        }
        DataType::Dictionary(..) => {
            let words: Vec<String> = (0..1 + rng.below(4)).map(|_| text(rng)).collect();
            let v: Vec<Option<&str>> = valid
                .iter()
                .zip(&shown)
                .map(|(&v, &s)| (v && s).then(|| words[rng.below(words.len() as u64) as usize].as_str()))
                .collect();
            Arc::new(v.into_iter().collect::<DictionaryArray<arrow_array::types::Int32Type>>())
        }
        DataType::List(f) | DataType::LargeList(f) => {
            let lens = lens(rng);
            let items = random_array(rng, f.data_type(), lens.iter().sum(), f.is_nullable(), None);
            let f =
                Arc::new(Field::new(f.name(), items.data_type().clone(), f.is_nullable() || flat.is_some()));
            match dt {
                DataType::List(_) => {
                    Arc::new(ListArray::new(f, OffsetBuffer::from_lengths(lens), items, nulls))
                }
                _ => Arc::new(LargeListArray::new(f, OffsetBuffer::from_lengths(lens), items, nulls)),
            }
        }
        DataType::Struct(fs) => {
            let down = flat.map(|_| shown.as_slice());
            let children: Vec<ArrayRef> =
                fs.iter().map(|f| random_array(rng, f.data_type(), n, f.is_nullable(), down)).collect();
            let fields: arrow_schema::Fields = fs
                .iter()
                .zip(&children)
                .map(|(f, c)| Field::new(f.name(), c.data_type().clone(), f.is_nullable() || flat.is_some()))
                .collect();
            Arc::new(StructArray::new(fields, children, if flat.is_some() { None } else { nulls }))
        }
        other => unreachable!("{other}"),
    }
}

/// A random Arrow column of `rows` rows of one of the types [`CTableWriter`] writes (some
/// nullable, with nulls): every integer width, the floats, bool, timestamps, strings, large
/// strings, binary, large binary, dictionaries of strings (keys of several widths),
/// fixed-size lists of numbers or bools (some with python-blosc2's `blosc2:ndarray_shape`),
/// lists and large lists of [`nested_type`]s, and structs of them. Then the column python-blosc2
/// gives back of it ([`random_array`]'s `flat`: a struct's nulls pushed into its leaves).
type Column = (arrow_schema::Field, arrow_array::ArrayRef, arrow_schema::Field, arrow_array::ArrayRef);

fn arrow_column(rng: &mut Rng, i: usize, rows: usize, which: Option<u64>) -> Column {
    use arrow_schema::{DataType, Field};
    let which = which.unwrap_or_else(|| rng.below(22));
    if which != 20 {
        let (f, a) = arrow_column_of(rng, i, rows, which);
        return (f.clone(), a.clone(), f, a);
    }
    let nullable = rng.below(2) == 0;
    let dt = loop {
        if let DataType::Struct(fs) = nested_type(rng, 0) {
            break DataType::Struct(fs);
        }
    };
    let mut again = Rng(rng.0);
    let a = random_array(rng, &dt, rows, nullable, None);
    let back = random_array(&mut again, &dt, rows, nullable, Some(&vec![true; rows]));
    // python-blosc2 gives a null struct where every leaf is null (a list leaf never counts as
    // null: its null channel says so).
    fn leaf_null(a: &dyn arrow_array::Array, r: usize) -> bool {
        match a.data_type() {
            arrow_schema::DataType::Struct(_) => a
                .as_any()
                .downcast_ref::<arrow_array::StructArray>()
                .unwrap()
                .columns()
                .iter()
                .all(|c| leaf_null(c.as_ref(), r)),
            arrow_schema::DataType::List(_) | arrow_schema::DataType::LargeList(_) => false,
            _ => a.is_null(r),
        }
    }
    let valid: Vec<bool> = (0..rows).map(|r| !leaf_null(back.as_ref(), r)).collect();
    let (fields, columns, _) =
        back.as_any().downcast_ref::<arrow_array::StructArray>().unwrap().clone().into_parts();
    let back: arrow_array::ArrayRef = std::sync::Arc::new(arrow_array::StructArray::new(
        fields,
        columns,
        valid.contains(&false).then(|| arrow_buffer::NullBuffer::from(valid)),
    ));
    let name = format!("c{i}");
    (
        Field::new(&name, a.data_type().clone(), nullable),
        a,
        Field::new(&name, back.data_type().clone(), true),
        back,
    )
}

fn arrow_column_of(
    rng: &mut Rng,
    i: usize,
    rows: usize,
    which: u64,
) -> (arrow_schema::Field, arrow_array::ArrayRef) {
    use arrow_array::*;
    use arrow_schema::{DataType, Field, TimeUnit};
    use std::sync::Arc;
    let nullable = rng.below(2) == 0;
    let valid: Vec<bool> = (0..rows).map(|_| !nullable || rng.below(4) != 0).collect();
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
        13 | 14 => {
            let v: Vec<Option<String>> =
                valid.iter().map(|&ok| if ok { Some(text(rng)) } else { None }).collect();
            if which == 13 {
                (DataType::Utf8, Arc::new(StringArray::from(v)))
            } else {
                (DataType::LargeUtf8, Arc::new(LargeStringArray::from(v)))
            }
        }
        15 | 16 => {
            let v: Vec<Option<Vec<u8>>> = valid
                .iter()
                .map(|&ok| ok.then(|| (0..rng.below(9)).map(|_| rng.below(256) as u8).collect()))
                .collect();
            let v: Vec<Option<&[u8]>> = v.iter().map(Option::as_deref).collect();
            if which == 15 {
                (DataType::Binary, Arc::new(BinaryArray::from(v)))
            } else {
                (DataType::LargeBinary, Arc::new(LargeBinaryArray::from(v)))
            }
        }
        17 => {
            let words: Vec<String> = (0..1 + rng.below(6)).map(|_| text(rng)).collect();
            let v: Vec<Option<&str>> = valid
                .iter()
                .map(|&ok| ok.then(|| words[rng.below(words.len() as u64) as usize].as_str()))
                .collect();
            let a: ArrayRef = match rng.below(3) {
                0 => Arc::new(v.into_iter().collect::<DictionaryArray<arrow_array::types::Int32Type>>()),
                1 => Arc::new(v.into_iter().collect::<DictionaryArray<arrow_array::types::Int8Type>>()),
                _ => Arc::new(v.into_iter().collect::<DictionaryArray<arrow_array::types::UInt16Type>>()),
            };
            (a.data_type().clone(), a)
        }
        18 => {
            let (n, shape) = [(2, None), (6, Some("[2, 3]")), (4, Some("[1, 1, 4]"))][rng.below(3) as usize];
            let (item, values): (DataType, ArrayRef) = match rng.below(3) {
                0 => (
                    DataType::Float64,
                    Arc::new(Float64Array::from_iter_values(
                        (0..rows * n).map(|_| rng.below(1000) as f64 / 8.0),
                    )),
                ),
                1 => (
                    DataType::Int32,
                    Arc::new(Int32Array::from_iter_values((0..rows * n).map(|_| rng.next() as i32))),
                ),
                _ => (
                    DataType::Boolean,
                    Arc::new(BooleanArray::from_iter((0..rows * n).map(|_| Some(rng.below(2) == 0)))),
                ),
            };
            let item = Arc::new(Field::new("item", item, true));
            let nulls = nullable.then(|| arrow_buffer::NullBuffer::from(valid.clone()));
            let a = FixedSizeListArray::new(item.clone(), n as i32, values, nulls);
            let f = Field::new(format!("c{i}"), DataType::FixedSizeList(item, n as i32), nullable);
            let f = match shape {
                Some(s) => f.with_metadata(std::collections::HashMap::from([(
                    "blosc2:ndarray_shape".to_string(),
                    s.to_string(),
                )])),
                None => f,
            };
            return (f, Arc::new(a));
        }
        19 | 21 => {
            let item = Arc::new(Field::new("item", list_item(rng, 1), rng.below(3) != 0));
            let dt = if which == 19 { DataType::List(item) } else { DataType::LargeList(item) };
            let a = random_array(rng, &dt, rows, nullable, None);
            (a.data_type().clone(), a)
        }
        20 => unreachable!("a struct column: arrow_column"),
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

/// Writes `batches` (of `schema`) as an Arrow IPC stream at `path`.
fn write_stream(path: &str, schema: &arrow_schema::SchemaRef, batches: &[arrow_array::RecordBatch]) {
    let file = std::fs::File::create(path).unwrap();
    let mut s = arrow_ipc::writer::StreamWriter::try_new(file, schema).unwrap();
    for b in batches {
        s.write(b).unwrap();
    }
    s.finish().unwrap();
}

/// Random Arrow tables of every type the writer takes (nulls, 0 to 100,000 rows) written by
/// b2schema, half as `.b2z`, half as `.b2d`, each in two parts (the second appended to the table
/// the first made: reopened, appended, written anew over it, `replace_dir` for a `.b2d`): read by
/// python-blosc2's `CTable.open(...).to_arrow()` equal to the Arrow table (values, nulls, each
/// column's type family), and read by b2schema's Arrow reader equal to python-blosc2's
/// `to_arrow()` (types exactly); and the same batches (small ones) written by
/// python-blosc2's own `from_arrow`, read by b2schema's Arrow reader equal to its `to_arrow()`.
#[test]
fn ctables_written_from_arrow_read_by_python_blosc2_equal() {
    use arrow_array::{Array, RecordBatch};
    use b2schema::table::{CTableWriter, ColumnType, StructField};
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("b2schema-arrow-write-py-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x005e_ed0f_a770_3417 | 1);
    let mut checks = Vec::new();
    let mut types = std::collections::BTreeSet::new();
    let mut drawn = 0u64;
    let mut in_lists = std::collections::BTreeSet::new();
    let mut from_python = Vec::new();
    for case in 0..39 {
        let rows = if case == 38 { 100_000 } else { [0, 1, 7, 100, 3000][case % 5] };
        // The first columns of the cases of 7 rows or more are of each type in turn.
        let first = (rows >= 7).then(|| {
            drawn += 1;
            (drawn - 1) % 22
        });
        // The big case without lists and structs: python-blosc2 reads those a cell at a time.
        let flat = rows > 3000;
        let first = if flat { Some(9) } else { first };
        let cols: Vec<_> = (0..1 + rng.below(5) as usize)
            .map(|i| {
                let which = if i == 0 { first } else { flat.then(|| rng.below(19)) };
                arrow_column(&mut rng, i, rows, which)
            })
            .collect();
        let schema =
            Arc::new(arrow_schema::Schema::new(cols.iter().map(|c| c.0.clone()).collect::<Vec<_>>()));
        let batch = RecordBatch::try_new(schema.clone(), cols.iter().map(|c| c.1.clone()).collect()).unwrap();
        if rows > 0 {
            for c in &cols {
                let dt = format!("{:?}", c.1.data_type());
                for inner in ["FixedSizeList", "Dictionary"] {
                    // Only a list holds them below the top (a struct's fields are nested types).
                    if !dt.starts_with(inner) && dt.contains(inner) {
                        in_lists.insert(inner);
                    }
                }
                types.insert(dt.split(['(', '<']).next().unwrap().to_string());
                assert!(c.1.null_count() == 0 || c.0.is_nullable());
            }
        }
        // What python-blosc2 must give back: a struct's nulls in its leaves.
        let back = Arc::new(arrow_schema::Schema::new(cols.iter().map(|c| c.2.clone()).collect::<Vec<_>>()));
        let back = RecordBatch::try_new(back, cols.iter().map(|c| c.3.clone()).collect()).unwrap();
        let mut w = CTableWriter::from_arrow_schema(&schema).unwrap();
        let cut = rows / 3;
        w.push_batch(&batch.slice(0, cut)).unwrap();
        let path = dir.join(format!("w{case}.{}", if case % 2 == 0 { "b2z" } else { "b2d" }));
        if case % 2 == 0 {
            w.write_zip(&path).unwrap();
        } else {
            w.write_dir(&path).unwrap();
        }
        let mut w = CTableWriter::from_table(&CTable::open(&path).unwrap()).unwrap();
        w.push_batch(&batch.slice(cut, rows - cut)).unwrap();
        if case % 2 == 0 {
            w.write_zip(&path).unwrap();
        } else {
            w.replace_dir(&path).unwrap();
        }
        let path = path.to_str().unwrap();
        // The same batch written by python-blosc2's own `from_arrow`, read by b2schema's Arrow
        // reader below: up to 100 rows, 7 with a struct (python-blosc2 4.14.1 takes ~30 ms a
        // row to write or read a struct column: 3,000 rows took minutes). Not with a
        // `blosc2:ndarray_shape` field: its `from_arrow` refuses its own metadata ("expected
        // item shape (2, 3), got (6,)").
        let structs =
            schema.fields().iter().any(|f| matches!(f.data_type(), arrow_schema::DataType::Struct(_)));
        if rows <= if structs { 7 } else { 100 } && schema.fields().iter().all(|f| f.metadata().is_empty()) {
            let orig = format!("{path}.orig.arrows");
            write_stream(&orig, &schema, std::slice::from_ref(&batch));
            let theirs = format!("{path}.theirs.{}", if case % 2 == 0 { "b2d" } else { "b2z" });
            from_python.push(json!({"name": format!("from_arrow {case}"), "kind": "from_arrow",
                                    "path": theirs, "stream": orig}));
        }
        let src = format!("{path}.src.arrows");
        write_stream(&src, &back.schema(), std::slice::from_ref(&back));
        checks.push(json!({"name": format!("written {case}"), "kind": "check", "path": path,
                           "stream": src, "loose": true}));
        assert_eq!(write_ours(path, None, 1 + rng.below(5000) as usize), rows, "{path}");
        checks.push(json!({"name": format!("read back {case}"), "kind": "check", "path": path}));
    }
    // Every Arrow type drawn: the 10 numbers, bool, timestamps, the strings and binaries, the
    // dictionaries, the fixed-size lists, the lists, large lists and structs.
    assert_eq!(types.len(), 21, "{types:?}");
    // And inside lists, the kinds only a list's cells hold: fixed-size lists and dictionaries.
    assert_eq!(in_lists.len(), 2, "{in_lists:?}");

    // python-blosc2's own writes of those batches, read by b2schema as python-blosc2 reads them.
    python_checks("arrow_tables.py", &dir, &from_python);
    for e in &from_python {
        let path = e["path"].as_str().unwrap();
        write_ours(path, None, 1 + rng.below(500) as usize);
        checks.push(json!({"name": e["name"], "kind": "check", "path": path}));
    }

    // Typed Rust columns, every kind the writer has.
    let path = dir.join("typed.b2d");
    let mut w = CTableWriter::new();
    w.column("id", ColumnType::Int64, false).unwrap();
    w.column("temp", ColumnType::Float32, true).unwrap();
    w.column("ok", ColumnType::Bool, true).unwrap();
    w.column("s", ColumnType::String { max_length: 3 }, true).unwrap();
    w.column("b", ColumnType::Bytes { max_length: 2 }, false).unwrap();
    w.column("u", ColumnType::Utf8, true).unwrap();
    w.column("v", ColumnType::VlString, true).unwrap();
    w.column("vb", ColumnType::VlBytes, false).unwrap();
    w.column("d", ColumnType::Dictionary { ordered: false }, true).unwrap();
    let nd = ColumnType::NdArray { item: Box::new(ColumnType::UInt8), item_shape: vec![2] };
    w.column("nd", nd, true).unwrap();
    let ts = ColumnType::Timestamp { unit: "s".into(), timezone: None };
    w.column("ts", ts, true).unwrap();
    let li = ColumnType::List { item: Box::new(ColumnType::Int16), item_nullable: true };
    w.column("li", li.clone(), true).unwrap();
    let sr = ColumnType::Struct {
        fields: vec![
            StructField { name: "x".into(), ty: ColumnType::Float32, nullable: false },
            StructField { name: "l".into(), ty: li, nullable: true },
        ],
    };
    w.column("sr", sr, true).unwrap();
    use b2schema::Value as V;
    let st = |s: &str| V::Str(s.into());
    w.push("id", &[Some(1i64), Some(-2), Some(3)]).unwrap();
    w.push("temp", &[Some(20.5f32), None, Some(-0.25)]).unwrap();
    w.push("ok", &[None, Some(true), Some(false)]).unwrap();
    w.push_values("s", &[st("中a"), V::Nil, st("xyz")]).unwrap();
    w.push_values("b", &[V::Bin(vec![0, 1]), V::Bin(vec![]), V::Bin(vec![255])]).unwrap();
    w.push_values("u", &[st(""), V::Nil, st("🦀 crab")]).unwrap();
    w.push_values("v", &[st("one"), st("two"), V::Nil]).unwrap();
    w.push_values("vb", &[V::Bin(vec![]), V::Bin(vec![7; 40]), V::Bin(vec![1])]).unwrap();
    w.push_values("d", &[st("red"), V::Nil, st("red")]).unwrap();
    let pair = |a, b| V::Array(vec![V::Int(a), V::Int(b)]);
    w.push_values("nd", &[pair(1, 2), V::Nil, pair(255, 0)]).unwrap();
    w.push_values("ts", &[V::Int(-1), V::Int(1 << 40), V::Nil]).unwrap();
    let ints = |v: &[i128]| V::Array(v.iter().map(|&i| V::Int(i)).collect());
    w.push_values("li", &[ints(&[1, -2]), V::Nil, V::Array(vec![V::Nil, V::Int(7)])]).unwrap();
    let sv = |x: f32, l: V| V::Map(vec![(st("l"), l), (st("x"), V::F32(x))]);
    w.push_values("sr", &[sv(0.5, ints(&[])), V::Nil, sv(-2.0, V::Nil)]).unwrap();
    // Refused, and nothing of the refused call kept.
    assert!(w.push("id", &[None::<i64>]).is_err(), "a null in a column that is not nullable");
    assert!(w.push("temp", &[Some(1.0f64)]).is_err(), "f64 into a float32 column");
    assert!(w.push_values("s", &[st("ok"), st("four")]).is_err(), "4 characters in a string of 3");
    assert!(w.push_values("b", &[V::Bin(vec![1, 2, 3])]).is_err(), "3 bytes in bytes of 2");
    assert!(w.push_values("nd", &[pair(1, 256)]).is_err(), "256 in a uint8 ndarray");
    assert!(w.push_values("nd", &[V::Array(vec![V::Int(1)])]).is_err(), "a row of the wrong shape");
    assert!(w.push_values("d", &[st("blue"), V::Int(1)]).is_err(), "a number in a dictionary");
    assert!(w.push_values("vb", &[V::Nil]).is_err(), "a null in a column that is not nullable");
    assert!(w.push_values("li", &[ints(&[1 << 15])]).is_err(), "2^15 in a list of int16");
    assert!(w.push_values("li", &[st("[]")]).is_err(), "a string in a list column");
    assert!(w.push_values("sr", &[V::Map(vec![(st("x"), V::F32(1.0))])]).is_err(), "a field missing");
    assert!(w.push_values("sr", &[sv(1.0, V::Nil), V::Map(vec![])]).is_err(), "an empty map");
    assert!(
        w.push_values("sr", &[V::Map(vec![(st("l"), V::Nil), (st("x"), V::Nil)])]).is_err(),
        "x is not nullable"
    );
    assert_eq!(w.rows().unwrap(), 3, "a refused call leaves every column as it was");
    w.write_dir(&path).unwrap();
    let path = path.to_str().unwrap();
    assert_eq!(write_ours(path, None, 10), 3);
    checks.push(json!({"name": "typed", "kind": "check", "path": path}));
    let t = CTable::open(path).unwrap();
    assert_eq!(t.column::<String>("d").unwrap(), [Some("red".to_string()), None, Some("red".to_string())]);
    // Reopened and written again, the list and struct columns the same.
    let again = dir.join("typed-again.b2z");
    CTableWriter::from_table(&t).unwrap().write_zip(&again).unwrap();
    let again = again.to_str().unwrap();
    assert_eq!(write_ours(again, None, 2), 3);
    checks.push(json!({"name": "typed again", "kind": "check", "path": again}));

    let out = python_checks("arrow_tables.py", &dir, &checks);
    assert!(out.contains(&format!("{} passed, 0 failed", checks.len())), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The Arrow types python-blosc2 refuses (and, inside a list, fixed-size lists of strings and
/// dictionaries of numbers) are refused by `CTableWriter::from_arrow_schema`, each
/// naming the field; so is a batch whose field's type is not its column's.
#[test]
fn arrow_types_without_a_written_kind_are_refused_by_name() {
    use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit};
    use b2schema::table::CTableWriter;
    use b2schema::{ErrorKind, Segment};
    use std::sync::Arc;
    let item = Arc::new(Field::new("item", DataType::Int32, true));
    let dict = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Int64));
    let entries = Field::new(
        "entries",
        DataType::Struct(Fields::from(vec![
            Field::new("keys", DataType::Utf8, false),
            Field::new("values", DataType::Int32, true),
        ])),
        false,
    );
    for dt in [
        DataType::Map(Arc::new(entries), false),
        DataType::List(Arc::new(Field::new("item", dict, true))),
        DataType::LargeList(Arc::new(Field::new(
            "item",
            DataType::FixedSizeList(Arc::new(Field::new("item", DataType::Utf8, true)), 2),
            true,
        ))),
        DataType::List(Arc::new(Field::new("item", DataType::Date32, true))),
        DataType::Struct(Fields::from(vec![
            Field::new("x", DataType::Float64, true),
            Field::new("when", DataType::Date64, true),
        ])),
        DataType::Struct(Fields::empty()),
        DataType::Decimal128(10, 2),
        DataType::Date32,
        DataType::Duration(TimeUnit::Second),
        DataType::Float16,
        DataType::Null,
        DataType::FixedSizeBinary(4),
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Int64)),
        DataType::FixedSizeList(Arc::new(Field::new("item", DataType::Utf8, true)), 2),
    ] {
        let schema =
            Schema::new(vec![Field::new("ok", DataType::Int8, false), Field::new("odd", dt.clone(), true)]);
        let e = CTableWriter::from_arrow_schema(&schema).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Invalid(_)), "{dt}: {e}");
        assert!(e.path().any(|s| *s == Segment::Key("odd".into())), "{dt}: {e}");
    }
    // A field whose metadata shape does not multiply to the list's size.
    let f = Field::new("nd", DataType::FixedSizeList(item, 6), true).with_metadata(
        std::collections::HashMap::from([("blosc2:ndarray_shape".to_string(), "[4, 2]".to_string())]),
    );
    assert!(CTableWriter::from_arrow_schema(&Schema::new(vec![f])).is_err());
    // A batch of another type than the column's.
    let mut w =
        CTableWriter::from_arrow_schema(&Schema::new(vec![Field::new("s", DataType::Utf8, true)])).unwrap();
    let other = Arc::new(Schema::new(vec![Field::new("s", DataType::Binary, true)]));
    let batch = arrow_array::RecordBatch::try_new(
        other,
        vec![Arc::new(arrow_array::BinaryArray::from(vec![&b"x"[..]])) as arrow_array::ArrayRef],
    )
    .unwrap();
    assert!(w.push_batch(&batch).is_err());
    assert_eq!(w.rows().unwrap(), 0);
}
