//! What a scan reads: only the projected columns' members (every read of the `.b2z` recorded by
//! a `ReadAt` of ours), only the rows up to a `LIMIT`, the rows of a table cut into bands of
//! whole chunks that together give exactly what the `ArrowReader` gives.

use std::path::Path;
use std::sync::{Arc, Mutex};

use b2schema::frame::FrameFile;
use b2schema::source::{LocalFile, ReadAt};
use b2schema::store::{Place, StoreMut};
use b2schema::table::{CTable, CTableWriter, ColumnType};
use b2schema::writer::{Fill, NdArray};
use b2schema::{OpenOptions, Value};
use b2schema_datafusion::{CTableExec, CTableProvider};
use datafusion::arrow::array::{AsArray, RecordBatch, RecordBatchReader};
use datafusion::arrow::compute::concat_batches;
use datafusion::arrow::datatypes::Int64Type;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::physical_plan::{ExecutionPlan, collect_partitioned};

use crate::{query, runtime, scratch, session};

/// A local file whose reads are recorded: `(offset, length)`.
#[derive(Debug)]
struct Recorded {
    file: LocalFile,
    reads: Mutex<Vec<(u64, u64)>>,
}

impl ReadAt for Recorded {
    fn len(&self) -> u64 {
        self.file.len()
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> b2schema::Result<()> {
        self.reads.lock().unwrap().push((offset, buf.len() as u64));
        self.file.read_at(offset, buf)
    }
}

impl Recorded {
    fn take(&self) -> Vec<(u64, u64)> {
        std::mem::take(&mut *self.reads.lock().unwrap())
    }
}

/// Row `i`'s n: scattered, so that the column does not compress to a few bytes.
fn n_of(i: i64) -> i64 {
    ((i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 24) as i64
}

/// A writer of `rows` rows of station (dictionary), temp (float64, every 5th null), n (int64,
/// [`n_of`] the row's number), note (utf8).
fn obs(rows: i64) -> CTableWriter {
    let mut w = CTableWriter::new();
    w.column("station", ColumnType::Dictionary { ordered: false }, false).unwrap();
    w.column("temp", ColumnType::Float64, true).unwrap();
    w.column("n", ColumnType::Int64, false).unwrap();
    w.column("note", ColumnType::Utf8, true).unwrap();
    let names = ["north", "south", "east"];
    let stations: Vec<Value> = (0..rows).map(|i| Value::from(names[(i % 3) as usize])).collect();
    w.push_values("station", &stations).unwrap();
    let temps: Vec<Option<f64>> = (0..rows).map(|i| (i % 5 != 0).then_some(i as f64 / 10.0)).collect();
    w.push("temp", &temps).unwrap();
    w.push("n", &(0..rows).map(|i| Some(n_of(i))).collect::<Vec<_>>()).unwrap();
    let notes: Vec<Value> = (0..rows).map(|i| Value::from(format!("note {i}"))).collect();
    w.push_values("note", &notes).unwrap();
    w
}

/// [`obs`] as a `.b2z` at `path`.
fn write_obs(path: &Path, rows: i64) {
    obs(rows).write_zip(path).unwrap();
}

/// [`obs`] as a `.b2d` at `path`, every 7th row deleted (its `/_valid_rows` rewritten in chunks of
/// 16,384 rows, its schema's `n_rows` set to the rows left).
fn write_obs_deleted(path: &Path, rows: i64) {
    write_obs_deleted_where(path, rows, |i| i % 7 == 3);
}

/// [`write_obs_deleted`] with the rows `deleted` says deleted.
fn write_obs_deleted_where(path: &Path, rows: i64, deleted: impl Fn(i64) -> bool) {
    obs(rows).write_dir(path).unwrap();
    let valid: Vec<u8> = (0..rows).map(|i| u8::from(!deleted(i))).collect();
    let f = NdArray::new(&[rows], &[16_384], &[4096], "|b1", 1, Fill::Data(&valid));
    std::fs::remove_file(path.join("_valid_rows.b2nd")).unwrap();
    f.to_frame().unwrap().write_file(path.join("_valid_rows.b2nd")).unwrap();
    let meta = FrameFile::open(path.join("_meta.b2f")).unwrap();
    let text = meta.vlmeta_data("schema").unwrap().unwrap();
    let text = b2schema::format::value::Cursor::new(&text).str().unwrap().to_string();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["n_rows"] = valid.iter().filter(|&&v| v != 0).count().into();
    drop(meta);
    let msgpack = Value::from(json.to_string().as_str()).to_msgpack().unwrap();
    b2schema::writer::set_vlmetalayer(path.join("_meta.b2f"), "schema", &msgpack).unwrap();
}

/// The `.b2z` at `path` opened through a [`Recorded`] source, as a provider.
fn recorded(path: &Path) -> (Arc<Recorded>, CTableProvider) {
    let file = std::fs::File::open(path).unwrap();
    let len = file.metadata().unwrap().len();
    let source = Arc::new(Recorded { file: LocalFile::new(file, len), reads: Mutex::new(Vec::new()) });
    let store = OpenOptions::new().store_source(source.clone(), path).unwrap();
    let provider = CTableProvider::new(CTable::new(store).unwrap(), path.display().to_string()).unwrap();
    (source, provider)
}

/// Each member's byte range in the `.b2z` (from its local header to the next member).
fn regions(provider: &CTableProvider) -> Vec<(String, u64, u64)> {
    provider
        .table()
        .store()
        .members()
        .iter()
        .filter_map(|m| match &m.place {
            Place::Zip { local_offset, limit, .. } => Some((m.key.clone(), *local_offset, *limit)),
            _ => None,
        })
        .collect()
}

/// The keys of the members that `reads` touched.
fn touched(regions: &[(String, u64, u64)], reads: &[(u64, u64)]) -> Vec<String> {
    let mut keys: Vec<String> = regions
        .iter()
        .filter(|(_, a, b)| reads.iter().any(|&(at, len)| at < *b && at + len > *a))
        .map(|(k, _, _)| k.clone())
        .collect();
    keys.sort();
    keys
}

/// The one sum of the first column of `batches` (an Int64).
fn int(batches: &[RecordBatch]) -> i64 {
    batches[0].column(0).as_primitive::<Int64Type>().value(0)
}

#[test]
fn a_query_reads_only_the_members_of_its_columns() {
    let dir = scratch("projection");
    let path = dir.join("obs.b2z");
    write_obs(&path, 20_000);
    let (source, provider) = recorded(&path);
    let regions = regions(&provider);
    source.take();
    let ctx = session(provider, 2, 1000);
    let sum = query(&ctx, "SELECT sum(n) FROM t WHERE n % 2 = 1").unwrap();
    assert_eq!(int(&sum), (0..20_000i64).map(n_of).filter(|n| n % 2 == 1).sum::<i64>());
    // The column, the live rows, and the table's schema (the batches' metadata).
    assert_eq!(touched(&regions, &source.take()), ["/_cols/n", "/_meta", "/_valid_rows"]);
    // Two columns, one with a null mask: those members, no others.
    let avg = query(&ctx, "SELECT station, avg(temp) FROM t GROUP BY station").unwrap();
    assert_eq!(avg.iter().map(RecordBatch::num_rows).sum::<usize>(), 3);
    let got = touched(&regions, &source.take());
    assert!(got.iter().all(|k| !k.starts_with("/_cols/n") && !k.starts_with("/_cols/note")), "{got:?}");
    assert!(
        got.iter().any(|k| k.starts_with("/_cols/station")) && got.contains(&"/_cols/temp".into()),
        "{got:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The scan of `sql`'s plan in `ctx` (the one `CTableExec`).
fn scan_of(plan: &Arc<dyn ExecutionPlan>) -> Option<&CTableExec> {
    if let Some(s) = (plan.as_ref() as &dyn std::any::Any).downcast_ref::<CTableExec>() {
        return Some(s);
    }
    plan.children().into_iter().find_map(scan_of)
}

#[test]
fn a_limit_reads_only_the_rows_up_to_it() {
    let dir = scratch("limit");
    let path = dir.join("obs.b2z");
    write_obs(&path, 100_000);
    let (source, provider) = recorded(&path);
    let regions = regions(&provider);
    let n_region = regions.iter().find(|(k, _, _)| k == "/_cols/n").map(|(_, a, b)| b - a).unwrap();
    source.take();
    let ctx = session(provider, 4, 8192);
    let df = runtime().block_on(ctx.sql("SELECT n FROM t LIMIT 5")).unwrap();
    let plan = runtime().block_on(df.clone().create_physical_plan()).unwrap();
    let bands = scan_of(&plan).expect("a CTableExec").bands();
    assert_eq!(bands.iter().map(|b| b.rows).collect::<Vec<_>>(), [(0, 5)]);
    let batches = runtime().block_on(df.collect()).unwrap();
    let text = pretty_format_batches(&batches).unwrap().to_string();
    assert_eq!(batches.iter().map(RecordBatch::num_rows).sum::<usize>(), 5, "{text}");
    // Of the column's member, a chunk's worth at most, not the table.
    let in_n: u64 = source
        .take()
        .iter()
        .filter(|&&(at, _)| regions.iter().any(|(k, a, b)| k == "/_cols/n" && (*a..*b).contains(&at)))
        .map(|(_, len)| len)
        .sum();
    assert!(in_n * 4 < n_region, "{in_n} bytes of the column's {n_region} read for 5 rows");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bands_of_whole_chunks_give_what_the_arrow_reader_gives() {
    let dir = scratch("bands");
    let path = dir.join("obs.b2d");
    write_obs_deleted(&path, 100_000);
    let table = CTable::open(&path).unwrap();
    let reader = table.arrow_reader(None, 70_000).unwrap();
    let schema = reader.schema();
    let whole: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    let want = concat_batches(&schema, &whole).unwrap();
    for partitions in [1, 3, 4] {
        let provider = CTableProvider::open(&path).unwrap();
        let n = provider.n_rows();
        let ctx = session(provider, partitions, 777);
        let df = runtime().block_on(ctx.sql("SELECT * FROM t")).unwrap();
        let plan = runtime().block_on(df.create_physical_plan()).unwrap();
        let bands: Vec<(u64, u64)> =
            scan_of(&plan).expect("a CTableExec").bands().iter().map(|b| b.rows).collect();
        // Contiguous, from the first live row to the last.
        assert_eq!(bands.first().map(|b| b.0), Some(0));
        assert_eq!(bands.last().map(|b| b.1), Some(n));
        assert!(bands.windows(2).all(|w| w[0].1 == w[1].0), "{bands:?}");
        let parts = runtime().block_on(collect_partitioned(plan, ctx.task_ctx())).unwrap();
        assert_eq!(parts.len(), bands.len(), "{partitions} partitions: {bands:?}");
        let got: Vec<RecordBatch> = parts.into_iter().flatten().collect();
        let got = concat_batches(&schema, &got).unwrap();
        assert!(got == want, "{partitions} partitions ({bands:?}): not the ArrowReader's rows");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each band reads only its own chunks of `/_valid_rows`: a scan in 4 bands reads about the
/// bytes of `/_valid_rows` a scan in 1 band reads (every read of the `.b2z` recorded), where a
/// band that counted the rows before it, or every row, would read it several times.
#[test]
fn bands_read_only_their_own_part_of_valid_rows() {
    let dir = scratch("valid-once");
    let (deleted, path) = (dir.join("obs.b2d"), dir.join("obs.b2z"));
    let rows = 400_000;
    // Scattered deletes, so that `/_valid_rows` does not compress to a few bytes.
    write_obs_deleted_where(&deleted, rows, |i| n_of(i) % 3 == 0);
    write_obs(&path, rows);
    let mut store = StoreMut::open(&path).unwrap();
    for (key, file) in [("/_valid_rows", "_valid_rows.b2nd"), ("/_meta", "_meta.b2f")] {
        store.set(key, std::fs::read(deleted.join(file)).unwrap()).unwrap();
    }
    drop(store);
    let mut read = Vec::new();
    for partitions in [1, 4] {
        let (source, provider) = recorded(&path);
        let (regions, n) = (regions(&provider), provider.n_rows());
        let &(_, a, b) = regions.iter().find(|(k, _, _)| k == "/_valid_rows").unwrap();
        source.take();
        let ctx = session(provider, partitions, 8192);
        let df = runtime().block_on(ctx.sql("SELECT count(station) AS c FROM t")).unwrap();
        let plan = runtime().block_on(df.create_physical_plan()).unwrap();
        assert_eq!(scan_of(&plan).expect("a CTableExec").bands().len(), partitions);
        let batches = runtime().block_on(datafusion::physical_plan::collect(plan, ctx.task_ctx())).unwrap();
        assert_eq!(int(&batches), n as i64);
        let in_valid: u64 =
            source.take().iter().map(|&(at, len)| (at + len).min(b).saturating_sub(at.max(a))).sum();
        read.push((in_valid, b - a));
    }
    let [(one, size), (four, _)] = read[..] else { unreachable!() };
    assert!(one >= size / 2, "1 band read {one} bytes of /_valid_rows' {size}");
    assert!(four <= one + one / 4, "4 bands read {four} bytes of /_valid_rows, 1 band {one}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_table_by_url_is_queried_fetching_only_its_columns() {
    let dir = scratch("url");
    let path = dir.join("obs.b2z");
    // Half a MB: the client's first answers (64 KiB at each end) hold little of it.
    write_obs(&path, 400_000);
    let bytes = std::fs::read(&path).unwrap();
    let server = b2schema_tests::http_server::Server::start(vec![("obs.b2z".into(), bytes)]);
    let provider = CTableProvider::open_url(&server.url("obs.b2z")).unwrap();
    let regions = regions(&provider);
    server.reset_counts();
    let ctx = session(provider, 2, 4096);
    let sum = query(&ctx, "SELECT sum(n) FROM t").unwrap();
    assert_eq!(int(&sum), (0..400_000i64).map(n_of).sum::<i64>());
    assert!(!server.ranges().is_empty());
    // Ranges `first..=last`; the client reads a little ahead, into a neighbour at most.
    let ranges: Vec<(u64, u64)> = server.ranges().iter().map(|&(a, b)| (a, b + 1 - a)).collect();
    let got = touched(&regions, &ranges);
    assert!(!got.iter().any(|k| k.starts_with("/_cols/temp") || k.starts_with("/_cols/station")), "{got:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
