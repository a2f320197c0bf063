//! The budget options shared by every subcommand (`--max-decompressed`, ...), turned into a
//! [`b2schema::Limits`].

use b2schema::Limits;
use b2schema::limits::{
    DEFAULT_MAX_DECOMPRESSED, DEFAULT_MAX_DECOMPRESSED_TOTAL, DEFAULT_MAX_ITEMS, DEFAULT_MAX_OUTPUT,
    DEFAULT_MAX_SHOWN,
};

/// The heading the budget options are shown under, after a subcommand's own options.
pub const HEADING: &str = "Budget (what one input may cost; every subcommand; sizes take K, M or G)";

/// How much memory and work an input may cost. Sizes take a suffix: K, M, G (powers of 1024).
#[derive(clap::Args, Clone, Debug)]
pub struct BudgetArgs {
    /// The most bytes of one part in memory: a chunk decompressed, a vlmetalayer, the header,
    /// the trailer, the offsets index, a layer of an array's chunks.
    #[arg(long, global = true, help_heading = HEADING, value_name = "BYTES", value_parser = size, default_value_t = DEFAULT_MAX_DECOMPRESSED)]
    pub max_decompressed: u64,
    /// The most bytes decompressed to describe one frame; the most bytes of a frame read from
    /// stdin (-).
    #[arg(long, global = true, help_heading = HEADING, value_name = "BYTES", value_parser = size, default_value_t = DEFAULT_MAX_DECOMPRESSED_TOTAL)]
    pub max_decompressed_total: u64,
    /// The most chunks `inspect` lists one by one (the rest is summarised; see --all-chunks).
    #[arg(long, global = true, help_heading = HEADING, value_name = "N", value_parser = size, default_value_t = DEFAULT_MAX_ITEMS)]
    pub max_items: u64,
    /// The most bytes of data (`cat`) or of text (`dump`) written.
    #[arg(long, global = true, help_heading = HEADING, alias = "max-bytes", value_name = "BYTES", value_parser = size, default_value_t = DEFAULT_MAX_OUTPUT)]
    pub max_output: u64,
    /// The most bytes of one value `inspect` shows (a longer one: its length and first bytes).
    #[arg(long, global = true, help_heading = HEADING, value_name = "BYTES", value_parser = size, default_value_t = DEFAULT_MAX_SHOWN)]
    pub max_shown: u64,
    /// The most entries of a chunk offsets index decoded (16 bytes of memory each).
    #[arg(long, global = true, help_heading = HEADING, value_name = "N", value_parser = size, default_value_t = b2schema::frame::DEFAULT_MAX_LOCATIONS)]
    pub max_chunks: u64,
    /// The most bytes fetched from a URL (response bodies, over the whole command).
    #[arg(long, global = true, help_heading = HEADING, value_name = "BYTES", value_parser = size, default_value_t = b2schema::limits::DEFAULT_MAX_FETCHED)]
    pub max_fetched: u64,
    /// The most HTTP requests sent for a URL (retries included).
    #[arg(long, global = true, help_heading = HEADING, value_name = "N", value_parser = size, default_value_t = b2schema::limits::DEFAULT_MAX_REQUESTS)]
    pub max_requests: u64,
}

impl Default for BudgetArgs {
    fn default() -> Self {
        BudgetArgs::from(&Limits::default())
    }
}

impl From<&Limits> for BudgetArgs {
    fn from(l: &Limits) -> Self {
        BudgetArgs {
            max_decompressed: l.max_decompressed(),
            max_decompressed_total: l.max_decompressed_total(),
            max_items: l.max_items(),
            max_output: l.max_output(),
            max_shown: l.max_shown(),
            max_chunks: l.max_chunks(),
            max_fetched: l.max_fetched(),
            max_requests: l.max_requests(),
        }
    }
}

impl BudgetArgs {
    /// The limits these options give.
    pub fn limits(&self) -> Limits {
        Limits::default()
            .with_max_decompressed(self.max_decompressed)
            .with_max_decompressed_total(self.max_decompressed_total)
            .with_max_items(self.max_items)
            .with_max_output(self.max_output)
            .with_max_shown(self.max_shown)
            .with_max_chunks(self.max_chunks)
            .with_max_fetched(self.max_fetched)
            .with_max_requests(self.max_requests)
    }
}

/// A size: digits with an optional K, M or G (powers of 1024).
pub fn size(s: &str) -> Result<u64, String> {
    let (digits, shift) = match s.as_bytes().last() {
        Some(b'k' | b'K') => (&s[..s.len() - 1], 10),
        Some(b'm' | b'M') => (&s[..s.len() - 1], 20),
        Some(b'g' | b'G') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: u64 = digits.parse().map_err(|e| format!("{s:?} is not a size (digits, then K, M or G): {e}"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("{s} does not fit 64 bits"))
}

/// The option that raises `limit` (`--max-decompressed` for `Limits::max_decompressed`).
pub fn flag(limit: b2schema::Limit) -> String {
    format!("--{}", limit.name().replace('_', "-"))
}

/// A library error as the command line says it: a budget error names the option that raises
/// its limit (`raise --max-output`), from the error's typed [`b2schema::Limit`], where the
/// library names the `Limits` setting (`raise Limits::max_output`).
pub fn said(e: &b2schema::Error) -> String {
    e.naming_limits(&flag).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_errors_name_the_options_that_raise_them() {
        for limit in b2schema::Limit::ALL {
            let kind = b2schema::ErrorKind::BudgetExceeded { what: "x", needed: 9, limit, max: 1 };
            // Beneath another error too (the cause is said after it).
            let e = b2schema::Error::over(
                b2schema::ErrorKind::NotAFrame { why: "w".into() },
                b2schema::Error::new(kind),
            );
            let cli = said(&e);
            assert!(cli.ends_with(&format!("(raise {})", flag(limit))), "{cli}");
            assert!(!cli.contains("Limits::"), "{cli}");
            // Every option named is one the parser knows.
            assert!(
                [
                    "--max-decompressed",
                    "--max-decompressed-total",
                    "--max-items",
                    "--max-output",
                    "--max-shown",
                    "--max-chunks",
                    "--max-fetched",
                    "--max-requests"
                ]
                .contains(&flag(limit).as_str())
            );
        }
    }
}
