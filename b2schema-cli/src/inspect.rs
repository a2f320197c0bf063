//! `b2schema inspect PATH [--json]`.

use std::path::Path;
use std::process::ExitCode;

use b2schema::b2nd::{self, NdMeta};
use b2schema::chunk::{self, ChunkHeader};
use b2schema::frame::{ChunkInfo, ChunkLocation, FrameFile, codec_name, filter_name};
use serde_json::{Value, json};

use crate::Failure;
use crate::msgpack_json::{self, hex};

pub fn run(path: &Path, offset: u64, as_json: bool) -> Result<ExitCode, Failure> {
    let file = if path.is_dir() { FrameFile::open(path) } else { FrameFile::open_at(path, offset) }
        .map_err(|e| Failure::at(path, e))?;
    let report = report(path, &file).map_err(|e| Failure::at(path, e))?;
    if as_json {
        println!("{report}");
    } else {
        print!("{}", human(&report));
    }
    Ok(ExitCode::SUCCESS)
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
