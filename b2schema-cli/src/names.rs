//! The parsers of the values the command knows by name (codecs, filters, layouts): each parses
//! what the library parses (a name in any case, or an id) and tells clap its names, so that
//! `--help` lists them and the shell completions offer them.

use clap::builder::{PossibleValue, TypedValueParser};

use b2schema::chunk::{Codec, Filter};

/// `NAME` of a built-in codec (or its id): a [`Codec`].
#[derive(Clone, Copy, Debug, Default)]
pub struct CodecName;

impl TypedValueParser for CodecName {
    type Value = Codec;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Codec, clap::Error> {
        let text = clap::builder::NonEmptyStringValueParser::new().parse_ref(cmd, arg, value)?;
        text.parse::<Codec>().map_err(|e| invalid(cmd, arg, &text, &e.to_string()))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(codecs().into_iter()))
    }
}

/// Text the command checks itself (a filter `NAME:META`, a codec for `pack`, a layout name),
/// with the names clap offers for it: `--help` lists them and the completions complete them.
#[derive(Clone, Copy, Debug)]
pub struct Hint(pub fn() -> Vec<PossibleValue>);

impl TypedValueParser for Hint {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::NonEmptyStringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter()))
    }
}

/// Every named codec (built-in and plugin ids a frame may hold).
pub fn codecs() -> Vec<PossibleValue> {
    Codec::NAMED.iter().filter_map(|c| c.name()).map(PossibleValue::new).collect()
}

/// The codecs `pack` writes: the built-in ones c-blosc2 writes (not Snappy, not the plugins).
pub fn written_codecs() -> Vec<PossibleValue> {
    let written = |c: &&Codec| {
        (c.id() < 32 && **c != Codec::Snappy)
            || matches!(c, Codec::Ndlz | Codec::ZfpAcc | Codec::ZfpPrec | Codec::ZfpRate)
    };
    Codec::NAMED.iter().filter(written).filter_map(|c| c.name()).map(PossibleValue::new).collect()
}

/// `none` and the built-in filters' names (`trunc_prec`, `int_trunc` take `:BITS`, `ndcell`
/// and `ndmean` `:CELL`).
pub fn filters() -> Vec<PossibleValue> {
    let named = Filter::NAMED.iter().filter_map(|f| f.name()).filter(|n| *n != "nofilter");
    std::iter::once("none").chain(named).map(PossibleValue::new).collect()
}

/// The built-in layouts' names, each with what it is.
pub fn layouts() -> Vec<PossibleValue> {
    crate::layouts::LAYOUTS.iter().map(|(name, _, what)| PossibleValue::new(*name).help(*what)).collect()
}

fn invalid(cmd: &clap::Command, arg: Option<&clap::Arg>, value: &str, why: &str) -> clap::Error {
    let arg = arg.map(ToString::to_string).unwrap_or_default();
    let message = format!("invalid value {value:?} for '{arg}': {why}\n");
    clap::Error::raw(clap::error::ErrorKind::InvalidValue, message).with_cmd(cmd)
}
