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

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::ctable::{CTABLE_META_KEY, NOTNULL_SUFFIX, VALID_ROWS_KEY, column_key};
use crate::container::error::{Error, Result, Segment};
use crate::container::limits::try_reserve;
use crate::container::store::{Flavour, StoreWriter};
use crate::container::writer::{Array, Frame};
use crate::format::config::Config;
use crate::format::value::Value;

/// The kind of a column [`CTableWriter`] writes, and how python-blosc2 4.14 stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// `string`: NumPy's `<U{max_length}` (UTF-32, at most `max_length` characters, trailing
    /// NULs not kept).
    String {
        /// The most characters a value holds (at least 1).
        max_length: u32,
    },
    /// `bytes`: NumPy's `|S{max_length}` (trailing zero bytes not kept).
    Bytes {
        /// The most bytes a value holds (at least 1).
        max_length: u32,
    },
    /// `utf8`: `<i8` offsets at the column's key and the bytes at `<key>.utf8` (what
    /// python-blosc2's `from_arrow` makes of an Arrow `string`/`large_string`).
    Utf8,
    /// `vlstring`: a BatchArray of msgpack strings (nulls as nil).
    VlString,
    /// `vlbytes`: a BatchArray of msgpack bytes (nulls as nil; python-blosc2's `from_arrow` of an
    /// Arrow `binary`/`large_binary`).
    VlBytes,
    /// `dictionary`: `<i4` codes at the column's key (null: -1) and the distinct strings, in the
    /// order first met, as a `vlstring` BatchArray at `<key>_dict`.
    Dictionary {
        /// Whether the values' order means something (Arrow's `ordered`).
        ordered: bool,
    },
    /// `ndarray`: each row an array of `item_shape` items of `item` (a number or `bool`), the
    /// column one NDArray of shape `(rows, *item_shape)` (python-blosc2's `from_arrow` of an
    /// Arrow `fixed_size_list`).
    NdArray {
        /// The items' kind: an integer, float or bool.
        item: Box<ColumnType>,
        /// The shape of one row (its product at least 1).
        item_shape: Vec<u64>,
    },
}

/// How a column's values lie in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Layout {
    /// One NDArray of items of this many bytes.
    Fixed(usize),
    /// Offsets and bytes.
    Utf8,
    /// A BatchArray of msgpack items.
    Items,
    /// Codes and a BatchArray of values.
    Dict,
}

impl ColumnType {
    /// The schema's kind, the NumPy dtype and the item's width (a fixed-width scalar kind's).
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
            ColumnType::String { .. } => ("string", "", 0),
            ColumnType::Bytes { .. } => ("bytes", "", 0),
            ColumnType::Utf8 => ("utf8", "<i8", 8),
            ColumnType::VlString => ("vlstring", "", 0),
            ColumnType::VlBytes => ("vlbytes", "", 0),
            ColumnType::Dictionary { .. } => ("dictionary", "<i4", 4),
            ColumnType::NdArray { .. } => ("ndarray", "", 0),
        }
    }

    /// The schema's kind (`"int64"`, `"utf8"`, ...).
    pub fn kind(&self) -> &'static str {
        self.stored().0
    }

    /// The NumPy dtype of the column's NDArray (fixed-width kinds).
    pub(super) fn dtype(&self) -> String {
        match self {
            ColumnType::String { max_length } => alloc::format!("<U{max_length}"),
            ColumnType::Bytes { max_length } => alloc::format!("|S{max_length}"),
            ColumnType::NdArray { item, .. } => item.stored().1.into(),
            other => other.stored().1.into(),
        }
    }

    /// Whether this is a kind an `ndarray` column's items may be.
    fn is_scalar_number(&self) -> bool {
        use ColumnType::*;
        matches!(
            self,
            Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | UInt64 | Float32 | Float64 | Bool
        )
    }

    /// How the column lies in the store.
    pub(super) fn layout(&self) -> Layout {
        match self {
            ColumnType::String { max_length } => Layout::Fixed(4 * *max_length as usize),
            ColumnType::Bytes { max_length } => Layout::Fixed(*max_length as usize),
            ColumnType::NdArray { item, item_shape } => {
                Layout::Fixed(item.stored().2.saturating_mul(item_shape.iter().product::<u64>() as usize))
            }
            ColumnType::Utf8 => Layout::Utf8,
            ColumnType::VlString | ColumnType::VlBytes => Layout::Items,
            ColumnType::Dictionary { .. } => Layout::Dict,
            other => Layout::Fixed(other.stored().2),
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
pub(super) struct Column {
    pub(super) name: String,
    pub(super) ty: ColumnType,
    pub(super) nullable: bool,
    pub(super) data: Data,
    /// One byte a row, 1 where the row holds a value (nullable columns kept with a mask).
    pub(super) notnull: Vec<u8>,
}

/// A column's values so far, as they will lie in the store.
#[derive(Debug)]
pub(super) enum Data {
    /// Fixed-width items (a null's item is zero).
    Fixed(Vec<u8>),
    /// `utf8`: each row's end offset (`<i8`) and the bytes (a null: no bytes).
    Utf8 { ends: Vec<u8>, bytes: Vec<u8> },
    /// `vlstring`, `vlbytes`: the items (a null: nil).
    Items(Vec<Value>),
    /// `dictionary`: the codes (`<i4`, null -1), the values in the order first met, and each
    /// value's code.
    Dict { codes: Vec<u8>, values: Vec<String>, index: BTreeMap<String, i32> },
}

impl Column {
    fn new(name: &str, ty: ColumnType, nullable: bool) -> Self {
        let data = match ty.layout() {
            Layout::Fixed(_) => Data::Fixed(Vec::new()),
            Layout::Utf8 => Data::Utf8 { ends: Vec::new(), bytes: Vec::new() },
            Layout::Items => Data::Items(Vec::new()),
            Layout::Dict => Data::Dict { codes: Vec::new(), values: Vec::new(), index: BTreeMap::new() },
        };
        Column { name: name.into(), ty, nullable, data, notnull: Vec::new() }
    }

    pub(super) fn rows(&self) -> u64 {
        (match &self.data {
            Data::Fixed(b) => match self.ty.layout() {
                Layout::Fixed(w) => b.len() / w.max(1),
                _ => 0,
            },
            Data::Utf8 { ends, .. } => ends.len() / 8,
            Data::Items(items) => items.len(),
            Data::Dict { codes, .. } => codes.len() / 4,
        }) as u64
    }

    /// Whether the column's nulls are kept in a `.notnull` mask (the others: nil items, code -1).
    pub(super) fn masked(&self) -> bool {
        self.nullable && matches!(self.ty.layout(), Layout::Fixed(_) | Layout::Utf8)
    }

    /// The error for a null in row `row` of a column that is not nullable.
    pub(super) fn null_refused(&self, row: u64) -> Error {
        Error::invalid("a value in a column that is not nullable", "a value", "null", 0)
            .in_segment(Segment::Index(usize::try_from(row).unwrap_or(usize::MAX)))
            .in_segment(Segment::Key(self.name.clone()))
    }
}

/// A CTable gathered in memory, column by column, then written whole: see the
/// [module](crate::store) documentation.
#[derive(Debug, Default)]
pub struct CTableWriter {
    pub(super) columns: Vec<Column>,
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
    /// another kind (`complex64`, `complex128`, `list`, `struct`, `object`) is refused, named),
    /// to append to: rows pushed after them, the whole then written anew, whole or not at all,
    /// over the table it came from ([`CTableWriter::write_zip`] for a `.b2z`,
    /// [`CTableWriter::replace_dir`] for a `.b2d`: the old table stays whole until the new one
    /// takes its place). The rows are read whole, within the store's budget.
    pub fn from_table(table: &super::CTable) -> Result<Self> {
        let mut w = CTableWriter::new();
        for spec in table.columns() {
            let ty = super::write_cells::column_type(spec)?;
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
                _ => {}
            }
            if c.masked() {
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
