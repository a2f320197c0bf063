//! The verdict on one frame (`verify`): its `--json` line (`b2schema-cli/schema/verify.schema.json`)
//! and its human line (`ok PATH: ...` or `FAIL PATH: reason`).

use std::fmt::{self, Display, Formatter};
use std::path::Path;

use serde::Serialize;

use super::FileName;
use crate::{colour, text};

/// One frame's verdict.
#[derive(Debug, Serialize)]
pub struct Verdict {
    pub schema: u32,
    #[serde(flatten)]
    pub name: FileName,
    /// Every part passed.
    pub ok: bool,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// What was found.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Outcome {
    /// The frame was read: each part's result.
    Checked(Box<Parts>),
    /// The frame could not be read at all: why.
    Unreadable { error: String },
}

/// The parts of a frame that was read, each checked.
#[derive(Debug, Serialize)]
pub struct Parts {
    /// Where the frame starts in its file.
    pub offset: u64,
    pub header: Section,
    pub trailer: Section,
    pub frame: Index,
    /// Every chunk decoded (not with `--quick`, nor when the index cannot be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunks: Option<Decoded>,
}

/// The header or the trailer decoded, re-encoded and compared: its length when identical.
#[derive(Debug, Serialize)]
pub struct Section {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub len: Option<usize>,
    pub identical: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The offsets index decoded: how many chunks, and where it is.
#[derive(Debug, Serialize)]
pub struct Index {
    pub valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nchunks: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_len: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Every chunk decompressed: how many.
#[derive(Debug, Serialize)]
pub struct Decoded {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decoded: Option<u64>,
    pub valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Section {
    /// The comparison's result: the length, or what differs.
    pub fn of(r: Result<usize, String>) -> Self {
        match r {
            Ok(n) => Section { len: Some(n), identical: true, error: None },
            Err(e) => Section { len: None, identical: false, error: Some(e) },
        }
    }
}

impl Index {
    /// An index of `nchunks` entries, `index_len` bytes at `index_offset`.
    pub fn valid(nchunks: usize, index_len: usize, index_offset: u64) -> Self {
        Index {
            valid: true,
            nchunks: Some(nchunks),
            index_len: Some(index_len),
            index_offset: Some(index_offset),
            error: None,
        }
    }

    /// An index (or a frame) that cannot be read: why.
    pub fn invalid(error: String) -> Self {
        Index { valid: false, nchunks: None, index_len: None, index_offset: None, error: Some(error) }
    }
}

impl Decoded {
    /// The decoding's result: how many chunks, or what failed.
    pub fn of(r: Result<u64, String>) -> Self {
        match r {
            Ok(n) => Decoded { decoded: Some(n), valid: true, error: None },
            Err(e) => Decoded { decoded: None, valid: false, error: Some(e) },
        }
    }
}

impl Verdict {
    /// The verdict on the frame at `path`, read: `ok` when every part passed.
    pub fn checked(
        path: &Path,
        offset: u64,
        header: Section,
        trailer: Section,
        frame: Index,
        chunks: Option<Decoded>,
    ) -> Self {
        let ok = header.error.is_none()
            && trailer.error.is_none()
            && frame.error.is_none()
            && chunks.as_ref().is_none_or(|c| c.error.is_none());
        let outcome = Outcome::Checked(Box::new(Parts { offset, header, trailer, frame, chunks }));
        Verdict { schema: super::SCHEMA_VERSION, name: FileName::of(path), ok, outcome }
    }

    /// The frame at `path` could not be read: why.
    pub fn unreadable(path: &Path, error: String) -> Self {
        Verdict {
            schema: super::SCHEMA_VERSION,
            name: FileName::of(path),
            ok: false,
            outcome: Outcome::Unreadable { error },
        }
    }

    /// Each part read, in order: its name and its result (a summary, or what is wrong).
    fn parts(&self) -> Vec<(&'static str, Result<String, &str>)> {
        let Outcome::Checked(parts) = &self.outcome else { return Vec::new() };
        let Parts { header, trailer, frame, chunks, .. } = &**parts;
        fn section<'a>(name: &str, s: &'a Section) -> Result<String, &'a str> {
            match (&s.error, s.len) {
                (Some(e), _) => Err(e.as_str()),
                (None, n) => Ok(format!("{name} {} bytes", n.unwrap_or(0))),
            }
        }
        let mut parts = vec![
            ("header", section("header", header)),
            ("trailer", section("trailer", trailer)),
            (
                "frame",
                match &frame.error {
                    Some(e) => Err(e.as_str()),
                    None => Ok(format!("{} chunks indexed", frame.nchunks.unwrap_or(0))),
                },
            ),
        ];
        if let Some(c) = chunks {
            parts.push((
                "chunks",
                match &c.error {
                    Some(e) => Err(e.as_str()),
                    None => Ok(format!("{} chunks decoded", c.decoded.unwrap_or(0))),
                },
            ));
        }
        parts
    }
}

impl Display for Verdict {
    /// The human line (without its line break): `ok PATH: ...` or `FAIL PATH: reason`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        let fail = colour::paint(colour::FAIL, "FAIL");
        match &self.outcome {
            Outcome::Unreadable { error } => write!(f, "{fail} {name}: {}", text::escape(error)),
            Outcome::Checked(parts) if self.ok => {
                let Parts { offset, chunks, .. } = &**parts;
                let at = if *offset == 0 { String::new() } else { format!(" (frame at offset {offset})") };
                let said: Vec<String> = self.parts().into_iter().filter_map(|(_, r)| r.ok()).collect();
                let mut what = said.join(", ");
                if chunks.is_none() {
                    what.push_str(" (not decoded: --quick)");
                }
                let ok = colour::paint(colour::OK, "ok");
                write!(f, "{ok} {name}{at}: {what}, header and trailer re-encoded identically")
            }
            Outcome::Checked(_) => {
                // A part that fails for the reason an earlier one gave (the frame, when its
                // header does not decode) adds nothing to the line.
                let mut wrong: Vec<String> = Vec::new();
                for (part, r) in self.parts() {
                    if let Err(e) = r
                        && !wrong.iter().any(|w| w.contains(e))
                    {
                        wrong.push(format!("{part}: {e}"));
                    }
                }
                write!(f, "{fail} {name}: {}", text::escape(&wrong.join("; ")))
            }
        }
    }
}
