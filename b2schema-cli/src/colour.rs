//! Colour in the human reports, where it helps reading: `verify`'s `ok` and `FAIL`, the section
//! names of `inspect`'s report and its `!!` problem lines. Applied to text already escaped (see
//! [`crate::text`]), so a file's bytes never become a colour; written through [`stdout`], which
//! keeps the colours on a terminal and strips them otherwise, with `NO_COLOR` set, or with
//! `--color never` (`--color always` keeps them anywhere).

use std::io::{self, BufWriter, Write};

use anstyle::{AnsiColor, Style};

/// Green: a check that passed.
pub const OK: Style = AnsiColor::Green.on_default().bold();
/// Red: a check that failed, a problem.
pub const FAIL: Style = AnsiColor::Red.on_default().bold();
/// Bold: a section's name.
pub const SECTION: Style = Style::new().bold();

/// Buffered stdout for a report: colours handled as the module says for a human report, the
/// plain stream for JSON (nothing to strip, nothing to scan).
pub fn stdout(human: bool) -> BufWriter<Box<dyn Write>> {
    let raw: Box<dyn Write> = if human {
        Box::new(anstream::AutoStream::auto(io::stdout().lock()))
    } else {
        Box::new(io::stdout().lock())
    };
    BufWriter::with_capacity(64 * 1024, raw)
}

/// `word` in `style`.
pub fn paint(style: Style, word: &str) -> String {
    format!("{style}{word}{style:#}")
}

/// An `inspect` report (escaped text): the section names that start its lines in bold, its
/// `!!` lines in red.
pub fn report(escaped: &str) -> String {
    const SECTIONS: [&str; 4] = ["header ", "metalayers ", "vlmeta ", "chunks "];
    let mut out = String::with_capacity(escaped.len() + 64);
    for line in escaped.split_inclusive('\n') {
        match SECTIONS.iter().find(|s| line.starts_with(**s)) {
            Some(s) => {
                let name = s.trim_end();
                out.push_str(&paint(SECTION, name));
                out.push_str(&line[name.len()..]);
            }
            None if line.starts_with("!!") => {
                let body = line.trim_end_matches('\n');
                out.push_str(&paint(FAIL, body));
                out.push_str(&line[body.len()..]);
            }
            None => out.push_str(line),
        }
    }
    out
}
