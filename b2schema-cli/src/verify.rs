//! `b2schema verify PATH...`: each frame's sections decoded, re-encoded and compared, its chunks decoded.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use b2schema::frame::{FrameHeader, Trailer};
use b2schema::layout::{B2Layout, Layout};

use crate::input::Input;
use crate::open::{self, Mode};
use crate::report::verify::{Decoded, Index, Outcome, Section, Verdict};
use crate::summary::Select;
use crate::{Failure, text, walk};

/// What `verify` checks and how it says it.
#[derive(Clone, Copy, Debug, Default)]
pub struct VerifyOptions {
    /// The budget of every read.
    pub limits: b2schema::Limits,
    /// Where the frame starts inside every file.
    pub offset: u64,
    /// One JSON object per frame (JSON Lines).
    pub json: bool,
    /// Decode every chunk (and check its size against the geometry); `false` for `--quick`.
    pub deep: bool,
    /// Enter subdirectories.
    pub recursive: bool,
}

/// Verifies every frame of `paths` (see [`crate::walk`]), one line each on stdout: `ok PATH:
/// ...` or `FAIL PATH: reason` (with `json`, one object each, also for a frame that cannot be
/// read). Each frame's header and trailer are decoded, re-encoded from the decoded values and
/// compared, its offsets index decoded; with `deep`, every chunk is decompressed too (see
/// [`crate::deep`]). Exit 0 when every frame passed, 1 when one had a difference or a part that
/// does not decode, 2 when one could not be read at all (said on stderr too).
/// Only the frames `select` keeps are verified (a frame that cannot be read is always reported).
pub fn run(paths: &[PathBuf], o: &VerifyOptions, select: &Select) -> Result<ExitCode, Failure> {
    let mut out = crate::colour::stdout(!o.json);
    let (mut differ, mut unreadable, mut seen) = (0usize, 0usize, 0usize);
    let mut written = Ok(());
    let mut tell = |path: &Path, verdict: Verdict| -> io::Result<()> {
        seen += 1;
        match &verdict.outcome {
            Outcome::Unreadable { .. } => unreadable += 1,
            Outcome::Checked(_) if !verdict.ok => differ += 1,
            Outcome::Checked(_) => {}
        }
        if o.json {
            writeln!(out, "{}", crate::report::json_line(&verdict))?;
        } else {
            writeln!(out, "{verdict}")?;
        }
        if let Outcome::Unreadable { error: e } = &verdict.outcome {
            // After the report's lines so far, for a terminal that shows both streams.
            out.flush()?;
            let _ = writeln!(io::stderr(), "b2schema: {}: {}", text::path(path), text::escape(e));
        }
        Ok(())
    };
    for found in walk::expand_stores(paths, o.recursive, o.limits) {
        written = match found {
            // A python-blosc2 store: each member verified, as `STORE/KEY`.
            walk::Found::Frame(p) => match Input::of(&p, o.offset, o.limits) {
                Ok(input) => match input.store() {
                    Some(store) => crate::store::each_member(&p, store, |at, frame| match frame {
                        Ok(f) => match check(at, &f, o, select) {
                            Some(v) => tell(at, v),
                            None => Ok(()),
                        },
                        Err(e) => tell(at, Verdict::unreadable(at, e)),
                    }),
                    None if walk::skipped(&p, paths.contains(&p)) => Ok(()),
                    None => match verify_one(&p, o, select) {
                        Some(v) => tell(&p, v),
                        None => Ok(()),
                    },
                },
                Err(e) => tell(&p, Verdict::unreadable(&p, e.detail(&p))),
            },
            walk::Found::Unlisted(p, e) => tell(&p, Verdict::unreadable(&p, e.to_string())),
        };
        if written.is_err() {
            break;
        }
    }
    crate::ended(written.and_then(|()| out.flush()))?;
    if seen > 1 && differ + unreadable > 0 {
        let _ =
            writeln!(io::stderr(), "b2schema: {} of {seen} frames failed verification", differ + unreadable);
    }
    Ok(match (unreadable, differ) {
        (0, 0) => ExitCode::SUCCESS,
        (0, _) => ExitCode::from(1),
        _ => ExitCode::from(2),
    })
}

/// The verdict on the frame at `path`; `None` when `select` leaves it out.
fn verify_one(path: &Path, o: &VerifyOptions, select: &Select) -> Option<Verdict> {
    let file = match open::open(path, o.offset, o.limits, Mode::Located) {
        Ok(f) => f,
        // Without the path the message starts with (the line names it).
        Err(e) => return Some(Verdict::unreadable(path, e.detail(path))),
    };
    check(path, &file, o, select)
}

/// The verdict on the frame `file` (found at `path`); `None` when `select` leaves it out.
fn check(
    path: &Path,
    file: &b2schema::frame::FrameFile,
    o: &VerifyOptions,
    select: &Select,
) -> Option<Verdict> {
    if !select.keeps_file(file) {
        return None;
    }
    let base = file.offset() as usize;
    let t = base + file.trailer_offset() as usize;
    let header = section::<FrameHeader>("header", file.header_bytes(), base, FrameHeader::LAYOUT);
    let trailer = section::<Trailer>("trailer", file.trailer_bytes(), t, Trailer::LAYOUT);
    let frame = match file.view() {
        Ok(v) => match v.chunk_locations_with_limit(o.limits.max_chunks()) {
            Ok(locs) => Index::valid(locs.len(), v.index_bytes.len(), base as u64 + v.index_offset),
            Err(e) => Index::invalid(format!("the offsets index: {}", open::absolute(o.offset, e))),
        },
        Err(e) => Index::invalid(open::explain(path, o.offset, e)),
    };
    let chunks = (o.deep && frame.valid).then(|| Decoded::of(crate::deep::decode_all(file)));
    Some(Verdict::checked(path, base as u64, Section::of(header), Section::of(trailer), frame, chunks))
}

/// Decodes `bytes` (at `base` in the frame) as a `T`, re-encodes it and compares.
fn section<'a, T>(name: &str, bytes: &'a [u8], base: usize, layout: &Layout) -> Result<usize, String>
where
    T: serde_core::Deserialize<'a> + serde_core::Serialize,
{
    let value: T =
        b2schema::from_slice(bytes).map_err(|e| format!("does not decode: {}", e.shift_offset(base)))?;
    let again = b2schema::to_vec(&value).map_err(|e| format!("does not re-encode: {e}"))?;
    match again.iter().zip(bytes).position(|(a, b)| a != b) {
        None if again.len() == bytes.len() => Ok(bytes.len()),
        at => {
            let at = at.unwrap_or(again.len().min(bytes.len()));
            Err(format!(
                "differs at offset {} ({}): {name} byte {at:#x} is {:02x}, re-encoded {:02x}",
                base + at,
                field_at(layout, at),
                bytes.get(at).copied().unwrap_or(0),
                again.get(at).copied().unwrap_or(0)
            ))
        }
    }
}

/// The field of `layout` covering byte `at`, or the first variable field after the fixed part.
fn field_at(layout: &Layout, at: usize) -> &'static str {
    layout
        .fields
        .iter()
        .find(|f| match (f.marker_offset, f.width) {
            (Some(o), Some(w)) => (o..o + w).contains(&at),
            (Some(o), None) => at >= o,
            _ => true,
        })
        .map(|f| f.name)
        .unwrap_or(layout.name)
}
