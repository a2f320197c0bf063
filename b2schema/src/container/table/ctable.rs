//! python-blosc2's `CTable` (`blosc2.CTable(Row, urlpath="t.b2d")`, a `.b2d` or `.b2z` store):
//! the member `/_meta` (an SChunk whose vlmetalayers are `kind` = `"ctable"` and `schema`, a
//! JSON text `{"version", "columns": [{"name", "kind", ...}], "n_rows"}`), one member per column
//! under `/_cols/` (an NDArray for fixed-width kinds, `complex64`/`complex128`, `timestamp`
//! and `ndarray`; a [`BatchArray`] for `vlstring`, `vlbytes`, `object`, `struct` and `list`,
//! or an ObjectArray for a `list` stored `"vl"`; for `utf8`, `<i8` offsets plus the bytes at
//! `<name>.utf8`; for `dictionary`, `<i4` codes plus the values at `<name>_dict`),
//! `/_cols/<name>.notnull` for a column whose nulls are kept in a mask, and `/_valid_rows`, the bool mask of the physical rows that are live (deleted rows
//! stay in the columns, marked false).
//!
//! ```
//! # fn main() -> Result<(), b2schema::Error> {
//! # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/tables/table.b2d");
//! use b2schema::{Value, table::CTable};
//!
//! let table = CTable::open(&path)?;
//! assert_eq!(table.n_rows()?, 6);                      // 7 appended, 1 deleted
//! assert_eq!(table.columns()[0].name, "id");
//! let rows = table.rows()?;                            // live rows, in order
//! assert_eq!(rows[1][0], Value::Int(2));                // row 1 was deleted
//! # Ok(())
//! # }
//! ```

use std::path::Path;

use alloc::string::String;
use alloc::vec::Vec;

use super::batch::BatchArray;
use super::cells;
pub use super::cells::ColumnSpec;
use crate::container::array::{ArrayReader, ReadOptions, Selection};
use crate::container::error::{Error, Result, Segment};
use crate::container::frame::FrameFile;
use crate::container::limits::{Limit, Limits, try_reserve};
use crate::container::store::Kind;
use crate::container::store::Store;
use crate::format::value::Cursor;
use crate::format::value::Value;

/// The member that holds the table's metadata.
pub const CTABLE_META_KEY: &str = "/_meta";
/// The member that marks the live rows.
pub const VALID_ROWS_KEY: &str = "/_valid_rows";
/// What a `utf8` column's bytes add to its key (its offsets are at the key itself).
pub const UTF8_DATA_SUFFIX: &str = ".utf8";
/// What a `dictionary` column's values add to its key (its codes are at the key itself).
pub const DICT_SUFFIX: &str = "_dict";
/// What the mask of a column's non-null rows adds to its key.
pub const NOTNULL_SUFFIX: &str = ".notnull";

/// A CTable opened for reading.
#[derive(Debug)]
pub struct CTable {
    store: Store,
    columns: Vec<ColumnSpec>,
    schema_rows: Option<u64>,
    schema_version: u64,
    parents: Vec<(String, Value)>,
}

impl CTable {
    /// Opens the CTable at `path` (a `.b2d` directory or a `.b2z`). Within a budget:
    /// [`OpenOptions::table`](crate::OpenOptions::table).
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::new(Store::open(path)?)
    }

    /// Opens the CTable at `path` within `limits`.
    #[doc(hidden)]
    pub fn open_with_limits(path: impl AsRef<Path>, limits: Limits) -> Result<Self> {
        Self::new(Store::open_with_limits(path, limits)?)
    }

    /// The CTable of `store`: its `/_meta` must say `kind` `"ctable"` and hold a schema.
    pub fn new(store: Store) -> Result<Self> {
        let meta = store.open_member(CTABLE_META_KEY)?;
        let at = |e: Error| e.in_segment(Segment::Key(CTABLE_META_KEY.into()));
        let kind = meta.vlmeta_data("kind").map_err(at)?;
        let kind = match &kind {
            Some(b) => Cursor::new(b).str().map_err(|e| at(Error::from(e).in_field("kind")))?,
            None => "",
        };
        if kind != "ctable" {
            return Err(at(Error::invalid(
                "a CTable: the vlmetalayer kind",
                "ctable",
                kind.escape_debug(),
                0,
            )
            .in_field("kind")));
        }
        let schema = meta
            .vlmeta_data("schema")
            .map_err(at)?
            .ok_or_else(|| at(Error::invalid("a CTable's schema", "the vlmetalayer schema", "none", 0)))?;
        let text = Cursor::new(&schema).str().map_err(|e| at(Error::from(e).in_field("schema")))?;
        let json = super::json::parse(text).map_err(|e| at(e.in_field("schema")))?;
        let (columns, schema_rows, schema_version) =
            read_schema(&json).map_err(|e| at(e.in_field("schema")))?;
        // python-blosc2's `from_arrow` writes an Arrow struct column as its leaves (`trip.lon`,
        // ...) and keeps the struct's spec here, to give it back whole.
        let parents = match json.get("metadata").and_then(|m| m.get("struct_parents")) {
            Some(Value::Map(m)) => {
                m.iter().filter_map(|(k, v)| Some((String::from(k.as_str()?), v.clone()))).collect()
            }
            _ => Vec::new(),
        };
        Ok(CTable { store, columns, schema_rows, schema_version, parents })
    }

    /// The store the table lies in.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The columns, in the schema's order.
    pub fn columns(&self) -> &[ColumnSpec] {
        &self.columns
    }

    /// The structs python-blosc2's `from_arrow` wrote as their leaves (its schema's
    /// `metadata.struct_parents`): each one's name (`trip`) and spec (`{"kind": "struct",
    /// "fields": [...]}`); its leaves are the columns `trip.lon`, `trip.lat`, ...
    pub fn struct_parents(&self) -> &[(String, Value)] {
        &self.parents
    }

    /// The schema's `version`.
    pub fn schema_version(&self) -> u64 {
        self.schema_version
    }

    /// The column `name`.
    pub fn column_spec(&self, name: &str) -> Result<&ColumnSpec> {
        self.columns.iter().find(|c| c.name == name).ok_or_else(|| {
            let names: Vec<&str> = self.columns.iter().take(8).map(|c| c.name.as_str()).collect();
            Error::invalid("a column of the table, one of", names.join(", "), name.escape_debug(), 0)
                .in_field("column")
        })
    }

    /// Which physical rows are live (`/_valid_rows`).
    pub fn valid_rows(&self) -> Result<Vec<bool>> {
        let (_, bytes) = self.typed_member(VALID_ROWS_KEY, "|b1")?;
        Ok(bytes.iter().map(|&b| b != 0).collect())
    }

    /// The number of live rows (checked against the schema's `n_rows`).
    pub fn n_rows(&self) -> Result<u64> {
        let n = self.valid_rows()?.iter().filter(|&&v| v).count() as u64;
        self.check_rows(n)?;
        Ok(n)
    }

    /// `live` rows, checked against the schema's `n_rows` (when it has one).
    pub(super) fn check_rows(&self, live: u64) -> Result<()> {
        match self.schema_rows {
            Some(want) if want != live => {
                Err(Error::invalid("as many live rows in /_valid_rows as the schema's n_rows", want, live, 0)
                    .in_field("n_rows"))
            }
            _ => Ok(()),
        }
    }

    /// Every physical row's value of column `name` (deleted rows included, nulls as
    /// [`Value::Nil`]), at least as many as `/_valid_rows` has rows. A `utf8` column reads its
    /// offsets and its `.utf8` bytes, a `dictionary` column its codes and its `_dict` values,
    /// an `ndarray` column gives each row as nested lists, a `timestamp` its epoch offset in
    /// the schema's `unit`, a complex column [`Value::Complex`].
    pub fn column_cells(&self, name: &str) -> Result<Vec<Value>> {
        let spec = self.column_spec(name)?;
        let key = column_key(&spec.name);
        let at = |e: Error| e.in_segment(Segment::Key(key.clone()));
        let limits = self.store.limits();
        let mut cells = match spec.kind.as_str() {
            "utf8" => {
                let (_, offsets) = self.typed_member(&key, "<i8")?;
                let data_key = alloc::format!("{key}{UTF8_DATA_SUFFIX}");
                let (_, data) = self.typed_member(&data_key, "|u1")?;
                cells_budget((offsets.len() / 8).saturating_sub(1), limits).map_err(at)?;
                cells::utf8_cells(spec, &offsets, &data).map_err(at)?
            }
            "dictionary" => {
                let (_, codes) = self.typed_member(&key, "<i4")?;
                cells_budget(codes.len() / 4, limits).map_err(at)?;
                let dict_key = alloc::format!("{key}{DICT_SUFFIX}");
                let values = self.vl_cells(&dict_key, "vlstring")?;
                cells::dictionary_cells(spec, &codes, &values).map_err(at)?
            }
            _ => self.member_cells(spec, &key)?,
        };
        // Nulls kept in a mask beside the column (absent: no null so far).
        let mask_key = alloc::format!("{key}{NOTNULL_SUFFIX}");
        if self.store.member(&mask_key).is_some() {
            let f = self.store.open_member(&mask_key)?;
            let (_, _, mask) = read_array(&f).map_err(|e| e.in_segment(Segment::Key(mask_key.clone())))?;
            if mask.len() != cells.len() {
                return Err(Error::invalid("a null mask as long as its column", cells.len(), mask.len(), 0)
                    .in_segment(Segment::Key(mask_key)));
            }
            for (c, &m) in cells.iter_mut().zip(&mask) {
                if m == 0 {
                    *c = Value::Nil;
                }
            }
        }
        Ok(cells)
    }

    /// The cells of the member `key` of column `spec`, by what the member is.
    fn member_cells(&self, spec: &ColumnSpec, key: &str) -> Result<Vec<Value>> {
        let at = |e: Error| e.in_segment(Segment::Key(key.into()));
        let d = self.store.describe(key)?;
        match d.kind {
            Kind::NdArray => {
                let frame = self.store.open_member(key)?;
                let (dtype, shape, bytes) = read_array(&frame).map_err(at)?;
                let rows = shape.first().copied().unwrap_or(0);
                cells_budget(usize::try_from(rows).unwrap_or(usize::MAX), self.store.limits()).map_err(at)?;
                if spec.kind == "ndarray" {
                    return cells::nd_cells(spec, &dtype, &shape, &bytes).map_err(at);
                }
                if shape.len() != 1 {
                    return Err(at(
                        Error::invalid("a column of one dimension", 1, shape.len(), 0).in_field("shape")
                    ));
                }
                cells::fixed_cells(spec, &dtype, &bytes).map_err(at)
            }
            Kind::BatchArray | Kind::ObjectArray => self.vl_cells(key, &spec.kind),
            other => Err(at(Error::invalid(
                "a column b2schema reads: an NDArray, a BatchArray or an ObjectArray, not",
                "ndarray, batcharray or objectarray",
                alloc::format!("{} (column kind {})", other.name(), spec.kind),
                0,
            ))),
        }
    }

    /// The items of the BatchArray or ObjectArray `key`, each checked as a cell of `kind`.
    pub(super) fn vl_cells(&self, key: &str, kind: &str) -> Result<Vec<Value>> {
        let at = |e: Error| e.in_segment(Segment::Key(key.into()));
        let frame = self.store.open_member(key)?;
        let view = frame.view()?;
        let batch = view.metalayer(super::batch::METALAYER).is_some();
        let objects = view.metalayer(super::objects::METALAYER).is_some();
        drop(view);
        let items = if batch {
            BatchArray::new(frame).map_err(at)?.raw_items().map_err(at)?
        } else if objects {
            super::objects::raw_items(&frame).map_err(at)?
        } else {
            return Err(at(Error::invalid(
                "a variable-length column: a frame with the metalayer",
                "batcharray or vlarray",
                "neither",
                0,
            )));
        };
        cells_budget(items.len(), self.store.limits()).map_err(at)?;
        let mut out = Vec::new();
        try_reserve(&mut out, items.len(), "the cells of a column", 0)?;
        for (i, item) in items.into_iter().enumerate() {
            out.push(cells::vl_cell(kind, &item).map_err(|e| at(e.in_segment(Segment::Index(i))))?);
        }
        Ok(out)
    }

    /// The bytes of the one-dimensional array member `key`, whose dtype must be `dtype`.
    fn typed_member(&self, key: &str, dtype: &str) -> Result<(String, Vec<u8>)> {
        let at = |e: Error| e.in_segment(Segment::Key(key.into()));
        let f = self.store.open_member(key)?;
        let (got, shape, bytes) = read_array(&f).map_err(at)?;
        if got != dtype || shape.len() != 1 {
            return Err(at(Error::invalid(
                "a one-dimensional array of dtype",
                dtype,
                alloc::format!("{got} of shape {shape:?}"),
                0,
            )
            .in_field("dtype")));
        }
        Ok((got, bytes))
    }

    /// The live rows, in order: one cell per column, in the schema's order, read band by band
    /// ([`CTable::for_each_row`]) and gathered (within the store's [`Limits`]); a column
    /// shorter than `/_valid_rows` is an error that names it.
    pub fn rows(&self) -> Result<Vec<Vec<Value>>> {
        let mut rows: Vec<Vec<Value>> = Vec::new();
        let mut spent = 0u64;
        let per_row = (self.columns.len().max(1) * core::mem::size_of::<Value>()) as u64;
        self.for_each_row(None, |r| {
            spent = spent.saturating_add(per_row);
            Limits::check(
                "the cells of a table",
                spent,
                Limit::DecompressedTotal,
                self.store.limits().max_decompressed_total(),
                0,
            )?;
            try_reserve(&mut rows, 1, "the rows of a table", 0)?;
            rows.push(r.to_vec());
            Ok(())
        })?;
        Ok(rows)
    }
}

/// The store key of column `name`: `/_cols/` then its parts (split at unescaped dots), each
/// with `%`, `/`, `.` and `\` percent-encoded, as python-blosc2 names them.
pub fn column_key(name: &str) -> String {
    let enc: Vec<String> = split_path(name)
        .iter()
        .map(|p| p.replace('%', "%25").replace('/', "%2F").replace('.', "%2E").replace('\\', "%5C"))
        .collect();
    alloc::format!("/_cols/{}", enc.join("/"))
}

/// The parts of the column name `name`, split at the dots a backslash does not escape
/// (python-blosc2's `split_field_path`; a trailing backslash kept).
pub(super) fn split_path(name: &str) -> Vec<String> {
    let mut parts: Vec<String> = alloc::vec![String::new()];
    let mut escaped = false;
    for ch in name.chars() {
        let last = parts.last_mut().expect("never empty");
        if escaped {
            last.push(ch);
            escaped = false;
        } else if ch == '\\' {
            escaped = true;
        } else if ch == '.' {
            parts.push(String::new());
        } else {
            last.push(ch);
        }
    }
    if escaped {
        parts.last_mut().expect("never empty").push('\\');
    }
    parts
}

/// The column name of the path `parts`: joined by dots, each `\`, `.` and `/` escaped by a
/// backslash (python-blosc2's `join_field_path`, as its `from_arrow` names a struct's leaves).
#[cfg(feature = "arrow")]
pub(super) fn join_path<S: AsRef<str>>(parts: &[S]) -> String {
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push('.');
        }
        for ch in p.as_ref().chars() {
            if matches!(ch, '\\' | '.' | '/') {
                out.push('\\');
            }
            out.push(ch);
        }
    }
    out
}

fn read_schema(json: &Value) -> Result<(Vec<ColumnSpec>, Option<u64>, u64)> {
    let cols = json.get("columns").and_then(|c| c.as_slice()).ok_or_else(|| {
        Error::invalid("a schema with a list of columns", "\"columns\": [...]", "none", 0).in_field("columns")
    })?;
    let mut out: Vec<ColumnSpec> = Vec::new();
    try_reserve(&mut out, cols.len(), "the columns of a schema", 0)?;
    for (i, c) in cols.iter().enumerate() {
        let at = |e: Error| e.in_segment(Segment::Index(i)).in_field("columns");
        let name = c
            .get("name")
            .and_then(|n| n.as_str())
            .ok_or_else(|| at(Error::invalid("a column with a name", "\"name\": string", "none", 0)))?;
        let kind = c
            .get("kind")
            .and_then(|n| n.as_str())
            .ok_or_else(|| at(Error::invalid("a column with a kind", "\"kind\": string", "none", 0)))?;
        if out.iter().any(|o| o.name == name) {
            return Err(at(Error::invalid("column names used once", "once", name.escape_debug(), 0)));
        }
        let nullable = c.get("nullable").and_then(|n| n.as_bool()).unwrap_or(false);
        out.push(ColumnSpec { name: name.into(), kind: kind.into(), nullable, spec: c.clone() });
    }
    let rows = json.get("n_rows").and_then(|n| n.as_u64());
    let version = json.get("version").and_then(|n| n.as_u64()).unwrap_or(1);
    Ok((out, rows, version))
}

/// An array's dtype, shape and bytes, read whole (within the frame's limits).
fn read_array(f: &FrameFile) -> Result<(String, Vec<u64>, Vec<u8>)> {
    let r = ArrayReader::new(f)?;
    let dtype = r.dtype().unwrap_or("").into();
    // The whole column, within the budget of all a read may decompress (not ReadOptions'
    // default of 4 GiB: a column of special chunks claims any size in a few bytes).
    let opts = ReadOptions { max_bytes: f.limits().max_decompressed_total(), ..ReadOptions::default() };
    let (bytes, _) = r.read(&Selection::all(r.shape()), &opts)?;
    Ok((dtype, r.shape().to_vec(), bytes))
}

/// Refuses `n` cells when they would take more memory than `limits` lets a read decompress in
/// all (a cell is a [`Value`], larger than the byte or two an item of a column may take).
fn cells_budget(n: usize, limits: &Limits) -> Result<()> {
    let bytes = (n as u64).saturating_mul(core::mem::size_of::<Value>() as u64);
    Limits::check(
        "the cells of a column (in memory)",
        bytes,
        Limit::DecompressedTotal,
        limits.max_decompressed_total(),
        0,
    )
}
