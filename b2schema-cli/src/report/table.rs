//! `inspect TABLE`'s heading: the CTable's schema and row count, before its members' lines.
//! JSON: the `ctable` object of `schema/inspect.schema.json`; text: a line, then a line per
//! column.

use std::fmt::{self, Display};
use std::path::Path;

use b2schema::table::CTable;
use serde::Serialize;

use super::{FileName, SCHEMA_VERSION};
use crate::text;

/// A CTable's heading.
#[derive(Debug, Serialize)]
pub struct TableHeading {
    schema: u32,
    #[serde(flatten)]
    name: FileName,
    kind: &'static str,
    schema_version: u64,
    /// The live rows, or why they cannot be counted.
    #[serde(flatten)]
    rows: Rows,
    columns: Vec<Column>,
}

/// The row count or its error (`n_rows` or `error` in JSON).
#[derive(Debug, Serialize)]
enum Rows {
    #[serde(rename = "n_rows")]
    Counted(u64),
    #[serde(rename = "error")]
    Failed(String),
}

/// One column of the schema.
#[derive(Debug, Serialize)]
struct Column {
    name: String,
    kind: String,
    nullable: bool,
}

impl TableHeading {
    /// The heading of `t`, found at `path`.
    pub fn of(path: &Path, t: &CTable) -> Self {
        TableHeading {
            schema: SCHEMA_VERSION,
            name: FileName::of(path),
            kind: "ctable",
            schema_version: t.schema_version(),
            rows: match t.n_rows() {
                Ok(n) => Rows::Counted(n),
                Err(e) => Rows::Failed(crate::budget::said(&e)),
            },
            columns: t
                .columns()
                .iter()
                .map(|c| Column { name: c.name.clone(), kind: c.kind.clone(), nullable: c.nullable })
                .collect(),
        }
    }

    /// Whether the rows could not be counted.
    pub fn failed(&self) -> bool {
        matches!(self.rows, Rows::Failed(_))
    }
}

impl Display for TableHeading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = match &self.rows {
            Rows::Counted(n) => n.to_string(),
            Rows::Failed(e) => format!("? ({})", text::escape(e)),
        };
        writeln!(f, "{}: CTable, {} rows, {} columns", self.name, n, self.columns.len())?;
        for c in &self.columns {
            let null = if c.nullable { "  nullable" } else { "" };
            writeln!(f, "  {}  {}{}", text::escape(&c.name), text::escape(&c.kind), null)?;
        }
        Ok(())
    }
}
