//! python-blosc2's tables, above its stores: the `CTable` (a `.b2d` or `.b2z` store of column
//! arrays, read row by row, column by column or, with the feature `arrow`, as Arrow batches) and
//! its writer, and the `BatchArray` (`.b2b`, also the store of a CTable's variable-length columns).
//!
//! ```
//! # fn main() -> Result<(), b2schema::Error> {
//! # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tables/table.b2d");
//! use b2schema::table::CTable;
//!
//! let table = CTable::open(&path)?;
//! let ids = table.column::<i64>("id")?; // the live rows of one column
//! assert_eq!(ids.len() as u64, table.n_rows()?);
//! # Ok(())
//! # }
//! ```

#[cfg(feature = "arrow")]
mod arrow;
#[cfg(feature = "arrow")]
mod arrow_fixed;
#[cfg(feature = "arrow")]
mod arrow_nested;
#[cfg(feature = "arrow")]
mod arrow_write;
mod batch;
mod batch_write;
mod cells;
mod column;
mod column_write;
mod ctable;
mod ctable_write;
mod json;
mod nested_write;
mod objects;
mod rows;
mod write_cells;

#[cfg(feature = "arrow")]
pub use arrow::{ARROW_SCHEMA_KEY, ArrowReader};
pub use batch::{BatchArray, BatchMeta};
pub use batch_write::BatchArrayWriter;
pub use column::Cell;
pub use column_write::StructField;
pub use ctable::{
    CTABLE_META_KEY, CTable, ColumnSpec, DICT_SUFFIX, NOTNULL_SUFFIX, UTF8_DATA_SUFFIX, VALID_ROWS_KEY,
    column_key,
};
pub use ctable_write::{CTableWriter, ColumnType, WriteCell};
pub use rows::MAX_BAND_ROWS;

/// The CTable schema's JSON reader, for the `store` fuzz target only (not part of the API).
#[doc(hidden)]
pub fn __fuzz_schema_json(text: &str) -> crate::container::error::Result<crate::format::value::Value> {
    json::parse(text)
}
