//! `b2schema inspect PATH... [--json]`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::text;
use b2schema::Limits;
use b2schema::b2nd;
use b2schema::chunk::{self, ChunkHeader, Codec};
use b2schema::frame::{ChunkLocation, FrameFile, FrameType};

use crate::msgpack_json::{self, hex};
use crate::open::{absolute, in_file};
use crate::report::frame::{
    Chunk, ChunkSummary, Frame, Header, Metalayer, Nd, Problem, VlChunk, VlMetalayer,
};
use crate::report::{FileName, Unreadable};
use crate::summary::Select;
use crate::{Failure, walk};

/// One frame (one PATH that is a file or a sparse frame): its report, or the error through
/// `main`. Anything else (several PATHs, a plain directory): a scan, see [`scan`].
/// Only the frames `select` keeps are reported.
pub fn run(
    paths: &[PathBuf],
    offset: u64,
    as_json: bool,
    opts: &Options,
    select: &Select,
) -> Result<ExitCode, Failure> {
    match paths {
        [path] if !walk::is_plain_dir(path) => run_one(path, offset, as_json, opts, select),
        _ => scan(paths, offset, as_json, opts, select),
    }
}

/// What `inspect` may spend and list.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// The budget of every read.
    pub limits: Limits,
    /// List every chunk (streamed), not only the first `max_items`.
    pub all_chunks: bool,
    /// Enter subdirectories (see [`crate::walk`]).
    pub recursive: bool,
}

fn run_one(
    path: &Path,
    offset: u64,
    as_json: bool,
    opts: &Options,
    select: &Select,
) -> Result<ExitCode, Failure> {
    let (file, report) =
        open_and_report(path, offset, opts).map_err(|e| crate::open::failure(path, offset, e))?;
    if !select.keeps_file(&file) {
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = crate::colour::stdout(!as_json);
    let mut problems = report.problems.clone();
    let written = write_report(&mut out, &file, &report, as_json, opts, &mut problems);
    crate::ended(written.and_then(|()| out.flush()))?;
    if problems.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    say_problems(path, &problems);
    Ok(ExitCode::from(2))
}

/// The parts of the frame at `path` that could not be read, on stderr, one line each.
fn say_problems(path: &Path, problems: &[Problem]) {
    for Problem { part, error: e } in problems {
        let _ = writeln!(
            io::stderr(),
            "b2schema: {}: {}: {}",
            text::path(path),
            text::escape(part),
            text::escape(e)
        );
    }
}

/// Inspects every frame of `paths` in order (a plain directory stands for what [`walk`]
/// finds in it) through one buffered stdout. A frame that fails does not stop the scan: with
/// `--json` its line is `{"path", "error"}`, otherwise the error goes to stderr after the
/// path. Exit code 2 when anything failed.
fn scan(
    paths: &[PathBuf],
    offset: u64,
    as_json: bool,
    opts: &Options,
    select: &Select,
) -> Result<ExitCode, Failure> {
    let mut scan = Scan {
        select,
        out: crate::colour::stdout(!as_json),
        as_json,
        offset,
        opts: *opts,
        inputs: 0,
        failed: 0,
        reports: 0,
    };
    let written = walk::expand_stores(paths, opts.recursive, opts.limits)
        .into_iter()
        .try_for_each(|found| match found {
            walk::Found::Frame(path) => scan.frame(&path),
            walk::Found::Unlisted(path, e) => {
                scan.inputs += 1;
                scan.failure(&path, &e)
            }
        })
        .and_then(|()| scan.out.flush());
    crate::ended(written)?;
    if scan.failed == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let _ = writeln!(io::stderr(), "b2schema: {} of {} inputs could not be read", scan.failed, scan.inputs);
    Ok(ExitCode::from(2))
}

struct Scan<'a, W: Write> {
    select: &'a Select,
    out: W,
    as_json: bool,
    offset: u64,
    opts: Options,
    /// Frames (and unlistable directories) seen, and how many of them failed.
    inputs: usize,
    failed: usize,
    /// Human reports written, to separate them with an empty line.
    reports: usize,
}

impl<W: Write> Scan<'_, W> {
    fn frame(&mut self, path: &Path) -> io::Result<()> {
        self.inputs += 1;
        let input = match crate::input::Input::of(path, self.offset, self.opts.limits) {
            Ok(input) => input,
            Err(e) => return self.failure(path, &e.detail(path)),
        };
        if let Some(store) = input.store() {
            return self.store(path, store);
        }
        let (file, report) = match open_and_report(path, self.offset, &self.opts) {
            Ok(report) => report,
            Err(e) => return self.failure(path, &crate::open::explain(path, self.offset, e)),
        };
        if !self.select.keeps_file(&file) {
            self.inputs -= 1;
            return Ok(());
        }
        if !self.as_json && self.reports > 0 {
            self.out.write_all(b"\n")?;
        }
        self.reports += 1;
        let mut problems = report.problems.clone();
        write_report(&mut self.out, &file, &report, self.as_json, &self.opts, &mut problems)?;
        if !problems.is_empty() {
            self.failed += 1;
            self.out.flush()?;
            say_problems(path, &problems);
        }
        Ok(())
    }

    /// A python-blosc2 store met in a scan: its members listed as `inspect STORE` lists them
    /// (the selection options apply to frames, not to a store's members).
    fn store(&mut self, path: &Path, store: &b2schema::store::Store) -> io::Result<()> {
        if !self.as_json && self.reports > 0 {
            self.out.write_all(b"\n")?;
        }
        self.reports += 1;
        if crate::store::write_listing(&mut self.out, path, store, self.as_json)? {
            self.failed += 1;
        }
        Ok(())
    }

    fn failure(&mut self, path: &Path, error: &dyn std::fmt::Display) -> io::Result<()> {
        self.failed += 1;
        let error = error.to_string();
        if self.as_json {
            let line = Unreadable { name: FileName::of(path), error };
            return writeln!(self.out, "{}", crate::report::json_line(&line));
        }
        // The reports before it first, for a terminal that shows both streams.
        self.out.flush()?;
        let _ = writeln!(io::stderr(), "b2schema: {}: {}", text::path(path), text::escape(&error));
        Ok(())
    }
}

fn open_and_report(path: &Path, offset: u64, opts: &Options) -> b2schema::Result<(FrameFile, Report)> {
    let file = crate::open::validated(path, offset, opts.limits)?;
    let r = report(path, &file, opts)?;
    Ok((file, r))
}

/// The version of the `inspect --json` contract (`"schema"`, the first key of every object;
/// the JSON Schema is `b2schema-cli/schema/inspect.schema.json`).
pub use crate::report::SCHEMA_VERSION;

/// A frame's report, the parts that could not be read, and the chunk locations (for the
/// listing streamed by `--all-chunks`).
pub struct Report {
    /// The report (its `--json` form is the contract in `schema/inspect.schema.json`); with
    /// `--all-chunks` its `chunks` are written by [`write_report`] as they are read.
    pub frame: Frame,
    /// Each part that could not be read: the exit code is 2 then.
    pub problems: Vec<Problem>,
    /// Every chunk's location (empty when the index could not be read).
    pub locations: Vec<ChunkLocation>,
}

impl Report {
    /// The `inspect --json` object, for the code that consumes it (`serve`, `diff`).
    pub fn value(&self) -> serde_json::Value {
        crate::report::to_value(&self.frame)
    }
}

/// The problem `error` with the part `part`.
fn problem(part: impl Into<String>, error: String) -> Problem {
    Problem { part: part.into(), error }
}

/// The report of `file` (found at `path`), within `opts.limits`: chunks are summarised and the
/// first `max_items` listed (all of them with `all_chunks`, by [`write_report`]); values are
/// shown up to `max_shown` bytes and decompressed within `max_decompressed` each and
/// `max_decompressed_total` in all. A part that cannot be read is a problem, not a failure of
/// the whole report.
pub fn report(path: &Path, file: &FrameFile, opts: &Options) -> b2schema::Result<Report> {
    let limits = &opts.limits;
    let shown = usize::try_from(limits.max_shown()).unwrap_or(usize::MAX);
    let mut problems = Vec::new();
    let v = file.view()?;
    let h = &v.header;
    let codec_id = h.codec_id();
    let header = Header {
        header_len: h.header_len,
        frame_len: h.frame_len,
        format_version: h.flags.format_version(),
        frame_type: if v.is_sparse() { "sparse" } else { "contiguous" },
        variable_chunks: h.flags.variable_chunks(),
        vl_blocks: h.flags.vl_blocks(),
        codec_id,
        codec: Codec::from_id(codec_id).name(),
        codec_meta: h.filter_pipeline.codec_meta,
        clevel: h.flags.clevel(),
        splitmode: h.flags.splitmode().name(),
        use_dict: h.filter_pipeline.use_dict(),
        nbytes: h.nbytes,
        cbytes: h.cbytes,
        typesize: h.typesize,
        blocksize: h.blocksize,
        chunksize: h.chunksize,
        nthreads_comp: h.nthreads_comp,
        nthreads_decomp: h.nthreads_decomp,
        has_vlmetalayers: h.has_vlmetalayers,
        filters: h.filter_pipeline.filters,
        filter_names: h
            .filter_pipeline
            .filters
            .iter()
            .map(|&id| crate::report::frame::filter_name(id))
            .collect(),
        filters_meta: h.filter_pipeline.filters_meta,
    };
    let metalayers = h
        .metalayers
        .iter()
        .map(|(name, offset, content)| {
            let (hex, truncated) = shown_hex(content, shown);
            let mut m = Metalayer {
                name: name.to_owned(),
                offset,
                len: content.len(),
                hex,
                truncated,
                b2nd: None,
                value: None,
            };
            if matches!(name, "b2nd" | "caterva")
                && let Some(nd) = b2nd::read_any(content).ok()
            {
                m.b2nd = Some(Nd::from(&nd));
            } else if content.len() <= shown {
                m.value = msgpack_json::decode(content);
            }
            m
        })
        .collect();
    let t = v.trailer_offset;
    let mut spent = 0u64;
    let mut vlmetalayers = Vec::new();
    for (name, offset, content) in v.trailer.vlmetalayers.iter() {
        let at = t + offset as u64;
        let mut m = VlMetalayer {
            name: name.to_owned(),
            offset: at,
            chunk: None,
            hex: None,
            truncated: false,
            not_shown: None,
            value: None,
        };
        match vlmeta_content(content, limits, &mut spent) {
            Ok((ch, content)) => {
                m.chunk = Some(VlChunk::from(&ch));
                match content {
                    Shown::Whole(data) => {
                        m.hex = Some(hex(&data));
                        m.value = msgpack_json::decode(&data);
                    }
                    Shown::Prefix(data) => {
                        let (hex, truncated) = shown_hex(&data, shown);
                        (m.hex, m.truncated) = (Some(hex), truncated);
                    }
                    Shown::NotDecompressed(why) => {
                        m.truncated = true;
                        m.not_shown = Some(why);
                    }
                }
            }
            Err(e) => problems.push(problem(
                format!("vlmetalayer {name}"),
                absolute(file.offset(), e.shift_offset(at as usize + 5)),
            )),
        }
        vlmetalayers.push(m);
    }
    let mut frame = Frame {
        schema: SCHEMA_VERSION,
        name: FileName::of(path),
        kind: if v.is_sparse() { "sframe" } else { "cframe" },
        offset: file.offset(),
        header,
        metalayers,
        vlmetalayers,
        nchunks: None,
        chunk_summary: None,
        chunks: None,
        chunks_not_listed: None,
        errors: Vec::new(),
    };
    match v.nchunks() {
        Ok(n) => frame.nchunks = Some(n),
        Err(e) => problems.push(problem("nchunks", absolute(file.offset(), e))),
    }
    let locations = match v.chunk_locations_with_limit(limits.max_chunks()) {
        Ok(locs) => locs,
        Err(e) => {
            problems.push(problem("chunks", absolute(file.offset(), e)));
            Vec::new()
        }
    };
    let index_read = problems.iter().all(|p| p.part != "chunks");
    if !locations.is_empty() || index_read {
        frame.chunk_summary = Some(ChunkSummary::of(&locations));
    }
    if opts.all_chunks && locations.is_empty() && index_read {
        // Nothing to list as it is read: the same empty list as without `--all-chunks`.
        frame.chunks = Some(Vec::new());
    } else if !opts.all_chunks && index_read {
        let listed = usize::try_from(limits.max_items()).unwrap_or(usize::MAX).min(locations.len());
        let mut chunks = Vec::with_capacity(listed);
        for (i, &loc) in locations.iter().enumerate().take(listed) {
            match file.chunk_info(i, loc) {
                Ok(info) => chunks.push(Chunk::from(&info)),
                Err(e) => {
                    problems.push(problem(format!("chunk {i}"), in_file(file.offset(), e)));
                    break;
                }
            }
        }
        frame.chunks = Some(chunks);
        if locations.len() > listed {
            frame.chunks_not_listed = Some(locations.len() - listed);
            // The chunks not listed are not read, but a sparse frame's chunk files must exist.
            if file.frame_type() == FrameType::Sparse
                && let Some(missing) = missing_chunk_files(file.path(), &locations, listed, limits)
            {
                problems.push(problem("chunk files", missing));
            }
        }
    }
    frame.errors = problems.clone();
    Ok(Report { frame, problems, locations })
}

/// Which of the chunk files named by `locations[from..]` are missing from the sparse frame's
/// directory `dir`, said in one sentence; `None` when all are there. One pass over the directory
/// (at most twice `max_chunks` entries), then one look-up per location: bounded whatever the
/// index claims.
fn missing_chunk_files(
    dir: &Path,
    locations: &[ChunkLocation],
    from: usize,
    limits: &Limits,
) -> Option<String> {
    let cap = usize::try_from(limits.max_chunks().saturating_mul(2)).unwrap_or(usize::MAX);
    let mut present = std::collections::HashSet::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return Some(format!("{}: {e}", dir.display())),
    };
    for entry in entries.take(cap).flatten() {
        let name = entry.file_name();
        let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".chunk")) else { continue };
        if stem.len() == 8
            && let Ok(id) = u32::from_str_radix(stem, 16)
            && entry.file_type().is_ok_and(|t| t.is_file())
        {
            present.insert(id);
        }
    }
    let mut missing = locations.iter().enumerate().skip(from).filter_map(|(i, loc)| match loc {
        ChunkLocation::File(id) if !present.contains(id) => Some((i, *id)),
        _ => None,
    });
    let (first, id) = missing.next()?;
    let more = missing.count();
    Some(format!(
        "{} chunk file(s) named by the index are missing or not regular files, the first {id:08X}.chunk (chunk {first})",
        more + 1
    ))
}

/// A vlmetalayer's content as far as it is shown.
enum Shown {
    /// All of it (at most `max_shown` bytes).
    Whole(Vec<u8>),
    /// Its first bytes (it is longer than `max_shown`).
    Prefix(Vec<u8>),
    /// Not decompressed: why.
    NotDecompressed(String),
}

/// A vlmetalayer's chunk header and what of its content is shown: a memcpyed chunk's prefix is
/// read in place, any other chunk decompressed only within the budget (`spent` so far).
fn vlmeta_content(
    content: &[u8],
    limits: &Limits,
    spent: &mut u64,
) -> b2schema::Result<(ChunkHeader, Shown)> {
    let ch = ChunkHeader::parse(content).map_err(|e| b2schema::Error::chunk(e, 0))?;
    let n = ch.uncompressed_len() as u64;
    let shown = usize::try_from(limits.max_shown()).unwrap_or(usize::MAX);
    if ch.is_memcpyed() && ch.special() == chunk::Special::None && n > shown as u64 {
        let start = ch.header_len();
        let data = content.get(start..start.saturating_add(shown)).unwrap_or_default();
        return Ok((ch, Shown::Prefix(data.to_vec())));
    }
    // A special chunk's first bytes, from a copy whose header claims only them.
    if ch.special() != chunk::Special::None && n > shown as u64 {
        let ts = u64::from(ch.typesize.max(1));
        let m = (shown as u64 / ts * ts).max(ts).min(n) as i32;
        let mut head = content.get(..ch.compressed_len()).unwrap_or(content).to_vec();
        head[4..8].copy_from_slice(&m.to_le_bytes());
        let data =
            chunk::decompress_with_limit(&head, m as usize).map_err(|e| b2schema::Error::chunk(e, 0))?;
        return Ok((ch, Shown::Prefix(data)));
    }
    if !limits.within_total(*spent, n) {
        let (limit, max) = if n > limits.max_decompressed() {
            ("--max-decompressed", limits.max_decompressed())
        } else {
            ("--max-decompressed-total", limits.max_decompressed_total())
        };
        let why =
            format!("budget exceeded: {n} bytes to decompress, over the limit of {max} (raise with {limit})");
        return Ok((ch, Shown::NotDecompressed(why)));
    }
    *spent += n;
    let data = chunk::decompress_with_limit(content, n as usize).map_err(|e| b2schema::Error::chunk(e, 0))?;
    if data.len() <= shown {
        Ok((ch, Shown::Whole(data)))
    } else {
        let mut data = data;
        data.truncate(shown);
        Ok((ch, Shown::Prefix(data)))
    }
}

/// `bytes` in hex (all of them, or their first `shown`), and whether they were cut.
fn shown_hex(bytes: &[u8], shown: usize) -> (String, bool) {
    match bytes.get(..shown) {
        Some(head) if bytes.len() > shown => (hex(head), true),
        _ => (hex(bytes), false),
    }
}

/// Writes the report (JSON or human), listing every chunk as it is read with `--all-chunks`;
/// a chunk that cannot be read ends the listing and joins `problems`.
pub fn write_report(
    out: &mut dyn Write,
    file: &FrameFile,
    report: &Report,
    as_json: bool,
    opts: &Options,
    problems: &mut Vec<Problem>,
) -> io::Result<()> {
    let listing = opts.all_chunks && !report.locations.is_empty();
    if !listing {
        return if as_json {
            writeln!(out, "{}", crate::report::json_line(&report.frame))
        } else {
            out.write_all(human(&report.frame).as_bytes())
        };
    }
    let each = |out: &mut dyn Write,
                problems: &mut Vec<Problem>,
                f: &dyn Fn(&mut dyn Write, &Chunk) -> io::Result<()>| {
        // A write error ends the listing and is returned; a chunk that cannot be read ends it
        // and joins the problems.
        let mut written = Ok(());
        let listed = file.for_each_chunk(|info| {
            written = f(out, &Chunk::from(&info));
            if written.is_err() {
                return Err(b2schema::Error::invalid("a writable output", "", "an error", 0));
            }
            Ok(())
        });
        written?;
        if let Err(e) = listed {
            problems.push(problem("chunks", in_file(file.offset(), e)));
        }
        Ok::<(), io::Error>(())
    };
    if as_json {
        // The object without its closing brace, then the chunks one by one.
        let head = crate::report::json_line(&report.frame);
        out.write_all(head.as_bytes().strip_suffix(b"}").unwrap_or(head.as_bytes()))?;
        out.write_all(b",\"chunks\":[")?;
        each(out, problems, &|out, c| {
            if c.index > 0 {
                out.write_all(b",")?;
            }
            out.write_all(crate::report::json_line(c).as_bytes())
        })?;
        out.write_all(b"]")?;
        if !problems.is_empty() {
            write!(out, ",\"errors_listing\":{}", crate::report::json_line(problems))?;
        }
        out.write_all(b"}\n")
    } else {
        out.write_all(human(&report.frame).as_bytes())?;
        each(out, problems, &|out, c| writeln!(out, "{}", text::escape(&c.to_string())))
    }
}

/// The human view of `frame`, escaped and coloured for a terminal.
fn human(frame: &Frame) -> String {
    crate::colour::report(&text::escape_lines(&frame.to_string()))
}
