//! SQL over python-blosc2's CTables with [DataFusion](https://datafusion.apache.org): a
//! [`CTableProvider`] (a DataFusion `TableProvider`) reads a CTable (`.b2d` or `.b2z`, local or
//! by URL) through b2schema's [`ArrowReader`](b2schema::table::ArrowReader), and
//! [`register_ctable`] names one in a `SessionContext`.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> datafusion::error::Result<()> {
//! # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tables/table.b2d");
//! use datafusion::prelude::SessionContext;
//!
//! let ctx = SessionContext::new();
//! b2schema_datafusion::register_ctable(&ctx, "t", &path)?;
//! let batches = ctx.sql("SELECT ok, count(*) AS n, sum(x) AS x FROM t GROUP BY ok ORDER BY ok").await?.collect().await?;
//! let text = datafusion::arrow::util::pretty::pretty_format_batches(&batches)?.to_string();
//! assert!(text.contains("| false | 2 | 4.0 |"), "{text}"); // rows 3 and 5 (row 1 was deleted)
//! # Ok(())
//! # }
//! ```
//!
//! What a scan reads:
//! - **Partitions are row bands**: the table's physical rows are cut at the chunks of
//!   `/_valid_rows` into as many bands as the session's `target_partitions` (fewer for a small
//!   table), each band read by its own `ArrowReader` on a blocking thread, its live rows in
//!   batches of the session's `batch_size`; a band reads only its own part of `/_valid_rows`
//!   (`CTable::arrow_reader_within`), so a scan reads `/_valid_rows` once in all, whatever the
//!   number of bands.
//! - **Projection**: only the chosen columns' members (and their null masks) are read; a query
//!   that needs no column (`count(*)`) reads only `/_valid_rows`.
//! - **Limit**: the bands end at the `limit`-th live row: the rows past it are never read.
//! - Deleted rows are left out and nulls (masks and sentinels) are Arrow nulls, exactly as the
//!   `ArrowReader` gives them; the Arrow types are its own (its documentation has the table).
//! - **Statistics**: the number of live rows, exact (counted when the table is opened).
//! - **Errors**: an error of b2schema (a crafted table: a short column, a lying schema) is a
//!   `DataFusionError::External` holding the [`b2schema::Error`] (its
//!   [`kind`](b2schema::Error::kind) to match on), never a panic. A column of a kind without an
//!   Arrow type (`complex64`, `complex128`, `object`) is in the schema as `Null`: a query that
//!   reads it fails so, naming it; the other columns are read.
//!
//! Filters are not pushed down: DataFusion applies them to the batches read.
//!
//! **The Arrow version.** DataFusion 55 builds on arrow-rs 59; b2schema's feature `arrow`
//! accepts arrow-rs 59 or 60 (`>=59.2, <61` on its arrow crates, whose APIs it uses are the
//! same in both), and the workspace's lock file resolves them to 59, so that one Arrow is built
//! and the batches b2schema makes are DataFusion's own types (no conversion, no copy). A user of
//! b2schema alone may still take arrow-rs 60.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod exec;
mod provider;

pub use exec::{Band, CTableExec};
pub use provider::{CTableProvider, UNREADABLE_KEY, register_ctable};

/// `e`, an error of b2schema, as DataFusion's: `DataFusionError::External` holding it.
pub fn to_datafusion(e: b2schema::Error) -> datafusion::error::DataFusionError {
    datafusion::error::DataFusionError::External(Box::new(e))
}

/// The guide's examples (docs/datafusion.md), compiled and run as doc tests of this crate (the
/// workspace's test crate, which runs the other guides, has no DataFusion).
#[cfg(doctest)]
#[doc = include_str!("../../docs/datafusion.md")]
pub struct Guide;
