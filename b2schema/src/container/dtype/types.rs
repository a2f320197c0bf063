//! The parsed dtype: scalars, fields, structs, subarrays, and the limits the parser keeps to.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

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

    pub(super) fn from_name(s: &str) -> Option<DateTimeUnit> {
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
    /// The byte order, normalized as described in the [module docs](crate::dtype).
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
}

/// `n` rounded up to a multiple of `a` (saturating).
pub(super) fn round_up(n: usize, a: usize) -> usize {
    match n % a.max(1) {
        0 => n,
        r => n.saturating_add(a - r),
    }
}
