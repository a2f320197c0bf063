//! `b2schema inspect PATH... [--json]`.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use b2schema::b2nd::{self, NdMeta};
use b2schema::chunk::{self, ChunkHeader};
use b2schema::frame::{ChunkInfo, ChunkLocation, FrameFile, SPARSE_INDEX, codec_name, filter_name};
use serde_json::{Value, json};

use crate::Failure;
use crate::msgpack_json::{self, hex};

/// One frame (one PATH that is a file or a sparse frame): its report, or the error through
/// `main`. Anything else (several PATHs, a plain directory): a scan, see [`scan`].
pub fn run(paths: &[PathBuf], offset: u64, as_json: bool) -> Result<ExitCode, Failure> {
    match paths {
        [path] if !is_plain_dir(path) => run_one(path, offset, as_json),
        _ => scan(paths, offset, as_json),
    }
}

fn run_one(path: &Path, offset: u64, as_json: bool) -> Result<ExitCode, Failure> {
    let report = open_and_report(path, offset).map_err(|e| Failure::at(path, e))?;
    let mut out = io::stdout().lock();
    let written = if as_json { writeln!(out, "{report}") } else { out.write_all(human(&report).as_bytes()) };
    ended(written.and_then(|()| out.flush()))?;
    Ok(ExitCode::SUCCESS)
}

/// Inspects every frame of `paths` in order (a plain directory stands for what [`list`]
/// finds in it) through one buffered stdout. A frame that fails does not stop the scan: with
/// `--json` its line is `{"path", "error"}`, otherwise the error goes to stderr after the
/// path. Exit code 2 when anything failed.
fn scan(paths: &[PathBuf], offset: u64, as_json: bool) -> Result<ExitCode, Failure> {
    let mut scan = Scan {
        out: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
        as_json,
        offset,
        inputs: 0,
        failed: 0,
        reports: 0,
    };
    let written = paths.iter().try_for_each(|path| scan.arg(path)).and_then(|()| scan.out.flush());
    ended(written)?;
    if scan.failed == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let _ = writeln!(io::stderr(), "b2schema: {} of {} inputs could not be read", scan.failed, scan.inputs);
    Ok(ExitCode::from(2))
}

struct Scan<W: Write> {
    out: W,
    as_json: bool,
    offset: u64,
    /// Frames (and unlistable directories) seen, and how many of them failed.
    inputs: usize,
    failed: usize,
    /// Human reports written, to separate them with an empty line.
    reports: usize,
}

impl<W: Write> Scan<W> {
    fn arg(&mut self, path: &Path) -> io::Result<()> {
        if !is_plain_dir(path) {
            return self.frame(path);
        }
        match list(path) {
            Ok(entries) => entries.iter().try_for_each(|entry| self.frame(entry)),
            Err(e) => self.failure(path, &e),
        }
    }

    fn frame(&mut self, path: &Path) -> io::Result<()> {
        self.inputs += 1;
        let report = match open_and_report(path, self.offset) {
            Ok(report) => report,
            Err(e) => return self.failure(path, &e),
        };
        if self.as_json {
            writeln!(self.out, "{report}")
        } else {
            if self.reports > 0 {
                self.out.write_all(b"\n")?;
            }
            self.reports += 1;
            self.out.write_all(human(&report).as_bytes())
        }
    }

    fn failure(&mut self, path: &Path, error: &dyn std::fmt::Display) -> io::Result<()> {
        self.failed += 1;
        let path = path.display().to_string();
        if self.as_json {
            let line = json!({ "path": path, "error": error.to_string() });
            writeln!(self.out, "{line}")
        } else {
            // The reports before it first, for a terminal that shows both streams.
            self.out.flush()?;
            let _ = writeln!(io::stderr(), "b2schema: {path}: {error}");
            Ok(())
        }
    }
}

/// A write error ends the command, except a closed pipe (`| head`): that is a normal end.
fn ended(written: io::Result<()>) -> Result<(), Failure> {
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Failure(format!("writing the output: {e}"))),
        _ => Ok(()),
    }
}

fn open_and_report(path: &Path, offset: u64) -> b2schema::Result<Value> {
    let file = if path.is_dir() { FrameFile::open(path) } else { FrameFile::open_at(path, offset) }?;
    report(path, &file)
}

/// A directory without the index file of a sparse frame (`chunks.b2frame`): it stands for the
/// frames inside it. A sparse frame whose index is broken stays one frame, which fails.
fn is_plain_dir(path: &Path) -> bool {
    path.is_dir() && !path.join(SPARSE_INDEX).exists()
}

/// The entries directly inside `dir` that are regular files or sparse frames (symbolic links
/// followed), sorted by name; other directories are skipped, not entered.
fn list(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let mut kind = entry.file_type()?;
        if kind.is_symlink() {
            match std::fs::metadata(&path) {
                Ok(m) => kind = m.file_type(),
                Err(_) => continue, // dangling: not a regular file
            }
        }
        if kind.is_file() || (kind.is_dir() && path.join(SPARSE_INDEX).exists()) {
            entries.push(path);
        }
    }
    entries.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    Ok(entries)
}

/// The `inspect --json` object (its contract is in the README).
pub fn report(path: &Path, file: &FrameFile) -> b2schema::Result<Value> {
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
        "filters_meta": h.filter_pipeline.filters_meta,
    });
    if let Some(name) = codec_name(codec_id) {
        header["codec"] = json!(name);
    }
    let metalayers: Vec<Value> = h
        .metalayers
        .iter()
        .map(|(name, offset, content)| {
            let mut m = json!({ "name": name, "offset": offset, "len": content.len(), "hex": hex(content) });
            if matches!(name, "b2nd" | "caterva")
                && let Some(nd) = b2nd::read(content).or_else(|_| b2nd::read_compat(content)).ok()
            {
                m["b2nd"] = nd_json(&nd);
            }
            m
        })
        .collect();
    let t = v.trailer_offset;
    let vlmetalayers: Vec<Value> = v
        .trailer
        .vlmetalayers
        .iter()
        .map(|(name, offset, content)| {
            let mut m = json!({ "name": name, "offset": t + offset as u64 });
            if let Ok(ch) = ChunkHeader::parse(content) {
                m["chunk"] = chunk_json(&ch);
            }
            if let Ok(data) = chunk::decompress(content) {
                m["hex"] = json!(hex(&data));
                if let Some(value) = msgpack_json::decode(&data) {
                    m["value"] = value;
                }
            }
            m
        })
        .collect();
    let mut out = json!({
        "path": path.display().to_string(),
        "kind": if v.is_sparse() { "sframe" } else { "cframe" },
        "header": header,
        "nchunks": v.nchunks()?,
        "metalayers": metalayers,
        "vlmetalayers": vlmetalayers,
    });
    if let Ok(chunks) = file.chunks() {
        out["chunks"] = chunks.iter().map(chunk_info_json).collect();
    }
    Ok(out)
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
        "codec": ch.codec().name(),
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
        r["path"].as_str().unwrap_or(""),
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
            let id = f.as_u64().unwrap_or(0) as u8;
            let name = filter_name(id).map(str::to_owned).unwrap_or_else(|| format!("filter {id}"));
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
    let metas = r["metalayers"].as_array().cloned().unwrap_or_default();
    let _ = writeln!(s, "metalayers {}", metas.len());
    for m in &metas {
        let mut line =
            format!("  {:<10} {} bytes at {}", m["name"].as_str().unwrap_or(""), m["len"], m["offset"]);
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
                let _ = write!(line, ", dtype {}", d.as_str().unwrap_or(""));
            }
        } else if let Some(v) = msgpack_json::decode(&unhex(m["hex"].as_str().unwrap_or(""))) {
            let _ = write!(line, ": {}", short(&v.to_string()));
        }
        let _ = writeln!(s, "{line}");
    }
    let vls = r["vlmetalayers"].as_array().cloned().unwrap_or_default();
    let _ = writeln!(s, "vlmeta     {}", vls.len());
    for m in &vls {
        let mut line = format!("  {:<10}", m["name"].as_str().unwrap_or(""));
        if let Some(c) = m.get("chunk") {
            let _ = write!(
                line,
                " {} -> {} bytes ({})",
                c["cbytes"],
                c["nbytes"],
                if c["memcpyed"] == true { "memcpy" } else { c["codec"].as_str().unwrap_or("") }
            );
        }
        match (m.get("value"), m.get("hex")) {
            (Some(v), _) => {
                let _ = write!(line, ": {}", short(&v.to_string()));
            }
            (None, Some(h)) => {
                let _ = write!(line, ": raw {}", short(h.as_str().unwrap_or("")));
            }
            _ => {}
        }
        let _ = writeln!(s, "{line}");
    }
    let chunks = r["chunks"].as_array().cloned().unwrap_or_default();
    let specials = chunks.iter().filter(|c| !c["special"].is_null()).count();
    let _ = writeln!(s, "chunks     {} ({specials} special)", r["nchunks"]);
    const SHOWN: usize = 8;
    for c in chunks.iter().take(SHOWN) {
        let place = match (c.get("offset"), c.get("file_id")) {
            (Some(o), _) => format!("offset {o}"),
            (_, Some(id)) => format!("file {:08X}.chunk", id.as_u64().unwrap_or(0)),
            _ => "no bytes".into(),
        };
        let special = c["special"].as_str().map(|k| format!(", {k}")).unwrap_or_default();
        let _ =
            writeln!(s, "  #{:<5} {place:<20} {} -> {} bytes{special}", c["index"], c["cbytes"], c["nbytes"]);
    }
    if chunks.len() > SHOWN {
        let _ = writeln!(s, "  ... {} more", chunks.len() - SHOWN);
    }
    s
}

fn short(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        format!("{}...", s.chars().take(MAX).collect::<String>())
    }
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2).filter_map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()).collect()
}
