//! Open an array python-blosc2 wrote and read a slice of it (python: `a = blosc2.open(path);
//! a[1:3, ::2]`), its metalayer and its vlmeta.
//!
//! `cargo run --example open_and_slice [-- FILE.b2nd]` (a 6 x 10 int32 array shipped in
//! `tests/data/fixtures/` when no FILE is given).

use std::error::Error;
use std::path::{Path, PathBuf};

fn main() -> Result<(), Box<dyn Error>> {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fixtures/nd-meta-vlmeta.b2nd");
    run(&std::env::args_os().nth(1).map_or(shipped, PathBuf::from))
}

/// Everything the example does, on the array at `path`.
pub fn run(path: &Path) -> Result<(), Box<dyn Error>> {
    let a = b2schema::open(path)?;
    println!("{}", a.info()?); // as python-blosc2's a.info
    let dtype = a.dtype().map(ToString::to_string).unwrap_or_default();
    println!("shape {:?}, chunks {:?}, blocks {:?}, dtype {dtype}", a.shape(), a.chunks(), a.blocks());

    // NumPy's basic indexing as text: rows 1 and 2, every other column.
    let part: Vec<i32> = a.read_as("1:3, ::2")?;
    println!("a[1:3, ::2] = {part:?}");
    // The metalayer `unit` and the vlmeta `title`, decoded into Rust types.
    let unit: Option<String> = a.metalayer("unit")?;
    let title: Option<String> = a.get("title")?;
    println!("unit {unit:?}, title {title:?}");

    if path.ends_with("tests/data/fixtures/nd-meta-vlmeta.b2nd") {
        assert_eq!(part, [10, 12, 14, 16, 18, 20, 22, 24, 26, 28]);
        assert_eq!((unit.as_deref(), title.as_deref()), (Some("m"), Some("a small array")));
    }
    Ok(())
}
