//! `b2schema verify PATH` and `b2schema dump PATH`.

use std::path::Path;
use std::process::ExitCode;

use b2schema::dump::Options;
use b2schema::frame::{FrameFile, FrameHeader, Trailer};
use b2schema::layout::{self, B2Layout, Layout};

use crate::Failure;

/// Decodes each section, re-encodes it from the decoded values and compares the bytes. Exit 0
/// when everything is identical, 1 at the first difference or section that does not decode.
pub fn run(path: &Path, limits: b2schema::Limits) -> Result<ExitCode, Failure> {
    let file = FrameFile::locate_with_limits(path, limits).map_err(|e| Failure::at(path, e))?;
    let mut failed = false;
    let t = file.trailer_offset() as usize;
    let header = section::<FrameHeader>("header", file.header_bytes(), 0, FrameHeader::LAYOUT);
    let trailer = section::<Trailer>("trailer", file.trailer_bytes(), t, Trailer::LAYOUT);
    for (name, r) in [("header", header), ("trailer", trailer)] {
        match r {
            Ok(n) => println!("{name:<8} {n} bytes, re-encoded identically"),
            Err(msg) => {
                println!("{name:<8} {msg}");
                failed = true;
            }
        }
    }
    match file.view() {
        Ok(v) => match v.chunk_locations_with_limit(limits.max_chunks()) {
            Ok(locs) => println!(
                "frame    valid: {} chunks, offsets index of {} bytes at {}",
                locs.len(),
                v.index_bytes.len(),
                v.index_offset
            ),
            Err(e) => {
                println!("index    {e}");
                failed = true;
            }
        },
        Err(e) => {
            println!("frame    {e}");
            failed = true;
        }
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
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

/// The annotated dumps of the header and the trailer.
pub fn dump(path: &Path, limits: b2schema::Limits) -> Result<ExitCode, Failure> {
    let file = FrameFile::locate_with_limits(path, limits).map_err(|e| Failure::at(path, e))?;
    let max_output = usize::try_from(limits.max_output()).unwrap_or(usize::MAX);
    let opts = Options { max_payload_lines: 8, max_output, ..Options::default() };
    println!("# header ({} bytes)", file.header_bytes().len());
    print!("{}", layout::annotate_with(FrameHeader::LAYOUT, file.header_bytes(), opts));
    let t = file.trailer_offset() as usize;
    println!("\n# trailer ({} bytes at {t})", file.trailer_bytes().len());
    print!(
        "{}",
        layout::annotate_with(Trailer::LAYOUT, file.trailer_bytes(), Options { base_offset: t, ..opts })
    );
    Ok(ExitCode::SUCCESS)
}
