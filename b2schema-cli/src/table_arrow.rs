//! `cat TABLE --arrow [--columns a,b] [--rows START:STOP]`: a CTable's live rows as an Arrow IPC
//! stream (the library's `table::ArrowReader`, 65,536 rows a batch, written as each batch is
//! read), on stdout (never a terminal) or to `-o FILE` (whole or absent).

#[cfg(feature = "arrow")]
use std::io;
use std::path::Path;
use std::process::ExitCode;

use b2schema::store::Store;

use crate::Failure;

/// What `cat TABLE --arrow` was asked for.
#[derive(Clone, Copy)]
pub struct ArrowRows<'a> {
    /// `--columns a,b`.
    pub columns: Option<&'a str>,
    /// `--rows START:STOP`.
    pub rows: Option<&'a str>,
    /// Standard output is a terminal and no file was given (binary is refused).
    pub to_terminal: bool,
    /// `--threads N`: the threads that decode the fixed-width columns (default: the cores).
    pub threads: Option<usize>,
}

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
    use b2schema::table::CTable;

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
    crate::output::write_rows(path, output, |w| {
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
        e => io::Error::other(e),
    }
}

/// Whether `pack IN OUT` packs an Arrow IPC stream or file into a CTable: `IN` ends in
/// `.arrows`, `.arrow`, `.ipc` or `.feather`, or `OUT` in `.b2d` or `.b2z`.
pub fn is_table_pack(input: &Path, output: &Path) -> bool {
    let ext = |p: &Path| p.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    matches!(ext(input).as_deref(), Some("arrows" | "arrow" | "ipc" | "feather"))
        || matches!(ext(output).as_deref(), Some("b2d" | "b2z"))
}

/// `pack IN.arrows OUT.b2d` (or `.b2z`): the Arrow IPC stream (or file, `ARROW1` first) `input`
/// as a CTable written whole (the library's `CTableWriter`), its batches held within
/// `max_input` bytes.
#[cfg(feature = "arrow")]
pub fn pack_table(input: &Path, output: &Path, max_input: u64) -> Result<ExitCode, Failure> {
    let zip = is_zip(output)?;
    let w = push_stream(input, None, max_input)?;
    if zip { w.write_zip(output) } else { w.write_dir(output) }.map_err(|e| Failure::at(output, e))?;
    Ok(ExitCode::SUCCESS)
}

/// `append IN.arrows TABLE.b2d` (or `.b2z`): the rows of the Arrow IPC stream (or file) `input`
/// appended to the CTable `into` (its fields the table's columns, in order), the table written
/// anew whole beside the old one, then put in its place in one step (a `.b2z` renamed onto it,
/// a `.b2d` swapped with it): killed at any point, `into` holds the old table or the new one.
/// The old rows are read within `limits`, and the new held within its decompressed total.
#[cfg(feature = "arrow")]
pub fn append_table(input: &Path, into: &Path, limits: b2schema::Limits) -> Result<ExitCode, Failure> {
    use b2schema::table::{CTable, CTableWriter};

    let zip = is_zip(into)?;
    let max_input = limits.max_decompressed_total();
    let table = CTable::open_with_limits(into, limits).map_err(|e| Failure::at(into, e))?;
    let w = CTableWriter::from_table(&table).map_err(|e| Failure::at(into, e))?;
    drop(table);
    let w = push_stream(input, Some(w), max_input)?;
    if zip { w.write_zip(into) } else { w.replace_dir(into) }.map_err(|e| Failure::at(into, e))?;
    Ok(ExitCode::SUCCESS)
}

/// Whether the CTable `path` is a `.b2z` (else a `.b2d`; another name is refused).
#[cfg(feature = "arrow")]
fn is_zip(path: &Path) -> Result<bool, Failure> {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("b2z") => Ok(true),
        Some("b2d") => Ok(false),
        _ => Err(Failure::at(path, "a CTable is written as a .b2d directory or a .b2z file")),
    }
}

/// The batches of the Arrow IPC stream or file `input` pushed into `w` (`None`: a writer of
/// the stream's schema), held within `max_input` bytes.
#[cfg(feature = "arrow")]
fn push_stream(
    input: &Path,
    w: Option<b2schema::table::CTableWriter>,
    max_input: u64,
) -> Result<b2schema::table::CTableWriter, Failure> {
    use std::io::{Read, Seek};

    use arrow_array::RecordBatchReader;
    use b2schema::table::CTableWriter;

    let mut file = std::fs::File::open(input).map_err(|e| Failure::at(input, e))?;
    let mut magic = [0u8; 6];
    let n = file.read(&mut magic).map_err(|e| Failure::at(input, e))?;
    file.rewind().map_err(|e| Failure::at(input, e))?;
    let batches: Box<dyn RecordBatchReader> = if n == 6 && &magic == b"ARROW1" {
        Box::new(
            arrow_ipc::reader::FileReader::try_new(file, None)
                .map_err(|e| Failure::at(input, e.to_string()))?,
        )
    } else {
        let r = io::BufReader::new(file);
        Box::new(
            arrow_ipc::reader::StreamReader::try_new(r, None)
                .map_err(|e| Failure::at(input, e.to_string()))?,
        )
    };
    let mut w = match w {
        Some(w) => w,
        None => CTableWriter::from_arrow_schema(&batches.schema()).map_err(|e| Failure::at(input, e))?,
    };
    let mut held = 0u64;
    for (i, batch) in batches.enumerate() {
        let batch = batch.map_err(|e| Failure::at(input, format!("batch {i}: {e}")))?;
        held = held.saturating_add(batch.get_array_memory_size() as u64);
        if held > max_input {
            return Err(Failure::at(
                input,
                format!(
                    "batch {i}: the table would hold more than --max-decompressed-total ({max_input} bytes)"
                ),
            ));
        }
        w.push_batch(&batch).map_err(|e| Failure::at(input, format!("batch {i}: {e}")))?;
    }
    Ok(w)
}

/// Without the feature `arrow`: a refusal that says so.
#[cfg(not(feature = "arrow"))]
pub fn pack_table(input: &Path, _: &Path, _: u64) -> Result<ExitCode, Failure> {
    Err(Failure::at(input, "packing an Arrow IPC stream needs b2schema built with the feature `arrow`"))
}

/// Without the feature `arrow`: a refusal that says so.
#[cfg(not(feature = "arrow"))]
pub fn append_table(input: &Path, _: &Path, _: b2schema::Limits) -> Result<ExitCode, Failure> {
    Err(Failure::at(input, "appending an Arrow IPC stream needs b2schema built with the feature `arrow`"))
}
