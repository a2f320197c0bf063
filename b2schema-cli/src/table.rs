//! python-blosc2's CTables and BatchArrays on the command line: `inspect t.b2d` heads the
//! member listing with the table's schema and row count; `cat t.b2d` writes the live rows as
//! JSON Lines (one object per row, columns in the schema's order) or CSV (`--csv`); `cat t.b2d
//! --key NAME` one column's live values; `cat b.b2b --json` a BatchArray's items as JSON Lines.
//! Values are shown as `inspect` shows msgpack: bytes as `{"__bytes__": hex}`, ext values as
//! `[type, {"__bytes__": hex}]`, non-finite floats as strings. Every JSON line goes through
//! [`text::json`] (C1 and bidirectional characters as `\uNNNN`), and CSV to standard output
//! through [`text::escape`]: no cell's control character reaches a terminal.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use b2schema::Limits;
use b2schema::Value;
use b2schema::store::Store;
use b2schema::table::{BatchArray, CTable};
use serde_json::{Map, Number, json};

use crate::Failure;
use crate::msgpack_json::hex;
use crate::text;

/// How rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFormat {
    /// One JSON value per line.
    JsonLines,
    /// Comma-separated values with a header line (RFC 4180 quoting).
    Csv,
}

/// A value as JSON, in the command's msgpack convention.
pub fn value_json(v: &Value) -> serde_json::Value {
    let float =
        |f: f64| Number::from_f64(f).map(serde_json::Value::Number).unwrap_or_else(|| json!(f.to_string()));
    match v {
        Value::Nil => serde_json::Value::Null,
        Value::Bool(b) => json!(b),
        Value::Int(i) => match (i64::try_from(*i), u64::try_from(*i)) {
            (Ok(i), _) => json!(i),
            (_, Ok(u)) => json!(u),
            _ => json!(i.to_string()),
        },
        Value::F32(f) => float(f64::from(*f)),
        Value::F64(f) => float(*f),
        Value::Str(s) => json!(s),
        Value::Bin(b) => json!({ "__bytes__": hex(b) }),
        Value::Array(a) | Value::Tuple(a) | Value::Set(a) => a.iter().map(value_json).collect(),
        Value::Map(m) => {
            let mut o = Map::new();
            for (k, v) in m {
                let k = match k {
                    Value::Str(s) => s.clone(),
                    other => value_json(other).to_string(),
                };
                o.insert(k, value_json(v));
            }
            serde_json::Value::Object(o)
        }
        Value::Complex { re, im } => json!([float(*re), float(*im)]),
        Value::Ext(code, data) => json!([code, { "__bytes__": hex(data) }]),
    }
}

/// A value as one CSV field: strings as they are, bytes in hex, nil empty, others as JSON.
/// `to_stdout`: the field's text goes through [`text::escape`] (a cell's ESC, C1, CR, LF or
/// U+202E shown as a visible escape, never acting on a terminal); into a file (`-o`) it is
/// kept exact, quoted as RFC 4180 says.
fn csv_field(v: &Value, to_stdout: bool) -> String {
    let s = match v {
        Value::Nil => String::new(),
        Value::Str(s) => s.clone(),
        Value::Bin(b) => hex(b),
        other => text::json(&value_json(other)),
    };
    let s = if to_stdout { text::escape(&s).into_owned() } else { s };
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s }
}

/// The table's heading of `inspect` ([`crate::report::table::TableHeading`]): a line, then a
/// line per column (text), or one `ctable` object (JSON). `true` when its rows cannot be counted.
pub fn write_heading(out: &mut impl Write, path: &Path, t: &CTable, as_json: bool) -> io::Result<bool> {
    let heading = crate::report::table::TableHeading::of(path, t);
    if as_json {
        writeln!(out, "{}", crate::report::json_line(&heading))?;
    } else {
        write!(out, "{heading}")?;
    }
    Ok(heading.failed())
}

/// What `cat` was asked for, as far as tables and batches go.
pub struct Rows<'a> {
    /// `--key`.
    pub key: Option<&'a str>,
    /// `--json`.
    pub json: bool,
    /// `--csv`.
    pub csv: bool,
    /// `--arrow` and its options.
    pub arrow: Option<crate::table_arrow::ArrowRows<'a>>,
    /// `-o`.
    pub output: Option<&'a Path>,
}

impl Rows<'_> {
    /// How a CTable's rows are written.
    pub fn format(&self) -> RowFormat {
        if self.csv { RowFormat::Csv } else { RowFormat::JsonLines }
    }
}

/// The refusal of `--arrow` for anything but a CTable.
pub(crate) const ARROW_NOT_A_TABLE: &str =
    "--arrow writes a CTable's rows as an Arrow IPC stream; this is no CTable: give a CTable's .b2d or .b2z";

/// `cat TABLE [--key COLUMN] [--csv]`: the live rows (or one column's live values), streamed:
/// the columns are read a band of rows at a time ([`CTable::for_each_row`]) and each row written
/// as it comes, so memory does not grow with the table.
pub fn cat_table(
    path: &Path,
    store: Store,
    column: Option<&str>,
    format: RowFormat,
    output: Option<&Path>,
) -> Result<ExitCode, Failure> {
    let t = CTable::new(store).map_err(|e| Failure::at(path, e))?;
    let names: Vec<String> = match column {
        Some(name) => vec![t.column_spec(name).map_err(|e| Failure::at(path, e))?.name.clone()],
        None => t.columns().iter().map(|c| c.name.clone()).collect(),
    };
    let selected: Vec<&str> = names.iter().map(String::as_str).collect();
    crate::output::write_rows(path, output, |w| {
        if format == RowFormat::Csv {
            let head: Vec<String> =
                names.iter().map(|n| csv_field(&Value::Str(n.clone()), output.is_none())).collect();
            writeln!(w, "{}", head.join(","))?;
        }
        let mut write_row = |r: &[Value]| -> io::Result<()> {
            match (format, column) {
                (RowFormat::Csv, _) => {
                    let f: Vec<String> = r.iter().map(|v| csv_field(v, output.is_none())).collect();
                    writeln!(w, "{}", f.join(","))
                }
                (RowFormat::JsonLines, Some(_)) => writeln!(w, "{}", text::json(&value_json(&r[0]))),
                (RowFormat::JsonLines, None) => {
                    let o: Map<String, serde_json::Value> =
                        names.iter().zip(r).map(|(n, v)| (n.clone(), value_json(v))).collect();
                    writeln!(w, "{}", text::json(&serde_json::Value::Object(o)))
                }
            }
        };
        // An output error stops the walk and is returned as it is (a closed pipe stays one).
        let mut io_error = None;
        let walked = t.for_each_row(Some(&selected), |r| {
            write_row(r).map_err(|e| {
                let stop = b2schema::Error::from(io::Error::new(e.kind(), e.to_string()));
                io_error = Some(e);
                stop
            })
        });
        if let Some(e) = io_error {
            return Err(e);
        }
        walked.map(|_| ()).map_err(io::Error::other)
    })
}

/// `cat B.b2b --json` (or a store member that is a BatchArray): its items as JSON Lines.
pub fn cat_batches(path: &Path, b: &BatchArray, output: Option<&Path>) -> Result<ExitCode, Failure> {
    crate::output::write_rows(path, output, |w| {
        for i in 0..b.len() {
            let items = b.batch(i).map_err(io::Error::other)?;
            for item in &items {
                writeln!(w, "{}", text::json(&value_json(item)))?;
            }
        }
        Ok(())
    })
}

/// Opens `path` as a BatchArray frame within `limits`.
pub fn open_batches(path: &Path, limits: Limits) -> Result<BatchArray, Failure> {
    let f = b2schema::frame::FrameFile::open_with_limits(path, limits).map_err(|e| Failure::at(path, e))?;
    BatchArray::new(f).map_err(|e| Failure::at(path, e))
}
