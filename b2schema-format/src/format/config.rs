//! Per-call configuration: which widths are written and how strictly they are read.

/// How integer widths and length prefixes are chosen when writing, and which are canonical when
/// reading strictly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Widths {
    /// The Rust type chooses the width, never the value: `i32` is always `d2`, a string always
    /// `str32`, a map always `map16`. This is what c-blosc2 writes in frame headers, trailers and
    /// the `b2nd` metalayer.
    Fixed,
    /// Standard smallest-form msgpack, as python-blosc2 writes user metalayers and vlmetalayers
    /// (`msgpack.packb(..., use_bin_type=True)`).
    Minimal,
}

/// How structs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StructRepr {
    /// As an array of the field values, in declaration order (c-blosc2's layouts).
    Array,
    /// As a map from field names to values (python-blosc2's `{"version": 1, ...}` layers).
    Map,
}

/// Configuration of a [`Serializer`](crate::Serializer) or [`Deserializer`](crate::Deserializer).
///
/// ```
/// # extern crate b2schema_format as b2schema;
/// use b2schema::Config;
/// let python_style = Config::minimal().struct_map();
/// let lenient_fixed = Config::fixed().strict(false);
/// # let _ = (python_style, lenient_fixed);
/// ```
/// # extern crate b2schema_format as b2schema;
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub(crate) widths: Widths,
    pub(crate) structs: StructRepr,
    pub(crate) strict: bool,
    pub(crate) max_depth: u16,
}

/// The default nesting limit of the deserializer.
pub const DEFAULT_MAX_DEPTH: u16 = 128;

impl Config {
    /// Fixed widths, structs as arrays, strict reading: the Blosc2 metadata format.
    pub const fn fixed() -> Self {
        Config {
            widths: Widths::Fixed,
            structs: StructRepr::Array,
            strict: true,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }

    /// Smallest-form msgpack, structs as arrays, lenient reading (any encoding of a value that
    /// fits is accepted).
    pub const fn minimal() -> Self {
        Config {
            widths: Widths::Minimal,
            structs: StructRepr::Array,
            strict: false,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }

    /// Writes and reads structs as maps keyed by field name.
    pub const fn struct_map(mut self) -> Self {
        self.structs = StructRepr::Map;
        self
    }

    /// Writes and reads structs as arrays of their fields (the default).
    pub const fn struct_array(mut self) -> Self {
        self.structs = StructRepr::Array;
        self
    }

    /// Strict reading (`true`): every marker must be exactly the one the type implies in
    /// [`Widths::Fixed`], or the canonical smallest one in [`Widths::Minimal`]. Lenient reading
    /// (`false`): any msgpack encoding of a value that fits the type is accepted.
    pub const fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// The deepest nesting the deserializer accepts before it stops with an error (it recurses
    /// once per level, so this bounds its stack use on hostile input).
    pub const fn max_depth(mut self, depth: u16) -> Self {
        self.max_depth = depth;
        self
    }

    /// The width rule.
    pub const fn widths(&self) -> Widths {
        self.widths
    }

    /// The struct representation.
    pub const fn structs(&self) -> StructRepr {
        self.structs
    }

    /// Whether reading is strict.
    pub const fn is_strict(&self) -> bool {
        self.strict
    }
}

impl Default for Config {
    fn default() -> Self {
        Self::fixed()
    }
}

/// A configuration change for one value and everything inside it, carried by a newtype name the
/// way [`Encoding`](crate::encoding::Encoding) overrides are (see [`wrap::Minimal`](crate::wrap::Minimal)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModeSwitch {
    /// [`Widths::Fixed`] inside.
    Fixed,
    /// [`Widths::Minimal`] inside.
    Minimal,
    /// Structs as maps inside.
    StructMap,
    /// Structs as arrays inside.
    StructArray,
    /// Fixed widths and structs as arrays inside (a derived c-blosc2 layout).
    FixedArray,
    /// Fixed widths and structs as maps inside.
    FixedMap,
    /// Minimal widths and structs as arrays inside.
    MinimalArray,
    /// Minimal widths and structs as maps inside (a derived python-blosc2 layer).
    MinimalMap,
}

impl ModeSwitch {
    /// The newtype name of the switch.
    pub const fn magic(self) -> &'static str {
        match self {
            Self::Fixed => "$b2schema::mode::Fixed",
            Self::Minimal => "$b2schema::mode::Minimal",
            Self::StructMap => "$b2schema::mode::StructMap",
            Self::StructArray => "$b2schema::mode::StructArray",
            Self::FixedArray => "$b2schema::mode::FixedArray",
            Self::FixedMap => "$b2schema::mode::FixedMap",
            Self::MinimalArray => "$b2schema::mode::MinimalArray",
            Self::MinimalMap => "$b2schema::mode::MinimalMap",
        }
    }

    /// The switch a newtype name stands for, if it is one.
    #[inline]
    pub fn from_magic(name: &str) -> Option<Self> {
        match name.strip_prefix("$b2schema::mode::")? {
            "Fixed" => Some(Self::Fixed),
            "Minimal" => Some(Self::Minimal),
            "StructMap" => Some(Self::StructMap),
            "StructArray" => Some(Self::StructArray),
            "FixedArray" => Some(Self::FixedArray),
            "FixedMap" => Some(Self::FixedMap),
            "MinimalArray" => Some(Self::MinimalArray),
            "MinimalMap" => Some(Self::MinimalMap),
            _ => None,
        }
    }

    /// `config` with the switch applied.
    pub const fn apply(self, mut config: Config) -> Config {
        match self {
            Self::Fixed => config.widths = Widths::Fixed,
            Self::Minimal => config.widths = Widths::Minimal,
            Self::StructMap => config.structs = StructRepr::Map,
            Self::StructArray => config.structs = StructRepr::Array,
            Self::FixedArray => (config.widths, config.structs) = (Widths::Fixed, StructRepr::Array),
            Self::FixedMap => (config.widths, config.structs) = (Widths::Fixed, StructRepr::Map),
            Self::MinimalArray => (config.widths, config.structs) = (Widths::Minimal, StructRepr::Array),
            Self::MinimalMap => (config.widths, config.structs) = (Widths::Minimal, StructRepr::Map),
        }
        config
    }
}

/// What a newtype name tells b2schema's serializer and deserializer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Magic {
    /// An encoding override for the value inside.
    Encoding(crate::format::encoding::Encoding),
    /// A configuration change for the value inside.
    Mode(ModeSwitch),
}

impl Magic {
    /// The meaning of a newtype name, if it has one for b2schema.
    #[inline]
    pub(crate) fn of(name: &str) -> Option<Magic> {
        match crate::format::encoding::Encoding::from_magic(name) {
            Some(e) => Some(Magic::Encoding(e)),
            None => ModeSwitch::from_magic(name).map(Magic::Mode),
        }
    }

    /// Records an encoding override as pending. `Raw` only says "these are bytes": a byte
    /// framing already asked for (`FixStr` around a packed struct) wins over it.
    #[inline]
    pub(crate) fn set_pending(
        pending: &mut Option<crate::format::encoding::Encoding>,
        enc: crate::format::encoding::Encoding,
    ) {
        if !(enc == crate::format::encoding::Encoding::Raw
            && pending.is_some_and(crate::format::encoding::Encoding::is_bytes))
        {
            *pending = Some(enc);
        }
    }
}

/// What the serializer and the deserializer both carry between values: the configuration in
/// force and the encoding override waiting for the next value. The overrides and mode switches
/// of wrappers, field attributes and the direct codec go through these provided methods.
#[doc(hidden)]
pub trait ModeState {
    /// The configuration in force and the pending override.
    fn mode_state(&mut self) -> (&mut Config, &mut Option<crate::format::encoding::Encoding>);

    /// Makes `enc` the encoding of the next value, as a wrapper newtype or a field attribute
    /// does (`None` leaves the type's own encoding).
    #[inline]
    fn set_pending(&mut self, enc: Option<crate::format::encoding::Encoding>) {
        if let Some(e) = enc {
            Magic::set_pending(self.mode_state().1, e);
        }
    }

    /// Applies `mode` and returns the configuration to restore afterwards.
    #[inline]
    fn switch(&mut self, mode: ModeSwitch) -> Config {
        let config = self.mode_state().0;
        let saved = *config;
        *config = mode.apply(saved);
        saved
    }

    /// Restores a configuration saved by [`Self::switch`].
    #[inline]
    fn restore(&mut self, saved: Config) {
        *self.mode_state().0 = saved;
    }
}
