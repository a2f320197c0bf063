//! `b2schema cat PATH`: the data, streamed: what the path is ([`Input`], told once) says who
//! writes it: a CTable's rows ([`crate::table`], [`crate::table_arrow`]), a BatchArray's items, a
//! store's member's data or a frame's data (both here).

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::store::Store;

use crate::Failure;
use crate::input::Input;
use crate::table::{self, Rows};

/// What `cat` writes.
#[derive(Clone, Copy, Debug, Default)]
pub struct CatOptions<'a> {
    /// Only these items of an NDArray (NumPy-style text).
    pub slice: Option<&'a str>,
    /// Decoding threads (default: the available cores).
    pub threads: Option<usize>,
    /// A `.npy` file rather than raw items (NDArrays only).
    pub npy: bool,
    /// What was read, on stderr: bytes read and, for a URL, requests and bytes fetched.
    pub stats: bool,
    /// An NDArray's items as lines of text ([`crate::items`]) rather than raw bytes.
    pub text: bool,
    /// Standard output is a terminal and no file was given: an NDArray is written as text, and
    /// binary output (an SChunk's bytes, a `.npy`) is refused rather than sent to it.
    pub to_terminal: bool,
}

impl CatOptions<'_> {
    /// How an NDArray's items are written, or why they are not: `Ok(true)` as text.
    pub(crate) fn array_as_text(&self, path: &Path) -> Result<bool, Failure> {
        if self.to_terminal && self.npy {
            return Err(binary_to_terminal(path, "a .npy file"));
        }
        Ok(self.text || self.to_terminal)
    }

    /// The refusal for data that is not an NDArray when text was asked or stdout is a terminal.
    pub(crate) fn refuse_raw(&self, path: &Path) -> Result<(), Failure> {
        if self.text {
            return Err(Failure::at(path, "--text needs an NDArray (a b2nd metalayer); this is an SChunk"));
        }
        if self.to_terminal {
            return Err(binary_to_terminal(path, "an SChunk's bytes"));
        }
        Ok(())
    }
}

/// Binary data is not written to a terminal (whose control sequences the data could hold).
fn binary_to_terminal(path: &Path, what: &str) -> Failure {
    Failure::at(
        path,
        format!(
            "{what} would go to a terminal as binary; write it with -o FILE or through a pipe \
             (an NDArray's items show as text on a terminal, or anywhere with --text)"
        ),
    )
}

/// `cat` of `input` (what `path` is): a CTable's rows (`--csv`, `--arrow`, a column with
/// `--key NAME`), a BatchArray's items (`--json`; a store member with `--key /KEY --json`), a
/// store member's data (`--key /KEY`), or a frame's data ([`frame`]; a store without `--key`
/// is refused there, saying it is a store). `r.output`: the file written (stdout when `None`).
pub fn run(
    path: &Path,
    offset: u64,
    input: Input,
    r: &Rows<'_>,
    limits: Limits,
    o: &CatOptions<'_>,
) -> Result<ExitCode, Failure> {
    let output = r.output;
    if let Some(a) = &r.arrow {
        return match input {
            Input::Table { store, .. } => crate::table_arrow::cat_arrow(path, *store, a, output),
            _ => Err(Failure::at(path, table::ARROW_NOT_A_TABLE)),
        };
    }
    match input {
        Input::Table { store, column } => {
            table::cat_table(path, *store, column.as_deref(), r.format(), output)
        }
        Input::Store(_) | Input::Member { .. } if r.csv => {
            Err(Failure::at(path, "--csv writes a CTable's rows; this store holds no CTable (/_meta)"))
        }
        _ if r.csv => Err(Failure::at(path, "--csv writes a CTable's rows: give a CTable's .b2d or .b2z")),
        Input::Member { store, key } if r.json && key.starts_with('/') => {
            let b = store.open_member(&key).and_then(b2schema::table::BatchArray::new);
            table::cat_batches(path, &b.map_err(|e| Failure::at(path, e))?, output)
        }
        Input::Member { store, key } => member(path, &store, &key, output, limits, o),
        Input::Batch(b) => table::cat_batches(path, &b, output),
        Input::Store(_) | Input::Frame | Input::Remote => frame(path, offset, output, limits, o),
    }
}

/// `cat STORE --key KEY [--slice ...] [--npy] [-o FILE]`: the member's data, as `cat` writes a
/// frame's (an NDArray through the array reader, reading only its touched blocks), from `store`
/// (the store at `path`, opened once by [`crate::input`]).
pub fn member(
    path: &Path,
    store: &Store,
    key: &str,
    output: Option<&Path>,
    limits: Limits,
    o: &CatOptions<'_>,
) -> Result<ExitCode, Failure> {
    let started = std::time::Instant::now();
    let file = store.open_member(key).map_err(|e| Failure::at(path, e))?;
    let result = cat_member(path, key, &file, output, limits, o);
    if o.stats {
        say_stats(&file, started);
    }
    result
}

/// [`member`]: the member `key`'s frame `file`.
fn cat_member(
    path: &Path,
    key: &str,
    file: &b2schema::frame::FrameFile,
    output: Option<&Path>,
    limits: Limits,
    o: &CatOptions<'_>,
) -> Result<ExitCode, Failure> {
    let at = path.join(key.trim_start_matches('/'));
    let is_array = file.ndarray_meta().map_err(|e| Failure::at(&at, e))?.is_some();
    if !is_array {
        o.refuse_raw(&at)?;
    }
    if o.slice.is_some() || o.npy || is_array {
        if !is_array {
            let flag = if o.npy { "--npy" } else { "--slice" };
            return Err(Failure::at(
                &at,
                format!("{flag} needs an NDArray (a b2nd metalayer); this is an SChunk"),
            ));
        }
        let how = crate::slice::Output { path: output, npy: o.npy, text: o.array_as_text(&at)? };
        return crate::slice::cat_array(&at, file, o.slice, o.threads, how, limits.max_output());
    }
    let mut w: Box<dyn Write> = match output {
        Some(out) => {
            let mut w = crate::output::AtomicFile::create(out, &[path])?;
            file.write_schunk(&mut w).map_err(|e| Failure::at(&at, e))?;
            return w.commit().map(|()| ExitCode::SUCCESS);
        }
        None => Box::new(BufWriter::with_capacity(1 << 20, io::stdout().lock())),
    };
    match file.write_schunk(&mut w).and_then(|_| w.flush().map_err(b2schema::Error::from)) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(Failure::of(&at, e)),
    }
}

/// Writes the data of the frame at `path` to `output` (stdout when `None`): exactly the
/// header's length of data, written as it is decompressed (memory bounded by one chunk), or an
/// error before the end. An NDArray goes through the array reader ([`crate::slice`]): `slice`
/// selects part of it, decoded on `threads` threads, in pieces of bounded size, and `npy` puts
/// a `.npy` header before the items.
pub fn frame(
    path: &Path,
    offset: u64,
    output: Option<&Path>,
    limits: Limits,
    o: &CatOptions<'_>,
) -> Result<ExitCode, Failure> {
    let started = std::time::Instant::now();
    let file = match o.slice {
        None => crate::open::open_whole(path, offset, limits)?,
        Some(_) => crate::open::open(path, offset, limits, crate::open::Mode::Validated)?,
    };
    let result = run_opened(path, &file, output, limits, o);
    if o.stats {
        say_stats(&file, started);
    }
    result
}

/// What fetching the frame cost, on stderr (`--stats`): requests, bytes and the time since
/// `started` (before the frame was opened).
pub fn say_stats(file: &FrameFile, started: std::time::Instant) {
    match file.fetched() {
        Some(f) => eprintln!(
            "fetched: {} requests, {} bytes in {:.3} s",
            f.requests,
            f.bytes,
            started.elapsed().as_secs_f64()
        ),
        None => eprintln!("fetched: nothing (a local file; {} bytes of metadata read)", file.bytes_read()),
    }
}

fn run_opened(
    path: &Path,
    file: &FrameFile,
    output: Option<&Path>,
    limits: Limits,
    o: &CatOptions<'_>,
) -> Result<ExitCode, Failure> {
    let (slice, threads) = (o.slice, o.threads);
    let is_array = file.ndarray_meta().map_err(|e| Failure::at(path, e))?.is_some();
    if !is_array {
        o.refuse_raw(path)?;
    }
    let text = is_array && o.array_as_text(path)?;
    if slice.is_some() || o.npy || text {
        if !is_array {
            let flag = if o.npy { "--npy" } else { "--slice" };
            return Err(Failure::at(
                path,
                format!("{flag} needs an NDArray (a b2nd metalayer); this is an SChunk"),
            ));
        }
        let how = crate::slice::Output { path: output, npy: o.npy, text };
        return crate::slice::cat_array(path, file, slice, threads, how, limits.max_output());
    }
    let opts = read_options(threads);
    let written = match output {
        Some(out) => {
            let mut w = crate::output::AtomicFile::create(out, &[path])?;
            match write(file, &mut w, &opts) {
                Ok(_) => return w.commit().map(|()| ExitCode::SUCCESS),
                Err(e) => Err(e),
            }
        }
        None => {
            let mut w = BufWriter::with_capacity(1 << 20, io::stdout().lock());
            write(file, &mut w, &opts).and_then(|n| w.flush().map(|()| n).map_err(b2schema::Error::from))
        }
    };
    match written {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(Failure::of(path, e)),
    }
}

/// The data of `file` into `out` (an NDArray decoded on `opts.nthreads` threads); the byte count.
pub fn write(
    file: &FrameFile,
    out: &mut dyn Write,
    opts: &b2schema::array::ReadOptions,
) -> b2schema::Result<u64> {
    if file.ndarray_meta()?.is_some() { file.write_ndarray_with(out, opts) } else { file.write_schunk(out) }
}

/// Decoding on `threads` threads (`--threads`; default: the available cores).
pub(crate) fn read_options(threads: Option<usize>) -> b2schema::array::ReadOptions {
    let mut opts = b2schema::array::ReadOptions::default();
    if let Some(n) = threads {
        opts.nthreads = n.max(1);
    }
    opts
}
