//! python-blosc2's BatchArray (`.b2b`, VL-block chunks) and CTable (`b2schema::store::{BatchArray,
//! CTable}`): the fixtures of `tests/data/tables/` (written by python-blosc2 4.14.1, its reading
//! in `tables.json`) read back equal; crafted batches and tables that lie refused with errors
//! that name the place, never a panic.

use b2schema::Value;
use b2schema::table::{BatchArray, CTable};
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

/// A VL-block chunk of `blocks`, each stored as it is (a stream as long as its size field: no
/// codec), in a 32-byte Blosc2 header: version 6, `blosc2_flags2` bit 0, blocksize = nblocks.
fn vl_chunk(blocks: &[&[u8]]) -> Vec<u8> {
    let nblocks = blocks.len();
    let table = 32 + 4 * nblocks;
    let cbytes = table + blocks.iter().map(|b| 4 + b.len()).sum::<usize>();
    let nbytes: usize = blocks.iter().map(|b| b.len()).sum();
    let mut c = vec![6u8, 1, 0x05, 1];
    for v in [nbytes as i32, nblocks as i32, cbytes as i32] {
        c.extend_from_slice(&v.to_le_bytes());
    }
    c.extend_from_slice(&[0; 14]);
    c.extend_from_slice(&[0x01, 0]); // blosc2_flags2: VL blocks; blosc2_flags
    let mut at = table;
    for b in blocks {
        c.extend_from_slice(&(at as i32).to_le_bytes());
        at += 4 + b.len();
    }
    for b in blocks {
        c.extend_from_slice(&(b.len() as i32).to_le_bytes());
        c.extend_from_slice(b);
    }
    c
}

/// A `.b2b` frame of `chunks`, tagged with the `batcharray` metalayer `meta` (msgpack), with the
/// vlmetalayer `_batch_array_metadata` = `{"batch_lengths": lengths}` when given.
fn batch_frame(chunks: Vec<Vec<u8>>, meta: &Value, lengths: Option<&[i64]>) -> Vec<u8> {
    let mut f = b2schema::writer::Frame::new(1);
    f.chunksize = 0;
    f.metalayers = vec![("batcharray".into(), meta.to_msgpack().unwrap())];
    if let Some(l) = lengths {
        let v = Value::Map(vec![(
            Value::from("batch_lengths"),
            Value::Array(l.iter().map(|&n| Value::Int(n.into())).collect()),
        )]);
        f.vlmetalayers = vec![("_batch_array_metadata".into(), v.to_msgpack().unwrap())];
    }
    f.chunks = chunks.into_iter().map(|c| b2schema::writer::Chunk::from_compressed(c).unwrap()).collect();
    f.to_vec().unwrap()
}

/// A crafted case: its name, the chunk, the metalayer, the batch lengths, what the error says.
type Lie = (&'static str, Vec<u8>, Value, Option<Vec<i64>>, &'static str);

fn meta(serializer: &str) -> Value {
    Value::Map(vec![
        (Value::from("version"), Value::Int(1)),
        (Value::from("serializer"), Value::from(serializer)),
        (Value::from("items_per_block"), Value::Int(2)),
        (Value::from("arrow_schema"), Value::Nil),
    ])
}

fn open_batches(bytes: Vec<u8>) -> b2schema::Result<Vec<Value>> {
    let f = b2schema::frame::FrameFile::from_bytes(bytes, "crafted.b2b", b2schema::Limits::default())?;
    BatchArray::new(f)?.items()
}

/// Crafted `.b2b` files whose VL blocks, items or lengths lie: each an error that names the
/// field (and the batch and block), never a panic; the well-formed one reads.
#[test]
fn batch_arrays_that_lie_are_errors_that_name_the_place() {
    // [1, "a"] and [nil]: two blocks of msgpack arrays.
    let good = vl_chunk(&[&[0x92, 0x01, 0xa1, b'a'], &[0x91, 0xc0]]);
    let items = open_batches(batch_frame(vec![good.clone()], &meta("msgpack"), Some(&[3]))).unwrap();
    assert_eq!(items, [Value::Int(1), Value::from("a"), Value::Nil]);

    let patched = |at: usize, v: &[u8]| {
        let mut c = good.clone();
        c[at..at + v.len()].copy_from_slice(v);
        c
    };
    let cases: Vec<Lie> = vec![
        // bstarts of block 1 before block 0's, past the end, into the table.
        ("bstarts backwards", patched(36, &40i32.to_le_bytes()), meta("msgpack"), None, "bstarts"),
        ("bstarts past the end", patched(36, &4000i32.to_le_bytes()), meta("msgpack"), None, "bstarts"),
        ("bstarts in the table", patched(32, &33i32.to_le_bytes()), meta("msgpack"), None, "bstarts"),
        // A block's size field says more (or less, or nothing) than its span holds.
        ("block nbytes huge", patched(40, &i32::MAX.to_le_bytes()), meta("msgpack"), None, "nbytes"),
        ("block nbytes 0", patched(40, &0i32.to_le_bytes()), meta("msgpack"), None, "block nbytes"),
        ("nblocks huge", patched(8, &0x0fff_ffffi32.to_le_bytes()), meta("msgpack"), None, "bstarts"),
        // Items that are not one msgpack array, whole.
        ("not an array", vl_chunk(&[&[0x01]]), meta("msgpack"), None, "msgpack array"),
        (
            "array count huge",
            vl_chunk(&[&[0xdd, 0xff, 0xff, 0xff, 0xff, 0x01]]),
            meta("msgpack"),
            None,
            "array32 length 4294967295 exceeds the input",
        ),
        (
            "item truncated",
            vl_chunk(&[&[0x91, 0xa5, b'a']]),
            meta("msgpack"),
            None,
            "fixstr length 5 exceeds the input",
        ),
        (
            "bytes after the array",
            vl_chunk(&[&[0x91, 0x01, 0x02]]),
            meta("msgpack"),
            None,
            "one msgpack array",
        ),
        ("nested too deep", vl_chunk(&[&[0x91; 200]]), meta("msgpack"), None, "nested"),
        // Lengths that lie, a serializer b2schema does not read.
        ("batch_lengths lie", good.clone(), meta("msgpack"), Some(vec![7]), "batch_lengths"),
        ("batch_lengths count", good.clone(), meta("msgpack"), Some(vec![3, 3]), "batch_lengths"),
        ("arrow", good.clone(), meta("arrow"), None, "serializer"),
    ];
    for (name, chunk, meta, lengths, needle) in cases {
        let bytes = batch_frame(vec![chunk], &meta, lengths.as_deref());
        let e = open_batches(bytes).expect_err(name).to_string();
        assert!(e.contains(needle), "{name}: {e}");
        assert!(e.contains("offset") || e.contains(" at "), "{name}: no place in {e}");
    }
}

/// Items of one byte take more memory than their bytes: their count is held to the budget.
#[test]
fn many_small_items_are_held_to_the_budget() {
    let mut block = vec![0xdd, 0, 1, 0, 0]; // an array of 65,536 items
    block.extend(std::iter::repeat_n(0x01u8, 65_536));
    let bytes = batch_frame(vec![vl_chunk(&[&block])], &meta("msgpack"), None);
    let read = |limits: b2schema::Limits| {
        let f = b2schema::frame::FrameFile::from_bytes(bytes.clone(), "many.b2b", limits)?;
        BatchArray::new(f)?.items()
    };
    assert_eq!(read(b2schema::Limits::default()).unwrap().len(), 65_536);
    let e = read(b2schema::Limits::default().with_max_decompressed(1 << 20)).unwrap_err().to_string();
    assert!(e.contains("the items of a batch (in memory)"), "{e}");
}

/// Replaces the vlmetalayer `schema` of the table's `/_meta` by `json`.
fn set_schema(table: &Path, json: &str) {
    b2schema::writer::set_vlmetalayer(
        table.join("_meta.b2f"),
        "schema",
        &Value::from(json).to_msgpack().unwrap(),
    )
    .unwrap();
}

fn bools(path: &Path, v: &[u8]) {
    let n = v.len() as i64;
    let f = b2schema::writer::NdArray::new(
        &[n],
        &[n as i32],
        &[n as i32],
        "|b1",
        1,
        b2schema::writer::Fill::Data(v),
    );
    std::fs::remove_file(path).unwrap();
    f.to_frame().unwrap().write_file(path).unwrap();
}

/// Crafted CTables whose schema lies about its columns or rows, whose masks are shorter or
/// longer than their columns, or whose items are not of their column's kind: errors that name
/// the member and the field, never a panic.
#[test]
fn ctables_that_lie_are_errors_that_name_the_place() {
    let fresh = |name: &str| {
        let d = scratch(name).join("t.b2d");
        copy_dir(&dir().join("table.b2d"), &d);
        d
    };
    let rows_err = |t: &Path| CTable::open(t).and_then(|t| t.rows()).unwrap_err().to_string();
    let schema = |cols: &str, n: i64| format!("{{\"version\": 3, \"columns\": [{cols}], \"n_rows\": {n}}}");

    let t = fresh("missing-column");
    set_schema(&t, &schema(r#"{"name": "id", "kind": "int64"}, {"name": "ghost", "kind": "int64"}"#, 6));
    let e = rows_err(&t);
    assert!(e.contains("/_cols/ghost"), "{e}");

    let t = fresh("n-rows");
    set_schema(&t, &schema(r#"{"name": "id", "kind": "int64"}"#, 1_000_000));
    let e = rows_err(&t);
    assert!(e.contains("n_rows"), "{e}");

    for (name, text, needle) in [
        ("not-json", "{\"columns\": [", "JSON"),
        ("deep", &"[".repeat(10_000), "nested"),
        ("no-columns", "{\"n_rows\": 1}", "columns"),
        ("nameless", &schema(r#"{"kind": "int64"}"#, 0), "name"),
        ("twice", &schema(r#"{"name": "id", "kind": "int64"}, {"name": "id", "kind": "int64"}"#, 6), "once"),
    ] {
        let t = fresh(name);
        set_schema(&t, text);
        let e = CTable::open(&t).unwrap_err().to_string();
        assert!(e.contains(needle) && e.contains("schema"), "{name}: {e}");
    }

    // A vlstring column whose items are not strings (the name column read as raw bytes).
    let t = fresh("kind-lies");
    set_schema(&t, &schema(r#"{"name": "raw", "kind": "vlstring"}"#, 6));
    let e = rows_err(&t);
    assert!(e.contains("an item of the column's kind") && e.contains("/_cols/raw"), "{e}");

    // Not a CTable at all.
    let t = fresh("kind");
    b2schema::writer::set_vlmetalayer(
        t.join("_meta.b2f"),
        "kind",
        &Value::from("tree").to_msgpack().unwrap(),
    )
    .unwrap();
    assert!(CTable::open(&t).unwrap_err().to_string().contains("ctable"));

    // /_valid_rows longer than the columns: refused; shorter: only its rows (n_rows then lies).
    let t = fresh("mask-long");
    bools(&t.join("_valid_rows.b2nd"), &[1; 50]);
    let e = rows_err(&t);
    assert!(e.contains("n_rows"), "{e}");
    set_schema(&t, &schema(r#"{"name": "id", "kind": "int64"}"#, 50));
    let e = rows_err(&t);
    assert!(e.contains("as long as /_valid_rows") && e.contains("/_cols/id"), "{e}");
    let t = fresh("mask-short");
    bools(&t.join("_valid_rows.b2nd"), &[1, 1]);
    let e = rows_err(&t);
    assert!(e.contains("n_rows"), "{e}");
    set_schema(&t, &schema(r#"{"name": "id", "kind": "int64"}"#, 2));
    let rows = CTable::open(&t).unwrap().rows().unwrap();
    assert_eq!(rows, [[Value::Int(0)], [Value::Int(1)]]);

    // A column of 2^28 zeros (a few hundred bytes of special chunks): refused within the
    // budget, not allocated.
    let t = fresh("huge-column");
    let n = 1i64 << 28;
    let f =
        b2schema::writer::NdArray::new(&[n], &[1 << 26], &[1 << 16], "<i8", 8, b2schema::writer::Fill::Zeros);
    std::fs::remove_file(t.join("_cols/id.b2nd")).unwrap();
    f.to_frame().unwrap().write_file(t.join("_cols/id.b2nd")).unwrap();
    let e = CTable::open(&t).unwrap().column_cells("id").unwrap_err().to_string();
    assert!(e.contains("/_cols/id") && e.contains("budget exceeded"), "{e}");

    // A null mask shorter than its column.
    let t = fresh("null-mask");
    bools(&t.join("_cols/n32.notnull.b2nd"), &[1, 0]);
    let e = rows_err(&t);
    assert!(e.contains("null mask") && e.contains("/_cols/n32.notnull"), "{e}");
    let _ = std::fs::remove_dir_all(scratch(""));
    for name in [
        "missing-column",
        "n-rows",
        "not-json",
        "deep",
        "no-columns",
        "nameless",
        "twice",
        "kind-lies",
        "kind",
        "mask-long",
        "mask-short",
        "null-mask",
    ] {
        let _ = std::fs::remove_dir_all(scratch(name));
    }
}

/// The same lies read through the Arrow reader (whose fixed-width columns are decoded straight
/// into Arrow buffers): columns (with and without a null mask) shorter than `/_valid_rows`, a schema whose
/// `n_rows` lies, a column whose dtype is not its kind's: errors that name the member, never a
/// panic, and never a batch of the wrong length.
#[test]
fn ctables_that_lie_are_refused_by_the_arrow_reader() {
    let fresh = |name: &str| {
        let d = scratch(&format!("arrow-{name}")).join("t.b2d");
        copy_dir(&dir().join("table.b2d"), &d);
        d
    };
    let arrow_err = |t: &Path, cols: &[&str]| -> String {
        let t = CTable::open(t).unwrap();
        match t.arrow_reader(Some(cols), 4) {
            Err(e) => e.to_string(),
            Ok(r) => r.map(|b| b.map(|_| ())).collect::<Result<Vec<_>, _>>().unwrap_err().to_string(),
        }
    };
    let schema = |cols: &str, n: i64| format!("{{\"version\": 3, \"columns\": [{cols}], \"n_rows\": {n}}}");

    // /_valid_rows of 50 live rows over columns of 7: n_rows lies, then the columns are short.
    let t = fresh("long-valid");
    bools(&t.join("_valid_rows.b2nd"), &[1; 50]);
    let e = arrow_err(&t, &["x"]);
    assert!(e.contains("n_rows"), "{e}");
    set_schema(
        &t,
        &schema(
            r#"{"name": "x", "kind": "float64"}, {"name": "n32", "kind": "int32", "nullable": true}"#,
            50,
        ),
    );
    for col in ["x", "n32"] {
        let e = arrow_err(&t, &[col]);
        assert!(e.contains("as long as /_valid_rows") && e.contains(&format!("/_cols/{col}")), "{col}: {e}");
    }

    // A float64 column said to be int64: not decoded as integers, refused cell by cell.
    let t = fresh("dtype-lies");
    set_schema(&t, &schema(r#"{"name": "x", "kind": "int64"}"#, 6));
    let e = arrow_err(&t, &["x"]);
    assert!(e.contains("/_cols/x") && e.contains("int64"), "{e}");
    for name in ["long-valid", "dtype-lies"] {
        let _ = std::fs::remove_dir_all(scratch(&format!("arrow-{name}")));
    }
}

/// An NDArray member at `path` of `dtype` and `shape` holding `data` (one chunk, one block).
fn array(path: &Path, dtype: &str, shape: &[i64], data: &[u8]) {
    let items = shape.iter().product::<i64>().max(1) as usize;
    let dims: Vec<i32> = shape.iter().map(|&d| d.max(1) as i32).collect();
    let f = b2schema::writer::NdArray::new(
        shape,
        &dims,
        &dims,
        dtype,
        (data.len() / items).max(1),
        b2schema::writer::Fill::Data(data),
    );
    let _ = std::fs::remove_file(path);
    f.to_frame().unwrap().write_file(path).unwrap();
}

fn le<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    v.iter().flat_map(|&x| f(x)).collect()
}

/// Crafted columns of the kinds beyond the fixed-width ones (`utf8` offsets that decrease,
/// run past their bytes or start elsewhere than 0, bytes that are not UTF-8, a missing `.utf8`
/// member; `dictionary` codes past their values, values that are not text; an `ndarray` of
/// another item shape; `list` items that are not lists; an ObjectArray chunk with bytes after
/// its value): errors that name the member and the row or field, never a panic.
#[test]
fn column_kinds_that_lie_are_errors_that_name_the_place() {
    let base = scratch("kinds");
    copy_dir(&dir().join("table.b2d"), &base);
    let schema = |col: &str| format!("{{\"version\": 3, \"columns\": [{col}], \"n_rows\": 6}}");
    let cells = |t: &Path, col: &str| CTable::open(t).and_then(|t| t.column_cells(col));
    let utf8 = r#"{"name": "u", "kind": "utf8"}"#;
    set_schema(&base, &schema(utf8));
    let cols = base.join("_cols");
    let text = |offsets: &[i64], data: &[u8]| {
        array(&cols.join("u.b2nd"), "<i8", &[offsets.len() as i64], &le(offsets, i64::to_le_bytes));
        array(&cols.join("u.utf8.b2nd"), "|u1", &[data.len() as i64], data);
    };
    // Well formed first: seven rows cut from "ab\u{e9}cd", two of them empty, one "\u{e9}".
    text(&[0, 1, 2, 2, 4, 5, 6, 6], "ab\u{e9}cd".as_bytes());
    let got = cells(&base, "u").unwrap();
    assert_eq!(got[2..4], [Value::from(""), Value::from("\u{e9}")], "{got:?}");
    for (name, offsets, data, needle) in [
        ("decreasing", &[0i64, 1, 2, 3, 2, 4, 5, 6][..], &b"abcdef"[..], "never decrease"),
        ("past the bytes", &[0, 1, 2, 3, 4, 5, 6, 60], b"abcdef", "never decrease"),
        ("negative", &[0, -1, 2, 3, 4, 5, 6, 6], b"abcdef", "never decrease"),
        ("not from 0", &[1, 1, 2, 3, 4, 5, 6, 6], b"abcdef", "start at 0"),
        ("no offsets", &[], b"abcdef", "start at 0"),
        ("not UTF-8", &[0, 1, 2, 3, 4, 5, 6, 6], &[0xff; 6], "UTF-8"),
    ] {
        text(offsets, data);
        let e = cells(&base, "u").unwrap_err().to_string();
        assert!(e.contains(needle) && e.contains("/_cols/u"), "{name}: {e}");
    }
    array(&cols.join("u.b2nd"), "<i4", &[2], &[0; 8]);
    let e = cells(&base, "u").unwrap_err().to_string();
    assert!(e.contains("<i8") && e.contains("/_cols/u"), "{e}");
    std::fs::remove_file(cols.join("u.utf8.b2nd")).unwrap();
    array(&cols.join("u.b2nd"), "<i8", &[1], &[0; 8]);
    let e = cells(&base, "u").unwrap_err().to_string();
    assert!(e.contains("/_cols/u.utf8"), "{e}");

    // A dictionary: codes into two values; a code past them, values that are not text.
    set_schema(&base, &schema(r#"{"name": "d", "kind": "dictionary", "null_code": -1}"#));
    let values = |items: &[Value]| {
        let block = Value::Array(items.to_vec()).to_msgpack().unwrap();
        let frame = batch_frame(vec![vl_chunk(&[&block])], &meta("msgpack"), Some(&[items.len() as i64]));
        std::fs::write(cols.join("d_dict.b2b"), frame).unwrap();
    };
    values(&[Value::from("red"), Value::from("blue")]);
    array(&cols.join("d.b2nd"), "<i4", &[7], &le(&[0i32, 1, -1, 1, 0, 0, 1], i32::to_le_bytes));
    let got = cells(&base, "d").unwrap();
    assert_eq!(got[..3], [Value::from("red"), Value::from("blue"), Value::Nil]);
    array(&cols.join("d.b2nd"), "<i4", &[7], &le(&[0i32, 1, 2, 1, 0, 0, 1], i32::to_le_bytes));
    let e = cells(&base, "d").unwrap_err().to_string();
    assert!(e.contains("dictionary code") && e.contains("[2]") && e.contains("/_cols/d"), "{e}");
    array(&cols.join("d.b2nd"), "<i4", &[7], &le(&[-7i32; 7], i32::to_le_bytes));
    assert!(cells(&base, "d").unwrap_err().to_string().contains("dictionary code"));
    values(&[Value::from("red"), Value::Int(3)]);
    let e = cells(&base, "d").unwrap_err().to_string();
    assert!(e.contains("an item of the column's kind") && e.contains("/_cols/d_dict"), "{e}");

    // An ndarray column of another item shape than its schema says; then the right one.
    set_schema(
        &base,
        &schema(r#"{"name": "id", "kind": "ndarray", "item_shape": [2, 2], "dtype_str": "<i8"}"#),
    );
    let e = cells(&base, "id").unwrap_err().to_string();
    assert!(e.contains("item_shape") && e.contains("/_cols/id"), "{e}");
    array(&cols.join("id.b2nd"), "|i1", &[7, 2, 2], &(0..28).collect::<Vec<u8>>());
    let got = cells(&base, "id").unwrap();
    let row = |a: i128| Value::Array(vec![Value::Int(a), Value::Int(a + 1)]);
    assert_eq!(got[1], Value::Array(vec![row(4), row(6)]));
    set_schema(&base, &schema(r#"{"name": "id", "kind": "ndarray", "item_shape": [2], "dtype_str": "<i8"}"#));
    assert!(cells(&base, "id").unwrap_err().to_string().contains("item_shape"));

    // List items that are not lists (the vlbytes column read as a list).
    set_schema(&base, &schema(r#"{"name": "raw", "kind": "list", "item": {"kind": "int64"}}"#));
    let e = cells(&base, "raw").unwrap_err().to_string();
    assert!(e.contains("an item of the column's kind") && e.contains("/_cols/raw"), "{e}");

    // A list stored "vl" (an ObjectArray: one msgpack value a chunk); a chunk with a second
    // value after the first is refused.
    let objects = |values: &[&[u8]]| {
        let mut f = b2schema::writer::Frame::new(1);
        f.chunksize = 0;
        let m = Value::Map(vec![(Value::from("version"), Value::Int(1))]);
        f.metalayers = vec![("vlarray".into(), m.to_msgpack().unwrap())];
        let p = b2schema::chunk::Params::new(1);
        f.chunks = values
            .iter()
            .map(|v| {
                let c = b2schema::chunk::compress::compress(v, &p).unwrap();
                b2schema::writer::Chunk::from_compressed(c).unwrap()
            })
            .collect();
        std::fs::write(cols.join("l.b2b"), f.to_vec().unwrap()).unwrap();
    };
    set_schema(
        &base,
        &schema(r#"{"name": "l", "kind": "list", "storage": "vl", "item": {"kind": "int64"}}"#),
    );
    let one = Value::Array(vec![Value::Int(1)]).to_msgpack().unwrap();
    objects(&[&one, &[0x90], &[0xc0]]);
    assert_eq!(
        cells(&base, "l").unwrap(),
        [Value::Array(vec![Value::Int(1)]), Value::Array(vec![]), Value::Nil]
    );
    objects(&[&one, &[0x90, 0x90]]);
    let e = cells(&base, "l").unwrap_err().to_string();
    assert!(e.contains("one msgpack value") && e.contains("/_cols/l") && e.contains("[1]"), "{e}");
    objects(&[&[0x92, 0x01]]);
    let e = cells(&base, "l").unwrap_err().to_string();
    assert!(e.contains("/_cols/l"), "{e}");
    let _ = std::fs::remove_dir_all(&base);
}

/// A CTable of `n` rows in `dir` (from the fixture's `/_meta`): an `int64` column `id`
/// (0..n, chunks of 64Ki rows), a `vlstring` column `s` (batches of 2048), every seventh row
/// deleted.
fn big_table(dir: &Path, n: i64) -> i64 {
    copy_dir(&dir_of_fixture(), dir);
    let cols = dir.join("_cols");
    std::fs::remove_dir_all(&cols).unwrap();
    std::fs::create_dir_all(&cols).unwrap();
    let ids: Vec<u8> = (0..n).flat_map(|i| i.to_le_bytes()).collect();
    let chunk = [1 << 16];
    let nd = |dtype: &str, size: usize, data: &[u8], path: &Path| {
        let f = b2schema::writer::NdArray::new(
            &[n],
            &chunk,
            &[1 << 13],
            dtype,
            size,
            b2schema::writer::Fill::Data(data),
        );
        f.to_frame().unwrap().write_file(path).unwrap();
    };
    nd("<i8", 8, &ids, &cols.join("id.b2nd"));
    let valid: Vec<u8> = (0..n).map(|i| u8::from(i % 7 != 3)).collect();
    std::fs::remove_file(dir.join("_valid_rows.b2nd")).unwrap();
    nd("|b1", 1, &valid, &dir.join("_valid_rows.b2nd"));
    let mut w = b2schema::table::BatchArrayWriter::new(b2schema::chunk::Params::new(1), Some(256));
    for start in (0..n).step_by(2048) {
        let batch: Vec<Value> =
            (start..(start + 2048).min(n)).map(|i| Value::from(format!("s{i}"))).collect();
        w.push(&batch).unwrap();
    }
    w.write_file(cols.join("s.b2b")).unwrap();
    let live = valid.iter().filter(|&&v| v == 1).count() as i64;
    let cols = r#"{"name": "id", "kind": "int64"}, {"name": "s", "kind": "vlstring"}"#;
    set_schema(dir, &format!("{{\"version\": 3, \"columns\": [{cols}], \"n_rows\": {live}}}"));
    live
}

fn dir_of_fixture() -> PathBuf {
    dir().join("table.b2d")
}

/// Rows streamed by `for_each_row` take memory set by the band (a chunk of rows), not by the
/// number of rows: the peak for a table ten times longer is about the same, and far below
/// what the rows gathered would take. Every row comes in order, deleted rows skipped.
#[test]
fn streamed_rows_take_memory_independent_of_the_row_count() {
    let mut peaks = Vec::new();
    for n in [100_000i64, 1_000_000] {
        let d = scratch(&format!("big{n}"));
        let live = big_table(&d, n);
        let t = CTable::open(&d).unwrap();
        let (mut count, mut last) = (0i64, -1i128);
        let mut result = None;
        let info = allocation_counter::measure(|| {
            result = Some(t.for_each_row(None, |r| {
                let (Value::Int(id), Value::Str(s)) = (&r[0], &r[1]) else { panic!("{r:?}") };
                assert!(*id > last && id % 7 != 3 && *s == format!("s{id}"), "{r:?} after {last}");
                last = *id;
                count += 1;
                Ok(())
            }));
        });
        assert_eq!(result.unwrap().unwrap(), live as u64);
        assert_eq!(count, live);
        peaks.push(info.bytes_max);
        let _ = std::fs::remove_dir_all(&d);
    }
    // Gathered, the million rows alone would take 2 cells x 32 bytes x 857,143 rows = 54 MB.
    eprintln!("peak bytes for 100k and 1M rows: {peaks:?}");
    assert!(peaks[1] < 16 << 20 && peaks[1] < peaks[0] * 3 / 2 + (1 << 20), "peaks {peaks:?}");
}

/// A page of live rows (`CTable::live_rows`) reads only the rows that hold it: the rows are
/// the ones `for_each_row` gives at those places (deleted rows skipped, a vlstring column's
/// batches crossed, the table's end), and a page deep in a million-row table takes memory of
/// a band of `/_valid_rows` and the chunks holding the page, not of the table.
#[test]
fn a_page_of_live_rows_reads_only_its_rows() {
    let d = scratch("page");
    let n = 1_000_000i64;
    let live = big_table(&d, n);
    let t = CTable::open(&d).unwrap();
    let ids: Vec<i64> = (0..n).filter(|i| i % 7 != 3).collect();
    let last = live as u64;
    for (start, stop) in
        [(0, 5), (2040, 2060), (500_000, 500_200), (last - 3, last + 10), (last + 5, last + 9)]
    {
        let mut result = None;
        let info = allocation_counter::measure(|| result = Some(t.live_rows(None, start, stop)));
        let (rows, n_rows) = result.unwrap().unwrap();
        assert_eq!(n_rows, last);
        let want: Vec<Vec<Value>> = ids
            .iter()
            .skip(start as usize)
            .take((stop - start) as usize)
            .map(|&i| vec![Value::Int(i.into()), Value::from(format!("s{i}"))])
            .collect();
        assert_eq!(rows, want, "{start}..{stop}");
        // The table's cells gathered would take 2 x 32 bytes x 857,143 rows = 54 MB.
        assert!(info.bytes_max < 8 << 20, "{start}..{stop}: peak {} bytes", info.bytes_max);
    }
    let (rows, _) = t.live_rows(Some(&["s"]), 10, 12).unwrap();
    assert_eq!(rows, [[Value::from("s12")], [Value::from("s13")]]);
    let _ = std::fs::remove_dir_all(&d);
}

/// Live rows by their numbers (`CTable::live_rows_at`, what a sorted page of the viewer reads):
/// scattered, unordered and repeated numbers give their rows in the order asked, deleted rows
/// skipped, in memory of the rows asked (the rows between two of them never read whole); a
/// number past the last live row is an error.
#[test]
fn live_rows_by_their_numbers_come_in_the_order_asked() {
    let d = scratch("rows-at");
    let n = 1_000_000i64;
    let live = big_table(&d, n);
    let t = CTable::open(&d).unwrap();
    let ids: Vec<i64> = (0..n).filter(|i| i % 7 != 3).collect();
    let at: Vec<u64> = vec![live as u64 - 1, 0, 500_000, 12, 12, 250_001, 13, 799_999];
    let mut result = None;
    let info = allocation_counter::measure(|| result = Some(t.live_rows_at(None, &at)));
    let (rows, n_rows) = result.unwrap().unwrap();
    assert_eq!(n_rows, live as u64);
    let want: Vec<Vec<Value>> = at
        .iter()
        .map(|&k| ids[k as usize])
        .map(|i| vec![Value::Int(i.into()), Value::from(format!("s{i}"))])
        .collect();
    assert_eq!(rows, want);
    assert!(info.bytes_max < 8 << 20, "peak {} bytes", info.bytes_max);
    let e = t.live_rows_at(None, &[3, live as u64]).unwrap_err().to_string();
    assert!(e.contains("live row numbers below"), "{e}");
    let (rows, _) = t.live_rows_at(Some(&["s"]), &[]).unwrap();
    assert!(rows.is_empty());
    let _ = std::fs::remove_dir_all(&d);
}

/// Typed columns (`CTable::column::<T>`, python-blosc2's `t[name][:]`): every column of the
/// python-written table as its Rust type, live rows only, nulls as `None`, equal to what
/// python-blosc2 gave (`tables.json`); a type the column does not hold is an error naming it.
#[test]
fn typed_columns_read_the_live_rows_as_python_blosc2_gives_them() {
    let m = &manifest()["table.b2d"];
    let t = CTable::open(dir().join("table.b2d")).unwrap();
    let col = |name: &str| -> Vec<serde_json::Value> {
        m["rows"].as_array().unwrap().iter().map(|r| r[name].clone()).collect()
    };
    let as_json = |v: Vec<Option<serde_json::Value>>| -> Vec<serde_json::Value> {
        v.into_iter().map(|c| c.unwrap_or(serde_json::Value::Null)).collect()
    };
    let ids: Vec<Option<i64>> = t.column("id").unwrap();
    assert_eq!(as_json(ids.into_iter().map(|v| v.map(|v| json!(v))).collect()), col("id"));
    let x: Vec<Option<f64>> = t.column("x").unwrap();
    assert_eq!(as_json(x.into_iter().map(|v| v.map(|v| json!(v))).collect()), col("x"));
    let ok: Vec<Option<bool>> = t.column("ok").unwrap();
    assert_eq!(as_json(ok.into_iter().map(|v| v.map(|v| json!(v))).collect()), col("ok"));
    for name in ["name", "s"] {
        let s: Vec<Option<String>> = t.column(name).unwrap();
        assert_eq!(as_json(s.into_iter().map(|v| v.map(|v| json!(v))).collect()), col(name), "{name}");
    }
    let raw: Vec<Option<Vec<u8>>> = t.column("raw").unwrap();
    let hex = |b: Vec<u8>| json!({ "__bytes__": b.iter().map(|x| format!("{x:02x}")).collect::<String>() });
    assert_eq!(as_json(raw.into_iter().map(|v| v.map(hex)).collect()), col("raw"));
    let n32: Vec<Option<i32>> = t.column("n32").unwrap();
    assert_eq!(n32[1], None, "a null (masked) cell");
    assert_eq!(as_json(n32.into_iter().map(|v| v.map(|v| json!(v))).collect()), col("n32"));
    // Of another type: an error naming the column and the row.
    let e = t.column::<String>("x").unwrap_err().to_string();
    assert!(e.contains("\"x\"") && e.contains("String") && e.contains("float64"), "{e}");
    assert!(!e.contains("offset"), "no byte offset to name: {e}");
    let e = t.column::<bool>("id").unwrap_err().to_string();
    assert!(e.contains("bool") && e.contains("an integer"), "{e}");
    assert!(t.column::<i64>("nope").is_err());
}

/// The Arrow reader gives batches of the rows asked (the last one shorter), only the live rows,
/// the nulls as Arrow nulls, and only the columns asked, in their order.
#[test]
fn arrow_batches_are_of_the_size_asked() {
    use arrow_array::{Array, Int32Array, Int64Array, RecordBatchReader};
    let t = CTable::open(dir().join("table.b2d")).unwrap();
    for (n, sizes) in [(1, vec![1; 6]), (4, vec![4, 2]), (6, vec![6]), (100, vec![6])] {
        let r = t.arrow_reader(Some(&["n32", "id"]), n).unwrap();
        let names: Vec<String> = r.schema().fields().iter().map(|f| f.name().clone()).collect();
        assert_eq!(names, ["n32", "id"]);
        let batches: Vec<_> = r.collect::<Result<_, _>>().unwrap();
        assert_eq!(batches.iter().map(|b| b.num_rows()).collect::<Vec<_>>(), sizes, "batches of {n}");
        let ids: Vec<i64> = batches
            .iter()
            .flat_map(|b| b.column(1).as_any().downcast_ref::<Int64Array>().unwrap().values().to_vec())
            .collect();
        assert_eq!(ids, [0, 2, 3, 4, 5, 6], "the live rows (row 1 deleted)");
        let nulls: usize = batches
            .iter()
            .map(|b| b.column(0).as_any().downcast_ref::<Int32Array>().unwrap().null_count())
            .sum();
        assert!(nulls > 0, "n32's nulls are Arrow nulls");
    }
    // Live rows 2..5 only, 2 a batch.
    let r = t.arrow_reader(Some(&["id"]), 2).unwrap().rows(2, 5);
    let got: Vec<usize> = r.map(|b| b.unwrap().num_rows()).collect();
    assert_eq!(got, [2, 1]);
    assert!(t.arrow_reader(None, 0).unwrap_err().to_string().contains("batch_rows"));
    let schema = t.arrow_reader(None, 1).unwrap().schema();
    assert!(schema.metadata()[b2schema::table::ARROW_SCHEMA_KEY].contains("\"columns\""));
}

/// Crafted tables read through Arrow: a column shorter than `/_valid_rows`, a null mask of
/// the wrong length, a column kind without an Arrow type: errors that name the member, never a
/// panic nor a short table.
#[test]
fn arrow_reads_of_crafted_tables_are_errors() {
    let fresh = |name: &str| {
        let d = scratch(name).join("t.b2d");
        copy_dir(&dir().join("table.b2d"), &d);
        d
    };
    let arrow_err = |t: &Path, cols: &[&str]| -> String {
        let t = CTable::open(t).unwrap();
        match t.arrow_reader(Some(cols), 4) {
            Err(e) => e.to_string(),
            Ok(r) => r.filter_map(Result::err).map(|e| e.to_string()).next().expect("an error"),
        }
    };
    let t = fresh("arrow-short-column");
    array(&t.join("_cols/x.b2nd"), "<f8", &[3], &le(&[1.0f64, 2.0, 3.0], f64::to_le_bytes));
    let e = arrow_err(&t, &["id", "x"]);
    assert!(e.contains("as long as /_valid_rows") && e.contains("/_cols/x"), "{e}");

    let t = fresh("arrow-null-mask");
    bools(&t.join("_cols/n32.notnull.b2nd"), &[1, 0]);
    let e = arrow_err(&t, &["n32"]);
    assert!(e.contains("null mask") && e.contains("/_cols/n32.notnull"), "{e}");

    let t = fresh("arrow-kind");
    set_schema(&t, r#"{"version": 3, "columns": [{"name": "x", "kind": "complex128"}], "n_rows": 6}"#);
    let e = arrow_err(&t, &["x"]);
    assert!(e.contains("/_cols/x") && e.contains("complex128") && e.contains("Arrow"), "{e}");

    // A cell that does not fit the kind the schema says (int64 items read as int8).
    let t = fresh("arrow-narrow");
    set_schema(&t, r#"{"version": 3, "columns": [{"name": "x", "kind": "int8"}], "n_rows": 6}"#);
    array(&t.join("_cols/x.b2nd"), "<i8", &[7], &le(&[0i64, 1, 2, 3, 4, 5, 1000], i64::to_le_bytes));
    let e = arrow_err(&t, &["x"]);
    assert!(e.contains("/_cols/x") && e.contains("int8"), "{e}");
    for name in ["arrow-short-column", "arrow-null-mask", "arrow-kind", "arrow-narrow"] {
        let _ = std::fs::remove_dir_all(scratch(name));
    }
}
