//! `b2schema ls PATH...`: a line per frame.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use b2schema::Limits;

use crate::summary::{Select, Summary, each_selected};
use crate::{Failure, text};

/// One line per selected frame of `paths`, tab-separated: path, shape (`6x10`, `-` for an
/// SChunk), dtype (`-` for none), codec, nbytes, cbytes, ratio (nbytes / cbytes, two decimals).
/// The path is escaped (a tab in it is `\t`), so the columns split on tabs. Exit 2 when a frame
/// could not be read (said on stderr), 0 otherwise.
pub fn ls(paths: &[PathBuf], recursive: bool, select: &Select, limits: Limits) -> Result<ExitCode, Failure> {
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut failed = 0;
    let mut written = Ok(());
    for arg in paths {
        match each_selected(&mut out, arg, recursive, select, limits, |out, path, s| {
            writeln!(out, "{}\t{}", text::path(path), columns(s))
        }) {
            Ok(n) => failed += n,
            Err(e) => {
                written = Err(e);
                break;
            }
        }
    }
    crate::ended(written.and_then(|()| out.flush()))?;
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(2) })
}

fn columns(s: &Summary) -> String {
    format!(
        "{}\t{}\t{}\t{}\t{}\t{:.2}",
        s.shape_text(),
        text::escape(s.dtype.as_deref().unwrap_or("-")),
        s.codec,
        s.nbytes,
        s.cbytes,
        s.ratio()
    )
}
