//! SQL over a CTable: `SELECT station, avg(temp) FROM obs GROUP BY station` on a `.b2z`
//! (written here with b2schema's `CTableWriter`; give the path of your own table, `.b2z` or
//! `.b2d`, to query it instead).
//!
//! `cargo run -p b2schema-datafusion --example sql_obs [TABLE]`

use std::error::Error;
use std::path::{Path, PathBuf};

use b2schema::Value;
use b2schema::table::{CTableWriter, ColumnType};
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::prelude::SessionContext;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn Error>> {
    let table = match std::env::args_os().nth(1) {
        Some(p) => PathBuf::from(p),
        None => write_obs(&std::env::temp_dir().join(format!("obs-{}.b2z", std::process::id())))?,
    };
    println!("{}", run(&table).await?);
    Ok(())
}

/// Six observations of three stations (one temperature missing) as a `.b2z` at `path`.
pub fn write_obs(path: &Path) -> Result<PathBuf, Box<dyn Error>> {
    let mut w = CTableWriter::new();
    w.column("station", ColumnType::Dictionary { ordered: false }, false)?;
    w.column("temp", ColumnType::Float64, true)?;
    let stations = ["north", "south", "north", "east", "south", "north"];
    w.push_values("station", &stations.map(Value::from))?;
    w.push("temp", &[Some(20.5f64), Some(18.0), Some(21.5), None, Some(17.0), Some(22.0)])?;
    w.write_zip(path)?;
    Ok(path.to_path_buf())
}

/// The average temperature of each station of the table at `path`, as a text table.
pub async fn run(path: &Path) -> Result<String, Box<dyn Error>> {
    let ctx = SessionContext::new();
    b2schema_datafusion::register_ctable(&ctx, "obs", path)?;
    let df = ctx.sql("SELECT station, avg(temp) AS temp FROM obs GROUP BY station ORDER BY station").await?;
    Ok(pretty_format_batches(&df.collect().await?)?.to_string())
}
