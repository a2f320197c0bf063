//! The one vocabulary of codec and filter ids: [`Codec`] and [`Filter`], every id c-blosc2
//! assigns (built-in, globally registered plugins, the user range), with the names c-blosc2 and
//! python-blosc2 give them. Both directions of the codec, the frame layer and the command line
//! name codecs and filters only through these two enums.

use core::fmt;
use core::ops::RangeInclusive;
use core::str::FromStr;

/// Where an id lies in c-blosc2's numbering (the same ranges for codecs and filters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdRange {
    /// Defined by c-blosc2 itself (`BLOSC2_DEFINED_*`: codecs 0-5, filters 0-4) or reserved for
    /// it (up to 31).
    BuiltIn,
    /// Registered globally with c-blosc2 (`BLOSC2_GLOBAL_REGISTERED_*`, 32-159): its plugins
    /// (NDLZ, ZFP, ndcell ...).
    Registered,
    /// Free for users (`BLOSC2_USER_REGISTERED_*`, 160-255): python-blosc2's `register_codec`
    /// and `register_filter` take these.
    User,
}

impl IdRange {
    /// Globally registered plugin ids (`BLOSC2_GLOBAL_REGISTERED_CODECS_START` ..= `_STOP`).
    pub const REGISTERED: RangeInclusive<u8> = 32..=159;
    /// User ids (`BLOSC2_USER_REGISTERED_CODECS_START` ..= `_STOP`, the same for filters).
    pub const USER: RangeInclusive<u8> = 160..=255;

    /// The range of `id`.
    pub const fn of(id: u8) -> IdRange {
        match id {
            0..=31 => IdRange::BuiltIn,
            32..=159 => IdRange::Registered,
            _ => IdRange::User,
        }
    }
}

/// An id no c-blosc2 release names (built-in reserved, unnamed registered or user ids); made by
/// [`Codec::from_id`] or [`Filter::from_id`] only, so a named id is never held here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnnamedId(u8);

impl UnnamedId {
    /// The id.
    pub const fn get(self) -> u8 {
        self.0
    }
}

/// The error of [`Codec::from_str`] and [`Filter::from_str`]: the text is neither a name nor an
/// id from 0 to 255.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    /// `"codec"` or `"filter"`.
    pub what: &'static str,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = if self.what == "codec" { CODEC_NAMES } else { FILTER_NAMES };
        write!(f, "expected a {} name (", self.what)?;
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
        f.write_str(") or an id from 0 to 255")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UnknownName {}

macro_rules! id_enum {
    (
        $(#[$meta:meta])*
        $name:ident, $what:literal, $names:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $id:literal, $text:literal; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// An id no c-blosc2 release names (see [`IdRange`] for what it may be).
            Other(UnnamedId),
        }

        /// The names, in id order, of the ids some c-blosc2 release names.
        const $names: &[&str] = &[$($text),*];

        impl $name {
            /// Every named id, in id order.
            pub const NAMED: &'static [$name] = &[$($name::$variant),*];

            /// The id's meaning (total: unnamed ids are [`Self::Other`]).
            pub const fn from_id(id: u8) -> $name {
                match id {
                    $( $id => $name::$variant, )*
                    other => $name::Other(UnnamedId(other)),
                }
            }

            /// The id stored in chunk headers and frame headers.
            pub const fn id(self) -> u8 {
                match self {
                    $( $name::$variant => $id, )*
                    $name::Other(UnnamedId(id)) => id,
                }
            }

            /// The name c-blosc2 and python-blosc2 give it (lower case), `None` for an unnamed id.
            pub const fn name(self) -> Option<&'static str> {
                match self {
                    $( $name::$variant => Some($text), )*
                    $name::Other(_) => None,
                }
            }

            /// Where the id lies in c-blosc2's numbering.
            pub const fn range(self) -> IdRange {
                IdRange::of(self.id())
            }

            /// The name, or for an unnamed id what its range makes it (for messages).
            pub const fn label(self) -> &'static str {
                match (self.name(), self.range()) {
                    (Some(name), _) => name,
                    (None, IdRange::BuiltIn) => concat!("undefined built-in ", $what),
                    (None, IdRange::Registered) => concat!("unnamed registered ", $what),
                    (None, IdRange::User) => concat!("user ", $what),
                }
            }
        }

        /// The name, or the decimal id for an unnamed one (what [`FromStr`] reads back).
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.name() {
                    Some(n) => f.write_str(n),
                    None => write!(f, "{}", self.id()),
                }
            }
        }

        /// A name (any case, as c-blosc2, python-blosc2's enum members or [`Display`](fmt::Display)
        /// write it) or a decimal id from 0 to 255.
        impl FromStr for $name {
            type Err = UnknownName;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                if let Ok(id) = s.parse::<u8>() {
                    return Ok($name::from_id(id));
                }
                $name::NAMED
                    .iter()
                    .copied()
                    .find(|v| v.name().is_some_and(|n| n.eq_ignore_ascii_case(s)))
                    .ok_or(UnknownName { what: $what })
            }
        }

        impl From<u8> for $name {
            fn from(id: u8) -> Self {
                $name::from_id(id)
            }
        }

        impl From<$name> for u8 {
            fn from(v: $name) -> u8 {
                v.id()
            }
        }
    };
}

id_enum! {
    /// A codec (compressor) id: the `udcompcode` of a chunk header, the `udcodec` of a frame
    /// header, python-blosc2's `blosc2.Codec`.
    Codec, "codec", CODEC_NAMES {
        /// BloscLZ (0).
        BloscLz = 0, "blosclz";
        /// LZ4 (1).
        Lz4 = 1, "lz4";
        /// LZ4HC (2): the LZ4 format, a slower search.
        Lz4hc = 2, "lz4hc";
        /// Snappy (3): Blosc1 only, never written by c-blosc2.
        Snappy = 3, "snappy";
        /// zlib (4).
        Zlib = 4, "zlib";
        /// Zstandard (5), python-blosc2's default.
        Zstd = 5, "zstd";
        /// NDLZ plugin (32): n-dimensional LZ for 2-D blocks.
        Ndlz = 32, "ndlz";
        /// ZFP plugin, fixed accuracy (33).
        ZfpAcc = 33, "zfp_acc";
        /// ZFP plugin, fixed precision (34).
        ZfpPrec = 34, "zfp_prec";
        /// ZFP plugin, fixed rate (35).
        ZfpRate = 35, "zfp_rate";
        /// OpenHTJ2K plugin (36).
        OpenHtj2k = 36, "openhtj2k";
        /// Grok (JPEG 2000) plugin (37).
        Grok = 37, "grok";
        /// OpenZL plugin (38).
        OpenZl = 38, "openzl";
        /// JPEG 2000 plugin (39).
        J2k = 39, "j2k";
        /// High-throughput JPEG 2000 plugin (40).
        Htj2k = 40, "htj2k";
    }
}

id_enum! {
    /// A filter id: a slot of a chunk header's `filters[6]`, of a frame header's filter
    /// pipeline, python-blosc2's `blosc2.Filter`.
    Filter, "filter", FILTER_NAMES {
        /// No filter (0): an empty slot.
        NoFilter = 0, "nofilter";
        /// Byte shuffle (1); a non-zero meta overrides the element size.
        Shuffle = 1, "shuffle";
        /// Bit shuffle (2).
        BitShuffle = 2, "bitshuffle";
        /// XOR delta against the chunk's first block (3).
        Delta = 3, "delta";
        /// Mantissa truncation (4), lossy: the meta is the bits kept (or removed, negative).
        TruncPrec = 4, "trunc_prec";
        /// ndcell plugin (32): the meta is the cell size.
        NdCell = 32, "ndcell";
        /// ndmean plugin (33): the meta is the cell size.
        NdMean = 33, "ndmean";
        /// The byte delta of c-blosc2 before 2.10 (34, its issue #524).
        ByteDeltaBuggy = 34, "bytedelta_buggy";
        /// Byte delta (35).
        ByteDelta = 35, "bytedelta";
        /// Integer truncation (36), lossy: the meta is the bits to zero.
        IntTrunc = 36, "int_trunc";
    }
}

impl Codec {
    /// The compressor format c-blosc2 writes in a chunk's `flags` bits 5-7 for this codec
    /// (`compcode_to_compformat`): 6 (a user codec, its id in `udcompcode`) for any id not
    /// built in.
    pub const fn compformat(self) -> u8 {
        match self {
            Codec::BloscLz => 0,
            Codec::Lz4 | Codec::Lz4hc => 1,
            Codec::Snappy => 2,
            Codec::Zlib => 3,
            Codec::Zstd => 4,
            _ => 6,
        }
    }
}

impl Filter {
    /// `true` for the filters whose forward direction loses information and whose backward
    /// direction is nothing (trunc_prec, int_trunc).
    pub const fn is_lossy_only(self) -> bool {
        matches!(self, Filter::TruncPrec | Filter::IntTrunc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn every_id_round_trips_through_its_enum_and_its_text() {
        for id in 0..=255u8 {
            for (back, text) in [
                (Codec::from_id(id).id(), Codec::from_id(id).to_string()),
                (Filter::from_id(id).id(), Filter::from_id(id).to_string()),
            ] {
                assert_eq!(back, id);
                assert!(!text.is_empty());
            }
            assert_eq!(Codec::from_id(id).to_string().parse::<Codec>(), Ok(Codec::from_id(id)));
            assert_eq!(Filter::from_id(id).to_string().parse::<Filter>(), Ok(Filter::from_id(id)));
        }
        assert_eq!(CODEC_NAMES.len(), Codec::NAMED.len());
        assert_eq!(FILTER_NAMES.len(), Filter::NAMED.len());
    }

    #[test]
    fn names_are_python_blosc2s_in_any_case() {
        assert_eq!("ZFP_ACC".parse::<Codec>(), Ok(Codec::ZfpAcc));
        assert_eq!("zstd".parse::<Codec>(), Ok(Codec::Zstd));
        assert_eq!("BYTEDELTA".parse::<Filter>(), Ok(Filter::ByteDelta));
        assert_eq!("170".parse::<Codec>().map(Codec::range), Ok(IdRange::User));
        assert_eq!(Codec::from_id(7).range(), IdRange::BuiltIn);
        assert_eq!(Codec::from_id(41).name(), None);
        let err = "zstandard".parse::<Codec>().unwrap_err().to_string();
        assert!(
            err.starts_with("expected a codec name (blosclz, lz4, lz4hc, snappy, zlib, zstd, ndlz"),
            "{err}"
        );
    }
}
