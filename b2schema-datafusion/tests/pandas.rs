//! SQL group-bys over random CTables python-blosc2 4.14.1 wrote (nulls in masks and as
//! sentinels, deleted rows, a station column of each string kind, 0 to 20,000 rows in chunks of
//! a few hundred to a few thousand rows) equal to pandas' over the rows written
//! (tests/python/datafusion_groupby.py), with 1 to 4 partitions and batches of random sizes.
//! Never skipped: without python-blosc2 and pandas it fails.

use std::collections::BTreeMap;

use b2schema_datafusion::CTableProvider;
use b2schema_tests::XorShift as Rng;
use b2schema_tests::python_checks;
use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type};
use serde_json::{Value, json};

use crate::{query, scratch, session};

/// One group as pandas gives it: station, then count(*), count(temp), avg, min, max, sum(n).
type Group = (Option<String>, Value);

/// The column `i` of `batches` as JSON values (nulls as `null`), cast to `to` first.
fn column(batches: &[RecordBatch], i: usize, to: &DataType) -> Vec<Value> {
    let mut out = Vec::new();
    for b in batches {
        let a = cast(b.column(i), to).unwrap();
        for r in 0..a.len() {
            out.push(if a.is_null(r) {
                Value::Null
            } else {
                match to {
                    DataType::Utf8 => json!(a.as_string::<i32>().value(r)),
                    DataType::Int64 => json!(a.as_primitive::<Int64Type>().value(r)),
                    _ => json!(a.as_primitive::<Float64Type>().value(r)),
                }
            });
        }
    }
    out
}

fn close(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
        _ => a == b,
    }
}

#[test]
fn group_bys_equal_pandas_over_tables_python_blosc2_wrote() {
    let dir = scratch("pandas");
    let mut rng = Rng(0x00da_7af0);
    let kinds = ["string", "vlstring", "utf8", "dictionary"];
    let mut entries = Vec::new();
    for (i, rows) in [0u64, 1, 37, 600, 5000, 20_000].into_iter().enumerate() {
        // Chunks of a few hundred to a few thousand rows (python-blosc2 sizes them by it).
        let expected = (rows / (2 + rng.below(6))).max(1000);
        entries.push(json!({
            "name": format!("t{i}"),
            "path": dir.join(format!("t{i}.b2z")).to_str().unwrap(),
            "seed": i,
            "rows": rows,
            "station": kinds[i % kinds.len()],
            "sentinel": i % 2 == 1,
            "expected_size": expected,
            "deletes": if rows == 37 { 200 } else { rows / 9 },
        }));
    }
    python_checks("datafusion_groupby.py", &dir, &entries);
    let sql = "SELECT station, count(*), count(temp), avg(temp), min(temp), max(temp), sum(n) \
               FROM t GROUP BY station";
    let types = [DataType::Int64, DataType::Int64, DataType::Float64, DataType::Float64, DataType::Float64];
    for e in &entries {
        let path = e["path"].as_str().unwrap();
        let want: Value =
            serde_json::from_slice(&std::fs::read(format!("{path}.pandas.json")).unwrap()).unwrap();
        let want: BTreeMap<Option<String>, Value> = want["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| -> Group {
                let s = g["station"].as_str().map(String::from);
                (s, json!([g["rows"], g["temps"], g["avg"], g["min"], g["max"], g["sum_n"]]))
            })
            .collect();
        let partitions = 1 + rng.below(4) as usize;
        let batch = 1 + rng.below(3000) as usize;
        let provider = CTableProvider::open(path).unwrap();
        if e["rows"].as_u64() >= Some(5000) {
            // Tables of several chunks are read in several bands.
            assert!(provider.bands(4, None).len() > 1, "{path}: {:?}", provider.bands(4, None));
        }
        let ctx = session(provider, partitions, batch);
        let batches = query(&ctx, sql).unwrap_or_else(|e| panic!("{path}: {e}"));
        let stations = column(&batches, 0, &DataType::Utf8);
        let cols: Vec<Vec<Value>> = (1..=6)
            .map(|i| column(&batches, i, if i == 6 { &DataType::Int64 } else { &types[i - 1] }))
            .collect();
        let got: BTreeMap<Option<String>, Vec<Value>> = stations
            .iter()
            .enumerate()
            .map(|(r, s)| (s.as_str().map(String::from), cols.iter().map(|c| c[r].clone()).collect()))
            .collect();
        assert_eq!(got.len(), stations.len(), "{path}: a station twice");
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            want.keys().collect::<Vec<_>>(),
            "{path}: the groups ({partitions} partitions, batches of {batch})"
        );
        for (s, w) in &want {
            let g = &got[s];
            let w = w.as_array().unwrap();
            assert!(
                g.iter().zip(w).all(|(a, b)| close(a, b)),
                "{path}, station {s:?}: {g:?} != pandas' {w:?}"
            );
        }
        // The brief's query, and the row count (from the statistics or a scan).
        let avg = query(&ctx, "SELECT station, avg(temp) FROM t GROUP BY station").unwrap();
        assert_eq!(avg.iter().map(RecordBatch::num_rows).sum::<usize>(), want.len(), "{path}");
        let n = query(&ctx, "SELECT count(*) FROM t").unwrap();
        let n = column(&n, 0, &DataType::Int64);
        let live = serde_json::from_slice::<Value>(&std::fs::read(format!("{path}.pandas.json")).unwrap())
            .unwrap()["n_rows"]
            .clone();
        assert_eq!(n, [live], "{path}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
