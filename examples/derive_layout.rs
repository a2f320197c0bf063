//! Declare a metalayer's layout as a struct with `#[derive(B2Layout)]`: exact fixed-width
//! msgpack both ways, the layout's diagram, an annotated dump, one field patched in place, the
//! metalayer written into an array, patched in the file and read back by name.
//!
//! `cargo run --example derive_layout`

use std::error::Error;

use b2schema::B2Layout;
use b2schema::frame::FrameFile;
use b2schema::writer::{Fill, NdArray};

/// A metalayer of our own: every width fixed, so a field can be patched in place.
#[derive(B2Layout, Debug, PartialEq)]
struct Calibration<'a> {
    #[b2(fixint, magic = 1)] // a constant: written by the encoder, checked by the decoder
    version: u8,
    #[b2(fixstr(len = 4))] // a4 + exactly 4 bytes
    unit: &'a str,
    scale: f64, // cb + 8 bytes
    #[b2(int64)]
    samples: u32, // d3 + 8 bytes whatever the Rust type
}

fn main() -> Result<(), Box<dyn Error>> {
    run()
}

/// Encodes, draws, patches, writes into an array and reads back the layout.
pub fn run() -> Result<(), Box<dyn Error>> {
    let cal = Calibration { version: 1, unit: "m/s ", scale: 2.0, samples: 3 };
    let mut bytes = b2schema::to_vec(&cal)?;
    assert_eq!(Calibration::LAYOUT.fixed_len, Some(bytes.len()));
    println!("{}", b2schema::layout::diagram(Calibration::LAYOUT)); // as Blosc2's format documents
    println!("{}", b2schema::layout::annotate(Calibration::LAYOUT, &bytes)); // a field a line

    Calibration::SCALE.patch(&mut bytes, &0.5)?; // one field, its marker checked first
    let patched: Calibration = b2schema::from_slice(&bytes)?;
    assert_eq!(patched, Calibration { scale: 0.5, ..cal });

    // Into an array as the metalayer `calibration`, patched there in place and read back by name.
    let dir = std::env::temp_dir().join(format!("b2schema-example-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("samples.b2nd");
    let mut array = NdArray::new(&[3], &[3], &[3], "<f4", 4, Fill::Data(&[0; 12]));
    array.metalayers.push(("calibration".into(), bytes.clone()));
    array.to_frame()?.write_file(&path)?;
    let mut file = FrameFile::open(&path)?;
    file.patch_metalayer_field("calibration", Calibration::SAMPLES, &300)?; // one write, nothing else moves
    let view = file.view()?;
    let read: Calibration = b2schema::from_slice(view.metalayer("calibration").expect("written above"))?;
    println!("{read:?}");
    assert_eq!(read, Calibration { samples: 300, ..patched });
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
