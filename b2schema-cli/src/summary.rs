//! One frame in a few values (`ls`, `du`): its sizes, codec, and for an NDArray its shape and
//! dtype; and the selection of frames by codec, dtype or vlmetalayer (`--codec`, `--dtype`,
//! `--has-vlmeta`).

use std::io::Write;
use std::path::{Path, PathBuf};

use b2schema::Limits;
use b2schema::chunk::Codec;
use b2schema::frame::FrameFile;

use crate::{open, text, walk};

/// What `ls` shows of a frame.
#[derive(Clone, Debug)]
pub struct Summary {
    /// An NDArray's shape (`None` for an SChunk).
    pub shape: Option<Vec<i64>>,
    /// An NDArray's dtype, as stored.
    pub dtype: Option<String>,
    /// The codec's id.
    pub codec: Codec,
    /// The data's bytes, uncompressed and compressed (the header's `nbytes` and `cbytes`).
    pub nbytes: u64,
    /// See `nbytes`.
    pub cbytes: u64,
    /// The vlmetalayers' names.
    pub vlmeta: Vec<String>,
}

impl Summary {
    /// The summary of the frame at `path` (at `offset`), or why it cannot be read.
    pub fn of(path: &Path, offset: u64, limits: Limits) -> Result<Summary, String> {
        let file = open::validated(path, offset, limits).map_err(|e| open::explain(path, offset, e))?;
        Summary::from_file(&file)
    }

    /// The summary of a frame opened, or why it cannot be made.
    pub fn from_file(file: &FrameFile) -> Result<Summary, String> {
        let offset = file.offset();
        let v = file.view().map_err(|e| open::absolute(offset, e))?;
        let nd = file.ndarray_meta().map_err(|e| format!("b2nd metalayer: {}", open::absolute(offset, e)))?;
        Ok(Summary {
            shape: nd.as_ref().map(|nd| nd.shape.clone()),
            dtype: nd.and_then(|nd| nd.dtype),
            codec: Codec::from_id(v.header.codec_id()),
            nbytes: v.header.nbytes.max(0) as u64,
            cbytes: v.header.cbytes.max(0) as u64,
            vlmeta: v.trailer.vlmetalayers.iter().map(|(n, _, _)| n.to_string()).collect(),
        })
    }

    /// `nbytes / cbytes` (0 for an empty frame).
    pub fn ratio(&self) -> f64 {
        if self.cbytes == 0 { 0.0 } else { self.nbytes as f64 / self.cbytes as f64 }
    }

    /// The shape as `6x10` (`-` for an SChunk, `()` for a scalar).
    pub fn shape_text(&self) -> String {
        match &self.shape {
            None => "-".into(),
            Some(s) if s.is_empty() => "()".into(),
            Some(s) => s.iter().map(i64::to_string).collect::<Vec<_>>().join("x"),
        }
    }
}

/// Which frames a listing keeps: all of these that are given must hold.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Select {
    /// Only frames compressed with this codec (a name or an id).
    #[arg(long, help_heading = "Selection", value_name = "CODEC", value_parser = crate::names::CodecName)]
    pub codec: Option<Codec>,
    /// Only NDArrays of this dtype, as NumPy writes it (`<f8`; `f8` matches any byte order).
    #[arg(long, help_heading = "Selection", value_name = "DTYPE")]
    pub dtype: Option<String>,
    /// Only frames with a vlmetalayer of this name.
    #[arg(long, help_heading = "Selection", value_name = "KEY")]
    pub has_vlmeta: Option<String>,
}

impl Select {
    /// `true` when no selection is asked for (every frame is kept).
    pub fn is_empty(&self) -> bool {
        self.codec.is_none() && self.dtype.is_none() && self.has_vlmeta.is_none()
    }

    /// `true` when the frame `file` is selected; a frame whose summary cannot be made is kept
    /// (its report says what is wrong with it).
    pub fn keeps_file(&self, file: &FrameFile) -> bool {
        self.is_empty() || Summary::from_file(file).is_ok_and(|s| self.keeps(&s))
    }

    /// `true` when `s` is selected.
    pub fn keeps(&self, s: &Summary) -> bool {
        let codec = self.codec.is_none_or(|c| c.id() == s.codec.id());
        let dtype = self.dtype.as_deref().is_none_or(|want| {
            s.dtype
                .as_deref()
                .is_some_and(|d| d == want || d.trim_start_matches(['<', '>', '|', '=']) == want)
        });
        let vlmeta = self.has_vlmeta.as_deref().is_none_or(|k| s.vlmeta.iter().any(|n| n == k));
        codec && dtype && vlmeta
    }
}

/// Calls `each` with `out`, every frame of `arg` (see [`walk`]) and its summary, selected by
/// `select`; a frame that cannot be read is said on stderr (after `out` is flushed) and counted
/// in the result. A python-blosc2 store (`arg`, or a `.b2z` or `.b2e` met in a scan) stands for
/// its members, each as `STORE/KEY`; a file met in a scan that is not Blosc2 is skipped with a
/// warning ([`walk::skipped`]).
pub fn each_selected<W: Write>(
    out: &mut W,
    arg: &Path,
    recursive: bool,
    select: &Select,
    limits: Limits,
    mut each: impl FnMut(&mut W, &Path, &Summary) -> std::io::Result<()>,
) -> std::io::Result<usize> {
    let mut failed = 0;
    let arg = PathBuf::from(arg);
    for found in walk::expand_stores(std::slice::from_ref(&arg), recursive, limits) {
        let mut one = |out: &mut W, path: &Path, summary: Result<Summary, String>| match summary {
            Ok(s) if select.keeps(&s) => each(out, path, &s),
            Ok(_) => Ok(()),
            Err(e) => {
                failed += 1;
                out.flush()?;
                // A closed stderr is no reason to stop (eprintln! would panic).
                let _ = writeln!(std::io::stderr(), "b2schema: {}: {}", text::path(path), text::escape(&e));
                Ok(())
            }
        };
        match found {
            walk::Found::Frame(p) => match crate::input::Input::of(&p, 0, limits) {
                Ok(input) => match input.store() {
                    Some(store) => crate::store::each_member(&p, store, |at, frame| {
                        one(out, at, frame.and_then(|f| Summary::from_file(&f)))
                    })?,
                    None if walk::skipped(&p, p == arg) => {}
                    None => {
                        let s = Summary::of(&p, 0, limits);
                        one(out, &p, s)?;
                    }
                },
                Err(e) => one(out, &p, Err(e.detail(&p)))?,
            },
            walk::Found::Unlisted(p, e) => one(out, &p, Err(e.to_string()))?,
        }
    }
    Ok(failed)
}
