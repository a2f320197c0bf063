//! [`Value`]: any msgpack value, as python-blosc2 writes its user metadata (vlmetalayers,
//! user metalayers, BatchArray items): bytes, ext values, and python-blosc2's conventions for
//! tuples, complex numbers and sets decoded to their own variants.
//!
//! ```
//! # extern crate b2schema_format as b2schema;
//! use b2schema::Value;
//!
//! // python-blosc2: `vlmeta["a"] = (1, "two", 3.0)` writes the list ["__tuple__", 1, "two", 3.0].
//! let bytes = [0x94, 0xa9, b'_', b'_', b't', b'u', b'p', b'l', b'e', b'_', b'_', 0x01, 0xa3, b't',
//!     b'w', b'o', 0xcb, 0x40, 0x08, 0, 0, 0, 0, 0, 0];
//! let v = Value::from_msgpack(&bytes).unwrap();
//! assert_eq!(v, Value::Tuple(vec![Value::Int(1), Value::from("two"), Value::F64(3.0)]));
//! // Written back as python-blosc2 writes it.
//! assert_eq!(v.to_msgpack().unwrap(), bytes);
//! // Bytes are bytes, not text.
//! assert_eq!(Value::from_msgpack(&[0xc4, 2, 0xff, 0]).unwrap().as_bytes(), Some(&[0xff, 0][..]));
//! ```
//!
//! Reading is bounded: the depth by [`DEFAULT_MAX_DEPTH`](crate::DEFAULT_MAX_DEPTH), every count
//! by the bytes left (each value takes at least one byte), every allocation fallible; an error
//! names the offset, the path (`[2]`, `{"key"}`) and what was expected and found.

mod cursor;
mod read;
mod serde;
mod write;

use alloc::string::String;
use alloc::vec::Vec;

pub use cursor::Cursor;

/// python-blosc2's ext code for a complex number (`struct.pack(">dd", real, imag)`).
pub const EXT_COMPLEX: i8 = 44;
/// python-blosc2's ext code for a set (the packed list of its elements).
pub const EXT_SET: i8 = 45;
/// python-blosc2's ext code for a NumPy array (a packed map: `dtype`, `shape`, `data`, or `values`).
pub const EXT_NDARRAY: i8 = 46;
/// python-blosc2's ext code for a Blosc2 object stored as its cframe (NDArray, SChunk, ...).
pub const EXT_CFRAME: i8 = 42;
/// python-blosc2's ext code for a reference object (a packed map with `kind` and `version`).
pub const EXT_REFERENCE: i8 = 43;
/// The first element of a list that python-blosc2 reads back as a tuple.
pub const TUPLE_TAG: &str = "__tuple__";

/// Any msgpack value.
///
/// Integers are one variant whatever their marker (msgpack's range, `i64::MIN..=u64::MAX`, fits an
/// `i128`); floats keep their width. python-blosc2's conventions get variants of their own:
/// [`Value::Tuple`] (a list led by `"__tuple__"`), [`Value::Complex`] (ext 44) and
/// [`Value::Set`] (ext 45); other ext values (NumPy arrays, embedded cframes, references) stay
/// [`Value::Ext`], their payload untouched.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `nil` (Python's `None`).
    Nil,
    /// `true` or `false`.
    Bool(bool),
    /// Any integer.
    Int(i128),
    /// A float32.
    F32(f32),
    /// A float64 (Python's `float`).
    F64(f64),
    /// Text.
    Str(String),
    /// Bytes (Python's `bytes`).
    Bin(Vec<u8>),
    /// A list.
    Array(Vec<Value>),
    /// A map, its entries in the order of the bytes.
    Map(Vec<(Value, Value)>),
    /// A Python tuple: python-blosc2 writes it as a list whose first element is `"__tuple__"`.
    Tuple(Vec<Value>),
    /// A Python complex number (ext 44).
    Complex {
        /// The real part.
        re: f64,
        /// The imaginary part.
        im: f64,
    },
    /// A Python set (ext 45), its elements in the order of the bytes.
    Set(Vec<Value>),
    /// Any other ext value: its type code and payload.
    Ext(i8, Vec<u8>),
}

impl Value {
    /// The text of a [`Value::Str`].
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The bytes of a [`Value::Bin`].
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bin(b) => Some(b),
            _ => None,
        }
    }

    /// A [`Value::Int`] that fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int(i) => i64::try_from(i).ok(),
            _ => None,
        }
    }

    /// A [`Value::Int`] that fits a `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::Int(i) => u64::try_from(i).ok(),
            _ => None,
        }
    }

    /// A float, or an integer as a float (as Python compares them).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::F32(f) => Some(f64::from(f)),
            Value::F64(f) => Some(f),
            Value::Int(i) => Some(i as f64),
            _ => None,
        }
    }

    /// A [`Value::Bool`].
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The elements of a list, a tuple or a set.
    pub fn as_slice(&self) -> Option<&[Value]> {
        match self {
            Value::Array(v) | Value::Tuple(v) | Value::Set(v) => Some(v),
            _ => None,
        }
    }

    /// The entries of a map.
    pub fn as_map(&self) -> Option<&[(Value, Value)]> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The value of a map's entry whose key is the text `key` (the first, if several are).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_map()?.iter().find(|(k, _)| k.as_str() == Some(key)).map(|(_, v)| v)
    }

    /// Whether it is [`Value::Nil`].
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.into())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Int(i.into())
    }
}

impl From<u64> for Value {
    fn from(i: u64) -> Self {
        Value::Int(i.into())
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Self {
        Value::F64(f)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<Vec<u8>> for Value {
    fn from(b: Vec<u8>) -> Self {
        Value::Bin(b)
    }
}
