//! Writes a 2-D float64 array with a user metalayer and a vlmetalayer, as a file python-blosc2
//! opens with `blosc2.open(path)`:
//!
//! ```sh
//! cargo run -p b2schema --example write_array -- /tmp/grid.b2nd
//! python -c "import blosc2; a = blosc2.open('/tmp/grid.b2nd'); print(a[()], a.schunk.vlmeta['title'])"
//! ```

use b2schema::Config;
use b2schema::writer::{Fill, NdArray};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| "grid.b2nd".into());
    let (rows, cols) = (100usize, 37usize);
    let data: Vec<u8> = (0..rows * cols).flat_map(|i| ((i as f64).sqrt()).to_le_bytes()).collect();

    let mut array =
        NdArray::new(&[rows as i64, cols as i64], &[32, 37], &[8, 37], "<f8", 8, Fill::Data(&data));
    // python-blosc2 stores user metalayers and vlmetalayers as msgpack: write them that way.
    array.metalayers.push(("units".into(), b2schema::to_vec_with("m", Config::minimal())?));
    array.vlmetalayers.push(("title".into(), b2schema::to_vec_with("square roots", Config::minimal())?));

    array.to_frame()?.write_file(&path)?;
    let frame = b2schema::frame::FrameFile::open(&path)?;
    println!("wrote {path}: {} bytes, {} chunks", frame.frame_len(), frame.view()?.nchunks()?);
    Ok(())
}
