//! `cat` of an NDArray: its items in C order, whole or a `--slice`, streamed in pieces of
//! bounded size and decoded on `--threads` threads.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::frame::FrameFile;

use crate::Failure;

/// The most bytes held in memory at once while streaming (one piece; a piece is never smaller
/// than one band of block rows).
const PIECE_BYTES: usize = 16 << 20;

/// Where and how `cat` writes an array's items.
#[derive(Clone, Copy, Debug, Default)]
pub struct Output<'a> {
    /// A file, or stdout when `None`.
    pub path: Option<&'a Path>,
    /// A `.npy` header first: the array's dtype and the selection's NumPy shape.
    pub npy: bool,
    /// The items as lines of text ([`crate::items`]), a row of the selection's last dimension
    /// a line.
    pub text: bool,
}

/// Writes the items of `slice` (NumPy-style text, the whole array when `None`) of the NDArray
/// in `file` to `output`'s file or stdout, as raw items or as a `.npy` file.
pub fn cat_array(
    path: &Path,
    file: &FrameFile,
    slice: Option<&str>,
    nthreads: Option<usize>,
    output: Output<'_>,
    max_bytes: u64,
) -> Result<ExitCode, Failure> {
    let reader = ArrayReader::new(file).map_err(|e| Failure::at(path, e))?;
    let sel = match slice {
        Some(text) => Selection::parse(text, reader.shape())
            .map_err(|e| Failure::Message(format!("--slice {text:?}: {e}")))?,
        None => Selection::all(reader.shape()),
    };
    let mut opts = ReadOptions { max_bytes, ..ReadOptions::default() };
    if let Some(n) = nthreads {
        opts.nthreads = n.max(1);
    }
    let total = sel.len().and_then(|n| n.checked_mul(reader.typesize() as u64)).unwrap_or(u64::MAX);
    if total > opts.max_bytes {
        return Err(Failure::Message(format!(
            "{}: budget exceeded: the selection holds {total} bytes, more than the limit of {} (raise with --max-output)",
            path.display(),
            opts.max_bytes
        )));
    }
    let header = if output.npy {
        let stored = reader
            .meta()
            .dtype
            .clone()
            .ok_or_else(|| Failure::at(path, "the b2nd metalayer has no dtype"))?;
        let descr = crate::npy::descr_for(&stored, reader.typesize()).map_err(|e| Failure::at(path, e))?;
        Some(crate::npy::header(&descr, &sel.numpy_shape(), 0))
    } else {
        None
    };
    let mut lines = if output.text {
        let dtype = match reader.meta().parsed_dtype() {
            Some(Ok(d)) => d,
            Some(Err(e)) => return Err(Failure::at(path, format!("--text: the dtype does not parse: {e}"))),
            None => return Err(Failure::at(path, "--text needs a dtype; this array has none")),
        };
        let row = sel.numpy_shape().last().copied().unwrap_or(1);
        Some(crate::items::Lines::new(dtype, reader.typesize(), row))
    } else {
        None
    };
    let mut file_out = match output.path {
        Some(p) => Some(crate::output::AtomicFile::create(p, &[path])?),
        None => None,
    };
    let mut stdout = std::io::stdout().lock();
    let out: &mut dyn Write = match &mut file_out {
        Some(f) => f,
        None => &mut stdout,
    };
    let mut write_error = None;
    if let Some(header) = header
        && let Err(e) = out.write_all(&header)
    {
        write_error = Some(e);
    }
    let result = if write_error.is_some() {
        Ok(b2schema::array::ReadStats::default())
    } else {
        reader.read_to(&sel, &opts, PIECE_BYTES, |piece| {
            let bytes = match &mut lines {
                Some(lines) => lines.text(piece)?.as_bytes(),
                None => piece,
            };
            out.write_all(bytes).map_err(|e| {
                let stop =
                    <b2schema::Error as serde_core::ser::Error>::custom(format!("writing the data: {e}"));
                write_error = Some(e);
                stop
            })
        })
    };
    if write_error.is_none()
        && result.is_ok()
        && let Some(lines) = &mut lines
        && let Err(e) = out.write_all(lines.finish().as_bytes())
    {
        write_error = Some(e);
    }
    if let Some(e) = write_error {
        return Err(Failure::writing("writing the data", &e));
    }
    result.map_err(|e| Failure::at(path, e))?;
    out.flush().map_err(|e| Failure::Message(format!("writing the data: {e}")))?;
    if let Some(f) = file_out {
        f.commit()?;
    }
    Ok(ExitCode::SUCCESS)
}
