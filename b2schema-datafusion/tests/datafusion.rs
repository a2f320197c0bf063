//! The DataFusion provider's tests, one binary: SQL results equal to pandas' over tables
//! python-blosc2 wrote (pandas.rs), what a scan reads (pushdown.rs: projection, limit, bands),
//! crafted tables (crafted.rs).

mod crafted;
mod pandas;
mod pushdown;

// The example (`cargo run -p b2schema-datafusion --example sql_obs`), run here.
#[path = "../examples/sql_obs.rs"]
#[allow(dead_code)] // `main`, the example's entry point, is not called here.
mod sql_obs;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use b2schema_datafusion::CTableProvider;
use datafusion::arrow::array::RecordBatch;
use datafusion::error::DataFusionError;
use datafusion::prelude::{SessionConfig, SessionContext};

/// A directory of this test's own under the system's temporary directory, emptied.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("b2schema-datafusion-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A session of `partitions` target partitions and batches of `batch` rows, `provider` named
/// `t` in it.
pub fn session(provider: CTableProvider, partitions: usize, batch: usize) -> SessionContext {
    let config = SessionConfig::new().with_target_partitions(partitions).with_batch_size(batch);
    let ctx = SessionContext::new_with_config(config);
    ctx.register_table("t", Arc::new(provider)).unwrap();
    ctx
}

/// The batches `sql` gives in `ctx`.
pub fn query(ctx: &SessionContext, sql: &str) -> Result<Vec<RecordBatch>, DataFusionError> {
    runtime().block_on(async { ctx.sql(sql).await?.collect().await })
}

/// A runtime of two threads for the queries (DataFusion's scans run on its blocking pool).
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// The error of b2schema that `e` holds (anywhere along its sources), if any.
pub fn b2schema_error(e: &DataFusionError) -> Option<&b2schema::Error> {
    let mut at: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(x) = at {
        if let Some(found) = x.downcast_ref::<b2schema::Error>() {
            return Some(found);
        }
        at = x.source();
    }
    None
}

#[test]
fn the_example_averages_each_station() {
    let dir = scratch("example");
    let path = sql_obs::write_obs(&dir.join("obs.b2z")).unwrap();
    let text = runtime().block_on(sql_obs::run(&path)).unwrap();
    // Each line's cells, their padding set aside.
    let rows: Vec<String> =
        text.lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    for row in ["| east | |", "| north | 21.333333333333332 |", "| south | 17.5 |"] {
        assert!(rows.iter().any(|r| r == row), "{row} not in\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The fixture table of tests/data (7 rows appended, row 1 deleted).
pub fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tables/table.b2d")
}
