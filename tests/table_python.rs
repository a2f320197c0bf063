//! BatchArrays and CTables against the reference: python-blosc2 4.14.1 writes random BatchArrays
//! (items of every msgpack kind python-blosc2 writes: integers to 64 bits, floats, text, bytes,
//! None, bools, lists, dicts, tuples; random batch sizes, items per block, codecs and levels) and
//! random CTables (`.b2d` and `.b2z`; every fixed-width kind, `string` and `bytes`, `vlstring`,
//! `vlbytes`, `object`; nulls in a mask or as a sentinel; deleted rows), reads them back and
//! writes what it reads; b2schema reads every one equal. Never skipped: without python-blosc2
//! (`scripts/pyenv.sh`) it fails.

use b2schema::table::{BatchArray, CTable};
use b2schema_tests::{python_checks, value_json};
use serde_json::{Value, json};

use b2schema_tests::XorShift as Rng;

const CODECS: [&str; 5] = ["zstd", "lz4", "blosclz", "zlib", "lz4hc"];
/// The integer and float kinds (also an `ndarray` column's element dtypes).
const NUMERIC: [&str; 10] =
    ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"];
/// The other kinds python-blosc2 4.14.1's CTable accepts.
const OTHER_KINDS: [&str; 14] = [
    "bool",
    "string",
    "bytes",
    "vlstring",
    "vlbytes",
    "complex64",
    "complex128",
    "timestamp",
    "utf8",
    "dictionary",
    "ndarray",
    "list",
    "struct",
    "object",
];

fn kinds() -> Vec<&'static str> {
    NUMERIC.iter().chain(&OTHER_KINDS).copied().collect()
}

/// Element dtypes of an `ndarray` column.
fn nd_dtypes() -> Vec<&'static str> {
    NUMERIC.iter().chain(&["complex128", "bool"]).copied().collect()
}

/// Items of a `list` column.
const LIST_ITEMS: [&str; 6] = ["int64", "float64", "bool", "string", "vlstring", "int8"];

fn column(rng: &mut Rng, i: usize) -> Value {
    let kinds = kinds();
    let kind = kinds[rng.below(kinds.len() as u64) as usize];
    let mut c = json!({ "name": format!("c{i}"), "kind": kind });
    match kind {
        "string" | "bytes" => c["max_length"] = json!(1 + rng.below(12)),
        "timestamp" => c["unit"] = json!(["s", "ms", "us", "ns"][rng.below(4) as usize]),
        "ndarray" => {
            let dims = 1 + rng.below(2) as usize;
            c["item_shape"] = json!((0..dims).map(|_| 1 + rng.below(3)).collect::<Vec<_>>());
            let dtypes = nd_dtypes();
            c["dtype"] = json!(dtypes[rng.below(dtypes.len() as u64) as usize]);
        }
        "list" => {
            c["item"] = json!(LIST_ITEMS[rng.below(LIST_ITEMS.len() as u64) as usize]);
            c["storage"] = json!(["batch", "vl"][rng.below(2) as usize]);
        }
        _ => {}
    }
    // A dictionary is nullable of itself; python-blosc2 widens a nullable bool ndarray to u1.
    let may_be_nullable =
        !(matches!(kind, "object" | "dictionary") || kind == "ndarray" && c["dtype"] == "bool");
    match rng.below(4) {
        0 | 3 if may_be_nullable => c["nullable"] = json!(true),
        // A sentinel for the signed integers (python-blosc2 reads it back as None).
        1 if kind.starts_with("int") => c["null_value"] = json!(-1),
        // Nulls as a sentinel rather than in a mask.
        2 if matches!(kind, "utf8" | "timestamp" | "float64") => {
            c["nullable"] = json!(true);
            c["null_storage"] = json!("sentinel");
        }
        _ => {}
    }
    c
}

fn read_expected(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(format!("{path}.json")).unwrap()).unwrap()
}

#[test]
fn random_python_blosc2_batch_arrays_and_ctables_read_equal() {
    let dir = std::env::temp_dir().join(format!("b2schema-tables-py-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x7ab1_e5ee_d0c1_u64 | 1);
    let mut entries = Vec::new();
    for case in 0..30 {
        let ipb = [json!(null), json!(1), json!(3), json!(1000)][rng.below(4) as usize].clone();
        entries.push(json!({
            "name": format!("batch {case}"),
            "kind": "batch",
            "path": dir.join(format!("b{case}.b2b")),
            "seed": rng.next() % 1_000_000,
            "batches": 1 + rng.below(5),
            "items_per_block": ipb,
            "codec": CODECS[rng.below(CODECS.len() as u64) as usize],
            "clevel": 1 + rng.below(9),
        }));
    }
    for case in 0..40 {
        let columns: Vec<Value> = (0..1 + rng.below(6) as usize).map(|i| column(&mut rng, i)).collect();
        let rows = rng.below(60);
        let deletes: Vec<u64> = (0..rng.below(4)).map(|_| rng.next() % 1000).collect();
        let form = if case % 3 == 0 { "b2z" } else { "b2d" };
        entries.push(json!({
            "name": format!("table {case}"),
            "kind": "table",
            "path": dir.join(format!("t{case}.{form}")),
            "seed": rng.next() % 1_000_000,
            "columns": columns,
            "rows": rows,
            "deletes": deletes,
        }));
    }
    // Every kind is drawn in a table with rows.
    let kinds: std::collections::BTreeSet<&str> = entries
        .iter()
        .filter(|e| e["kind"] == "table" && e["rows"].as_u64() > Some(4))
        .flat_map(|e| e["columns"].as_array().unwrap().iter().map(|c| c["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds.len(), NUMERIC.len() + OTHER_KINDS.len(), "kinds drawn: {kinds:?}");
    python_checks("write_tables.py", &dir, &entries);
    let (mut items, mut rows, mut nulls) = (0, 0, 0);
    for e in &entries {
        let path = e["path"].as_str().unwrap();
        let want = read_expected(path);
        let name = e["name"].as_str().unwrap();
        if e["kind"] == "batch" {
            let b = BatchArray::open(path).unwrap_or_else(|err| panic!("{name}: {err}"));
            let got: Vec<Value> =
                b.items().unwrap_or_else(|err| panic!("{name}: {err}")).iter().map(value_json).collect();
            assert_eq!(Value::Array(got.clone()), want, "{name}");
            items += got.len();
            continue;
        }
        let t = CTable::open(path).unwrap_or_else(|err| panic!("{name}: {err}"));
        let names: Vec<&str> = t.columns().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(json!(names), want["columns"], "{name}");
        assert_eq!(json!(t.n_rows().unwrap()), want["n_rows"], "{name}");
        let got: Vec<Value> = t
            .rows()
            .unwrap_or_else(|err| panic!("{name}: {err}"))
            .iter()
            .map(|r| {
                Value::Object(names.iter().zip(r).map(|(n, v)| (n.to_string(), value_json(v))).collect())
            })
            .collect();
        nulls += got.iter().flat_map(|r| r.as_object().unwrap().values()).filter(|v| v.is_null()).count();
        rows += got.len();
        for (i, (g, w)) in got.iter().zip(want["rows"].as_array().unwrap()).enumerate() {
            assert_eq!(g, w, "{name} row {i}");
        }
        assert_eq!(got.len(), want["rows"].as_array().unwrap().len(), "{name}");
    }
    assert!(items > 300 && rows > 300 && nulls > 20, "items {items}, rows {rows}, nulls {nulls}");
    std::fs::remove_dir_all(&dir).unwrap();
}
