//! `b2schema cat PATH`: the data, streamed.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use b2schema::Limits;
use b2schema::frame::FrameFile;

use crate::Failure;

/// Writes the data of the frame at `path` to `output` (stdout when `None`): exactly the
/// header's length of data, written as it is decompressed (memory bounded by one chunk, or one
/// layer of an array's chunks), or an error before the end.
pub fn run(path: &Path, output: Option<&Path>, limits: Limits) -> Result<ExitCode, Failure> {
    let file = FrameFile::open_with_limits(path, limits).map_err(|e| Failure::at(path, e))?;
    let written = match output {
        Some(out) => {
            let f = std::fs::File::create(out).map_err(|e| Failure(format!("{}: {e}", out.display())))?;
            let mut w = BufWriter::with_capacity(1 << 20, f);
            write(&file, &mut w).and_then(|n| w.flush().map(|()| n).map_err(b2schema::Error::from))
        }
        None => {
            let mut w = BufWriter::with_capacity(1 << 20, io::stdout().lock());
            write(&file, &mut w).and_then(|n| w.flush().map(|()| n).map_err(b2schema::Error::from))
        }
    };
    match written {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(e) if matches!(e.kind(), b2schema::ErrorKind::Io(io) if io.kind() == io::ErrorKind::BrokenPipe) => {
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(Failure::at(path, e)),
    }
}

/// The data of `file` into `out`; the byte count.
pub fn write(file: &FrameFile, out: &mut dyn Write) -> b2schema::Result<u64> {
    file.write_data(out)
}
