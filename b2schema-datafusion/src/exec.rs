//! [`CTableExec`]: the scan of a CTable, one partition a band of rows, each read by b2schema's
//! `ArrowReader` on a blocking thread.

use std::fmt;
use std::sync::Arc;

use b2schema::table::CTable;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::error::ArrowError;
use datafusion::common::Statistics;
use datafusion::common::stats::Precision;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::error::{DataFusionError, Result as DfResult};
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::physical_expr::EquivalenceProperties;
use datafusion::physical_plan::execution_plan::{Boundedness, EmissionType};
use datafusion::physical_plan::stream::RecordBatchReceiverStream;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, Partitioning, PhysicalExpr, PlanProperties,
    ReplaceChildrenOptions, StatisticsArgs,
};

use crate::to_datafusion;

/// One partition of a scan: the live rows `rows` (`start..stop`, numbered in the whole table),
/// all of them among the physical rows `physical` (rows of `/_valid_rows`, deleted ones
/// included), which is all its reader reads of `/_valid_rows`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    /// The live rows, `start..stop`.
    pub rows: (u64, u64),
    /// The physical rows that hold them, `start..stop`; the first live row among them is
    /// `rows.0`.
    pub physical: (u64, u64),
}

/// The scan of a CTable: partition `i` gives the live rows of `bands[i]` of the columns
/// `names` (made by [`CTableProvider`](crate::CTableProvider)'s `scan`).
#[derive(Debug)]
pub struct CTableExec {
    table: Arc<CTable>,
    name: String,
    names: Vec<String>,
    schema: SchemaRef,
    bands: Vec<Band>,
    batch_rows: usize,
    properties: Arc<PlanProperties>,
}

impl CTableExec {
    /// The scan of the columns `names` of `table` (`schema` is theirs), partition `i` reading
    /// the live rows of `bands[i]` in batches of `batch_rows` rows.
    pub fn new(
        table: Arc<CTable>,
        name: String,
        names: Vec<String>,
        schema: SchemaRef,
        bands: Vec<Band>,
        batch_rows: usize,
    ) -> Self {
        let properties = PlanProperties::new(
            EquivalenceProperties::new(schema.clone()),
            Partitioning::UnknownPartitioning(bands.len().max(1)),
            EmissionType::Incremental,
            Boundedness::Bounded,
        );
        CTableExec {
            table,
            name,
            names,
            schema,
            bands,
            batch_rows: batch_rows.max(1),
            properties: Arc::new(properties),
        }
    }

    /// What each partition reads.
    pub fn bands(&self) -> &[Band] {
        &self.bands
    }

    /// The columns read, in the order of the batches' fields.
    pub fn columns(&self) -> &[String] {
        &self.names
    }
}

impl DisplayAs for CTableExec {
    fn fmt_as(&self, _t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        let rows: Vec<(u64, u64)> = self.bands.iter().map(|b| b.rows).collect();
        write!(f, "CTableExec: {}, columns=[{}], bands={rows:?}", self.name, self.names.join(", "))
    }
}

/// An error of the `ArrowReader` as DataFusion's: b2schema's own error taken out of Arrow's
/// `ExternalError` (a `DataFusionError::External` holding the [`b2schema::Error`]).
fn from_arrow(e: ArrowError) -> DataFusionError {
    match e {
        ArrowError::ExternalError(inner) => match inner.downcast::<b2schema::Error>() {
            Ok(e) => to_datafusion(*e),
            Err(other) => DataFusionError::External(other),
        },
        other => DataFusionError::ArrowError(Box::new(other), None),
    }
}

impl ExecutionPlan for CTableExec {
    fn name(&self) -> &str {
        "CTableExec"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        Vec::new()
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> DfResult<TreeNodeRecursion>,
    ) -> DfResult<TreeNodeRecursion> {
        Ok(TreeNodeRecursion::Continue)
    }

    fn replace_children(
        self: Arc<Self>,
        _children: Vec<Arc<dyn ExecutionPlan>>,
        _options: ReplaceChildrenOptions,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        Ok(self)
    }

    fn with_new_children(
        self: Arc<Self>,
        _children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        Ok(self)
    }

    fn execute(&self, partition: usize, _context: Arc<TaskContext>) -> DfResult<SendableRecordBatchStream> {
        let &Band { rows: (start, stop), physical: (a, b) } = self.bands.get(partition).ok_or_else(|| {
            DataFusionError::Internal(format!(
                "CTableExec: partition {partition} of {} asked for",
                self.bands.len()
            ))
        })?;
        let (table, names, batch_rows) = (self.table.clone(), self.names.clone(), self.batch_rows);
        // One decoding thread a band when the bands are read side by side.
        let threads = if self.bands.len() > 1 { Some(1) } else { None };
        let mut builder = RecordBatchReceiverStream::builder(self.schema.clone(), 2);
        let tx = builder.tx();
        builder.spawn_blocking(move || {
            if start == stop {
                return Ok(());
            }
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            // Only this band's physical rows: `/_valid_rows` before them is never read.
            let mut reader =
                table.arrow_reader_within(Some(&names), batch_rows, a, b).map_err(to_datafusion)?;
            if let Some(n) = threads {
                reader = reader.threads(n);
            }
            for batch in reader.rows(0, stop - start) {
                // A closed channel: the stream was dropped, nothing more is wanted.
                if tx.blocking_send(batch.map_err(from_arrow)).is_err() {
                    break;
                }
            }
            Ok(())
        });
        Ok(builder.build())
    }

    fn statistics_from_inputs(
        &self,
        _input_stats: &[Arc<Statistics>],
        args: &StatisticsArgs,
    ) -> DfResult<Arc<Statistics>> {
        let rows = match args.partition() {
            Some(i) => self.bands.get(i).map_or(0, |b| b.rows.1 - b.rows.0),
            None => self.bands.iter().map(|b| b.rows.1 - b.rows.0).sum(),
        };
        Ok(Arc::new(Statistics::new_unknown(&self.schema).with_num_rows(Precision::Exact(rows as usize))))
    }
}
