//! NumPy dtype strings, as stored in the `b2nd` metalayer.
//!
//! The last element of the `b2nd` metalayer is a string that describes the item type in NumPy's
//! own notation. python-blosc2 stores `dtype.str` for ordinary dtypes and `str(dtype)` for void
//! (structured) ones; files from older releases store `str(dtype)` for every dtype. [`DType::parse`]
//! reads all of these forms and [`DType::to_numpy_str`] writes them back byte for byte:
//!
//! | form | examples |
//! |---|---|
//! | type code (`dtype.str`) | `<f8`, `\|u1`, `\|b1`, `<c16`, `>i4`, `<U6`, `\|S7`, `\|V16`, `\|O`, `<M8[ms]`, `<m8[5s]` |
//! | type name (`str(dtype)` of native types) | `uint8`, `float64`, `bool`, `complex128`, `object`, `datetime64[ms]` |
//! | list form (packed structs) | `[('a', '<i4'), ('b', '<f8', (2, 3)), ('c', [('x', 'u1')])]` |
//! | titles | `[(('title', 'name'), '<i4')]` |
//! | dict form (padding, offsets, `align=True`) | `{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'offsets': [0, 8], 'itemsize': 16, 'aligned': True}` |
//! | subarray | `('<f8', (3,))` (inside a dict form, or at the top) |
//! | record structs | `(numpy.record, [('a', '<i4')])` (python-blosc2 writes it for `np.record` dtypes, but cannot read it back) |
//!
//! Field names and titles are Python string literals (either quote, backslash escapes); they are
//! printed the way Python's `repr` prints them, with the code points Python 3.11 (Unicode 14)
//! considers non-printable escaped.
//!
//! # Semantics
//!
//! The parsed [`DType`] is the layout NumPy builds from the string (`np.dtype(s)`, or
//! `np.dtype(ast.literal_eval(s))` for the structured forms, as python-blosc2 reads it back):
//!
//! * byte orders are normalized like NumPy: 1-byte numbers, booleans, bytes, void and object get
//!   [`ByteOrder::NotApplicable`] whatever was written; `=`, `|` or no byte order on a multi-byte
//!   type, and every type name (`float64`, `uint8`, ...), give [`ByteOrder::Native`];
//! * unnamed fields of the list form are named `f0`, `f1`, ... after their position;
//! * `'aligned': True` aligns the nested list and dict forms too (C alignment of x86-64 and
//!   aarch64 Linux: `<f16` and `<c32` align to 16 bytes), and checks offsets and itemsize;
//! * the layout of a list form is packed (or aligned inside an aligned dict form). NumPy itself
//!   prints an aligned struct nested in a packed one as a list form, which it then reads back
//!   packed: the parser follows the read-back, so such a string parses to a smaller itemsize than
//!   the dtype it was printed from had.
//!
//! # Limits and strictness
//!
//! The whole string must be one dtype: no surrounding whitespace, no trailing NUL. Nesting of dtypes
//! (structs in structs, subarrays of subarrays) is limited to [`MAX_DEPTH`] levels; itemsizes,
//! offsets, subarray dimensions and datetime counts to [`MAX_ITEMSIZE`] (NumPy's C `int`);
//! subarrays to [`MAX_SUBARRAY_DIMS`] dimensions. Parsing never panics, recurses at most
//! [`MAX_DEPTH`] levels deep and allocates in proportion to the input.
//!
//! Some spellings NumPy accepts are rejected because NumPy never writes them: one-letter type codes
//! other than `?` (`i`, `d`, `<i`), aliases (`float`, `a5`), comma-separated formats (`i4, f8`,
//! `(3,)<f8`), datetime divisors (`M8[s/2]`), the old `{'name': (format, offset)}` dict form, dict
//! forms with unknown keys or more formats than names, string prefixes (`u'a'`, `b'<f8'`), implicit
//! string concatenation, `\N{...}` escapes, lone surrogates, and structs larger than
//! [`MAX_ITEMSIZE`] (NumPy wraps their itemsize around).

use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write as _};
use core::str::FromStr;

/// The deepest nesting of dtypes [`DType::parse`] accepts: list forms, dict forms and tuples
/// (subarrays, records) count one level each.
pub const MAX_DEPTH: usize = 32;

/// The largest itemsize, offset, subarray dimension or datetime count [`DType::parse`] accepts:
/// `i32::MAX`, NumPy's own limit (a C `int`).
pub const MAX_ITEMSIZE: usize = 0x7fff_ffff;

/// The most dimensions a subarray may have (NumPy's `NPY_MAXDIMS`).
pub const MAX_SUBARRAY_DIMS: usize = 64;

/// The byte order of a scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// Little-endian, written `<`.
    Little,
    /// Big-endian, written `>`.
    Big,
    /// The type has no byte order (1-byte numbers, booleans, bytes, void, object), written `|`.
    NotApplicable,
    /// The byte order of the machine that wrote the file: a multi-byte type written with `=`, `|` or
    /// no byte order, or a type name such as `float64` (`str(dtype)` names native types). Little-endian
    /// on every platform python-blosc2 ships for; see [`ByteOrder::resolve`].
    Native,
}

impl ByteOrder {
    /// The character NumPy writes for this byte order: `<`, `>`, `|` or `=`.
    pub fn as_char(self) -> char {
        match self {
            ByteOrder::Little => '<',
            ByteOrder::Big => '>',
            ByteOrder::NotApplicable => '|',
            ByteOrder::Native => '=',
        }
    }

    /// Replaces [`ByteOrder::Native`] by `native` (the writer's byte order, in practice
    /// [`ByteOrder::Little`]); other byte orders are returned unchanged.
    pub fn resolve(self, native: ByteOrder) -> ByteOrder {
        if self == ByteOrder::Native { native } else { self }
    }
}

/// The unit of a `datetime64` / `timedelta64` type (the part in brackets, `<M8[ms]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DateTimeUnit {
    /// No unit (`<M8`, `datetime64`): NumPy's generic unit.
    Generic,
    /// `Y`: years.
    Year,
    /// `M`: months.
    Month,
    /// `W`: weeks.
    Week,
    /// `D`: days.
    Day,
    /// `h`: hours.
    Hour,
    /// `m`: minutes.
    Minute,
    /// `s`: seconds.
    Second,
    /// `ms`: milliseconds.
    Millisecond,
    /// `us` (also read as `μs`): microseconds.
    Microsecond,
    /// `ns`: nanoseconds.
    Nanosecond,
    /// `ps`: picoseconds.
    Picosecond,
    /// `fs`: femtoseconds.
    Femtosecond,
    /// `as`: attoseconds.
    Attosecond,
}

impl DateTimeUnit {
    /// NumPy's spelling of the unit: `"Y"`, `"ms"`, `"us"`, ..., or `"generic"`.
    pub fn as_str(self) -> &'static str {
        match self {
            DateTimeUnit::Generic => "generic",
            DateTimeUnit::Year => "Y",
            DateTimeUnit::Month => "M",
            DateTimeUnit::Week => "W",
            DateTimeUnit::Day => "D",
            DateTimeUnit::Hour => "h",
            DateTimeUnit::Minute => "m",
            DateTimeUnit::Second => "s",
            DateTimeUnit::Millisecond => "ms",
            DateTimeUnit::Microsecond => "us",
            DateTimeUnit::Nanosecond => "ns",
            DateTimeUnit::Picosecond => "ps",
            DateTimeUnit::Femtosecond => "fs",
            DateTimeUnit::Attosecond => "as",
        }
    }

    fn from_name(s: &str) -> Option<DateTimeUnit> {
        Some(match s {
            "generic" => DateTimeUnit::Generic,
            "Y" => DateTimeUnit::Year,
            "M" => DateTimeUnit::Month,
            "W" => DateTimeUnit::Week,
            "D" => DateTimeUnit::Day,
            "h" => DateTimeUnit::Hour,
            "m" => DateTimeUnit::Minute,
            "s" => DateTimeUnit::Second,
            "ms" => DateTimeUnit::Millisecond,
            "us" | "\u{3bc}s" => DateTimeUnit::Microsecond,
            "ns" => DateTimeUnit::Nanosecond,
            "ps" => DateTimeUnit::Picosecond,
            "fs" => DateTimeUnit::Femtosecond,
            "as" => DateTimeUnit::Attosecond,
            _ => return None,
        })
    }
}

/// What a scalar type holds (NumPy's `dtype.kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `b`: booleans (`|b1`, `?`, `bool`), 1 byte.
    Bool,
    /// `i`: signed integers of 1, 2, 4 or 8 bytes.
    Int,
    /// `u`: unsigned integers of 1, 2, 4 or 8 bytes.
    UInt,
    /// `f`: IEEE floats of 2, 4 or 8 bytes, or the 16-byte `long double`.
    Float,
    /// `c`: complex numbers of 8, 16 or 32 bytes (two floats).
    Complex,
    /// `S`: zero-padded byte strings.
    Bytes,
    /// `U`: UCS-4 strings; the size is 4 bytes per character.
    Unicode,
    /// `V`: raw bytes (no fields).
    Void,
    /// `M`: `datetime64`, 8 bytes: a count of `count` × `unit` since the epoch.
    DateTime {
        /// The time unit.
        unit: DateTimeUnit,
        /// The multiplier of the unit (`5` in `<M8[5s]`; 1 when absent; 0 is allowed).
        count: u32,
    },
    /// `m`: `timedelta64`, 8 bytes: a count of `count` × `unit`.
    TimeDelta {
        /// The time unit.
        unit: DateTimeUnit,
        /// The multiplier of the unit (`5` in `<m8[5s]`; 1 when absent; 0 is allowed).
        count: u32,
    },
    /// `O`: Python object pointers (8 bytes); meaningless outside the process that wrote them.
    Object,
}

impl Kind {
    /// NumPy's kind character: `b`, `i`, `u`, `f`, `c`, `S`, `U`, `V`, `M`, `m` or `O`.
    pub fn code(&self) -> char {
        match self {
            Kind::Bool => 'b',
            Kind::Int => 'i',
            Kind::UInt => 'u',
            Kind::Float => 'f',
            Kind::Complex => 'c',
            Kind::Bytes => 'S',
            Kind::Unicode => 'U',
            Kind::Void => 'V',
            Kind::DateTime { .. } => 'M',
            Kind::TimeDelta { .. } => 'm',
            Kind::Object => 'O',
        }
    }
}

/// A type without fields or subarray: a number, string, datetime, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scalar {
    /// The byte order, normalized as described in the [module docs](self).
    pub order: ByteOrder,
    /// What the scalar holds.
    pub kind: Kind,
    /// Bytes per item: 8 for `<f8`, 24 for `<U6` (4 per character), 7 for `|S7`.
    pub size: usize,
}

impl Scalar {
    /// The C alignment NumPy gives this type (`dtype.alignment` on x86-64 / aarch64 Linux):
    /// 1 for booleans, bytes and void, the size for numbers (half of it for complex numbers),
    /// 4 for unicode, 8 for datetimes and objects.
    pub fn alignment(&self) -> usize {
        match self.kind {
            Kind::Bool | Kind::Bytes | Kind::Void => 1,
            Kind::Int | Kind::UInt | Kind::Float => self.size.max(1),
            Kind::Complex => (self.size / 2).max(1),
            Kind::Unicode => 4,
            Kind::DateTime { .. } | Kind::TimeDelta { .. } | Kind::Object => 8,
        }
    }
}

/// A field of a structured dtype.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// The field name (`f0`, `f1`, ... for fields the list form left unnamed).
    pub name: String,
    /// The field's title (`(('title', 'name'), '<i4')`), if any.
    pub title: Option<String>,
    /// The field's type; a [`DType::Subarray`] for `('a', '<f8', (3,))`.
    pub dtype: DType,
    /// Byte offset of the field in the item.
    pub offset: usize,
}

/// A NumPy dtype: what one array element is made of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// A plain type such as `<f8`.
    Scalar(Scalar),
    /// A fixed-shape array of `base` items: `('<f8', (2, 3))`, or the field `('a', '<f8', (2, 3))`.
    /// `shape` is never empty in a parsed dtype (`('<f8', ())` is just `<f8`); `base` may itself be a
    /// subarray (`(('<f8', (2,)), (3,))`: NumPy keeps the nesting).
    Subarray {
        /// The element type.
        base: Box<DType>,
        /// The dimensions, outermost first.
        shape: Vec<usize>,
    },
    /// A structured dtype.
    Struct {
        /// The fields, in NumPy's order (`dtype.names`), which need not be the order of offsets.
        fields: Vec<Field>,
        /// Bytes per item, padding included.
        itemsize: usize,
        /// Whether NumPy marks the struct as C-aligned (`align=True`, `'aligned': True`).
        aligned: bool,
        /// Whether the type is `numpy.record` rather than `numpy.void` (`(numpy.record, [...])`).
        record: bool,
    },
}

impl DType {
    /// Parses a dtype string as the `b2nd` metalayer stores it; the whole string must be one dtype.
    ///
    /// The forms accepted and the layout computed are described in the [module docs](self).
    ///
    /// ```
    /// # use b2schema::dtype::DType;
    /// let dt = DType::parse("[('a', '<i4'), ('b', '<f8', (2,))]").unwrap();
    /// assert_eq!(dt.itemsize(), 20);
    /// assert_eq!(dt.fields()[1].offset, 4);
    /// assert_eq!(dt.to_numpy_str(), "[('a', '<i4'), ('b', '<f8', (2,))]");
    /// let err = DType::parse("<f3").unwrap_err();
    /// assert_eq!(err.to_string(), "expected an itemsize of 2, 4, 8 or 16 at offset 2 of the dtype string, found '3'");
    /// ```
    pub fn parse(s: &str) -> Result<DType, DTypeError> {
        let mut p = Parser { src: s, pos: 0, depth: 0 };
        let dtype = match s.as_bytes().first() {
            Some(b'[' | b'{' | b'(' | b'\'' | b'"') => p.expr(false)?,
            _ => {
                let scalar = parse_scalar(s).map_err(|(off, expected)| DTypeError::at(s, off, expected))?;
                p.pos = s.len();
                DType::Scalar(scalar)
            }
        };
        if p.pos != s.len() {
            return Err(p.err(p.pos, "the end of the dtype string"));
        }
        Ok(dtype)
    }

    /// Bytes per element: the scalar size (4 per character for unicode), the base size times the
    /// number of subarray elements, or the struct's itemsize. At most [`MAX_ITEMSIZE`] for a parsed
    /// dtype (saturates for hand-built ones).
    pub fn itemsize(&self) -> usize {
        match self {
            DType::Scalar(s) => s.size,
            DType::Subarray { base, shape } => {
                shape.iter().fold(base.itemsize(), |n, &d| n.saturating_mul(d))
            }
            DType::Struct { itemsize, .. } => *itemsize,
        }
    }

    /// NumPy's `dtype.alignment`: see [`Scalar::alignment`]; a subarray aligns like its base, an
    /// aligned struct like its most aligned field, a packed struct to 1 byte.
    pub fn alignment(&self) -> usize {
        match self {
            DType::Scalar(s) => s.alignment(),
            DType::Subarray { base, .. } => base.alignment(),
            DType::Struct { fields, aligned: true, .. } => {
                fields.iter().map(|f| f.dtype.alignment()).max().unwrap_or(1).max(1)
            }
            DType::Struct { aligned: false, .. } => 1,
        }
    }

    /// The fields of a struct; empty for other dtypes.
    pub fn fields(&self) -> &[Field] {
        match self {
            DType::Struct { fields, .. } => fields,
            _ => &[],
        }
    }

    /// NumPy's `dtype.base`: the element type under all subarray levels (`self` for other dtypes).
    pub fn base(&self) -> &DType {
        let mut dtype = self;
        while let DType::Subarray { base, .. } = dtype {
            dtype = base;
        }
        dtype
    }

    /// NumPy's `dtype.shape`: the dimensions of all subarray levels, outermost first (empty for
    /// other dtypes).
    pub fn shape(&self) -> Vec<usize> {
        let mut dims = Vec::new();
        let mut dtype = self;
        while let DType::Subarray { base, shape } = dtype {
            dims.extend_from_slice(shape);
            dtype = base;
        }
        dims
    }

    /// The string python-blosc2 writes for this dtype: `dtype.str` for scalars (`<f8`, `|S7`), the
    /// NumPy name for [`ByteOrder::Native`] numbers and datetimes (`float64`), and `str(dtype)` for
    /// structs (list form when packed, else dict form) and subarrays. For every string NumPy and
    /// python-blosc2 write, `DType::parse(s)?.to_numpy_str() == s`; other accepted spellings come
    /// out in this canonical form.
    pub fn to_numpy_str(&self) -> String {
        let mut out = String::new();
        write_top(&mut out, self);
        out
    }
}

impl FromStr for DType {
    type Err = DTypeError;

    /// Same as [`DType::parse`].
    fn from_str(s: &str) -> Result<DType, DTypeError> {
        DType::parse(s)
    }
}

impl fmt::Display for DType {
    /// Writes [`DType::to_numpy_str`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_numpy_str())
    }
}

/// Why a dtype string could not be parsed.
///
/// Displays as `expected a type code at offset 3 of the dtype string, found 'q'`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DTypeError {
    /// Byte offset in the dtype string where the problem is.
    pub offset: usize,
    /// What the parser expected there, e.g. `"a type code"`.
    pub expected: &'static str,
    /// The text at `offset` (a token of at most 16 characters); empty at the end of the string.
    pub found: String,
}

impl DTypeError {
    fn at(src: &str, offset: usize, expected: &'static str) -> DTypeError {
        let mut offset = offset.min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        DTypeError { offset, expected, found: snippet(&src[offset..]) }
    }
}

impl fmt::Display for DTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {} at offset {} of the dtype string, found ", self.expected, self.offset)?;
        if self.found.is_empty() {
            f.write_str("end of string")
        } else {
            write!(f, "'{}'", self.found.escape_debug())
        }
    }
}

impl core::error::Error for DTypeError {}

/// The token at the start of `rest`, for error messages: a quoted string, or a run of characters
/// up to a delimiter; at most 16 characters.
fn snippet(rest: &str) -> String {
    let mut chars = rest.chars();
    let Some(first) = chars.next() else { return String::new() };
    let mut out = String::new();
    out.push(first);
    for c in chars.take(15) {
        if first == '\'' || first == '"' {
            out.push(c);
            if c == first {
                break;
            }
        } else if matches!(c, ',' | '(' | ')' | '[' | ']' | '{' | '}' | '\'' | '"' | ':') || c.is_whitespace()
        {
            break;
        } else {
            out.push(c);
        }
    }
    out
}

// ------------------------------------------------------------------------------------------------
// Scalar type codes and names
// ------------------------------------------------------------------------------------------------

type ScalarResult = Result<Scalar, (usize, &'static str)>;

/// Reads a whole scalar type: `<f8`, `|S7`, `<M8[5s]`, `?`, `float64`, `datetime64[ms]`, ...
/// Errors carry the offset in `s`.
fn parse_scalar(s: &str) -> ScalarResult {
    let b = s.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_lowercase() && b[1].is_ascii_lowercase() {
        return parse_name(s);
    }
    let explicit = match b.first() {
        Some(b'<') => Some(ByteOrder::Little),
        Some(b'>') => Some(ByteOrder::Big),
        Some(b'|') => Some(ByteOrder::NotApplicable),
        Some(b'=') => Some(ByteOrder::Native),
        _ => None,
    };
    let mut i = usize::from(explicit.is_some());
    let Some(&code) = b.get(i) else { return Err((i, "a type code")) };
    i += 1;
    let digits_at = i;
    let digits = read_digits(b, &mut i);
    let no_digits = |what| if digits.is_some() { Err((digits_at, what)) } else { Ok(()) };
    let (kind, size) = match code {
        b'?' => {
            no_digits("the end of the type code")?;
            (Kind::Bool, 1)
        }
        b'b' => match digits {
            Some(1) => (Kind::Bool, 1),
            _ => return Err((digits_at, "the itemsize 1 after 'b'")),
        },
        b'i' | b'u' => match digits {
            Some(n @ (1 | 2 | 4 | 8)) => (if code == b'i' { Kind::Int } else { Kind::UInt }, n),
            _ => return Err((digits_at, "an itemsize of 1, 2, 4 or 8")),
        },
        b'f' => match digits {
            Some(n @ (2 | 4 | 8 | 16)) => (Kind::Float, n),
            _ => return Err((digits_at, "an itemsize of 2, 4, 8 or 16")),
        },
        b'c' => match digits {
            Some(n @ (8 | 16 | 32)) => (Kind::Complex, n),
            _ => return Err((digits_at, "an itemsize of 8, 16 or 32")),
        },
        b'S' | b'V' => match digits.unwrap_or(0) {
            n if n <= MAX_ITEMSIZE => (if code == b'S' { Kind::Bytes } else { Kind::Void }, n),
            _ => return Err((digits_at, "an itemsize of at most 2147483647")),
        },
        b'U' => match digits.unwrap_or(0) {
            n if n <= MAX_ITEMSIZE / 4 => (Kind::Unicode, n * 4),
            _ => return Err((digits_at, "a length of at most 536870911 characters")),
        },
        b'M' | b'm' => {
            let bracket = b.get(i) == Some(&b'[');
            // NumPy reads `M08` but wants exactly `M8[` before a unit.
            if !matches!(digits, None | Some(8)) || (bracket && i != digits_at + 1) {
                return Err((digits_at, "the itemsize 8"));
            }
            let (unit, count) = if bracket { parse_unit(s, &mut i)? } else { (DateTimeUnit::Generic, 1) };
            (if code == b'M' { Kind::DateTime { unit, count } } else { Kind::TimeDelta { unit, count } }, 8)
        }
        b'O' => match digits {
            None | Some(4 | 8) => (Kind::Object, 8),
            _ => return Err((digits_at, "no itemsize, or 4 or 8")),
        },
        _ => return Err((digits_at - 1, "a type code")),
    };
    if i != b.len() {
        return Err((i, "the end of the type code"));
    }
    let order = match (kind, size) {
        (Kind::Bool | Kind::Bytes | Kind::Void | Kind::Object, _) | (Kind::Int | Kind::UInt, 1) => {
            ByteOrder::NotApplicable
        }
        _ => match explicit {
            Some(ByteOrder::Little) => ByteOrder::Little,
            Some(ByteOrder::Big) => ByteOrder::Big,
            _ => ByteOrder::Native,
        },
    };
    Ok(Scalar { order, kind, size })
}

/// Reads the decimal digits at `b[*i..]` (leading zeros allowed, as NumPy allows them in type
/// codes). Values above [`MAX_ITEMSIZE`] come out as `usize::MAX`.
fn read_digits(b: &[u8], i: &mut usize) -> Option<usize> {
    let start = *i;
    let mut value = 0u64;
    while let Some(d) = b.get(*i).filter(|d| d.is_ascii_digit()) {
        value = (value * 10 + u64::from(d - b'0')).min(1 << 40);
        *i += 1;
    }
    if *i == start {
        None
    } else if value > MAX_ITEMSIZE as u64 {
        Some(usize::MAX)
    } else {
        Some(value as usize)
    }
}

/// Reads `[unit]` or `[countunit]` at `s[*i..]` (which starts with `[`).
fn parse_unit(s: &str, i: &mut usize) -> Result<(DateTimeUnit, u32), (usize, &'static str)> {
    let b = s.as_bytes();
    *i += 1;
    let count_at = *i;
    let count = read_digits(b, i);
    let unit_at = *i;
    let Some(close) = s[unit_at..].find(']').map(|n| unit_at + n) else {
        return Err((unit_at, "a datetime unit and ']'"));
    };
    let unit = DateTimeUnit::from_name(&s[unit_at..close]).ok_or((unit_at, "a datetime unit"))?;
    let count = match count {
        None => 1,
        Some(n) if n > MAX_ITEMSIZE => return Err((count_at, "a unit count of at most 2147483647")),
        Some(_) if unit == DateTimeUnit::Generic => return Err((count_at, "a datetime unit")),
        Some(n) => n as u32,
    };
    *i = close + 1;
    Ok((unit, count))
}

/// Reads a NumPy type name: `bool`, `int8` ... `uint64`, `float16` ... `float128`, `complex64` ...
/// `complex256`, `object`, `datetime64[unit]`, `timedelta64[unit]`.
fn parse_name(s: &str) -> ScalarResult {
    let end = s.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(s.len());
    let word = &s[..end];
    let (kind, size) = match word {
        "bool" => (Kind::Bool, 1),
        "object" => (Kind::Object, 8),
        "int8" => (Kind::Int, 1),
        "int16" => (Kind::Int, 2),
        "int32" => (Kind::Int, 4),
        "int64" => (Kind::Int, 8),
        "uint8" => (Kind::UInt, 1),
        "uint16" => (Kind::UInt, 2),
        "uint32" => (Kind::UInt, 4),
        "uint64" => (Kind::UInt, 8),
        "float16" => (Kind::Float, 2),
        "float32" => (Kind::Float, 4),
        "float64" => (Kind::Float, 8),
        "float128" => (Kind::Float, 16),
        "complex64" => (Kind::Complex, 8),
        "complex128" => (Kind::Complex, 16),
        "complex256" => (Kind::Complex, 32),
        "datetime64" | "timedelta64" => {
            let mut i = end;
            let (unit, count) = if s.as_bytes().get(i) == Some(&b'[') {
                parse_unit(s, &mut i)?
            } else {
                (DateTimeUnit::Generic, 1)
            };
            if i != s.len() {
                return Err((i, "the end of the type name"));
            }
            let kind = if word == "datetime64" {
                Kind::DateTime { unit, count }
            } else {
                Kind::TimeDelta { unit, count }
            };
            return Ok(Scalar { order: ByteOrder::Native, kind, size: 8 });
        }
        _ => return Err((0, "a type code or a NumPy type name")),
    };
    if end != s.len() {
        return Err((end, "the end of the type name"));
    }
    Ok(Scalar { order: ByteOrder::Native, kind, size })
}

// ------------------------------------------------------------------------------------------------
// The Python literal forms
// ------------------------------------------------------------------------------------------------

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
}

type PResult<T> = Result<T, DTypeError>;

impl<'a> Parser<'a> {
    fn err(&self, pos: usize, expected: &'static str) -> DTypeError {
        DTypeError::at(self.src, pos, expected)
    }

    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    /// Skips the whitespace Python allows between the tokens of a bracketed expression.
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, b: u8, expected: &'static str) -> PResult<()> {
        if self.eat(b) { Ok(()) } else { Err(self.err(self.pos, expected)) }
    }

    /// Enters a nested dtype (a list form, dict form or tuple), at its opening bracket, which it
    /// consumes. The parser recurses only through these, so `depth` bounds its stack.
    fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err(self.pos, "at most 32 levels of nested dtypes"));
        }
        self.depth += 1;
        self.open();
        Ok(())
    }

    /// Consumes an opening bracket and the whitespace after it.
    fn open(&mut self) {
        self.pos += 1;
        self.ws();
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// After an element of a bracketed sequence: `,` (then maybe the closing bracket, Python's
    /// trailing comma) or the closing bracket. Returns true when the sequence is closed.
    fn next_or_close(&mut self, close: u8, expected: &'static str) -> PResult<bool> {
        self.ws();
        if self.eat(b',') {
            self.ws();
            Ok(self.eat(close))
        } else if self.eat(close) {
            Ok(true)
        } else {
            Err(self.err(self.pos, expected))
        }
    }

    /// A list or tuple of items read by `item`.
    fn seq<T>(&mut self, mut item: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        let close = match self.peek() {
            Some(b'[') => b']',
            Some(b'(') => b')',
            _ => return Err(self.err(self.pos, "a list")),
        };
        self.open();
        let mut items = Vec::new();
        if !self.eat(close) {
            loop {
                items.push(item(self)?);
                if self.next_or_close(close, "',' or the end of the list")? {
                    break;
                }
            }
        }
        Ok(items)
    }

    /// A dtype in a Python literal: a quoted type, a list form, a dict form, or a tuple.
    fn expr(&mut self, align: bool) -> PResult<DType> {
        match self.peek() {
            Some(b'\'' | b'"') => {
                let (text, start, escaped) = self.string()?;
                let scalar = parse_scalar(&text).map_err(|(off, expected)| {
                    self.err(if escaped { start } else { start + off }, expected)
                })?;
                Ok(DType::Scalar(scalar))
            }
            Some(b'[') => self.list_struct(align),
            Some(b'{') => self.dict_struct(align),
            Some(b'(') => self.tuple(align),
            _ => Err(self.err(self.pos, "a quoted type code, a list, a dict or a tuple")),
        }
    }

    /// `(base, shape)` or `(numpy.record, struct)`.
    fn tuple(&mut self, align: bool) -> PResult<DType> {
        self.enter()?;
        let dtype = if self.rest().starts_with("numpy.record") {
            self.pos += "numpy.record".len();
            self.ws();
            self.expect(b',', "',' after numpy.record")?;
            self.ws();
            let at = self.pos;
            match self.expr(align)? {
                DType::Struct { fields, itemsize, aligned, .. } => {
                    DType::Struct { fields, itemsize, aligned, record: true }
                }
                _ => return Err(self.err(at, "a structured dtype after numpy.record")),
            }
        } else {
            let base = self.expr(align)?;
            self.ws();
            self.expect(b',', "',' and a subarray shape")?;
            self.ws();
            let at = self.pos;
            let shape = self.shape()?;
            subarray(base, shape).ok_or_else(|| self.err(at, "a subarray of at most 2147483647 bytes"))?
        };
        if !self.next_or_close(b')', "')' closing the tuple")? {
            return Err(self.err(self.pos, "')' closing the tuple"));
        }
        self.leave();
        Ok(dtype)
    }

    /// A subarray shape: an integer, or a tuple or list of integers.
    fn shape(&mut self) -> PResult<Vec<usize>> {
        let close = match self.peek() {
            Some(b'0'..=b'9') => return Ok(alloc::vec![self.int()?]),
            Some(b'(') => b')',
            Some(b'[') => b']',
            _ => return Err(self.err(self.pos, "a shape: an integer or a tuple of integers")),
        };
        let open = self.pos;
        self.open();
        let mut dims = Vec::new();
        if !self.eat(close) {
            loop {
                dims.push(self.int()?);
                if self.next_or_close(close, "',' or the end of the shape")? {
                    break;
                }
            }
        }
        if dims.len() > MAX_SUBARRAY_DIMS {
            return Err(self.err(open, "a shape of at most 64 dimensions"));
        }
        Ok(dims)
    }

    /// A Python decimal integer literal, at most [`MAX_ITEMSIZE`].
    fn int(&mut self) -> PResult<usize> {
        let at = self.pos;
        let b = self.src.as_bytes();
        let mut end = at;
        match read_digits(b, &mut end) {
            None => Err(self.err(at, "a non-negative integer")),
            Some(_) if b[at] == b'0' && end > at + 1 => Err(self.err(at, "an integer without leading zeros")),
            Some(n) if n > MAX_ITEMSIZE => Err(self.err(at, "an integer of at most 2147483647")),
            Some(n) => {
                self.pos = end;
                Ok(n)
            }
        }
    }

    /// `True` or `False`.
    fn boolean(&mut self) -> PResult<bool> {
        for (word, value) in [("True", true), ("False", false)] {
            if self.rest().starts_with(word) {
                self.pos += word.len();
                return Ok(value);
            }
        }
        Err(self.err(self.pos, "True or False"))
    }

    /// A Python string literal. Returns the decoded text, the byte offset of its first character
    /// in the source, and whether it contained escapes (so offsets in the text are not offsets in
    /// the source).
    fn string(&mut self) -> PResult<(String, usize, bool)> {
        let quote = match self.peek() {
            Some(q @ (b'\'' | b'"')) => q,
            _ => return Err(self.err(self.pos, "a quoted string")),
        };
        self.pos += 1;
        let start = self.pos;
        let mut text = String::new();
        let mut escaped = false;
        loop {
            let rest = self.rest();
            let plain = rest.find(|c| c == char::from(quote) || c == '\\' || c == '\n' || c == '\r');
            let Some(n) = plain else { return Err(self.err(self.src.len(), "a closing quote")) };
            text.push_str(&rest[..n]);
            self.pos += n;
            match self.peek() {
                Some(b'\\') => {
                    escaped = true;
                    self.pos += 1;
                    self.escape(&mut text)?;
                }
                Some(b'\n' | b'\r') => return Err(self.err(self.pos, "a closing quote on the same line")),
                _ => {
                    self.pos += 1;
                    return Ok((text, start, escaped));
                }
            }
        }
    }

    /// The escape after a backslash in a string literal.
    fn escape(&mut self, text: &mut String) -> PResult<()> {
        let at = self.pos;
        let Some(c) = self.rest().chars().next() else { return Err(self.err(at, "an escape sequence")) };
        self.pos += c.len_utf8();
        let simple = match c {
            '\n' => return Ok(()),
            '\r' => {
                self.eat(b'\n');
                return Ok(());
            }
            '\\' | '\'' | '"' => c,
            'a' => '\x07',
            'b' => '\x08',
            'f' => '\x0c',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\x0b',
            '0'..='7' => {
                let mut value = c as u32 - '0' as u32;
                for _ in 0..2 {
                    match self.peek() {
                        Some(d @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(d - b'0');
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                char::from_u32(value).ok_or_else(|| self.err(at, "a valid octal escape"))?
            }
            'x' | 'u' | 'U' => {
                let len = match c {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex = self.rest().get(..len).filter(|h| h.bytes().all(|d| d.is_ascii_hexdigit()));
                let Some(hex) = hex else {
                    return Err(self.err(self.pos, "hexadecimal digits of the escape"));
                };
                self.pos += len;
                let value = u32::from_str_radix(hex, 16).unwrap_or(u32::MAX);
                char::from_u32(value).ok_or_else(|| self.err(at, "an escape of a Unicode scalar value"))?
            }
            'N' => return Err(self.err(at, "an escape other than \\N{...}")),
            _ => {
                // Python keeps unknown escapes as they are.
                text.push('\\');
                c
            }
        };
        text.push(simple);
        Ok(())
    }

    /// `[('name', format), (('title', 'name'), format, shape), ...]`
    fn list_struct(&mut self, align: bool) -> PResult<DType> {
        self.enter()?;
        let mut fields = Vec::new();
        let mut at = Vec::new();
        if !self.eat(b']') {
            loop {
                let item_at = self.pos;
                if self.peek() != Some(b'(') {
                    return Err(self.err(self.pos, "a field tuple ('name', format)"));
                }
                self.open();
                let name_at = self.pos;
                let (name, title) = if self.peek() == Some(b'(') {
                    self.open();
                    let (title, _, _) = self.string()?;
                    self.ws();
                    self.expect(b',', "',' and the field name after the title")?;
                    self.ws();
                    let (name, _, _) = self.string()?;
                    if !self.next_or_close(b')', "')' after the field name")? {
                        return Err(self.err(self.pos, "')' after the field name"));
                    }
                    (name, Some(title))
                } else {
                    (self.string()?.0, None)
                };
                self.ws();
                self.expect(b',', "',' and the field format")?;
                self.ws();
                let mut dtype = self.expr(align)?;
                if !self.next_or_close(b')', "',' or ')' after the field format")? {
                    let shape_at = self.pos;
                    let shape = self.shape()?;
                    dtype = subarray(dtype, shape)
                        .ok_or_else(|| self.err(shape_at, "a subarray of at most 2147483647 bytes"))?;
                    if !self.next_or_close(b')', "')' after the field shape")? {
                        return Err(self.err(self.pos, "')' after the field shape"));
                    }
                }
                let name = match (name.is_empty(), &title) {
                    (false, _) => name,
                    (true, None) => format!("f{}", fields.len()),
                    // NumPy names the field after its title, which then clashes with the name.
                    (true, Some(_)) => {
                        return Err(self.err(name_at, "a field name (it may be empty only without a title)"));
                    }
                };
                fields.push(Field { name, title, dtype, offset: 0 });
                at.push((item_at, name_at));
                if self.next_or_close(b']', "',' or ']' after the field")? {
                    break;
                }
            }
        }
        self.leave();
        let itemsize = self.sequential_layout(&mut fields, align, &at)?;
        self.check_names(&fields, &at)?;
        Ok(DType::Struct { fields, itemsize, aligned: align, record: false })
    }

    /// Places the fields one after the other (aligned when `align`); returns the itemsize.
    fn sequential_layout(&self, fields: &mut [Field], align: bool, at: &[(usize, usize)]) -> PResult<usize> {
        let mut total = 0usize;
        let mut max_align = 1;
        for (field, &(item_at, _)) in fields.iter_mut().zip(at) {
            if align {
                let a = field.dtype.alignment();
                max_align = max_align.max(a);
                total = round_up(total, a);
            }
            field.offset = total;
            total = total
                .checked_add(field.dtype.itemsize())
                .filter(|&n| n <= MAX_ITEMSIZE)
                .ok_or_else(|| self.err(item_at, "fields that fit in 2147483647 bytes"))?;
        }
        if align {
            total = round_up(total, max_align);
            if total > MAX_ITEMSIZE {
                return Err(
                    self.err(at.last().map_or(self.pos, |a| a.0), "fields that fit in 2147483647 bytes")
                );
            }
        }
        Ok(total)
    }

    /// NumPy's rule: a name or title is used at most once among all names and titles.
    fn check_names(&self, fields: &[Field], at: &[(usize, usize)]) -> PResult<()> {
        let mut seen = BTreeSet::new();
        for (field, &(_, name_at)) in fields.iter().zip(at) {
            if !seen.insert(field.name.as_str()) {
                return Err(self.err(name_at, "a field name not used before as a name or title"));
            }
            if let Some(title) = &field.title
                && !seen.insert(title.as_str())
            {
                return Err(self.err(name_at, "a title not used before as a name or title"));
            }
        }
        Ok(())
    }

    /// NumPy's rule: a field that holds Python objects overlaps no other field (fields `a` and `b`
    /// overlap when `a.start < b.end && b.start < a.end`). O(n log n).
    fn check_object_overlap(&self, fields: &[Field], at: &[(usize, usize)]) -> PResult<()> {
        if !fields.iter().any(|f| has_object(&f.dtype)) {
            return Ok(());
        }
        let span = |i: usize| (fields[i].offset, fields[i].offset.saturating_add(fields[i].dtype.itemsize()));
        let mut order: Vec<usize> = (0..fields.len()).collect();
        order.sort_unstable_by_key(|&i| fields[i].offset);
        // top[k]: the two largest (end, field) among the first k fields in offset order.
        let mut top = Vec::with_capacity(order.len() + 1);
        let mut best = [(0usize, usize::MAX); 2];
        top.push(best);
        for &i in &order {
            let end = span(i).1;
            if end > best[0].0 {
                best = [(end, i), best[0]];
            } else if end > best[1].0 {
                best[1] = (end, i);
            }
            top.push(best);
        }
        for (i, field) in fields.iter().enumerate() {
            if !has_object(&field.dtype) {
                continue;
            }
            let (start, end) = span(i);
            let before = order.partition_point(|&j| fields[j].offset < end);
            let other = top[before].iter().find(|&&(_, j)| j != i).map_or(0, |&(e, _)| e);
            if other > start {
                return Err(self.err(at[i].0, "object fields that overlap no other field"));
            }
        }
        Ok(())
    }

    /// `{'names': [...], 'formats': [...], 'offsets': [...], 'titles': [...], 'itemsize': n, 'aligned': True}`
    fn dict_struct(&mut self, align: bool) -> PResult<DType> {
        let open = self.pos;
        self.enter()?;
        let mut names: Option<Vec<(String, usize)>> = None;
        let mut formats: Option<(Vec<DType>, usize)> = None;
        let mut offsets: Option<(Vec<(usize, usize)>, usize)> = None;
        let mut titles: Option<(Vec<Option<String>>, usize)> = None;
        let mut itemsize: Option<(usize, usize)> = None;
        let mut aligned: Option<bool> = None;
        if !self.eat(b'}') {
            loop {
                let key_at = self.pos;
                let (key, _, _) = self.string()?;
                self.ws();
                self.expect(b':', "':' after the key")?;
                self.ws();
                let value_at = self.pos;
                let seen = match key.as_str() {
                    "names" => {
                        let value = self.seq(|p| {
                            let at = p.pos;
                            Ok((p.string()?.0, at))
                        })?;
                        names.replace(value).is_some()
                    }
                    "formats" => {
                        let value = self.seq(|p| p.expr(align))?;
                        formats.replace((value, value_at)).is_some()
                    }
                    "offsets" => {
                        let value = self.seq(|p| Ok((p.pos, p.int()?)))?;
                        offsets.replace((value, value_at)).is_some()
                    }
                    "titles" => {
                        let value = self.seq(|p| {
                            if p.rest().starts_with("None") {
                                p.pos += 4;
                                Ok(None)
                            } else {
                                Ok(Some(p.string()?.0))
                            }
                        })?;
                        titles.replace((value, value_at)).is_some()
                    }
                    "itemsize" => {
                        let value = self.int()?;
                        itemsize.replace((value, value_at)).is_some()
                    }
                    "aligned" => {
                        let value = self.boolean()?;
                        aligned.replace(value).is_some()
                    }
                    _ => {
                        return Err(self.err(
                            key_at,
                            "one of the keys 'names', 'formats', 'offsets', 'titles', 'itemsize', 'aligned'",
                        ));
                    }
                };
                if seen {
                    return Err(self.err(key_at, "a key not given before"));
                }
                if self.next_or_close(b'}', "',' or '}' after the value")? {
                    break;
                }
            }
        }
        let end = self.pos;
        // NumPy reads the formats with the struct's alignment, which the key 'aligned' (written
        // after 'formats') decides: read them again if it turns alignment on.
        if let Some((list, formats_at)) = &mut formats
            && !align
            && aligned == Some(true)
        {
            self.pos = *formats_at;
            *list = self.seq(|p| p.expr(true))?;
            self.pos = end;
        }
        let align = align || aligned == Some(true);
        self.leave();

        let Some(names) = names else { return Err(self.err(open, "a dict with the key 'names'")) };
        let Some((formats, formats_at)) = formats else {
            return Err(self.err(open, "a dict with the key 'formats'"));
        };
        if formats.len() != names.len() {
            return Err(self.err(formats_at, "as many formats as names"));
        }
        if let Some((offsets, offsets_at)) = &offsets
            && offsets.len() != names.len()
        {
            return Err(self.err(*offsets_at, "as many offsets as names"));
        }
        let titles = match titles {
            None => alloc::vec![None; names.len()],
            Some((titles, titles_at)) if titles.len() != names.len() => {
                return Err(self.err(titles_at, "as many titles as names"));
            }
            Some((titles, _)) => titles,
        };
        let at: Vec<(usize, usize)> = names.iter().map(|&(_, name_at)| (name_at, name_at)).collect();
        let mut fields: Vec<Field> = names
            .into_iter()
            .zip(formats)
            .zip(titles)
            .map(|(((name, _), dtype), title)| Field { name, title, dtype, offset: 0 })
            .collect();
        let max_align = if align { fields.iter().map(|f| f.dtype.alignment()).max().unwrap_or(1) } else { 1 };
        let needed = match &offsets {
            Some((offsets, _)) => {
                let mut needed = 0;
                for (field, &(offset_at, offset)) in fields.iter_mut().zip(offsets) {
                    if align && offset % field.dtype.alignment() != 0 {
                        return Err(
                            self.err(offset_at, "an offset that is a multiple of the field's alignment")
                        );
                    }
                    field.offset = offset;
                    let field_end = offset
                        .checked_add(field.dtype.itemsize())
                        .filter(|&n| n <= MAX_ITEMSIZE)
                        .ok_or_else(|| {
                            self.err(offset_at, "an offset that keeps the field within 2147483647 bytes")
                        })?;
                    needed = needed.max(field_end);
                }
                if align { round_up(needed, max_align) } else { needed }
            }
            None => self.sequential_layout(&mut fields, align, &at)?,
        };
        let itemsize = match itemsize {
            None if needed > MAX_ITEMSIZE => {
                return Err(self.err(open, "fields that fit in 2147483647 bytes"));
            }
            None => needed,
            Some((n, n_at)) if n < needed => {
                return Err(self.err(n_at, "an itemsize large enough for the fields"));
            }
            Some((n, n_at)) if n % max_align != 0 => {
                return Err(self.err(n_at, "an itemsize that is a multiple of the alignment"));
            }
            Some((n, _)) => n,
        };
        self.check_names(&fields, &at)?;
        if offsets.is_some() {
            self.check_object_overlap(&fields, &at)?;
        }
        Ok(DType::Struct { fields, itemsize, aligned: align, record: false })
    }
}

/// Whether the dtype holds Python objects anywhere.
fn has_object(dtype: &DType) -> bool {
    match dtype {
        DType::Scalar(s) => s.kind == Kind::Object,
        DType::Subarray { base, .. } => has_object(base),
        DType::Struct { fields, .. } => fields.iter().any(|f| has_object(&f.dtype)),
    }
}

/// `n` rounded up to a multiple of `a` (saturating).
fn round_up(n: usize, a: usize) -> usize {
    match n % a.max(1) {
        0 => n,
        r => n.saturating_add(a - r),
    }
}

/// `base` as a subarray of `shape` (just `base` when `shape` is empty); `None` when it exceeds
/// [`MAX_ITEMSIZE`].
fn subarray(base: DType, shape: Vec<usize>) -> Option<DType> {
    if shape.is_empty() {
        return Some(base);
    }
    let size = shape.iter().try_fold(base.itemsize(), |n, &d| n.checked_mul(d))?;
    (size <= MAX_ITEMSIZE).then(|| DType::Subarray { base: Box::new(base), shape })
}

// ------------------------------------------------------------------------------------------------
// Printing (NumPy's numpy/_core/_dtype.py)
// ------------------------------------------------------------------------------------------------

/// The top-level string: `dtype.str` for scalars, `str(dtype)` otherwise.
fn write_top(out: &mut String, dtype: &DType) {
    match dtype {
        DType::Scalar(s) => write_scalar(out, s, true),
        DType::Subarray { base, shape } => write_subarray(out, base, shape),
        DType::Struct { fields, itemsize, aligned, record } => {
            write_struct(out, fields, *itemsize, *aligned, *record, true)
        }
    }
}

/// NumPy's `_construction_repr(dtype, short=True)`: the form of a field's format.
fn write_expr(out: &mut String, dtype: &DType) {
    match dtype {
        DType::Scalar(s) => {
            let mut code = String::new();
            write_scalar(&mut code, s, false);
            write_py_str(out, &code);
        }
        DType::Subarray { base, shape } => write_subarray(out, base, shape),
        DType::Struct { fields, itemsize, aligned, record } => {
            write_struct(out, fields, *itemsize, *aligned, *record, false)
        }
    }
}

fn write_subarray(out: &mut String, base: &DType, shape: &[usize]) {
    out.push('(');
    write_expr(out, base);
    out.push_str(", ");
    write_shape(out, shape);
    out.push(')');
}

/// A Python tuple: `()`, `(3,)`, `(2, 3)`.
fn write_shape(out: &mut String, shape: &[usize]) {
    out.push('(');
    for (i, d) in shape.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{d}");
    }
    if shape.len() == 1 {
        out.push(',');
    }
    out.push(')');
}

/// A scalar type: `dtype.str` (`top`) or the short field form (`'u1'`, `'?'`, `'S'` for `S0`),
/// or the NumPy name for native numbers and datetimes.
fn write_scalar(out: &mut String, s: &Scalar, top: bool) {
    let meta = |out: &mut String, unit: DateTimeUnit, count: u32| match (unit, count) {
        (DateTimeUnit::Generic, _) => {}
        (_, 1) => {
            let _ = write!(out, "[{}]", unit.as_str());
        }
        _ => {
            let _ = write!(out, "[{count}{}]", unit.as_str());
        }
    };
    if s.order == ByteOrder::Native {
        let bits = s.size.saturating_mul(8);
        let _ = match s.kind {
            Kind::Bool => write!(out, "bool"),
            Kind::Int => write!(out, "int{bits}"),
            Kind::UInt => write!(out, "uint{bits}"),
            Kind::Float => write!(out, "float{bits}"),
            Kind::Complex => write!(out, "complex{bits}"),
            Kind::Object => write!(out, "object"),
            Kind::DateTime { unit, count } => {
                out.push_str("datetime64");
                meta(out, unit, count);
                Ok(())
            }
            Kind::TimeDelta { unit, count } => {
                out.push_str("timedelta64");
                meta(out, unit, count);
                Ok(())
            }
            Kind::Bytes | Kind::Unicode | Kind::Void => Ok(()),
        };
        if !matches!(s.kind, Kind::Bytes | Kind::Unicode | Kind::Void) {
            return;
        }
    }
    // NumPy's short form writes no byte order for bytes, void and object.
    let short_order =
        s.order != ByteOrder::NotApplicable && !matches!(s.kind, Kind::Bytes | Kind::Void | Kind::Object);
    if top || short_order {
        out.push(s.order.as_char());
    }
    match s.kind {
        Kind::Bool if !top && s.order == ByteOrder::NotApplicable => out.push('?'),
        Kind::Object => out.push('O'),
        Kind::Bytes | Kind::Void | Kind::Unicode => {
            out.push(s.kind.code());
            let n = if s.kind == Kind::Unicode { s.size / 4 } else { s.size };
            if top || n != 0 {
                let _ = write!(out, "{n}");
            }
        }
        Kind::DateTime { unit, count } | Kind::TimeDelta { unit, count } => {
            out.push(s.kind.code());
            out.push('8');
            meta(out, unit, count);
        }
        _ => {
            let _ = write!(out, "{}{}", s.kind.code(), s.size);
        }
    }
}

/// NumPy's `_is_packed`: fields in order, back to back (with C alignment padding when `aligned`),
/// filling the itemsize exactly.
fn is_packed(fields: &[Field], itemsize: usize, aligned: bool) -> bool {
    let mut total = 0usize;
    let mut max_align = 1;
    for field in fields {
        if aligned {
            let a = field.dtype.alignment();
            max_align = max_align.max(a);
            total = round_up(total, a);
        }
        if field.offset != total {
            return false;
        }
        total = total.saturating_add(field.dtype.itemsize());
    }
    if aligned {
        total = round_up(total, max_align);
    }
    total == itemsize
}

/// NumPy's `_struct_str`: the list form when packed (and not aligned at the top), else the dict form.
fn write_struct(out: &mut String, fields: &[Field], itemsize: usize, aligned: bool, record: bool, top: bool) {
    if record {
        out.push_str("(numpy.record, ");
    }
    let with_aligned = top && aligned;
    if !with_aligned && is_packed(fields, itemsize, aligned) {
        out.push('[');
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push('(');
            if let Some(title) = &field.title {
                out.push('(');
                write_py_str(out, title);
                out.push_str(", ");
                write_py_str(out, &field.name);
                out.push(')');
            } else {
                write_py_str(out, &field.name);
            }
            out.push_str(", ");
            match &field.dtype {
                DType::Subarray { base, shape } => {
                    write_expr(out, base);
                    out.push_str(", ");
                    write_shape(out, shape);
                }
                dtype => write_expr(out, dtype),
            }
            out.push(')');
        }
        out.push(']');
    } else {
        out.push_str("{'names': [");
        join(out, fields, |out, f| write_py_str(out, &f.name));
        out.push_str("], 'formats': [");
        join(out, fields, |out, f| write_expr(out, &f.dtype));
        out.push_str("], 'offsets': [");
        join(out, fields, |out, f| {
            let _ = write!(out, "{}", f.offset);
        });
        if fields.iter().any(|f| f.title.is_some()) {
            out.push_str("], 'titles': [");
            join(out, fields, |out, f| match &f.title {
                Some(title) => write_py_str(out, title),
                None => out.push_str("None"),
            });
        }
        let _ = write!(out, "], 'itemsize': {itemsize}");
        out.push_str(if with_aligned { ", 'aligned': True}" } else { "}" });
    }
    if record {
        out.push(')');
    }
}

fn join(out: &mut String, fields: &[Field], mut item: impl FnMut(&mut String, &Field)) {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        item(out, field);
    }
}

/// Python's `repr` of a `str`.
fn write_py_str(out: &mut String, s: &str) {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !is_printable(c) => {
                let _ = match c as u32 {
                    n @ 0..=0xff => write!(out, "\\x{n:02x}"),
                    n @ 0x100..=0xffff => write!(out, "\\u{n:04x}"),
                    n => write!(out, "\\U{n:08x}"),
                };
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// Python's `str.isprintable` for one character.
fn is_printable(c: char) -> bool {
    let c = c as u32;
    if (0x20..0x7f).contains(&c) {
        return true;
    }
    NONPRINTABLE
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                core::cmp::Ordering::Less
            } else if lo > c {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_err()
}

/// The code points Python's `str.isprintable` rejects (so `repr` escapes them), as inclusive ranges;
/// generated by `tests/make_cases.py` from Python 3.11.7 (Unicode 14.0.0).
#[rustfmt::skip]
const NONPRINTABLE: [(u32, u32); 701] = [
    (0x0000, 0x001f), (0x007f, 0x00a0), (0x00ad, 0x00ad), (0x0378, 0x0379), (0x0380, 0x0383),
    (0x038b, 0x038b), (0x038d, 0x038d), (0x03a2, 0x03a2), (0x0530, 0x0530), (0x0557, 0x0558),
    (0x058b, 0x058c), (0x0590, 0x0590), (0x05c8, 0x05cf), (0x05eb, 0x05ee), (0x05f5, 0x0605),
    (0x061c, 0x061c), (0x06dd, 0x06dd), (0x070e, 0x070f), (0x074b, 0x074c), (0x07b2, 0x07bf),
    (0x07fb, 0x07fc), (0x082e, 0x082f), (0x083f, 0x083f), (0x085c, 0x085d), (0x085f, 0x085f),
    (0x086b, 0x086f), (0x088f, 0x0897), (0x08e2, 0x08e2), (0x0984, 0x0984), (0x098d, 0x098e),
    (0x0991, 0x0992), (0x09a9, 0x09a9), (0x09b1, 0x09b1), (0x09b3, 0x09b5), (0x09ba, 0x09bb),
    (0x09c5, 0x09c6), (0x09c9, 0x09ca), (0x09cf, 0x09d6), (0x09d8, 0x09db), (0x09de, 0x09de),
    (0x09e4, 0x09e5), (0x09ff, 0x0a00), (0x0a04, 0x0a04), (0x0a0b, 0x0a0e), (0x0a11, 0x0a12),
    (0x0a29, 0x0a29), (0x0a31, 0x0a31), (0x0a34, 0x0a34), (0x0a37, 0x0a37), (0x0a3a, 0x0a3b),
    (0x0a3d, 0x0a3d), (0x0a43, 0x0a46), (0x0a49, 0x0a4a), (0x0a4e, 0x0a50), (0x0a52, 0x0a58),
    (0x0a5d, 0x0a5d), (0x0a5f, 0x0a65), (0x0a77, 0x0a80), (0x0a84, 0x0a84), (0x0a8e, 0x0a8e),
    (0x0a92, 0x0a92), (0x0aa9, 0x0aa9), (0x0ab1, 0x0ab1), (0x0ab4, 0x0ab4), (0x0aba, 0x0abb),
    (0x0ac6, 0x0ac6), (0x0aca, 0x0aca), (0x0ace, 0x0acf), (0x0ad1, 0x0adf), (0x0ae4, 0x0ae5),
    (0x0af2, 0x0af8), (0x0b00, 0x0b00), (0x0b04, 0x0b04), (0x0b0d, 0x0b0e), (0x0b11, 0x0b12),
    (0x0b29, 0x0b29), (0x0b31, 0x0b31), (0x0b34, 0x0b34), (0x0b3a, 0x0b3b), (0x0b45, 0x0b46),
    (0x0b49, 0x0b4a), (0x0b4e, 0x0b54), (0x0b58, 0x0b5b), (0x0b5e, 0x0b5e), (0x0b64, 0x0b65),
    (0x0b78, 0x0b81), (0x0b84, 0x0b84), (0x0b8b, 0x0b8d), (0x0b91, 0x0b91), (0x0b96, 0x0b98),
    (0x0b9b, 0x0b9b), (0x0b9d, 0x0b9d), (0x0ba0, 0x0ba2), (0x0ba5, 0x0ba7), (0x0bab, 0x0bad),
    (0x0bba, 0x0bbd), (0x0bc3, 0x0bc5), (0x0bc9, 0x0bc9), (0x0bce, 0x0bcf), (0x0bd1, 0x0bd6),
    (0x0bd8, 0x0be5), (0x0bfb, 0x0bff), (0x0c0d, 0x0c0d), (0x0c11, 0x0c11), (0x0c29, 0x0c29),
    (0x0c3a, 0x0c3b), (0x0c45, 0x0c45), (0x0c49, 0x0c49), (0x0c4e, 0x0c54), (0x0c57, 0x0c57),
    (0x0c5b, 0x0c5c), (0x0c5e, 0x0c5f), (0x0c64, 0x0c65), (0x0c70, 0x0c76), (0x0c8d, 0x0c8d),
    (0x0c91, 0x0c91), (0x0ca9, 0x0ca9), (0x0cb4, 0x0cb4), (0x0cba, 0x0cbb), (0x0cc5, 0x0cc5),
    (0x0cc9, 0x0cc9), (0x0cce, 0x0cd4), (0x0cd7, 0x0cdc), (0x0cdf, 0x0cdf), (0x0ce4, 0x0ce5),
    (0x0cf0, 0x0cf0), (0x0cf3, 0x0cff), (0x0d0d, 0x0d0d), (0x0d11, 0x0d11), (0x0d45, 0x0d45),
    (0x0d49, 0x0d49), (0x0d50, 0x0d53), (0x0d64, 0x0d65), (0x0d80, 0x0d80), (0x0d84, 0x0d84),
    (0x0d97, 0x0d99), (0x0db2, 0x0db2), (0x0dbc, 0x0dbc), (0x0dbe, 0x0dbf), (0x0dc7, 0x0dc9),
    (0x0dcb, 0x0dce), (0x0dd5, 0x0dd5), (0x0dd7, 0x0dd7), (0x0de0, 0x0de5), (0x0df0, 0x0df1),
    (0x0df5, 0x0e00), (0x0e3b, 0x0e3e), (0x0e5c, 0x0e80), (0x0e83, 0x0e83), (0x0e85, 0x0e85),
    (0x0e8b, 0x0e8b), (0x0ea4, 0x0ea4), (0x0ea6, 0x0ea6), (0x0ebe, 0x0ebf), (0x0ec5, 0x0ec5),
    (0x0ec7, 0x0ec7), (0x0ece, 0x0ecf), (0x0eda, 0x0edb), (0x0ee0, 0x0eff), (0x0f48, 0x0f48),
    (0x0f6d, 0x0f70), (0x0f98, 0x0f98), (0x0fbd, 0x0fbd), (0x0fcd, 0x0fcd), (0x0fdb, 0x0fff),
    (0x10c6, 0x10c6), (0x10c8, 0x10cc), (0x10ce, 0x10cf), (0x1249, 0x1249), (0x124e, 0x124f),
    (0x1257, 0x1257), (0x1259, 0x1259), (0x125e, 0x125f), (0x1289, 0x1289), (0x128e, 0x128f),
    (0x12b1, 0x12b1), (0x12b6, 0x12b7), (0x12bf, 0x12bf), (0x12c1, 0x12c1), (0x12c6, 0x12c7),
    (0x12d7, 0x12d7), (0x1311, 0x1311), (0x1316, 0x1317), (0x135b, 0x135c), (0x137d, 0x137f),
    (0x139a, 0x139f), (0x13f6, 0x13f7), (0x13fe, 0x13ff), (0x1680, 0x1680), (0x169d, 0x169f),
    (0x16f9, 0x16ff), (0x1716, 0x171e), (0x1737, 0x173f), (0x1754, 0x175f), (0x176d, 0x176d),
    (0x1771, 0x1771), (0x1774, 0x177f), (0x17de, 0x17df), (0x17ea, 0x17ef), (0x17fa, 0x17ff),
    (0x180e, 0x180e), (0x181a, 0x181f), (0x1879, 0x187f), (0x18ab, 0x18af), (0x18f6, 0x18ff),
    (0x191f, 0x191f), (0x192c, 0x192f), (0x193c, 0x193f), (0x1941, 0x1943), (0x196e, 0x196f),
    (0x1975, 0x197f), (0x19ac, 0x19af), (0x19ca, 0x19cf), (0x19db, 0x19dd), (0x1a1c, 0x1a1d),
    (0x1a5f, 0x1a5f), (0x1a7d, 0x1a7e), (0x1a8a, 0x1a8f), (0x1a9a, 0x1a9f), (0x1aae, 0x1aaf),
    (0x1acf, 0x1aff), (0x1b4d, 0x1b4f), (0x1b7f, 0x1b7f), (0x1bf4, 0x1bfb), (0x1c38, 0x1c3a),
    (0x1c4a, 0x1c4c), (0x1c89, 0x1c8f), (0x1cbb, 0x1cbc), (0x1cc8, 0x1ccf), (0x1cfb, 0x1cff),
    (0x1f16, 0x1f17), (0x1f1e, 0x1f1f), (0x1f46, 0x1f47), (0x1f4e, 0x1f4f), (0x1f58, 0x1f58),
    (0x1f5a, 0x1f5a), (0x1f5c, 0x1f5c), (0x1f5e, 0x1f5e), (0x1f7e, 0x1f7f), (0x1fb5, 0x1fb5),
    (0x1fc5, 0x1fc5), (0x1fd4, 0x1fd5), (0x1fdc, 0x1fdc), (0x1ff0, 0x1ff1), (0x1ff5, 0x1ff5),
    (0x1fff, 0x200f), (0x2028, 0x202f), (0x205f, 0x206f), (0x2072, 0x2073), (0x208f, 0x208f),
    (0x209d, 0x209f), (0x20c1, 0x20cf), (0x20f1, 0x20ff), (0x218c, 0x218f), (0x2427, 0x243f),
    (0x244b, 0x245f), (0x2b74, 0x2b75), (0x2b96, 0x2b96), (0x2cf4, 0x2cf8), (0x2d26, 0x2d26),
    (0x2d28, 0x2d2c), (0x2d2e, 0x2d2f), (0x2d68, 0x2d6e), (0x2d71, 0x2d7e), (0x2d97, 0x2d9f),
    (0x2da7, 0x2da7), (0x2daf, 0x2daf), (0x2db7, 0x2db7), (0x2dbf, 0x2dbf), (0x2dc7, 0x2dc7),
    (0x2dcf, 0x2dcf), (0x2dd7, 0x2dd7), (0x2ddf, 0x2ddf), (0x2e5e, 0x2e7f), (0x2e9a, 0x2e9a),
    (0x2ef4, 0x2eff), (0x2fd6, 0x2fef), (0x2ffc, 0x3000), (0x3040, 0x3040), (0x3097, 0x3098),
    (0x3100, 0x3104), (0x3130, 0x3130), (0x318f, 0x318f), (0x31e4, 0x31ef), (0x321f, 0x321f),
    (0xa48d, 0xa48f), (0xa4c7, 0xa4cf), (0xa62c, 0xa63f), (0xa6f8, 0xa6ff), (0xa7cb, 0xa7cf),
    (0xa7d2, 0xa7d2), (0xa7d4, 0xa7d4), (0xa7da, 0xa7f1), (0xa82d, 0xa82f), (0xa83a, 0xa83f),
    (0xa878, 0xa87f), (0xa8c6, 0xa8cd), (0xa8da, 0xa8df), (0xa954, 0xa95e), (0xa97d, 0xa97f),
    (0xa9ce, 0xa9ce), (0xa9da, 0xa9dd), (0xa9ff, 0xa9ff), (0xaa37, 0xaa3f), (0xaa4e, 0xaa4f),
    (0xaa5a, 0xaa5b), (0xaac3, 0xaada), (0xaaf7, 0xab00), (0xab07, 0xab08), (0xab0f, 0xab10),
    (0xab17, 0xab1f), (0xab27, 0xab27), (0xab2f, 0xab2f), (0xab6c, 0xab6f), (0xabee, 0xabef),
    (0xabfa, 0xabff), (0xd7a4, 0xd7af), (0xd7c7, 0xd7ca), (0xd7fc, 0xf8ff), (0xfa6e, 0xfa6f),
    (0xfada, 0xfaff), (0xfb07, 0xfb12), (0xfb18, 0xfb1c), (0xfb37, 0xfb37), (0xfb3d, 0xfb3d),
    (0xfb3f, 0xfb3f), (0xfb42, 0xfb42), (0xfb45, 0xfb45), (0xfbc3, 0xfbd2), (0xfd90, 0xfd91),
    (0xfdc8, 0xfdce), (0xfdd0, 0xfdef), (0xfe1a, 0xfe1f), (0xfe53, 0xfe53), (0xfe67, 0xfe67),
    (0xfe6c, 0xfe6f), (0xfe75, 0xfe75), (0xfefd, 0xff00), (0xffbf, 0xffc1), (0xffc8, 0xffc9),
    (0xffd0, 0xffd1), (0xffd8, 0xffd9), (0xffdd, 0xffdf), (0xffe7, 0xffe7), (0xffef, 0xfffb),
    (0xfffe, 0xffff), (0x1000c, 0x1000c), (0x10027, 0x10027), (0x1003b, 0x1003b), (0x1003e, 0x1003e),
    (0x1004e, 0x1004f), (0x1005e, 0x1007f), (0x100fb, 0x100ff), (0x10103, 0x10106), (0x10134, 0x10136),
    (0x1018f, 0x1018f), (0x1019d, 0x1019f), (0x101a1, 0x101cf), (0x101fe, 0x1027f), (0x1029d, 0x1029f),
    (0x102d1, 0x102df), (0x102fc, 0x102ff), (0x10324, 0x1032c), (0x1034b, 0x1034f), (0x1037b, 0x1037f),
    (0x1039e, 0x1039e), (0x103c4, 0x103c7), (0x103d6, 0x103ff), (0x1049e, 0x1049f), (0x104aa, 0x104af),
    (0x104d4, 0x104d7), (0x104fc, 0x104ff), (0x10528, 0x1052f), (0x10564, 0x1056e), (0x1057b, 0x1057b),
    (0x1058b, 0x1058b), (0x10593, 0x10593), (0x10596, 0x10596), (0x105a2, 0x105a2), (0x105b2, 0x105b2),
    (0x105ba, 0x105ba), (0x105bd, 0x105ff), (0x10737, 0x1073f), (0x10756, 0x1075f), (0x10768, 0x1077f),
    (0x10786, 0x10786), (0x107b1, 0x107b1), (0x107bb, 0x107ff), (0x10806, 0x10807), (0x10809, 0x10809),
    (0x10836, 0x10836), (0x10839, 0x1083b), (0x1083d, 0x1083e), (0x10856, 0x10856), (0x1089f, 0x108a6),
    (0x108b0, 0x108df), (0x108f3, 0x108f3), (0x108f6, 0x108fa), (0x1091c, 0x1091e), (0x1093a, 0x1093e),
    (0x10940, 0x1097f), (0x109b8, 0x109bb), (0x109d0, 0x109d1), (0x10a04, 0x10a04), (0x10a07, 0x10a0b),
    (0x10a14, 0x10a14), (0x10a18, 0x10a18), (0x10a36, 0x10a37), (0x10a3b, 0x10a3e), (0x10a49, 0x10a4f),
    (0x10a59, 0x10a5f), (0x10aa0, 0x10abf), (0x10ae7, 0x10aea), (0x10af7, 0x10aff), (0x10b36, 0x10b38),
    (0x10b56, 0x10b57), (0x10b73, 0x10b77), (0x10b92, 0x10b98), (0x10b9d, 0x10ba8), (0x10bb0, 0x10bff),
    (0x10c49, 0x10c7f), (0x10cb3, 0x10cbf), (0x10cf3, 0x10cf9), (0x10d28, 0x10d2f), (0x10d3a, 0x10e5f),
    (0x10e7f, 0x10e7f), (0x10eaa, 0x10eaa), (0x10eae, 0x10eaf), (0x10eb2, 0x10eff), (0x10f28, 0x10f2f),
    (0x10f5a, 0x10f6f), (0x10f8a, 0x10faf), (0x10fcc, 0x10fdf), (0x10ff7, 0x10fff), (0x1104e, 0x11051),
    (0x11076, 0x1107e), (0x110bd, 0x110bd), (0x110c3, 0x110cf), (0x110e9, 0x110ef), (0x110fa, 0x110ff),
    (0x11135, 0x11135), (0x11148, 0x1114f), (0x11177, 0x1117f), (0x111e0, 0x111e0), (0x111f5, 0x111ff),
    (0x11212, 0x11212), (0x1123f, 0x1127f), (0x11287, 0x11287), (0x11289, 0x11289), (0x1128e, 0x1128e),
    (0x1129e, 0x1129e), (0x112aa, 0x112af), (0x112eb, 0x112ef), (0x112fa, 0x112ff), (0x11304, 0x11304),
    (0x1130d, 0x1130e), (0x11311, 0x11312), (0x11329, 0x11329), (0x11331, 0x11331), (0x11334, 0x11334),
    (0x1133a, 0x1133a), (0x11345, 0x11346), (0x11349, 0x1134a), (0x1134e, 0x1134f), (0x11351, 0x11356),
    (0x11358, 0x1135c), (0x11364, 0x11365), (0x1136d, 0x1136f), (0x11375, 0x113ff), (0x1145c, 0x1145c),
    (0x11462, 0x1147f), (0x114c8, 0x114cf), (0x114da, 0x1157f), (0x115b6, 0x115b7), (0x115de, 0x115ff),
    (0x11645, 0x1164f), (0x1165a, 0x1165f), (0x1166d, 0x1167f), (0x116ba, 0x116bf), (0x116ca, 0x116ff),
    (0x1171b, 0x1171c), (0x1172c, 0x1172f), (0x11747, 0x117ff), (0x1183c, 0x1189f), (0x118f3, 0x118fe),
    (0x11907, 0x11908), (0x1190a, 0x1190b), (0x11914, 0x11914), (0x11917, 0x11917), (0x11936, 0x11936),
    (0x11939, 0x1193a), (0x11947, 0x1194f), (0x1195a, 0x1199f), (0x119a8, 0x119a9), (0x119d8, 0x119d9),
    (0x119e5, 0x119ff), (0x11a48, 0x11a4f), (0x11aa3, 0x11aaf), (0x11af9, 0x11bff), (0x11c09, 0x11c09),
    (0x11c37, 0x11c37), (0x11c46, 0x11c4f), (0x11c6d, 0x11c6f), (0x11c90, 0x11c91), (0x11ca8, 0x11ca8),
    (0x11cb7, 0x11cff), (0x11d07, 0x11d07), (0x11d0a, 0x11d0a), (0x11d37, 0x11d39), (0x11d3b, 0x11d3b),
    (0x11d3e, 0x11d3e), (0x11d48, 0x11d4f), (0x11d5a, 0x11d5f), (0x11d66, 0x11d66), (0x11d69, 0x11d69),
    (0x11d8f, 0x11d8f), (0x11d92, 0x11d92), (0x11d99, 0x11d9f), (0x11daa, 0x11edf), (0x11ef9, 0x11faf),
    (0x11fb1, 0x11fbf), (0x11ff2, 0x11ffe), (0x1239a, 0x123ff), (0x1246f, 0x1246f), (0x12475, 0x1247f),
    (0x12544, 0x12f8f), (0x12ff3, 0x12fff), (0x1342f, 0x143ff), (0x14647, 0x167ff), (0x16a39, 0x16a3f),
    (0x16a5f, 0x16a5f), (0x16a6a, 0x16a6d), (0x16abf, 0x16abf), (0x16aca, 0x16acf), (0x16aee, 0x16aef),
    (0x16af6, 0x16aff), (0x16b46, 0x16b4f), (0x16b5a, 0x16b5a), (0x16b62, 0x16b62), (0x16b78, 0x16b7c),
    (0x16b90, 0x16e3f), (0x16e9b, 0x16eff), (0x16f4b, 0x16f4e), (0x16f88, 0x16f8e), (0x16fa0, 0x16fdf),
    (0x16fe5, 0x16fef), (0x16ff2, 0x16fff), (0x187f8, 0x187ff), (0x18cd6, 0x18cff), (0x18d09, 0x1afef),
    (0x1aff4, 0x1aff4), (0x1affc, 0x1affc), (0x1afff, 0x1afff), (0x1b123, 0x1b14f), (0x1b153, 0x1b163),
    (0x1b168, 0x1b16f), (0x1b2fc, 0x1bbff), (0x1bc6b, 0x1bc6f), (0x1bc7d, 0x1bc7f), (0x1bc89, 0x1bc8f),
    (0x1bc9a, 0x1bc9b), (0x1bca0, 0x1ceff), (0x1cf2e, 0x1cf2f), (0x1cf47, 0x1cf4f), (0x1cfc4, 0x1cfff),
    (0x1d0f6, 0x1d0ff), (0x1d127, 0x1d128), (0x1d173, 0x1d17a), (0x1d1eb, 0x1d1ff), (0x1d246, 0x1d2df),
    (0x1d2f4, 0x1d2ff), (0x1d357, 0x1d35f), (0x1d379, 0x1d3ff), (0x1d455, 0x1d455), (0x1d49d, 0x1d49d),
    (0x1d4a0, 0x1d4a1), (0x1d4a3, 0x1d4a4), (0x1d4a7, 0x1d4a8), (0x1d4ad, 0x1d4ad), (0x1d4ba, 0x1d4ba),
    (0x1d4bc, 0x1d4bc), (0x1d4c4, 0x1d4c4), (0x1d506, 0x1d506), (0x1d50b, 0x1d50c), (0x1d515, 0x1d515),
    (0x1d51d, 0x1d51d), (0x1d53a, 0x1d53a), (0x1d53f, 0x1d53f), (0x1d545, 0x1d545), (0x1d547, 0x1d549),
    (0x1d551, 0x1d551), (0x1d6a6, 0x1d6a7), (0x1d7cc, 0x1d7cd), (0x1da8c, 0x1da9a), (0x1daa0, 0x1daa0),
    (0x1dab0, 0x1deff), (0x1df1f, 0x1dfff), (0x1e007, 0x1e007), (0x1e019, 0x1e01a), (0x1e022, 0x1e022),
    (0x1e025, 0x1e025), (0x1e02b, 0x1e0ff), (0x1e12d, 0x1e12f), (0x1e13e, 0x1e13f), (0x1e14a, 0x1e14d),
    (0x1e150, 0x1e28f), (0x1e2af, 0x1e2bf), (0x1e2fa, 0x1e2fe), (0x1e300, 0x1e7df), (0x1e7e7, 0x1e7e7),
    (0x1e7ec, 0x1e7ec), (0x1e7ef, 0x1e7ef), (0x1e7ff, 0x1e7ff), (0x1e8c5, 0x1e8c6), (0x1e8d7, 0x1e8ff),
    (0x1e94c, 0x1e94f), (0x1e95a, 0x1e95d), (0x1e960, 0x1ec70), (0x1ecb5, 0x1ed00), (0x1ed3e, 0x1edff),
    (0x1ee04, 0x1ee04), (0x1ee20, 0x1ee20), (0x1ee23, 0x1ee23), (0x1ee25, 0x1ee26), (0x1ee28, 0x1ee28),
    (0x1ee33, 0x1ee33), (0x1ee38, 0x1ee38), (0x1ee3a, 0x1ee3a), (0x1ee3c, 0x1ee41), (0x1ee43, 0x1ee46),
    (0x1ee48, 0x1ee48), (0x1ee4a, 0x1ee4a), (0x1ee4c, 0x1ee4c), (0x1ee50, 0x1ee50), (0x1ee53, 0x1ee53),
    (0x1ee55, 0x1ee56), (0x1ee58, 0x1ee58), (0x1ee5a, 0x1ee5a), (0x1ee5c, 0x1ee5c), (0x1ee5e, 0x1ee5e),
    (0x1ee60, 0x1ee60), (0x1ee63, 0x1ee63), (0x1ee65, 0x1ee66), (0x1ee6b, 0x1ee6b), (0x1ee73, 0x1ee73),
    (0x1ee78, 0x1ee78), (0x1ee7d, 0x1ee7d), (0x1ee7f, 0x1ee7f), (0x1ee8a, 0x1ee8a), (0x1ee9c, 0x1eea0),
    (0x1eea4, 0x1eea4), (0x1eeaa, 0x1eeaa), (0x1eebc, 0x1eeef), (0x1eef2, 0x1efff), (0x1f02c, 0x1f02f),
    (0x1f094, 0x1f09f), (0x1f0af, 0x1f0b0), (0x1f0c0, 0x1f0c0), (0x1f0d0, 0x1f0d0), (0x1f0f6, 0x1f0ff),
    (0x1f1ae, 0x1f1e5), (0x1f203, 0x1f20f), (0x1f23c, 0x1f23f), (0x1f249, 0x1f24f), (0x1f252, 0x1f25f),
    (0x1f266, 0x1f2ff), (0x1f6d8, 0x1f6dc), (0x1f6ed, 0x1f6ef), (0x1f6fd, 0x1f6ff), (0x1f774, 0x1f77f),
    (0x1f7d9, 0x1f7df), (0x1f7ec, 0x1f7ef), (0x1f7f1, 0x1f7ff), (0x1f80c, 0x1f80f), (0x1f848, 0x1f84f),
    (0x1f85a, 0x1f85f), (0x1f888, 0x1f88f), (0x1f8ae, 0x1f8af), (0x1f8b2, 0x1f8ff), (0x1fa54, 0x1fa5f),
    (0x1fa6e, 0x1fa6f), (0x1fa75, 0x1fa77), (0x1fa7d, 0x1fa7f), (0x1fa87, 0x1fa8f), (0x1faad, 0x1faaf),
    (0x1fabb, 0x1fabf), (0x1fac6, 0x1facf), (0x1fada, 0x1fadf), (0x1fae8, 0x1faef), (0x1faf7, 0x1faff),
    (0x1fb93, 0x1fb93), (0x1fbcb, 0x1fbef), (0x1fbfa, 0x1ffff), (0x2a6e0, 0x2a6ff), (0x2b739, 0x2b73f),
    (0x2b81e, 0x2b81f), (0x2cea2, 0x2ceaf), (0x2ebe1, 0x2f7ff), (0x2fa1e, 0x2ffff), (0x3134b, 0xe00ff),
    (0xe01f0, 0x10ffff),
];
