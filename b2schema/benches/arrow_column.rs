//! Times reading CTable columns into Arrow in this process (scripts/bench_arrow.py runs it beside
//! python-blosc2's `CTable.to_arrow()`):
//!
//!     cargo bench -p b2schema --features arrow --bench arrow_column -- TABLE THREADS REPS [BATCH] [COLUMN]
//!
//! Prints the minimum and the median of REPS reads (open + every batch), in seconds.

use std::time::Instant;

use arrow_array::RecordBatchReader;
use b2schema::table::CTable;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let path = args.first().ok_or("TABLE THREADS REPS [BATCH] [COLUMN]")?;
    let threads: usize = args.get(1).map_or(Ok(1), |s| s.parse())?;
    let reps: usize = args.get(2).map_or(Ok(5), |s| s.parse())?;
    let batch: usize = args.get(3).map_or(Ok(usize::MAX), |s| s.parse())?;
    let column = args.get(4).map(String::as_str);
    let mut times = Vec::new();
    let mut rows = 0;
    for _ in 0..reps {
        let t0 = Instant::now();
        let table = CTable::open(path)?;
        let names = column.map(|c| vec![c]);
        let reader = table.arrow_reader(names.as_deref(), batch)?.threads(threads);
        let _ = reader.schema();
        let batches = reader.collect::<Result<Vec<_>, _>>()?;
        rows = batches.iter().map(|b| b.num_rows()).sum::<usize>();
        times.push(t0.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "b2schema arrow_reader {path} threads={threads} rows={rows} min={:.4} median={:.4}",
        times[0],
        times[times.len() / 2]
    );
    Ok(())
}
