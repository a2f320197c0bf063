//! The one vocabulary of msgpack markers and encodings.
//!
//! Every marker byte b2schema writes or expects is written down once, in [`marker`], and every
//! encoding (a marker plus the width that follows it) once, in [`Encoding`]. The serializer, the
//! deserializer, the annotated dump and the derive's layout description all ask this module.

/// msgpack marker bytes, as named by the msgpack specification.
pub mod marker {
    /// Largest positive fixint (the value is the byte itself).
    pub const POSITIVE_FIXINT_MAX: u8 = 0x7f;
    /// fixmap: `0x80 + n`, n <= 15.
    pub const FIXMAP: u8 = 0x80;
    /// The last fixmap marker (15 entries).
    pub const FIXMAP_MAX: u8 = 0x8f;
    /// fixarray: `0x90 + n`, n <= 15.
    pub const FIXARRAY: u8 = 0x90;
    /// The last fixarray marker (15 items).
    pub const FIXARRAY_MAX: u8 = 0x9f;
    /// fixstr: `0xa0 + n`, n <= 31.
    pub const FIXSTR: u8 = 0xa0;
    /// The last fixstr marker (31 bytes).
    pub const FIXSTR_MAX: u8 = 0xbf;
    /// nil.
    pub const NIL: u8 = 0xc0;
    /// The one byte msgpack never uses.
    pub const NEVER_USED: u8 = 0xc1;
    /// false.
    pub const FALSE: u8 = 0xc2;
    /// true.
    pub const TRUE: u8 = 0xc3;

    /// The marker of the bool `v`.
    #[inline(always)]
    pub const fn of_bool(v: bool) -> u8 {
        if v { TRUE } else { FALSE }
    }

    /// The bool a marker stands for, `None` for any other byte.
    #[inline(always)]
    pub const fn bool_of(m: u8) -> Option<bool> {
        match m {
            FALSE => Some(false),
            TRUE => Some(true),
            _ => None,
        }
    }
    /// bin8.
    pub const BIN8: u8 = 0xc4;
    /// bin16.
    pub const BIN16: u8 = 0xc5;
    /// bin32: the metalayer values of a Blosc2 frame.
    pub const BIN32: u8 = 0xc6;
    /// ext8.
    pub const EXT8: u8 = 0xc7;
    /// ext16.
    pub const EXT16: u8 = 0xc8;
    /// ext32.
    pub const EXT32: u8 = 0xc9;
    /// float32.
    pub const FLOAT32: u8 = 0xca;
    /// float64.
    pub const FLOAT64: u8 = 0xcb;
    /// uint8.
    pub const UINT8: u8 = 0xcc;
    /// uint16.
    pub const UINT16: u8 = 0xcd;
    /// uint32.
    pub const UINT32: u8 = 0xce;
    /// uint64.
    pub const UINT64: u8 = 0xcf;
    /// int8.
    pub const INT8: u8 = 0xd0;
    /// int16.
    pub const INT16: u8 = 0xd1;
    /// int32.
    pub const INT32: u8 = 0xd2;
    /// int64.
    pub const INT64: u8 = 0xd3;
    /// fixext1.
    pub const FIXEXT1: u8 = 0xd4;
    /// fixext2.
    pub const FIXEXT2: u8 = 0xd5;
    /// fixext4.
    pub const FIXEXT4: u8 = 0xd6;
    /// fixext8.
    pub const FIXEXT8: u8 = 0xd7;
    /// fixext16: the frame header's filter pipeline and the trailer's fingerprint.
    pub const FIXEXT16: u8 = 0xd8;
    /// str8.
    pub const STR8: u8 = 0xd9;
    /// str16.
    pub const STR16: u8 = 0xda;
    /// str32.
    pub const STR32: u8 = 0xdb;
    /// array16.
    pub const ARRAY16: u8 = 0xdc;
    /// array32.
    pub const ARRAY32: u8 = 0xdd;
    /// map16.
    pub const MAP16: u8 = 0xde;
    /// map32.
    pub const MAP32: u8 = 0xdf;
    /// Smallest negative fixint marker (`0xe0` is -32, `0xff` is -1).
    pub const NEGATIVE_FIXINT: u8 = 0xe0;
}

use marker as m;

/// The slot of a magic name in [`Encoding::from_magic`]'s table: a hash of its length and of
/// the bytes after the `$b2schema::` prefix and at its end, perfect over the 30 names (checked
/// when the table is built).
const fn magic_hash(b: &[u8]) -> usize {
    (b.len() * 11 + b[11] as usize * 2 + b[b.len() - 1] as usize) % 64
}

/// Defines [`Encoding::magic`] and [`Encoding::from_magic`] from one list of variant names, so a
/// newtype name is written down once.
macro_rules! magic_names {
    ($($v:ident)*) => {
        /// The newtype name that carries this encoding as an override (see [`crate::wrap`]):
        /// `"$b2schema::"` followed by the variant name. Only b2schema's serializer and
        /// deserializer give these names a meaning; any other serde format sees a plain newtype.
        pub const fn magic(self) -> &'static str {
            match self {
                $(Self::$v => concat!("$b2schema::", stringify!($v)),)*
            }
        }

        /// The encoding a newtype name stands for, if it is one of ours.
        ///
        /// A perfect hash of the name's length and two of its bytes picks the only candidate,
        /// which is then compared in full: one comparison per call, whatever the name.
        #[inline]
        pub fn from_magic(name: &str) -> Option<Encoding> {
            const TABLE: [Option<Encoding>; 64] = {
                let mut t = [None; 64];
                $(
                    let slot = magic_hash(concat!("$b2schema::", stringify!($v)).as_bytes());
                    assert!(t[slot].is_none(), "magic_hash collides");
                    t[slot] = Some(Encoding::$v);
                )*
                t
            };
            let b = name.as_bytes();
            if b.len() < 14 || b[0] != b'$' {
                return None;
            }
            let candidate = TABLE[magic_hash(b)]?;
            (candidate.magic() == name).then_some(candidate)
        }
    };
}

/// One msgpack encoding: a marker (exact byte or a range) and what follows it.
///
/// In the fixed mode, the Rust type chooses the encoding (see the table in the crate documentation); the
/// wrappers in [`crate::wrap`] and the derive's field attributes override it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// `c0`.
    Nil,
    /// `c2` / `c3`.
    Bool,
    /// Positive fixint: the byte itself, 0..=127.
    FixInt,
    /// Negative fixint: `e0..=ff`, -32..=-1.
    NegFixInt,
    /// `cc` + 1 byte.
    Uint8,
    /// `cd` + 2 bytes big-endian.
    Uint16,
    /// `ce` + 4 bytes big-endian.
    Uint32,
    /// `cf` + 8 bytes big-endian.
    Uint64,
    /// `d0` + 1 byte.
    Int8,
    /// `d1` + 2 bytes big-endian.
    Int16,
    /// `d2` + 4 bytes big-endian.
    Int32,
    /// `d3` + 8 bytes big-endian.
    Int64,
    /// `ca` + IEEE 754 single, big-endian.
    Float32,
    /// `cb` + IEEE 754 double, big-endian.
    Float64,
    /// `a0 + n` + n bytes (n <= 31); text, or raw bytes such as the frame header's flags.
    FixStr,
    /// `d9` + u8 length + bytes.
    Str8,
    /// `da` + u16 length + bytes.
    Str16,
    /// `db` + u32 length + bytes.
    Str32,
    /// `c4` + u8 length + bytes.
    Bin8,
    /// `c5` + u16 length + bytes.
    Bin16,
    /// `c6` + u32 length + bytes.
    Bin32,
    /// `90 + n` + n values (n <= 15).
    FixArray,
    /// `dc` + u16 count + values.
    Array16,
    /// `dd` + u32 count + values.
    Array32,
    /// The c-blosc2 "counted array": `0x90 + n` computed in a byte, n <= 16, so 16 elements write
    /// `a0` (which standard msgpack reads as an empty fixstr), exactly as c-blosc2 writes a
    /// 16-dimensional shape.
    Counted,
    /// `80 + n` + n pairs (n <= 15).
    FixMap,
    /// `de` + u16 count + pairs.
    Map16,
    /// `df` + u32 count + pairs.
    Map32,
    /// `d8` + type byte + 16 bytes.
    FixExt16,
    /// Bytes with no marker and no length: the reader must know the length.
    Raw,
}

/// What a marker byte must be for an encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerSpec {
    /// Exactly this byte.
    Exact(u8),
    /// `base + n` with `n` in `0..=max`: the count lives in the marker.
    Counted {
        /// The marker for a count of zero.
        base: u8,
        /// The largest count the marker can hold.
        max: u8,
    },
    /// No marker at all ([`Encoding::Raw`]).
    None,
}

/// The family an encoding belongs to, which decides which Rust values it can carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// nil.
    Nil,
    /// bool.
    Bool,
    /// An integer of any width.
    Int,
    /// A float.
    Float,
    /// A length-prefixed string (text, or raw bytes under a str marker).
    Str,
    /// A length-prefixed binary.
    Bin,
    /// An array header followed by its elements.
    Array,
    /// A map header followed by its pairs.
    Map,
    /// fixext16: a type byte and 16 data bytes.
    Ext,
    /// Unframed bytes.
    Raw,
}

impl Encoding {
    /// Every encoding, in declaration order.
    pub const ALL: [Encoding; 30] = [
        Self::Nil,
        Self::Bool,
        Self::FixInt,
        Self::NegFixInt,
        Self::Uint8,
        Self::Uint16,
        Self::Uint32,
        Self::Uint64,
        Self::Int8,
        Self::Int16,
        Self::Int32,
        Self::Int64,
        Self::Float32,
        Self::Float64,
        Self::FixStr,
        Self::Str8,
        Self::Str16,
        Self::Str32,
        Self::Bin8,
        Self::Bin16,
        Self::Bin32,
        Self::FixArray,
        Self::Array16,
        Self::Array32,
        Self::Counted,
        Self::FixMap,
        Self::Map16,
        Self::Map32,
        Self::FixExt16,
        Self::Raw,
    ];

    /// The name used in error messages, dumps and layout diagrams (`"int32"`, `"fixstr"`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Nil => "nil",
            Self::Bool => "bool",
            Self::FixInt => "positive fixint",
            Self::NegFixInt => "negative fixint",
            Self::Uint8 => "uint8",
            Self::Uint16 => "uint16",
            Self::Uint32 => "uint32",
            Self::Uint64 => "uint64",
            Self::Int8 => "int8",
            Self::Int16 => "int16",
            Self::Int32 => "int32",
            Self::Int64 => "int64",
            Self::Float32 => "float32",
            Self::Float64 => "float64",
            Self::FixStr => "fixstr",
            Self::Str8 => "str8",
            Self::Str16 => "str16",
            Self::Str32 => "str32",
            Self::Bin8 => "bin8",
            Self::Bin16 => "bin16",
            Self::Bin32 => "bin32",
            Self::FixArray => "fixarray",
            Self::Array16 => "array16",
            Self::Array32 => "array32",
            Self::Counted => "counted array",
            Self::FixMap => "fixmap",
            Self::Map16 => "map16",
            Self::Map32 => "map32",
            Self::FixExt16 => "fixext16",
            Self::Raw => "raw bytes",
        }
    }

    magic_names! {
        Nil Bool FixInt NegFixInt Uint8 Uint16 Uint32 Uint64 Int8 Int16 Int32 Int64 Float32 Float64
        FixStr Str8 Str16 Str32 Bin8 Bin16 Bin32 FixArray Array16 Array32 Counted FixMap Map16 Map32
        FixExt16 Raw
    }

    /// The marker this encoding writes.
    #[inline]
    pub const fn marker(self) -> MarkerSpec {
        match self {
            Self::Nil => MarkerSpec::Exact(m::NIL),
            // `false`; `true` is the next byte.
            Self::Bool => MarkerSpec::Counted { base: m::FALSE, max: 1 },
            Self::FixInt => MarkerSpec::Counted { base: 0, max: m::POSITIVE_FIXINT_MAX },
            Self::NegFixInt => MarkerSpec::Counted { base: m::NEGATIVE_FIXINT, max: 31 },
            Self::Uint8 => MarkerSpec::Exact(m::UINT8),
            Self::Uint16 => MarkerSpec::Exact(m::UINT16),
            Self::Uint32 => MarkerSpec::Exact(m::UINT32),
            Self::Uint64 => MarkerSpec::Exact(m::UINT64),
            Self::Int8 => MarkerSpec::Exact(m::INT8),
            Self::Int16 => MarkerSpec::Exact(m::INT16),
            Self::Int32 => MarkerSpec::Exact(m::INT32),
            Self::Int64 => MarkerSpec::Exact(m::INT64),
            Self::Float32 => MarkerSpec::Exact(m::FLOAT32),
            Self::Float64 => MarkerSpec::Exact(m::FLOAT64),
            Self::FixStr => MarkerSpec::Counted { base: m::FIXSTR, max: 31 },
            Self::Str8 => MarkerSpec::Exact(m::STR8),
            Self::Str16 => MarkerSpec::Exact(m::STR16),
            Self::Str32 => MarkerSpec::Exact(m::STR32),
            Self::Bin8 => MarkerSpec::Exact(m::BIN8),
            Self::Bin16 => MarkerSpec::Exact(m::BIN16),
            Self::Bin32 => MarkerSpec::Exact(m::BIN32),
            Self::FixArray => MarkerSpec::Counted { base: m::FIXARRAY, max: 15 },
            Self::Array16 => MarkerSpec::Exact(m::ARRAY16),
            Self::Array32 => MarkerSpec::Exact(m::ARRAY32),
            Self::Counted => MarkerSpec::Counted { base: m::FIXARRAY, max: 16 },
            Self::FixMap => MarkerSpec::Counted { base: m::FIXMAP, max: 15 },
            Self::Map16 => MarkerSpec::Exact(m::MAP16),
            Self::Map32 => MarkerSpec::Exact(m::MAP32),
            Self::FixExt16 => MarkerSpec::Exact(m::FIXEXT16),
            Self::Raw => MarkerSpec::None,
        }
    }

    /// The family of values this encoding carries.
    #[inline]
    pub const fn family(self) -> Family {
        match self {
            Self::Nil => Family::Nil,
            Self::Bool => Family::Bool,
            Self::FixInt
            | Self::NegFixInt
            | Self::Uint8
            | Self::Uint16
            | Self::Uint32
            | Self::Uint64
            | Self::Int8
            | Self::Int16
            | Self::Int32
            | Self::Int64 => Family::Int,
            Self::Float32 | Self::Float64 => Family::Float,
            Self::FixStr | Self::Str8 | Self::Str16 | Self::Str32 => Family::Str,
            Self::Bin8 | Self::Bin16 | Self::Bin32 => Family::Bin,
            Self::FixArray | Self::Array16 | Self::Array32 | Self::Counted => Family::Array,
            Self::FixMap | Self::Map16 | Self::Map32 => Family::Map,
            Self::FixExt16 => Family::Ext,
            Self::Raw => Family::Raw,
        }
    }

    /// Bytes of big-endian length or count after the marker (`str32`: 4, `map16`: 2, `fixstr`: 0).
    #[inline]
    pub const fn prefix_len(self) -> usize {
        match self {
            Self::Str8 | Self::Bin8 => 1,
            Self::Str16 | Self::Bin16 | Self::Array16 | Self::Map16 => 2,
            Self::Str32 | Self::Bin32 | Self::Array32 | Self::Map32 => 4,
            _ => 0,
        }
    }

    /// Bytes of value after the marker, for encodings whose value has a fixed width
    /// (`int32`: 4, `fixext16`: 17 with its type byte, `fixint`: 0).
    #[inline]
    pub const fn value_width(self) -> Option<usize> {
        match self {
            Self::Nil | Self::Bool | Self::FixInt | Self::NegFixInt => Some(0),
            Self::Uint8 | Self::Int8 => Some(1),
            Self::Uint16 | Self::Int16 => Some(2),
            Self::Uint32 | Self::Int32 | Self::Float32 => Some(4),
            Self::Uint64 | Self::Int64 | Self::Float64 => Some(8),
            Self::FixExt16 => Some(17),
            _ => None,
        }
    }

    /// Bytes taken by the marker itself (0 for [`Encoding::Raw`], else 1).
    #[inline]
    pub const fn marker_len(self) -> usize {
        match self {
            Self::Raw => 0,
            _ => 1,
        }
    }

    /// Whether the encoding frames bytes (str, bin, fixext16, raw) rather than a value.
    #[inline]
    pub const fn is_bytes(self) -> bool {
        matches!(self.family(), Family::Str | Family::Bin | Family::Ext | Family::Raw)
    }

    /// The largest length or count the encoding can state.
    #[inline]
    pub const fn max_len(self) -> u64 {
        match self.marker() {
            MarkerSpec::Counted { max, .. } => max as u64,
            _ => match self.prefix_len() {
                1 => u8::MAX as u64,
                2 => u16::MAX as u64,
                4 => u32::MAX as u64,
                _ => u64::MAX,
            },
        }
    }

    /// Whether `byte` is a marker this encoding writes.
    #[inline]
    pub const fn accepts(self, byte: u8) -> bool {
        match self.marker() {
            MarkerSpec::Exact(b) => b == byte,
            MarkerSpec::Counted { base, max } => byte >= base && byte - base <= max,
            MarkerSpec::None => false,
        }
    }

    /// The encoding standard msgpack gives to `byte` (the only reading of `0x90..=0x9f` is
    /// [`Encoding::FixArray`]; [`Encoding::Counted`] is never returned). `None` for `c1` and the
    /// ext forms other than fixext16.
    #[inline]
    pub const fn of_marker(byte: u8) -> Option<Encoding> {
        Some(match byte {
            0x00..=0x7f => Self::FixInt,
            0x80..=0x8f => Self::FixMap,
            0x90..=0x9f => Self::FixArray,
            0xa0..=0xbf => Self::FixStr,
            m::NIL => Self::Nil,
            m::FALSE | m::TRUE => Self::Bool,
            m::BIN8 => Self::Bin8,
            m::BIN16 => Self::Bin16,
            m::BIN32 => Self::Bin32,
            m::FLOAT32 => Self::Float32,
            m::FLOAT64 => Self::Float64,
            m::UINT8 => Self::Uint8,
            m::UINT16 => Self::Uint16,
            m::UINT32 => Self::Uint32,
            m::UINT64 => Self::Uint64,
            m::INT8 => Self::Int8,
            m::INT16 => Self::Int16,
            m::INT32 => Self::Int32,
            m::INT64 => Self::Int64,
            m::FIXEXT16 => Self::FixExt16,
            m::STR8 => Self::Str8,
            m::STR16 => Self::Str16,
            m::STR32 => Self::Str32,
            m::ARRAY16 => Self::Array16,
            m::ARRAY32 => Self::Array32,
            m::MAP16 => Self::Map16,
            m::MAP32 => Self::Map32,
            0xe0..=0xff => Self::NegFixInt,
            _ => return None,
        })
    }

    /// A short description of any marker byte, for "found" in error messages.
    pub const fn describe_marker(byte: u8) -> &'static str {
        match Self::of_marker(byte) {
            Some(e) => e.name(),
            None => match byte {
                m::NEVER_USED => "reserved c1",
                m::EXT8 | m::EXT16 | m::EXT32 => "ext",
                _ => "fixext",
            },
        }
    }

    /// The smallest encoding of an unsigned value (standard msgpack).
    pub const fn minimal_uint(v: u64) -> Encoding {
        if v <= m::POSITIVE_FIXINT_MAX as u64 {
            Self::FixInt
        } else if v <= u8::MAX as u64 {
            Self::Uint8
        } else if v <= u16::MAX as u64 {
            Self::Uint16
        } else if v <= u32::MAX as u64 {
            Self::Uint32
        } else {
            Self::Uint64
        }
    }

    /// The smallest encoding of a signed value (standard msgpack: non-negative values take the
    /// unsigned forms, as python's msgpack and rmp write them).
    pub const fn minimal_int(v: i64) -> Encoding {
        if v >= 0 {
            Self::minimal_uint(v as u64)
        } else if v >= -32 {
            Self::NegFixInt
        } else if v >= i8::MIN as i64 {
            Self::Int8
        } else if v >= i16::MIN as i64 {
            Self::Int16
        } else if v >= i32::MIN as i64 {
            Self::Int32
        } else {
            Self::Int64
        }
    }

    /// The smallest encoding of a container of `family` holding `len` bytes or elements.
    pub const fn minimal_len(family: Family, len: usize) -> Encoding {
        let (fix, e8, e16, e32) = match family {
            Family::Str => (Some(Self::FixStr), Some(Self::Str8), Self::Str16, Self::Str32),
            Family::Bin => (None, Some(Self::Bin8), Self::Bin16, Self::Bin32),
            Family::Map => (Some(Self::FixMap), None, Self::Map16, Self::Map32),
            _ => (Some(Self::FixArray), None, Self::Array16, Self::Array32),
        };
        if let Some(f) = fix
            && len as u64 <= f.max_len()
        {
            return f;
        }
        if let Some(e) = e8
            && len <= u8::MAX as usize
        {
            return e;
        }
        if len <= u16::MAX as usize { e16 } else { e32 }
    }

    /// Writes the marker and length prefix of a container holding `len` bytes or elements into
    /// `buf`, returning how many bytes were used, or `None` when `len` exceeds
    /// [`Encoding::max_len`] (or the encoding has no length).
    #[inline]
    pub fn write_header(self, len: usize, buf: &mut [u8; 5]) -> Option<usize> {
        if len as u64 > self.max_len() {
            return None;
        }
        match self.marker() {
            MarkerSpec::Counted { base, .. } => {
                buf[0] = base + len as u8;
                Some(1)
            }
            MarkerSpec::Exact(b) => {
                buf[0] = b;
                let n = self.prefix_len();
                let be = (len as u32).to_be_bytes();
                buf[1..=n].copy_from_slice(&be[4 - n..]);
                Some(1 + n)
            }
            MarkerSpec::None => Some(0),
        }
    }
}

impl core::fmt::Display for Encoding {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// What was expected where a marker was read: an encoding, optionally with the count that a
/// counted marker must carry (`fixarray(7)` is `97`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The expected encoding.
    pub encoding: Encoding,
    /// The count the marker must carry, for counted markers.
    pub len: Option<u32>,
}

impl Expected {
    /// Any marker of `encoding`.
    pub const fn any(encoding: Encoding) -> Self {
        Self { encoding, len: None }
    }

    /// A counted marker carrying exactly `len`.
    pub const fn with_len(encoding: Encoding, len: u32) -> Self {
        Self { encoding, len: Some(len) }
    }

    /// When `encoding` counts its length in the marker (`fixstr`, `fixarray`) and `found` is not
    /// its marker for `len`: the marker that was expected. `None` when `found` is right, or when
    /// the encoding's marker cannot say `len` (the bytes after it are checked instead).
    pub const fn counted_mismatch(encoding: Encoding, len: usize, found: u8) -> Option<Self> {
        match encoding.marker() {
            MarkerSpec::Counted { base, max } if len <= max as usize => {
                if found.wrapping_sub(base) as usize == len {
                    None
                } else {
                    Some(Self::with_len(encoding, len as u32))
                }
            }
            _ => None,
        }
    }
}

/// The newtype name by which a field declares its byte length to the decoder
/// (`fixstr(len = N)`): `"$b2schema::len=N"`, written by the derive as a literal. The decoder then
/// checks a counted marker against `N` before it reads the bytes; other formats see a plain
/// newtype.
pub(crate) const LEN_MAGIC: &str = "$b2schema::len=";

/// The length a [`LEN_MAGIC`] newtype name declares.
#[inline]
pub(crate) fn declared_len(name: &str) -> Option<usize> {
    name.strip_prefix(LEN_MAGIC)?.parse().ok()
}

impl core::fmt::Display for Expected {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let name = self.encoding.name();
        match (self.encoding.marker(), self.len) {
            (MarkerSpec::Exact(b), Some(n)) => write!(f, "{name}({n}) marker {b:02x}"),
            (MarkerSpec::Exact(b), None) => write!(f, "{name} marker {b:02x}"),
            (MarkerSpec::Counted { base, max }, Some(n)) if n <= max as u32 => {
                write!(f, "{name}({n}) marker {:02x}", base as u32 + n)
            }
            (MarkerSpec::Counted { base, max }, _) => {
                write!(f, "{name} marker {base:02x}..={:02x}", base + max)
            }
            (MarkerSpec::None, _) => f.write_str(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_names_round_trip_and_are_distinct() {
        for e in Encoding::ALL {
            assert_eq!(Encoding::from_magic(e.magic()), Some(e));
            assert!(e.magic().starts_with("$b2schema::"));
        }
        assert_eq!(Encoding::from_magic("Uint64"), None);
        assert_eq!(Encoding::from_magic("$b2schema::Nope"), None);
    }

    #[test]
    fn every_marker_byte_classifies_consistently() {
        for b in 0..=255u8 {
            if let Some(e) = Encoding::of_marker(b) {
                assert!(e.accepts(b), "{e:?} should accept {b:02x}");
            }
        }
        assert!(Encoding::Counted.accepts(0xa0));
        assert!(!Encoding::FixArray.accepts(0xa0));
    }

    #[test]
    fn headers() {
        let mut b = [0; 5];
        assert_eq!(Encoding::Map16.write_header(3, &mut b), Some(3));
        assert_eq!(&b[..3], &[0xde, 0, 3]);
        assert_eq!(Encoding::Counted.write_header(16, &mut b), Some(1));
        assert_eq!(b[0], 0xa0);
        assert_eq!(Encoding::FixArray.write_header(16, &mut b), None);
        assert_eq!(Encoding::Bin32.write_header(0x0102_0304, &mut b), Some(5));
        assert_eq!(b, [0xc6, 1, 2, 3, 4]);
    }

    #[test]
    fn expected_display() {
        assert_eq!(Expected::any(Encoding::Int32).to_string(), "int32 marker d2");
        assert_eq!(Expected::with_len(Encoding::FixArray, 7).to_string(), "fixarray(7) marker 97");
        assert_eq!(Expected::any(Encoding::FixArray).to_string(), "fixarray marker 90..=9f");
    }
}
