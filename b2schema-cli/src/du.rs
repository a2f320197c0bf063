//! `b2schema du PATH...`: the totals of the frames under each tree.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use b2schema::Limits;

use crate::summary::{Select, Summary, each_selected};
use crate::{Failure, text};

/// The totals of the selected frames under each of `paths` (one line each, then `total` when
/// there are several), tab-separated: frames, nbytes, cbytes, ratio, path.
pub fn run(paths: &[PathBuf], recursive: bool, select: &Select, limits: Limits) -> Result<ExitCode, Failure> {
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut failed = 0;
    let mut all = Totals::default();
    let mut written = Ok(());
    for arg in paths {
        let mut t = Totals::default();
        let walked = each_selected(&mut out, arg, recursive, select, limits, |_, _, s| {
            t.add(s);
            Ok(())
        });
        written = walked.and_then(|n| {
            failed += n;
            all.frames += t.frames;
            all.nbytes += t.nbytes;
            all.cbytes += t.cbytes;
            writeln!(out, "{}\t{}", t.columns(), text::path(arg))
        });
        if written.is_err() {
            break;
        }
    }
    if paths.len() > 1 {
        written = written.and_then(|()| writeln!(out, "{}\ttotal", all.columns()));
    }
    crate::ended(written.and_then(|()| out.flush()))?;
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(2) })
}

#[derive(Default)]
struct Totals {
    frames: u64,
    nbytes: u64,
    cbytes: u64,
}

impl Totals {
    fn add(&mut self, s: &Summary) {
        self.frames += 1;
        self.nbytes = self.nbytes.saturating_add(s.nbytes);
        self.cbytes = self.cbytes.saturating_add(s.cbytes);
    }

    fn columns(&self) -> String {
        let ratio = if self.cbytes == 0 { 0.0 } else { self.nbytes as f64 / self.cbytes as f64 };
        format!("{}\t{}\t{}\t{ratio:.2}", self.frames, self.nbytes, self.cbytes)
    }
}
