//! `b2schema dump PATH`: the annotated bytes of a frame's header, metalayers, trailer and
//! vlmetalayers.

use std::path::Path;
use std::process::ExitCode;

use b2schema::b2nd::{B2nd, B2ndDev6, Caterva, LayoutKind};
use b2schema::chunk;
use b2schema::dump::Options;
use b2schema::frame::{FrameHeader, Trailer};
use b2schema::layout::{self, B2Layout, Layout};

use crate::open::{self, Mode};
use crate::{Failure, msgpack_json};

/// The annotated dumps of the header, each metalayer (under its own layout when known, as
/// msgpack otherwise), the trailer and each vlmetalayer's decompressed content; cut after a
/// few lines per value unless `all`. Offsets are absolute in the file.
pub fn run(path: &Path, offset: u64, limits: b2schema::Limits, all: bool) -> Result<ExitCode, Failure> {
    let file = open::open(path, offset, limits, Mode::Located)?;
    let max_output = usize::try_from(limits.max_output()).unwrap_or(usize::MAX);
    let base = file.offset() as usize;
    let lines = if all { usize::MAX } else { 8 };
    let opts = Options { max_payload_lines: lines, max_output, base_offset: base };
    // A metalayer's or vlmetalayer's own dump: bounded too unless --all (one line per value).
    let value_opts = Options { max_output: if all { max_output } else { VALUE_TEXT }, ..opts };
    let shown = if all { usize::MAX } else { VALUE_TEXT };
    let mut out = String::new();
    let at = |o: usize| if base == 0 { String::new() } else { format!(" at {o}") };
    section_title(&mut out, &format!("header ({} bytes{})", file.header_bytes().len(), at(base)));
    out.push_str(&layout::annotate_with(FrameHeader::LAYOUT, file.header_bytes(), opts));
    let view = file.view();
    if let Ok(v) = &view {
        for (name, o, content) in v.header.metalayers.iter() {
            // The header's offset is the content's bin32 marker; the content follows it.
            let o = base + o.max(0) as usize + BIN32_HEAD;
            let known = match name {
                "b2nd" | "caterva" => b2schema::b2nd::read_any(content).ok().map(|nd| nd.layout),
                _ => None,
            };
            let opts = Options { base_offset: o, ..value_opts };
            match known {
                Some(kind) => {
                    let (l, n): (&Layout, _) = match kind {
                        LayoutKind::B2nd7 => (B2nd::LAYOUT, "b2nd"),
                        LayoutKind::B2nd6 => (B2ndDev6::LAYOUT, "b2nd-dev6"),
                        LayoutKind::Caterva5 => (Caterva::LAYOUT, "caterva"),
                    };
                    let title = format!("metalayer {name} ({} bytes at {o}), layout {n}", content.len());
                    section_title(&mut out, &title);
                    out.push_str(&layout::annotate_with(l, content, opts));
                }
                None => {
                    section_title(
                        &mut out,
                        &format!("metalayer {name} ({} bytes at {o}), msgpack", content.len()),
                    );
                    msgpack(&mut out, content, opts, shown);
                }
            }
        }
    }
    let t = base + file.trailer_offset() as usize;
    section_title(&mut out, &format!("trailer ({} bytes at {t})", file.trailer_bytes().len()));
    out.push_str(&layout::annotate_with(
        Trailer::LAYOUT,
        file.trailer_bytes(),
        Options { base_offset: t, ..opts },
    ));
    match view {
        Ok(v) => {
            let max = usize::try_from(limits.max_decompressed()).unwrap_or(usize::MAX);
            for (name, o, content) in v.trailer.vlmetalayers.iter() {
                let o = t + o.max(0) as usize;
                match chunk::decompress_with_limit(content, max) {
                    Ok(data) => {
                        let title = format!(
                            "vlmetalayer {name} (a chunk of {} bytes at {o}; its {} bytes decompressed, offsets in them)",
                            content.len(),
                            data.len()
                        );
                        section_title(&mut out, &title);
                        msgpack(&mut out, &data, Options { base_offset: 0, ..value_opts }, shown);
                    }
                    Err(e) => {
                        section_title(&mut out, &format!("vlmetalayer {name} (a chunk at {o})"));
                        out.push_str(&format!("!! does not decompress: {e}\n"));
                    }
                }
            }
        }
        Err(e) => out.push_str(&format!(
            "\n!! metalayers and vlmetalayers not shown: {}\n",
            open::absolute(offset, e)
        )),
    }
    crate::print(crate::text::escape_lines(&realign(&out)).as_bytes())
}

/// A bin32 marker and its 4-byte length: what precedes a metalayer's content.
const BIN32_HEAD: usize = 5;

fn section_title(out: &mut String, title: &str) {
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str("# ");
    out.push_str(title);
    out.push('\n');
}

/// The generic msgpack dump of `bytes`, then their value as JSON (as `inspect --json` gives it).
/// The JSON is cut after `shown` bytes (with how many more there are).
fn msgpack(out: &mut String, bytes: &[u8], opts: Options, shown: usize) {
    out.push_str(&b2schema::dump::annotate_with(bytes, opts));
    if bytes.len() > shown {
        out.push_str(&format!("= (its {} bytes not decoded to JSON; --all)\n", bytes.len()));
    } else if let Some(v) = msgpack_json::decode(bytes) {
        let v = v.to_string();
        match v.char_indices().nth(shown) {
            None => out.push_str(&format!("= {v}\n")),
            Some((cut, _)) => {
                out.push_str(&format!("= {}... ({} more bytes; --all)\n", &v[..cut], v.len() - cut))
            }
        }
    }
}

/// The most text of one metalayer's or vlmetalayer's own dump and JSON without --all.
const VALUE_TEXT: usize = 16 << 10;

/// Dump lines whose bytes overflow their column (more than a marker and 8 bytes, as a
/// fixext16's 16 bytes) split into lines of 8, so that every column stays aligned.
pub fn realign(text: &str) -> String {
    const PER_LINE: usize = 8;
    const HEX_COLUMN: usize = 26;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let split = line.split_once("  ").and_then(|(off, rest)| {
            let at = usize::from_str_radix(off, 16).ok()?;
            let mut tokens = Vec::new();
            let mut r = rest;
            while r.len() >= 2 && r.as_bytes()[..2].iter().all(u8::is_ascii_hexdigit) {
                tokens.push(&r[..2]);
                r = &r[2..];
                match r.strip_prefix(' ') {
                    Some(next) if next.starts_with(' ') || next.is_empty() => break,
                    Some(next) => r = next,
                    None => break,
                }
            }
            (tokens.len() * 3 > HEX_COLUMN + 1)
                .then(|| (off.len(), at, tokens, r.trim_start_matches(' ').len(), r))
        });
        match split {
            None => {
                out.push_str(line);
                out.push('\n');
            }
            Some((width, at, tokens, _, rest)) => {
                // `rest` is the two spaces after the bytes, then the indentation and the text.
                let text = rest.strip_prefix(' ').unwrap_or(rest);
                for (i, group) in tokens.chunks(PER_LINE).enumerate() {
                    let hex = group.join(" ");
                    let start = format!("{:0width$x}  {hex:<HEX_COLUMN$}", at + i * PER_LINE);
                    if i == 0 {
                        out.push_str(&format!("{start} {text}"));
                    } else {
                        out.push_str(start.trim_end());
                    }
                    out.push('\n');
                }
            }
        }
    }
    out
}
