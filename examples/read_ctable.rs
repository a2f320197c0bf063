//! Read the columns of a CTable python-blosc2 wrote (python: `t = blosc2.CTable.open(path);
//! t["x"][:]`), deleted rows left out, nulls as `None`.
//!
//! `cargo run --example read_ctable [-- TABLE.b2d|.b2z COLUMN]` (the table shipped in
//! `tests/data/tables/` and its column `x` when no arguments are given).

use std::error::Error;
use std::path::{Path, PathBuf};

use b2schema::Value;
use b2schema::table::CTable;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [table, column] = &args[..] {
        return print_column(Path::new(table), column);
    }
    run()
}

/// The shipped table: its schema, a typed column, a column with nulls, a whole column as cells.
pub fn run() -> Result<(), Box<dyn Error>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tables/table.b2d");
    let table = CTable::open(&path)?;
    for c in table.columns() {
        println!("column {} {} nullable={}", c.name, c.kind, c.nullable);
    }
    let x: Vec<Option<f64>> = table.column("x")?; // python: t["x"][:]
    let n32: Vec<Option<i32>> = table.column("n32")?; // a null is None
    println!("{} live rows; x = {x:?}; n32 = {n32:?}", table.n_rows()?);
    assert_eq!(x, [Some(0.0), Some(1.0), Some(1.5), Some(2.0), Some(2.5), Some(3.0)]);
    assert_eq!(n32[..2], [Some(0), None]);
    print_column(&path, "name") // row 1, deleted, left out
}

/// Any column of the table at `path`, a live row at a time, as `b2schema::Value` cells (every
/// kind a CTable holds), streamed: memory does not grow with the table.
pub fn print_column(path: &Path, column: &str) -> Result<(), Box<dyn Error>> {
    let mut cells: Vec<Value> = Vec::new();
    CTable::open(path)?.for_each_row(Some(&[column]), |row| {
        cells.push(row[0].clone());
        Ok(())
    })?;
    println!("{column} = {cells:?}");
    Ok(())
}
