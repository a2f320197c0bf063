//! [`CTableProvider`]: a CTable as a DataFusion table, opened from a path, a URL or a
//! [`CTable`] of the caller's; its row bands counted once, when it is opened.

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use b2schema::OpenOptions;
use b2schema::array::ArrayReader;
use b2schema::table::{CTable, VALID_ROWS_KEY};
use datafusion::arrow::array::RecordBatchReader;
use std::collections::HashMap;

use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::stats::Precision;
use datafusion::common::{Statistics, project_schema};
use datafusion::datasource::TableType;
use datafusion::error::Result as DfResult;
use datafusion::logical_expr::Expr;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::SessionContext;

use crate::exec::{Band, CTableExec};
use crate::to_datafusion;

/// The field metadata key of a column a scan cannot read (a kind without an Arrow type): the
/// error reading it gives.
pub const UNREADABLE_KEY: &str = "b2schema.unreadable";

/// The fewest physical rows of a band (unless the table has fewer), as the library's row
/// reader bands them.
const MIN_BAND_ROWS: u64 = 1024;

/// A CTable as a DataFusion `TableProvider` (see the [crate] documentation for what a scan
/// reads). Its Arrow schema is the `ArrowReader`'s (every column, python-blosc2's `to_arrow`
/// types, the CTable's schema JSON in its metadata); a column of a kind without an Arrow type
/// (`complex64`, `complex128`, `object`) is in it as `Null`, its field's metadata
/// [`UNREADABLE_KEY`] saying why, and a scan that reads it fails with b2schema's error.
#[derive(Debug)]
pub struct CTableProvider {
    table: Arc<CTable>,
    schema: SchemaRef,
    /// The physical rows cut at the chunks of `/_valid_rows`: for each chunk, its live rows.
    chunk_live: Vec<u64>,
    /// The physical rows of those chunks (the last may be shorter).
    chunk_rows: u64,
    /// The physical rows.
    physical: u64,
    n_rows: u64,
    name: String,
}

impl CTableProvider {
    /// The CTable at `path` (a `.b2d` directory or a `.b2z` file), within the default budget.
    pub fn open(path: impl AsRef<Path>) -> b2schema::Result<Self> {
        Self::open_with(&OpenOptions::new(), path)
    }

    /// The CTable at `path`, opened with `options` (its budget bounds every read of a scan).
    pub fn open_with(options: &OpenOptions, path: impl AsRef<Path>) -> b2schema::Result<Self> {
        let path = path.as_ref();
        Self::new(options.table(path)?, path.display().to_string())
    }

    /// The CTable at `url` (a `.b2z` served over `http://` or `https://`: a `.b2d` directory
    /// cannot be listed over HTTP), read by ranged GETs, only the members and chunks a scan
    /// needs.
    #[cfg(feature = "http")]
    pub fn open_url(url: &str) -> b2schema::Result<Self> {
        Self::open_url_with(&OpenOptions::new(), url)
    }

    /// The CTable at `url`, opened with `options` (its budget, [`b2schema::Limits::max_fetched`]
    /// among others, bounds every scan; its HTTP settings are the client's).
    #[cfg(feature = "http")]
    pub fn open_url_with(options: &OpenOptions, url: &str) -> b2schema::Result<Self> {
        Self::new(CTable::new(options.store_url(url)?)?, url.to_string())
    }

    /// `table` (opened by any of b2schema's openers, e.g. over your own
    /// [`ReadAt`](b2schema::source::ReadAt) with [`OpenOptions::store_source`]); `name` stands
    /// for it in plans. Reads `/_valid_rows` once, to count the live rows of each band (checked
    /// against the schema's `n_rows`), and makes the Arrow schema: a column kind without an
    /// Arrow type is an error that names it.
    pub fn new(table: CTable, name: String) -> b2schema::Result<Self> {
        // The reader checks the schema's `n_rows` against `/_valid_rows`.
        let meta = table.arrow_reader(Some(&[]), 1)?.schema().metadata().clone();
        let fields: Vec<Field> = table
            .arrow_columns()
            .into_iter()
            .map(|n| match table.arrow_field(n) {
                Ok(f) => f,
                Err(e) => Field::new(n, DataType::Null, true)
                    .with_metadata(HashMap::from([(UNREADABLE_KEY.to_string(), e.to_string())])),
            })
            .collect();
        let schema = Arc::new(Schema::new_with_metadata(fields, meta));
        let valid = table.valid_rows()?;
        let frame = table.store().open_member(VALID_ROWS_KEY)?;
        let chunk = ArrayReader::new(&frame)?.chunks().first().copied().unwrap_or(0);
        let chunk_rows = chunk.max(MIN_BAND_ROWS);
        let chunk = usize::try_from(chunk_rows).unwrap_or(usize::MAX);
        let chunk_live: Vec<u64> =
            valid.chunks(chunk).map(|c| c.iter().filter(|&&v| v).count() as u64).collect();
        let n_rows = chunk_live.iter().sum();
        let physical = valid.len() as u64;
        Ok(CTableProvider { table: Arc::new(table), schema, chunk_live, chunk_rows, physical, n_rows, name })
    }

    /// The table read.
    pub fn table(&self) -> &CTable {
        &self.table
    }

    /// The number of live rows.
    pub fn n_rows(&self) -> u64 {
        self.n_rows
    }

    /// The live rows of each of (at most) `k` bands of whole chunks, cut at the `limit`-th
    /// live row (`rows`, in live-row numbers), with the physical rows that hold them
    /// (`physical`); empty bands left out (one empty band for an empty table, as a plan has at
    /// least one partition).
    pub fn bands(&self, k: usize, limit: Option<usize>) -> Vec<Band> {
        let n = self.chunk_live.len();
        let k = k.clamp(1, n.max(1));
        let end = limit.map_or(self.n_rows, |l| (l as u64).min(self.n_rows));
        let at = |chunk: usize| (chunk as u64).saturating_mul(self.chunk_rows).min(self.physical);
        let mut out = Vec::with_capacity(k);
        let mut start = 0u64;
        for i in 0..k {
            let (a, b) = (i * n / k, (i + 1) * n / k);
            let stop = (start + self.chunk_live[a..b].iter().sum::<u64>()).min(end);
            if stop > start {
                out.push(Band { rows: (start, stop), physical: (at(a), at(b)) });
            }
            start = stop;
        }
        if out.is_empty() {
            out.push(Band { rows: (0, 0), physical: (0, 0) });
        }
        out
    }
}

#[async_trait]
impl TableProvider for CTableProvider {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        _filters: &[Expr],
        limit: Option<usize>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        let schema = project_schema(&self.schema, projection)?;
        let names: Vec<String> = schema.fields().iter().map(|f| f.name().clone()).collect();
        for f in schema.fields().iter().filter(|f| f.metadata().contains_key(UNREADABLE_KEY)) {
            self.table.arrow_field(f.name()).map_err(to_datafusion)?;
        }
        let config = state.config();
        let bands = self.bands(config.target_partitions(), limit);
        Ok(Arc::new(CTableExec::new(
            self.table.clone(),
            self.name.clone(),
            names,
            schema,
            bands,
            config.batch_size(),
        )))
    }

    fn statistics(&self) -> Option<Statistics> {
        Some(Statistics::new_unknown(&self.schema).with_num_rows(Precision::Exact(self.n_rows as usize)))
    }
}

/// Opens the CTable at `path` ([`CTableProvider::open`]) and registers it in `ctx` as the table
/// `name`; an error of b2schema is a `DataFusionError::External` holding it.
pub fn register_ctable(ctx: &SessionContext, name: &str, path: impl AsRef<Path>) -> DfResult<()> {
    let provider = CTableProvider::open(path).map_err(to_datafusion)?;
    ctx.register_table(name, Arc::new(provider))?;
    Ok(())
}
