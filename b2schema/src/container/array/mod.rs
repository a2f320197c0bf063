//! Reading NDArrays: any hyper-rectangle of an array in a frame file, decoding only the chunks
//! and blocks it touches, on as many threads as asked, as bytes or as typed values.
//!
//! ```
//! use b2schema::array::{ArrayReader, ReadOptions, Selection};
//! use b2schema::frame::FrameFile;
//! # use b2schema::writer::{Fill, NdArray};
//! # let dir = std::env::temp_dir().join(format!("b2schema-doc-array-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("grid.b2nd");
//! # let items: Vec<u8> = (0..100 * 37).flat_map(|i| (i as f64).to_le_bytes()).collect();
//! # NdArray::new(&[100, 37], &[50, 37], &[10, 37], "<f8", 8, Fill::Data(&items)).to_frame()?.write_file(&path)?;
//!
//! let file = FrameFile::open(&path)?; // grid.b2nd: a 100 x 37 float64 array
//! let array = ArrayReader::new(&file)?;
//! let row = Selection::parse("7, :", array.shape())?; // row 7 of a 2-D array
//! let values: Vec<f64> = array.read_as(&row, &ReadOptions::default())?;
//! assert_eq!(values.len(), 37);
//! assert_eq!(values[0], 7.0 * 37.0);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod element;
mod elements;
mod item_de;
mod reader;
mod selection;
mod sink;
mod stream;
mod strided;
mod time_text;
mod typed;

pub use element::{DateTime64, Element, TimeDelta64};
pub use elements::{Elements, HUGE_PAGES_FROM};
pub use item_de::decode_item;
pub use reader::{ArrayReader, DEFAULT_MIN_THREAD_BYTES, ReadOptions, ReadStats};
pub use selection::{Selection, SelectionError};
pub use stream::PIECE_BYTES;
