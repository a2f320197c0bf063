//! Writing a CTable that python-blosc2's `CTable.open` reads ([`CTableWriter`]): fixed-width
//! columns (every integer width, `float32`, `float64`, `bool`, `timestamp`), nulls kept in a
//! `.notnull` mask, as python-blosc2 4.14 lays a table out: `/_meta` (an SChunk whose vlmetalayers
//! are `kind` = `"ctable"`, `version` = 1 and `schema`, the JSON text of the columns and
//! `n_rows`), `/_valid_rows` (every row live), one NDArray per column under `/_cols/`, in a
//! `.b2d` directory or a `.b2z`, written whole or not at all ([`StoreWriter`]).
//!
//! ```
//! use b2schema::table::{CTable, CTableWriter, ColumnType};
//! # let dir = std::env::temp_dir().join(format!("b2schema-doc-ctable-write-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//!
//! let mut w = CTableWriter::new();
//! w.column("id", ColumnType::Int64, false)?;
//! w.column("temp", ColumnType::Float64, true)?;
//! w.push("id", &[Some(1i64), Some(2), Some(3)])?;
//! w.push("temp", &[Some(20.5f64), None, Some(19.0)])?;
//! w.write_zip(dir.join("obs.b2z"))?;                   // or w.write_dir(dir.join("obs.b2d"))
//! let t = CTable::open(dir.join("obs.b2z"))?;
//! assert_eq!(t.column::<f64>("temp")?, [Some(20.5), None, Some(19.0)]);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::column_write::{Column, Data, Layout};
pub use super::column_write::{ColumnType, WriteCell};
use super::ctable::{CTABLE_META_KEY, NOTNULL_SUFFIX, VALID_ROWS_KEY, column_key};
use super::json::json_str;
use crate::container::error::{Error, Result, Segment};
use crate::container::limits::try_reserve;
use crate::container::store::{Flavour, StoreWriter};
use crate::container::writer::{Array, Frame};
use crate::format::config::Config;
use crate::format::value::Value;

/// A CTable gathered in memory, column by column, then written whole: see the
/// [module](crate::store) documentation.
#[derive(Debug, Default)]
pub struct CTableWriter {
    pub(super) columns: Vec<Column>,
    /// The structs written as their leaves (python-blosc2's `struct_parents`): each one's name,
    /// kind (a [`ColumnType::Struct`]) and nullability.
    pub(super) parents: Vec<(String, ColumnType, bool)>,
}

impl CTableWriter {
    /// A table without columns.
    pub fn new() -> Self {
        CTableWriter::default()
    }

    /// Adds the column `name` of type `ty` (nullable: its nulls kept as python-blosc2 keeps
    /// them for the kind: a mask for fixed-width and `utf8` columns, nil items for `vlstring`
    /// and `vlbytes`, code -1 for `dictionary`), after the others.
    pub fn column(&mut self, name: &str, ty: ColumnType, nullable: bool) -> Result<()> {
        if self.columns.iter().any(|c| c.name == name) {
            return Err(Error::invalid("column names used once", "a new name", name.escape_debug(), 0)
                .in_field("column"));
        }
        if name.is_empty() {
            return Err(
                Error::invalid("a column name", "at least one character", "none", 0).in_field("column")
            );
        }
        let at = |e: Error| e.in_segment(Segment::Key(name.into()));
        match &ty {
            ColumnType::Timestamp { unit, .. } if !matches!(unit.as_str(), "s" | "ms" | "us" | "ns") => {
                return Err(at(Error::invalid(
                    "a timestamp unit",
                    "s, ms, us or ns",
                    unit.escape_debug(),
                    0,
                )
                .in_field("unit")));
            }
            ColumnType::String { max_length: 0 } | ColumnType::Bytes { max_length: 0 } => {
                return Err(at(Error::invalid("a max_length", ">= 1", 0, 0).in_field("max_length")));
            }
            ColumnType::NdArray { item, item_shape } => {
                if !item.is_scalar_number() {
                    return Err(at(Error::invalid(
                        "an ndarray column's items: an integer, float or bool",
                        "int8 .. float64, bool",
                        item.kind(),
                        0,
                    )
                    .in_field("dtype")));
                }
                let size = item_shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d));
                if item_shape.is_empty() || !matches!(size, Some(1..=0xffff_ffff)) {
                    return Err(at(Error::invalid(
                        "an item_shape of at least one dimension and 1 to 2^32 - 1 items",
                        "[n, ...]",
                        alloc::format!("{item_shape:?}"),
                        0,
                    )
                    .in_field("item_shape")));
                }
            }
            ColumnType::List { .. } | ColumnType::Struct { .. } => {
                super::nested_write::check_nested(&ty, 0).map_err(at)?;
            }
            _ => {}
        }
        self.columns.push(Column::new(name, ty, nullable));
        Ok(())
    }

    /// The index of column `name`.
    fn find(&self, name: &str) -> Result<usize> {
        self.columns.iter().position(|c| c.name == name).ok_or_else(|| {
            Error::invalid("a column added to the writer", "its name", name.escape_debug(), 0)
                .in_field("column")
        })
    }

    /// Appends `values` to the column `name` (`None`: a null, refused in a column that is not
    /// nullable). Columns may be filled in any order; [`CTableWriter::write_dir`] wants them
    /// all of one length.
    pub fn push<T: WriteCell>(&mut self, name: &str, values: &[Option<T>]) -> Result<()> {
        let i = self.find(name)?;
        let c = &self.columns[i];
        if !T::fits(&c.ty) {
            return Err(Error::invalid("values of the column's type", c.ty.kind(), T::WHAT, 0)
                .in_segment(Segment::Key(c.name.clone())));
        }
        let width = c.ty.stored().2;
        let mut bytes = Vec::new();
        try_reserve(&mut bytes, values.len().saturating_mul(width), "a column's items", 0)?;
        let mut notnull = Vec::new();
        try_reserve(&mut notnull, values.len(), "a column's null mask", 0)?;
        for v in values {
            match v {
                Some(v) => v.put(&mut bytes),
                None => bytes.extend(core::iter::repeat_n(0, width)),
            }
            notnull.push(u8::from(v.is_some()));
        }
        self.push_raw(i, &bytes, Some(&notnull))
    }

    /// Appends `values` to the column `name`, each a [`Value`] of the column's kind
    /// ([`Value::Nil`]: a null): an integer ([`Value::Int`], in the kind's range) for the
    /// integer kinds and `timestamp`, [`Value::F32`]/[`Value::F64`] (or an integer) for the
    /// floats, [`Value::Bool`], [`Value::Str`] for `string`, `utf8`, `vlstring` and `dictionary`,
    /// [`Value::Bin`] for `bytes` and `vlbytes`, nested [`Value::Array`]s of the item shape for
    /// `ndarray`. A value of another kind, out of range or too long is refused, and then nothing
    /// of the call is kept.
    pub fn push_values(&mut self, name: &str, values: &[Value]) -> Result<()> {
        let i = self.find(name)?;
        super::write_cells::push_values(&mut self.columns[i], values)
    }

    /// Appends `n` rows of raw little-endian items (fixed-width columns) and their not-null
    /// flags (one byte a row; `None`: every row a value) to column `i`.
    pub(super) fn push_raw(&mut self, i: usize, bytes: &[u8], notnull: Option<&[u8]>) -> Result<()> {
        let c = &mut self.columns[i];
        let Layout::Fixed(width) = c.ty.layout() else {
            return Err(Error::invalid("a fixed-width column", "fixed width", c.ty.kind(), 0)
                .in_segment(Segment::Key(c.name.clone())));
        };
        let n = bytes.len() / width.max(1);
        if let Some(m) = notnull
            && !c.nullable
            && let Some(p) = m.iter().position(|&b| b == 0)
        {
            return Err(c.null_refused(p as u64 + c.rows()));
        }
        let Data::Fixed(data) = &mut c.data else { unreachable!("a fixed-width column's data") };
        try_reserve(data, bytes.len(), "a column's items", 0)?;
        data.extend_from_slice(bytes);
        if c.nullable {
            try_reserve(&mut c.notnull, n, "a column's null mask", 0)?;
            match notnull {
                Some(m) => c.notnull.extend_from_slice(m),
                None => c.notnull.extend(core::iter::repeat_n(1, n)),
            }
        }
        Ok(())
    }

    /// A writer holding the live rows of `table` (every column of a kind this writer writes;
    /// another kind (`complex64`, `complex128`, `object`) is refused, named; a `list` stored
    /// `"vl"` is written anew as a `"batch"` one; the structs written as their leaves kept),
    /// to append to: rows pushed after them, the whole then written anew, whole or not at all,
    /// over the table it came from ([`CTableWriter::write_zip`] for a `.b2z`,
    /// [`CTableWriter::replace_dir`] for a `.b2d`: the old table stays whole until the new one
    /// takes its place). The rows are read whole, within the store's budget.
    pub fn from_table(table: &super::CTable) -> Result<Self> {
        let mut w = CTableWriter::new();
        for (name, spec) in table.struct_parents() {
            let at = |e: Error| e.in_segment(Segment::Key(name.clone())).in_field("struct_parents");
            let (ty, nullable) = super::nested_write::from_spec(spec, 0).map_err(at)?;
            w.parents.push((name.clone(), ty, nullable));
        }
        for spec in table.columns() {
            let ty = super::nested_write::column_type(spec)?;
            // A sentinel column's nulls are kept in a mask from now on.
            let nullable = spec.nullable || spec.spec.get("null_value").is_some();
            w.column(&spec.name, ty, nullable)?;
        }
        for (i, spec) in table.columns().iter().enumerate() {
            let cells = table.column::<Value>(&spec.name)?;
            let mut values = Vec::new();
            try_reserve(&mut values, cells.len(), "the cells of a column", 0)?;
            values.extend(cells.into_iter().map(|c| c.unwrap_or(Value::Nil)));
            super::write_cells::push_values(&mut w.columns[i], &values)?;
        }
        Ok(w)
    }

    /// The columns' names and types, in order.
    pub fn columns(&self) -> impl Iterator<Item = (&str, &ColumnType, bool)> {
        self.columns.iter().map(|c| (c.name.as_str(), &c.ty, c.nullable))
    }

    /// The number of rows: every column's, or an error naming the first that differs.
    pub fn rows(&self) -> Result<u64> {
        let n = self.columns.first().map_or(0, Column::rows);
        if let Some(c) = self.columns.iter().find(|c| c.rows() != n) {
            return Err(Error::invalid("columns of one length", n, c.rows(), 0)
                .in_segment(Segment::Key(c.name.clone())));
        }
        Ok(n)
    }

    /// The schema's JSON text, as python-blosc2 writes it.
    fn schema_json(&self, rows: u64) -> String {
        let mut s = String::from("{\"version\": 3, \"columns\": [");
        for (i, c) in self.columns.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str("{\"name\": ");
            json_str(&mut s, &c.name);
            s.push_str(", \"kind\": ");
            json_str(&mut s, c.ty.kind());
            const VL: &str = "\"serializer\": \"msgpack\", \"batch_rows\": 2048";
            match &c.ty {
                ColumnType::Timestamp { unit, timezone } => {
                    s.push_str(", \"unit\": ");
                    json_str(&mut s, unit);
                    if let Some(tz) = timezone {
                        s.push_str(", \"timezone\": ");
                        json_str(&mut s, tz);
                    }
                }
                ColumnType::String { max_length } | ColumnType::Bytes { max_length } => {
                    s.push_str(&alloc::format!(", \"max_length\": {max_length}"));
                }
                ColumnType::NdArray { item_shape, .. } => {
                    let shape: Vec<String> = item_shape.iter().map(u64::to_string).collect();
                    s.push_str(&alloc::format!(", \"item_shape\": [{}], \"dtype_str\": ", shape.join(", ")));
                    json_str(&mut s, &c.ty.dtype());
                }
                ColumnType::VlString | ColumnType::VlBytes => {
                    s.push_str(&alloc::format!(", \"nullable\": {}, {VL}", c.nullable));
                }
                ColumnType::Dictionary { ordered } => {
                    s.push_str(&alloc::format!(
                        ", \"index_type\": {{\"kind\": \"int32\"}}, \"value_type\": {{\"kind\": \"vlstring\", \
                         \"nullable\": false, {VL}}}, \"ordered\": {ordered}, \"nullable\": {}, \"null_code\": -1",
                        c.nullable
                    ));
                }
                ColumnType::List { .. } | ColumnType::Struct { .. } => {
                    let spec = super::nested_write::spec(&c.ty, c.nullable);
                    for (k, v) in spec.as_map().unwrap_or_default().iter().skip(1) {
                        s.push_str(", ");
                        json_str(&mut s, k.as_str().unwrap_or(""));
                        s.push_str(": ");
                        super::nested_write::json(&mut s, v);
                    }
                }
                _ => {}
            }
            if c.masked() {
                s.push_str(", \"nullable\": true, \"null_storage\": \"mask\"");
            }
            s.push('}');
        }
        s.push(']');
        if !self.parents.is_empty() {
            // As python-blosc2's `from_arrow` of a struct column: the leaves' logical names and
            // the structs' specs.
            let names: Vec<(Value, Value)> = self
                .columns
                .iter()
                .map(|c| (Value::Str(c.name.clone()), Value::Str(c.name.clone())))
                .collect();
            let parents: Vec<(Value, Value)> = self
                .parents
                .iter()
                .map(|(n, t, nullable)| (Value::Str(n.clone()), super::nested_write::spec(t, *nullable)))
                .collect();
            let meta = Value::Map(alloc::vec![
                (
                    Value::from("nested"),
                    Value::Map(alloc::vec![
                        (Value::from("version"), Value::Int(1)),
                        (Value::from("logical_to_physical"), Value::Map(names)),
                        (Value::from("reconstruct_rows"), Value::Bool(true)),
                    ])
                ),
                (Value::from("struct_parents"), Value::Map(parents)),
            ]);
            s.push_str(", \"metadata\": ");
            super::nested_write::json(&mut s, &meta);
        }
        s.push_str(&alloc::format!(", \"n_rows\": {rows}}}"));
        s
    }

    /// The store's members.
    fn store(&self) -> Result<StoreWriter> {
        let rows = self.rows()?;
        let mut w = StoreWriter::new(Flavour::Tree);
        let mut meta = Frame::new(1);
        let str_item = |s: &str| crate::format::ser::to_vec_with(s, Config::minimal());
        meta.vlmetalayers.push(("kind".into(), str_item("ctable")?));
        meta.vlmetalayers.push(("version".into(), crate::format::ser::to_vec_with(&1u8, Config::minimal())?));
        meta.vlmetalayers.push(("schema".into(), str_item(&self.schema_json(rows))?));
        w.insert(CTABLE_META_KEY, meta.to_vec()?)?;
        // No rows: one physical row, not live (see `write_cells::insert_column`).
        let phys = rows.max(1);
        let mut live = Vec::new();
        try_reserve(&mut live, phys as usize, "the live rows", 0)?;
        live.resize(rows as usize, 1u8);
        live.resize(phys as usize, 0);
        w.insert(VALID_ROWS_KEY, Array::from_bytes(&[phys], "|b1", live)?.to_vec()?)?;
        for c in &self.columns {
            let key = column_key(&c.name);
            super::write_cells::insert_column(&mut w, &key, c, rows)
                .map_err(|e| e.in_segment(Segment::Key(key.clone())))?;
            if c.masked() {
                let mut notnull = c.notnull.clone();
                notnull.resize(phys as usize, 0);
                let mask = Array::from_bytes(&[phys], "|b1", notnull)?;
                w.insert(&alloc::format!("{key}{NOTNULL_SUFFIX}"), mask.to_vec()?)?;
            }
        }
        Ok(w)
    }

    /// Writes the table as the `.b2d` directory `path` (which must not exist yet).
    pub fn write_dir(&self, path: impl AsRef<Path>) -> Result<()> {
        self.store()?.write_dir(path)
    }

    /// Writes the table as the `.b2d` directory `path` in place of the one there (e.g. the
    /// table [`CTableWriter::from_table`] read, with rows appended): the new directory is
    /// written whole beside it, then the two are swapped in one step, and the old one removed;
    /// killed at any point, `path` holds the old table or the new one, whole.
    pub fn replace_dir(&self, path: impl AsRef<Path>) -> Result<()> {
        self.store()?.replace_dir(path)
    }

    /// Writes the table as the `.b2z` file `path` (replacing it whole when it exists).
    pub fn write_zip(&self, path: impl AsRef<Path>) -> Result<()> {
        self.store()?.write_zip(path)
    }
}
