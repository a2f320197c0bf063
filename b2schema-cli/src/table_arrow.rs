//! `cat TABLE --arrow [--columns a,b] [--rows START:STOP]`: a CTable's live rows as an Arrow IPC
//! stream (the library's `store::ArrowReader`, 65,536 rows a batch, written as each batch is
//! read), on stdout (never a terminal) or to `-o FILE` (whole or absent).

use std::io;
use std::path::Path;
use std::process::ExitCode;

use b2schema::store::Store;

use crate::Failure;
use crate::table::ArrowRows;

/// The rows of one record batch (python-blosc2's default for `iter_arrow_batches`).
pub const BATCH_ROWS: usize = 65_536;

/// `START:STOP` (either left out: from the first, to the last live row).
pub fn parse_rows(text: &str) -> Result<(u64, u64), String> {
    let bad = || {
        format!(
            "--rows {}: expected START:STOP, two row numbers (either may be left out)",
            text.escape_debug()
        )
    };
    let (a, b) = text.split_once(':').ok_or_else(bad)?;
    let num = |s: &str, default: u64| {
        if s.is_empty() { Ok(default) } else { s.trim().parse::<u64>().map_err(|_| bad()) }
    };
    let (a, b) = (num(a, 0)?, num(b, u64::MAX)?);
    if b < a {
        return Err(format!("--rows {}: STOP is before START", text.escape_debug()));
    }
    Ok((a, b))
}

/// Writes the table of `store` as an Arrow IPC stream.
#[cfg(feature = "arrow")]
pub fn cat_arrow(
    path: &Path,
    store: Store,
    a: &ArrowRows<'_>,
    output: Option<&Path>,
) -> Result<ExitCode, Failure> {
    use arrow_array::RecordBatchReader;
    use b2schema::store::CTable;

    if a.to_terminal && output.is_none() {
        return Err(Failure::at(
            path,
            "an Arrow IPC stream would go to a terminal as binary; write it with -o FILE or through a pipe",
        ));
    }
    let (start, stop) = match a.rows {
        Some(r) => parse_rows(r).map_err(|e| Failure::at(path, e))?,
        None => (0, u64::MAX),
    };
    let t = CTable::new(store).map_err(|e| Failure::at(path, e))?;
    let names: Option<Vec<&str>> = a.columns.map(|c| c.split(',').map(str::trim).collect());
    let reader = t.arrow_reader(names.as_deref(), BATCH_ROWS).map_err(|e| Failure::at(path, e))?;
    let mut reader = reader.rows(start, stop);
    if let Some(n) = a.threads {
        reader = reader.threads(n);
    }
    let schema = reader.schema();
    crate::table::write_rows(path, output, |w| {
        let mut s = arrow_ipc::writer::StreamWriter::try_new(w, &schema).map_err(to_io)?;
        for batch in reader {
            s.write(&batch.map_err(to_io)?).map_err(to_io)?;
        }
        s.finish().map_err(to_io)
    })
}

/// Without the feature `arrow`: a refusal that says so.
#[cfg(not(feature = "arrow"))]
pub fn cat_arrow(path: &Path, _: Store, _: &ArrowRows<'_>, _: Option<&Path>) -> Result<ExitCode, Failure> {
    Err(Failure::at(path, "--arrow needs b2schema built with the feature `arrow`"))
}

/// An Arrow error as an I/O error (a closed pipe stays one, so `| head` is a normal end).
#[cfg(feature = "arrow")]
fn to_io(e: arrow_schema::ArrowError) -> io::Error {
    match e {
        arrow_schema::ArrowError::IoError(_, e) => e,
        e => io::Error::other(e.to_string()),
    }
}
