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
        Some(Box::new(Codec::NAMED.iter().filter_map(|c| c.name()).map(PossibleValue::new)))
    }
}

/// A filter: `NAME` or `NAME:META` (`trunc_prec:BITS`) or `none`, kept as text (`pack` reads
/// it); the names offered are the built-in filters'.
#[derive(Clone, Copy, Debug, Default)]
pub struct FilterName;

impl TypedValueParser for FilterName {
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
        let named = Filter::NAMED.iter().filter_map(|f| f.name()).filter(|n| *n != "nofilter");
        Some(Box::new(std::iter::once("none").chain(named).map(PossibleValue::new)))
    }
}

fn invalid(cmd: &clap::Command, arg: Option<&clap::Arg>, value: &str, why: &str) -> clap::Error {
    let arg = arg.map(ToString::to_string).unwrap_or_default();
    let message = format!("invalid value {value:?} for '{arg}': {why}\n");
    clap::Error::raw(clap::error::ErrorKind::InvalidValue, message).with_cmd(cmd)
}
