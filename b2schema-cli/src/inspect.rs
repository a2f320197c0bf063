//! `b2schema inspect PATH... [--json]`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::text;
use b2schema::Limits;
use b2schema::b2nd::{self, NdMeta};
use b2schema::chunk::{self, ChunkHeader, Codec, Filter};
use b2schema::frame::{ChunkInfo, ChunkLocation, FrameFile, FrameType, SpecialValue};
use serde_json::{Value, json};

use crate::msgpack_json::{self, hex};
use crate::open::{absolute, in_file};
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
fn say_problems(path: &Path, problems: &[(String, String)]) {
    for (part, e) in problems {
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
        if self.offset == 0 && crate::kind::is_store(path, self.opts.limits) {
            return self.store(path);
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
    fn store(&mut self, path: &Path) -> io::Result<()> {
        let store = match crate::store::open_for_scan(path, self.opts.limits) {
            Ok(store) => store,
            Err(e) => return self.failure(path, &e),
        };
        if !self.as_json && self.reports > 0 {
            self.out.write_all(b"\n")?;
        }
        self.reports += 1;
        if crate::store::write_listing(&mut self.out, path, &store, self.as_json)? {
            self.failed += 1;
        }
        Ok(())
    }

    fn failure(&mut self, path: &Path, error: &dyn std::fmt::Display) -> io::Result<()> {
        self.failed += 1;
        let error = crate::budget::cli_text(&error.to_string()).into_owned();
        if self.as_json {
            let mut line = serde_json::Map::new();
            crate::paths_json::insert(&mut line, path);
            line.insert("error".into(), json!(error));
            return writeln!(self.out, "{}", Value::Object(line));
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
pub const SCHEMA_VERSION: u32 = 2;

/// A frame's report: the `inspect --json` object, the parts that could not be read, and the
/// chunk locations (for the listing streamed by `--all-chunks`).
pub struct Report {
    /// The `inspect --json` object (its contract is in the README); with `--all-chunks` its
    /// `chunks` are written by [`write_report`] as they are read.
    pub value: Value,
    /// `(part, message)` for each part that could not be read: the exit code is 2 then.
    pub problems: Vec<(String, String)>,
    /// Every chunk's location (empty when the index could not be read).
    pub locations: Vec<ChunkLocation>,
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
    let mut header = json!({
        "header_len": h.header_len,
        "frame_len": h.frame_len,
        "format_version": h.flags.format_version(),
        "frame_type": if v.is_sparse() { "sparse" } else { "contiguous" },
        "variable_chunks": h.flags.variable_chunks(),
        "vl_blocks": h.flags.vl_blocks(),
        "codec_id": codec_id,
        "codec_meta": h.filter_pipeline.codec_meta,
        "clevel": h.flags.clevel(),
        "splitmode": h.flags.splitmode().name(),
        "use_dict": h.filter_pipeline.use_dict(),
        "nbytes": h.nbytes,
        "cbytes": h.cbytes,
        "typesize": h.typesize,
        "blocksize": h.blocksize,
        "chunksize": h.chunksize,
        "nthreads_comp": h.nthreads_comp,
        "nthreads_decomp": h.nthreads_decomp,
        "has_vlmetalayers": h.has_vlmetalayers,
        "filters": h.filter_pipeline.filters,
        "filter_names": h.filter_pipeline.filters.iter().map(|&id| filter_name(id)).collect::<Vec<_>>(),
        "filters_meta": h.filter_pipeline.filters_meta,
    });
    if let Some(name) = Codec::from_id(codec_id).name()
        && let Some(h) = header.as_object_mut()
    {
        // Right after the id it names.
        let at = h.keys().position(|k| k == "codec_id").map_or(h.len(), |i| i + 1);
        h.shift_insert(at, "codec".into(), json!(name));
    }
    let metalayers: Vec<Value> = h
        .metalayers
        .iter()
        .map(|(name, offset, content)| {
            let mut m = json!({ "name": name, "offset": offset, "len": content.len() });
            shown_bytes(&mut m, content, shown);
            if matches!(name, "b2nd" | "caterva")
                && let Some(nd) = b2nd::read_any(content).ok()
            {
                m["b2nd"] = nd_json(&nd);
            } else if content.len() <= shown
                && let Some(value) = msgpack_json::decode(content)
            {
                m["value"] = value;
            }
            m
        })
        .collect();
    let t = v.trailer_offset;
    let mut spent = 0u64;
    let mut vlmetalayers = Vec::new();
    for (name, offset, content) in v.trailer.vlmetalayers.iter() {
        let at = t + offset as u64;
        let mut m = json!({ "name": name, "offset": at });
        match vlmeta_content(content, limits, &mut spent) {
            Ok((ch, content)) => {
                m["chunk"] = chunk_json(&ch);
                match content {
                    Shown::Whole(data) => {
                        m["hex"] = json!(hex(&data));
                        if let Some(value) = msgpack_json::decode(&data) {
                            m["value"] = value;
                        }
                    }
                    Shown::Prefix(data) => shown_bytes(&mut m, &data, shown),
                    Shown::NotDecompressed(why) => {
                        m["truncated"] = json!(true);
                        m["not_shown"] = json!(why);
                    }
                }
            }
            Err(e) => problems.push((
                format!("vlmetalayer {name}"),
                absolute(file.offset(), e.shift_offset(at as usize + 5)),
            )),
        }
        vlmetalayers.push(m);
    }
    let mut out = json!({
        "schema": SCHEMA_VERSION,
        "path": path.to_string_lossy(),
        "kind": if v.is_sparse() { "sframe" } else { "cframe" },
        "offset": file.offset(),
        "header": header,
        "metalayers": metalayers,
        "vlmetalayers": vlmetalayers,
    });
    if let Some(hex) = crate::paths_json::hex_if_not_utf8(path)
        && let Some(m) = out.as_object_mut()
    {
        m.shift_insert(2, "path_hex".into(), json!(hex));
    }
    match v.nchunks() {
        Ok(n) => out["nchunks"] = json!(n),
        Err(e) => problems.push(("nchunks".into(), absolute(file.offset(), e))),
    }
    let locations = match v.chunk_locations_with_limit(limits.max_chunks()) {
        Ok(locs) => locs,
        Err(e) => {
            problems.push(("chunks".into(), absolute(file.offset(), e)));
            Vec::new()
        }
    };
    if !locations.is_empty() || problems.iter().all(|(p, _)| p != "chunks") {
        out["chunk_summary"] = summary(&locations);
    }
    if opts.all_chunks && locations.is_empty() && problems.iter().all(|(p, _)| p != "chunks") {
        // Nothing to list as it is read: the same empty list as without `--all-chunks`.
        out["chunks"] = json!([]);
    } else if !opts.all_chunks && problems.iter().all(|(p, _)| p != "chunks") {
        let listed = usize::try_from(limits.max_items()).unwrap_or(usize::MAX).min(locations.len());
        let mut chunks = Vec::with_capacity(listed);
        for (i, &loc) in locations.iter().enumerate().take(listed) {
            match file.chunk_info(i, loc) {
                Ok(info) => chunks.push(chunk_info_json(&info)),
                Err(e) => {
                    problems.push((format!("chunk {i}"), in_file(file.offset(), e)));
                    break;
                }
            }
        }
        out["chunks"] = Value::Array(chunks);
        if locations.len() > listed {
            out["chunks_not_listed"] = json!(locations.len() - listed);
            // The chunks not listed are not read, but a sparse frame's chunk files must exist.
            if file.frame_type() == FrameType::Sparse
                && let Some(missing) = missing_chunk_files(file.path(), &locations, listed, limits)
            {
                problems.push(("chunk files".into(), missing));
            }
        }
    }
    if !problems.is_empty() {
        out["errors"] = problems.iter().map(|(part, e)| json!({ "part": part, "error": e })).collect();
    }
    Ok(Report { value: out, problems, locations })
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

/// `hex` (all of `bytes`, or their first `shown` with `truncated`).
fn shown_bytes(m: &mut Value, bytes: &[u8], shown: usize) {
    if bytes.len() <= shown {
        m["hex"] = json!(hex(bytes));
    } else {
        m["hex"] = json!(hex(&bytes[..shown]));
        m["truncated"] = json!(true);
    }
}

/// How many chunks of each kind the index holds (stored chunks may still be special by their
/// own header: that shows in their listing).
fn summary(locations: &[ChunkLocation]) -> Value {
    let mut n = [0u64; 4];
    for loc in locations {
        let k = match loc {
            ChunkLocation::Special(SpecialValue::Zeros) => 1,
            ChunkLocation::Special(SpecialValue::Nan) => 2,
            ChunkLocation::Special(_) => 3,
            _ => 0,
        };
        n[k] += 1;
    }
    json!({ "stored": n[0], "zeros": n[1], "nan": n[2], "uninit": n[3] })
}

/// Writes the report (JSON or human), listing every chunk as it is read with `--all-chunks`;
/// a chunk that cannot be read ends the listing and joins `problems`.
pub fn write_report(
    out: &mut dyn Write,
    file: &FrameFile,
    report: &Report,
    as_json: bool,
    opts: &Options,
    problems: &mut Vec<(String, String)>,
) -> io::Result<()> {
    let listing = opts.all_chunks && !report.locations.is_empty();
    if !listing {
        return if as_json {
            writeln!(out, "{}", report.value)
        } else {
            out.write_all(crate::colour::report(&text::escape_lines(&human(&report.value))).as_bytes())
        };
    }
    let each = |out: &mut dyn Write,
                problems: &mut Vec<(String, String)>,
                f: &dyn Fn(&mut dyn Write, usize, &Value) -> io::Result<()>| {
        // A write error ends the listing and is returned; a chunk that cannot be read ends it
        // and joins the problems.
        let mut written = Ok(());
        let listed = file.for_each_chunk(|info| {
            written = f(out, info.index, &chunk_info_json(&info));
            if written.is_err() {
                return Err(b2schema::Error::invalid("a writable output", "", "an error", 0));
            }
            Ok(())
        });
        written?;
        if let Err(e) = listed {
            problems.push(("chunks".into(), in_file(file.offset(), e)));
        }
        Ok::<(), io::Error>(())
    };
    if as_json {
        // The object without its closing brace, then the chunks one by one.
        let head = report.value.to_string();
        out.write_all(head.as_bytes().strip_suffix(b"}").unwrap_or(head.as_bytes()))?;
        out.write_all(b",\"chunks\":[")?;
        each(out, problems, &|out, i, c| {
            if i > 0 {
                out.write_all(b",")?;
            }
            write!(out, "{c}")
        })?;
        out.write_all(b"]")?;
        if !problems.is_empty() {
            let errors: Value =
                problems.iter().map(|(part, e)| json!({ "part": part, "error": e })).collect();
            write!(out, ",\"errors_listing\":{errors}")?;
        }
        out.write_all(b"}\n")
    } else {
        out.write_all(crate::colour::report(&text::escape_lines(&human(&report.value))).as_bytes())?;
        each(out, problems, &|out, _, c| writeln!(out, "{}", text::escape(&chunk_line(c))))
    }
}

fn nd_json(nd: &NdMeta) -> Value {
    let mut m = json!({
        "layout": nd.layout.name(),
        "version": nd.version,
        "ndim": nd.ndim(),
        "shape": nd.shape,
        "chunkshape": nd.chunkshape,
        "blockshape": nd.blockshape,
    });
    if let Some(f) = nd.dtype_format {
        m["dtype_format"] = json!(f);
    }
    if let Some(d) = &nd.dtype {
        m["dtype"] = json!(d);
    }
    m
}

fn chunk_json(ch: &ChunkHeader) -> Value {
    json!({
        "cbytes": ch.compressed_len(),
        "nbytes": ch.uncompressed_len(),
        "codec": ch.codec().map_or("unknown compressor format", Codec::label),
        "memcpyed": ch.is_memcpyed(),
    })
}

fn chunk_info_json(c: &ChunkInfo) -> Value {
    let mut m = json!({
        "index": c.index,
        "special": c.special.map(|s| s.name()),
        "cbytes": c.cbytes,
        "nbytes": c.nbytes,
    });
    match c.location {
        ChunkLocation::Offset(o) => m["offset"] = json!(o),
        ChunkLocation::File(id) => m["file_id"] = json!(id),
        ChunkLocation::Special(_) => {}
    }
    m
}

/// The human summary, from the same report.
fn human(r: &Value) -> String {
    use std::fmt::Write;
    let h = &r["header"];
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}: {} frame, {} bytes",
        crate::paths_json::shown(r),
        h["frame_type"].as_str().unwrap_or(""),
        h["frame_len"]
    );
    let _ = writeln!(
        s,
        "header     {} bytes, format v{}{}{}",
        h["header_len"],
        h["format_version"],
        if h["variable_chunks"] == true { ", variable chunks" } else { "" },
        if h["vl_blocks"] == true { ", VL blocks" } else { "" },
    );
    let codec = h["codec"].as_str().map(str::to_owned).unwrap_or_else(|| format!("codec {}", h["codec_id"]));
    let _ = writeln!(
        s,
        "  codec    {codec} (id {}), clevel {}, splitmode {}{}",
        h["codec_id"],
        h["clevel"],
        h["splitmode"].as_str().unwrap_or(""),
        if h["use_dict"] == true { ", dictionary" } else { "" }
    );
    let filters: Vec<String> = h["filters"]
        .as_array()
        .into_iter()
        .flatten()
        .zip(h["filters_meta"].as_array().into_iter().flatten())
        .filter(|(f, _)| f.as_u64() != Some(0))
        .map(|(f, m)| {
            let name = filter_name(f.as_u64().unwrap_or(0) as u8);
            if m.as_u64() == Some(0) { name } else { format!("{name}({m})") }
        })
        .collect();
    let _ = writeln!(s, "  filters  {}", if filters.is_empty() { "none".into() } else { filters.join(", ") });
    let _ = writeln!(
        s,
        "  sizes    nbytes {}, cbytes {}, typesize {}, blocksize {}, chunksize {}",
        h["nbytes"], h["cbytes"], h["typesize"], h["blocksize"], h["chunksize"]
    );
    let _ = writeln!(
        s,
        "  threads  {} compression, {} decompression (as written)",
        h["nthreads_comp"], h["nthreads_decomp"]
    );
    let none = Vec::new();
    let metas = r["metalayers"].as_array().unwrap_or(&none);
    let _ = writeln!(s, "metalayers {}", metas.len());
    for m in metas {
        let mut line = format!(
            "  {:<10} {} bytes at {}",
            text::escape(m["name"].as_str().unwrap_or("")),
            m["len"],
            m["offset"]
        );
        if let Some(nd) = m.get("b2nd") {
            let _ = write!(
                line,
                ": {}, shape {}, chunks {}, blocks {}",
                nd["layout"].as_str().unwrap_or(""),
                nd["shape"],
                nd["chunkshape"],
                nd["blockshape"]
            );
            if let Some(d) = nd.get("dtype") {
                let _ = write!(line, ", dtype {}", text::escape(d.as_str().unwrap_or("")));
            }
        } else if let Some(v) = m.get("value") {
            let _ = write!(line, ": {}", text::escape(&short(&v.to_string())));
        }
        let _ = writeln!(s, "{line}");
    }
    let vls = r["vlmetalayers"].as_array().unwrap_or(&none);
    let _ = writeln!(s, "vlmeta     {}", vls.len());
    for m in vls {
        let mut line = format!("  {:<10}", text::escape(m["name"].as_str().unwrap_or("")));
        if let Some(c) = m.get("chunk") {
            let _ = write!(
                line,
                " {} -> {} ({})",
                c["cbytes"],
                bytes(&c["nbytes"]),
                if c["memcpyed"] == true { "memcpy" } else { c["codec"].as_str().unwrap_or("") }
            );
        }
        match (m.get("value"), m.get("hex")) {
            (Some(v), _) => {
                let _ = write!(line, ": {}", text::escape(&short(&v.to_string())));
            }
            (None, Some(h)) => {
                let _ = write!(line, ": raw {}", short(h.as_str().unwrap_or("")));
            }
            _ => {}
        }
        if let Some(why) = m["not_shown"].as_str() {
            let _ = write!(line, ": not shown, {}", text::escape(why));
        }
        let _ = writeln!(s, "{line}");
    }
    let empty = Vec::new();
    let chunks = r["chunks"].as_array().unwrap_or(&empty);
    let listed_specials = chunks.iter().filter(|c| !c["special"].is_null()).count() as u64;
    let sum = &r["chunk_summary"];
    let index_specials: u64 = ["zeros", "nan", "uninit"].iter().filter_map(|k| sum[k].as_u64()).sum();
    let listed_index_specials =
        chunks.iter().filter(|c| !c["special"].is_null() && c["cbytes"] == 0).count() as u64;
    let specials = listed_specials + index_specials - listed_index_specials.min(index_specials);
    let _ = writeln!(s, "chunks     {} ({specials} special)", r["nchunks"]);
    const SHOWN: usize = 8;
    for c in chunks.iter().take(SHOWN) {
        let _ = writeln!(s, "{}", chunk_line(c));
    }
    let total = r["nchunks"].as_u64().unwrap_or(chunks.len() as u64);
    if total > SHOWN as u64 && !chunks.is_empty() {
        let _ = writeln!(s, "  ... {} more", total - SHOWN as u64);
    }
    if let Some(errors) = r["errors"].as_array() {
        for e in errors {
            let _ = writeln!(
                s,
                "!! {}: {}",
                text::escape(e["part"].as_str().unwrap_or("")),
                text::escape(e["error"].as_str().unwrap_or(""))
            );
        }
    }
    s
}

/// A filter's name in `header.filter_names`: its name, `"none"` for 0 (no filter in that
/// slot), `"filter N"` for an id this build does not know.
fn filter_name(id: u8) -> String {
    match id {
        0 => "none".into(),
        _ => Filter::from_id(id).name().map(str::to_owned).unwrap_or_else(|| format!("filter {id}")),
    }
}

/// One chunk's line of the human report.
fn chunk_line(c: &Value) -> String {
    let place = match (c.get("offset"), c.get("file_id")) {
        (Some(o), _) => format!("offset {o}"),
        (_, Some(id)) => format!("file {:08X}.chunk", id.as_u64().unwrap_or(0)),
        _ => "no bytes".into(),
    };
    let special = c["special"].as_str().map(|k| format!(", {k}")).unwrap_or_default();
    format!("  #{:<5} {place:<20} {} -> {}{special}", c["index"], c["cbytes"], bytes(&c["nbytes"]))
}

/// "1 byte", "N bytes" for a count in the JSON report.
fn bytes(n: &Value) -> String {
    format!("{n} byte{}", if n.as_u64() == Some(1) { "" } else { "s" })
}

fn short(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        format!("{}...", s.chars().take(MAX).collect::<String>())
    }
}
