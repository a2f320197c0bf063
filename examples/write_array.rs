//! Write a 2-D float64 array with a metalayer and a vlmeta, as python-blosc2's
//! `blosc2.asarray(x, urlpath=path, meta={"units": "K"}, vlmeta={"station": "Lhasa"})` does,
//! then open it again. python-blosc2 opens the file:
//!
//! ```sh
//! cargo run --example write_array -- /tmp/grid.b2nd
//! python -c "import blosc2; a = blosc2.open('/tmp/grid.b2nd'); print(a[1], a.schunk.meta['units'], a.schunk.vlmeta['station'])"
//! ```

use std::error::Error;
use std::path::{Path, PathBuf};

use b2schema::writer::Array;

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::args_os().nth(1).map_or_else(|| PathBuf::from("grid.b2nd"), PathBuf::from);
    run(&path)
}

/// Writes the array to `path` (whole or not at all: a temporary file renamed) and reads it back.
pub fn run(path: &Path) -> Result<(), Box<dyn Error>> {
    let (rows, cols) = (100u64, 37u64);
    let temps: Vec<f64> = (0..rows * cols).map(|i| 250.0 + (i as f64).sqrt()).collect();
    // The dtype comes from the items (`<f8`); chunks and blocks default to python-blosc2's.
    Array::from_slice(&[rows, cols], &temps)?
        .chunks(&[50, 37])
        .meta("units", &"K")? // a metalayer: fixed once written
        .vlmeta("station", &"Lhasa")? // a vlmetalayer: python's a.schunk.vlmeta["station"]
        .write_file(path)?;

    let a = b2schema::open(path)?;
    let row: Vec<f64> = a.read_as("1")?;
    println!(
        "wrote {}: shape {:?}, chunks {:?}, row 1 starts {:?}",
        path.display(),
        a.shape(),
        a.chunks(),
        &row[..3]
    );
    assert_eq!((a.shape(), a.chunks()), (&[rows, cols][..], &[50, 37][..]));
    assert_eq!(row[0], temps[37]);
    assert_eq!(a.metalayer::<String>("units")?.as_deref(), Some("K"));
    assert_eq!(a.get::<String>("station")?.as_deref(), Some("Lhasa"));
    Ok(())
}
