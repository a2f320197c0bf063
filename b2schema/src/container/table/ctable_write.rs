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

use alloc::string::String;
use alloc::vec::Vec;

use super::ctable::{CTABLE_META_KEY, NOTNULL_SUFFIX, VALID_ROWS_KEY, column_key};
use crate::container::error::{Error, Result, Segment};
use crate::container::limits::try_reserve;
use crate::container::store::{Flavour, StoreWriter};
use crate::container::writer::{Array, Frame};
use crate::format::config::Config;
use crate::format::value::Value;

/// The kind of a column [`CTableWriter`] writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnType {
    /// `int8`.
    Int8,
    /// `int16`.
    Int16,
    /// `int32`.
    Int32,
    /// `int64`.
    Int64,
    /// `uint8`.
    UInt8,
    /// `uint16`.
    UInt16,
    /// `uint32`.
    UInt32,
    /// `uint64`.
    UInt64,
    /// `float32`.
    Float32,
    /// `float64`.
    Float64,
    /// `bool`.
    Bool,
    /// `timestamp`: an `i64` count of `unit` (`"s"`, `"ms"`, `"us"` or `"ns"`) since the epoch,
    /// with an optional time zone name.
    Timestamp {
        /// `s`, `ms`, `us` or `ns`.
        unit: String,
        /// The time zone (`None`: naive).
        timezone: Option<String>,
    },
}

impl ColumnType {
    /// The schema's kind, the NumPy dtype and the item's width.
    fn stored(&self) -> (&'static str, &'static str, usize) {
        match self {
            ColumnType::Int8 => ("int8", "|i1", 1),
            ColumnType::Int16 => ("int16", "<i2", 2),
            ColumnType::Int32 => ("int32", "<i4", 4),
            ColumnType::Int64 => ("int64", "<i8", 8),
            ColumnType::UInt8 => ("uint8", "|u1", 1),
            ColumnType::UInt16 => ("uint16", "<u2", 2),
            ColumnType::UInt32 => ("uint32", "<u4", 4),
            ColumnType::UInt64 => ("uint64", "<u8", 8),
            ColumnType::Float32 => ("float32", "<f4", 4),
            ColumnType::Float64 => ("float64", "<f8", 8),
            ColumnType::Bool => ("bool", "|b1", 1),
            ColumnType::Timestamp { .. } => ("timestamp", "<i8", 8),
        }
    }
}

/// A Rust type whose values [`CTableWriter::push`] writes into a column of a [`ColumnType`]:
/// the integers, `f32`, `f64` and `bool`, each into columns of its own type (an `i64` into a
/// `timestamp` column too).
pub trait WriteCell: Copy {
    /// Whether a column of `t` takes this type.
    fn fits(t: &ColumnType) -> bool;
    /// The item's little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// What `Self` is, in messages.
    const WHAT: &'static str;
}

macro_rules! cells {
    ($($t:ty => $ct:pat,)*) => {$(
        impl WriteCell for $t {
            fn fits(t: &ColumnType) -> bool {
                matches!(t, $ct)
            }
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            const WHAT: &'static str = stringify!($t);
        }
    )*};
}

cells! {
    i8 => ColumnType::Int8,
    i16 => ColumnType::Int16,
    i32 => ColumnType::Int32,
    i64 => ColumnType::Int64 | ColumnType::Timestamp { .. },
    u8 => ColumnType::UInt8,
    u16 => ColumnType::UInt16,
    u32 => ColumnType::UInt32,
    u64 => ColumnType::UInt64,
    f32 => ColumnType::Float32,
    f64 => ColumnType::Float64,
}

impl WriteCell for bool {
    fn fits(t: &ColumnType) -> bool {
        matches!(t, ColumnType::Bool)
    }
    fn put(self, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }
    const WHAT: &'static str = "bool";
}

/// One column being gathered.
#[derive(Debug)]
struct Column {
    name: String,
    ty: ColumnType,
    nullable: bool,
    /// Its items' bytes (a null's item is zero).
    bytes: Vec<u8>,
    /// One byte a row, 1 where the row holds a value (nullable columns only).
    notnull: Vec<u8>,
}

impl Column {
    fn rows(&self) -> u64 {
        (self.bytes.len() / self.ty.stored().2) as u64
    }
}

/// A CTable gathered in memory, column by column, then written whole: see the
/// [module](crate::store) documentation.
#[derive(Debug, Default)]
pub struct CTableWriter {
    columns: Vec<Column>,
}

impl CTableWriter {
    /// A table without columns.
    pub fn new() -> Self {
        CTableWriter::default()
    }

    /// Adds the column `name` of type `ty` (nullable: its nulls in a mask), after the others.
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
        if let ColumnType::Timestamp { unit, .. } = &ty
            && !matches!(unit.as_str(), "s" | "ms" | "us" | "ns")
        {
            return Err(Error::invalid("a timestamp unit", "s, ms, us or ns", unit.escape_debug(), 0)
                .in_segment(Segment::Key(name.into()))
                .in_field("unit"));
        }
        self.columns.push(Column { name: name.into(), ty, nullable, bytes: Vec::new(), notnull: Vec::new() });
        Ok(())
    }

    /// The column `name`.
    fn find(&mut self, name: &str) -> Result<&mut Column> {
        self.columns.iter_mut().find(|c| c.name == name).ok_or_else(|| {
            Error::invalid("a column added to the writer", "its name", name.escape_debug(), 0)
                .in_field("column")
        })
    }

    /// Appends `values` to the column `name` (`None`: a null, refused in a column that is not
    /// nullable). Columns may be filled in any order; [`CTableWriter::write_dir`] wants them
    /// all of one length.
    pub fn push<T: WriteCell>(&mut self, name: &str, values: &[Option<T>]) -> Result<()> {
        let c = self.find(name)?;
        let at = |e: Error| e.in_segment(Segment::Key(c.name.clone()));
        if !T::fits(&c.ty) {
            return Err(at(Error::invalid("values of the column's type", c.ty.stored().0, T::WHAT, 0)));
        }
        let width = c.ty.stored().2;
        try_reserve(&mut c.bytes, values.len().saturating_mul(width), "a column's items", 0)?;
        if c.nullable {
            try_reserve(&mut c.notnull, values.len(), "a column's null mask", 0)?;
        }
        let row = c.rows();
        for (i, v) in values.iter().enumerate() {
            match v {
                Some(v) => v.put(&mut c.bytes),
                None if c.nullable => c.bytes.extend(core::iter::repeat_n(0, width)),
                None => {
                    let e = Error::invalid("a value in a column that is not nullable", "a value", "null", 0)
                        .in_segment(Segment::Index((row as usize).saturating_add(i)))
                        .in_segment(Segment::Key(c.name.clone()));
                    // Nothing of this call is kept.
                    c.bytes.truncate(row as usize * width);
                    return Err(e);
                }
            }
            if c.nullable {
                c.notnull.push(u8::from(v.is_some()));
            }
        }
        Ok(())
    }

    /// Appends `n` rows of raw little-endian items and their not-null flags (one byte a row,
    /// for nullable columns) to column `i`.
    pub(super) fn push_raw(&mut self, i: usize, bytes: &[u8], notnull: Option<&[u8]>) -> Result<()> {
        let c = &mut self.columns[i];
        let width = c.ty.stored().2;
        let n = bytes.len() / width;
        match notnull {
            Some(m) if !c.nullable && m.contains(&0) => {
                let row = m.iter().position(|&b| b == 0).unwrap_or(0) as u64 + c.rows();
                return Err(Error::invalid("a value in a column that is not nullable", "a value", "null", 0)
                    .in_segment(Segment::Index(row as usize))
                    .in_segment(Segment::Key(c.name.clone())));
            }
            _ => {}
        }
        try_reserve(&mut c.bytes, bytes.len(), "a column's items", 0)?;
        c.bytes.extend_from_slice(bytes);
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
    /// another kind is refused, named), to append to: rows pushed after them, the whole written
    /// anew with [`CTableWriter::write_zip`] over the `.b2z` it came from (the old file stays
    /// whole until the new one is renamed onto it: crash-safe). The rows are read whole, within
    /// the store's budget.
    pub fn from_table(table: &super::CTable) -> Result<Self> {
        let mut w = CTableWriter::new();
        for spec in table.columns() {
            let at = |e: Error| e.in_segment(Segment::Key(column_key(&spec.name)));
            let ty = match spec.kind.as_str() {
                "int8" => ColumnType::Int8,
                "int16" => ColumnType::Int16,
                "int32" => ColumnType::Int32,
                "int64" => ColumnType::Int64,
                "uint8" => ColumnType::UInt8,
                "uint16" => ColumnType::UInt16,
                "uint32" => ColumnType::UInt32,
                "uint64" => ColumnType::UInt64,
                "float32" => ColumnType::Float32,
                "float64" => ColumnType::Float64,
                "bool" => ColumnType::Bool,
                "timestamp" => ColumnType::Timestamp {
                    unit: String::from(spec.spec.get("unit").and_then(Value::as_str).unwrap_or("us")),
                    timezone: spec.spec.get("timezone").and_then(Value::as_str).map(String::from),
                },
                other => {
                    return Err(at(Error::invalid(
                        "a column kind CTableWriter writes",
                        "an integer, float32, float64, bool or timestamp",
                        other.escape_debug(),
                        0,
                    )
                    .in_field("kind")));
                }
            };
            // A sentinel column's nulls are kept in a mask from now on.
            let nullable = spec.nullable || spec.spec.get("null_value").is_some();
            w.column(&spec.name, ty, nullable)?;
        }
        for (i, spec) in table.columns().iter().enumerate() {
            let cells = table.column::<Value>(&spec.name)?;
            let width = w.columns[i].ty.stored().2;
            let mut bytes = Vec::new();
            try_reserve(&mut bytes, cells.len().saturating_mul(width), "a column's items", 0)?;
            let mut notnull = Vec::new();
            try_reserve(&mut notnull, cells.len(), "a column's null mask", 0)?;
            for (r, c) in cells.iter().enumerate() {
                let item: Vec<u8> = match c {
                    None => alloc::vec![0; width],
                    Some(Value::Int(v)) => v.to_le_bytes()[..width].to_vec(),
                    Some(Value::F32(v)) => v.to_le_bytes().to_vec(),
                    Some(Value::F64(v)) if width == 8 => v.to_le_bytes().to_vec(),
                    Some(Value::Bool(b)) => alloc::vec![u8::from(*b)],
                    Some(other) => {
                        return Err(Error::invalid(
                            "a cell of the column's kind",
                            spec.kind.escape_debug(),
                            alloc::format!("{other:?}"),
                            0,
                        )
                        .in_segment(Segment::Index(r))
                        .in_segment(Segment::Key(column_key(&spec.name))));
                    }
                };
                if item.len() != width {
                    return Err(Error::invalid("a cell of the column's width", width, item.len(), 0)
                        .in_segment(Segment::Index(r))
                        .in_segment(Segment::Key(column_key(&spec.name))));
                }
                bytes.extend_from_slice(&item);
                notnull.push(u8::from(c.is_some()));
            }
            let nullable = w.columns[i].nullable;
            w.push_raw(i, &bytes, nullable.then_some(&notnull[..]))?;
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
            json_str(&mut s, c.ty.stored().0);
            if let ColumnType::Timestamp { unit, timezone } = &c.ty {
                s.push_str(", \"unit\": ");
                json_str(&mut s, unit);
                if let Some(tz) = timezone {
                    s.push_str(", \"timezone\": ");
                    json_str(&mut s, tz);
                }
            }
            if c.nullable {
                s.push_str(", \"nullable\": true, \"null_storage\": \"mask\"");
            }
            s.push('}');
        }
        s.push_str(&alloc::format!("], \"n_rows\": {rows}}}"));
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
        let ones = alloc::vec![1u8; rows as usize];
        w.insert(VALID_ROWS_KEY, Array::from_bytes(&[rows], "|b1", ones)?.to_vec()?)?;
        for c in &self.columns {
            let key = column_key(&c.name);
            let at = |e: Error| e.in_segment(Segment::Key(key.clone()));
            let dtype = c.ty.stored().1;
            w.insert(
                &key,
                Array::from_bytes(&[rows], dtype, c.bytes.clone()).map_err(at)?.to_vec().map_err(at)?,
            )?;
            if c.nullable {
                let mask = Array::from_bytes(&[rows], "|b1", c.notnull.clone()).map_err(at)?;
                w.insert(&alloc::format!("{key}{NOTNULL_SUFFIX}"), mask.to_vec().map_err(at)?)?;
            }
        }
        Ok(w)
    }

    /// Writes the table as the `.b2d` directory `path` (which must not exist yet).
    pub fn write_dir(&self, path: impl AsRef<Path>) -> Result<()> {
        self.store()?.write_dir(path)
    }

    /// Writes the table as the `.b2z` file `path` (replacing it whole when it exists).
    pub fn write_zip(&self, path: impl AsRef<Path>) -> Result<()> {
        self.store()?.write_zip(path)
    }
}

/// `s` as a JSON string.
fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&alloc::format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}
