//! The columns a [`CTableWriter`](super::CTableWriter) gathers: their kinds ([`ColumnType`], and
//! how each lies in python-blosc2's store), the Rust types pushed into them ([`WriteCell`]), and
//! their values so far.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::container::error::{Error, Segment};
use crate::format::value::Value;

/// The kind of a column [`CTableWriter`](super::CTableWriter) writes, and how python-blosc2 4.14 stores it.
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
    /// `list`: a BatchArray of msgpack lists (null rows nil), tagged `listarray` with its spec
    /// (python-blosc2's `from_arrow` of an Arrow `list`/`large_list`). Its items: a number,
    /// `bool`, `timestamp`, `string` (python-blosc2 gives an Arrow string item
    /// `max_length` 1,000,000, not enforced), `vlstring`, `vlbytes`, a `list` or a `struct`.
    List {
        /// The items' kind.
        item: Box<ColumnType>,
        /// Whether an item may be null.
        item_nullable: bool,
    },
    /// `struct`: a BatchArray of msgpack maps, one entry a field, in the fields' order (null
    /// rows nil); as a column, as a list's item or as a struct's field. python-blosc2's
    /// `from_arrow` writes an Arrow struct column as its leaves instead, `name.field` each (see
    /// [`CTableWriter::from_arrow_schema`](super::CTableWriter::from_arrow_schema)). Its fields
    /// are of the kinds a list's items are.
    Struct {
        /// The fields, in order.
        fields: Vec<StructField>,
    },
}

/// A field of a [`ColumnType::Struct`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructField {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub ty: ColumnType,
    /// Whether it may be null.
    pub nullable: bool,
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
    pub(super) fn stored(&self) -> (&'static str, &'static str, usize) {
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
            ColumnType::List { .. } => ("list", "", 0),
            ColumnType::Struct { .. } => ("struct", "", 0),
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
    pub(super) fn is_scalar_number(&self) -> bool {
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
            ColumnType::VlString
            | ColumnType::VlBytes
            | ColumnType::List { .. }
            | ColumnType::Struct { .. } => Layout::Items,
            ColumnType::Dictionary { .. } => Layout::Dict,
            other => Layout::Fixed(other.stored().2),
        }
    }
}

/// A Rust type whose values [`CTableWriter::push`](super::CTableWriter::push) writes into a column of a [`ColumnType`]:
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
    /// `vlstring`, `vlbytes`, `list`, `struct`: the items (a null: nil).
    Items(Vec<Value>),
    /// `dictionary`: the codes (`<i4`, null -1), the values in the order first met, and each
    /// value's code.
    Dict { codes: Vec<u8>, values: Vec<String>, index: BTreeMap<String, i32> },
}

impl Column {
    pub(super) fn new(name: &str, ty: ColumnType, nullable: bool) -> Self {
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
