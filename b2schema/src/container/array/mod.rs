//! Reading NDArrays: any hyper-rectangle of an array in a frame file, decoding only the chunks
//! and blocks it touches, on as many threads as asked, as bytes or as typed values.
//!
//! ```no_run
//! use b2schema::array::{ArrayReader, ReadOptions, Selection};
//! use b2schema::frame::FrameFile;
//!
//! let file = FrameFile::open("grid.b2nd")?;
//! let array = ArrayReader::new(&file)?;
//! let row = Selection::parse("7, :", array.shape())?; // row 7 of a 2-D array
//! let values: Vec<f64> = array.read_as(&row, &ReadOptions::default())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod element;
mod reader;
mod selection;
mod stream;

pub use element::Element;
pub use reader::{ArrayReader, ReadOptions, ReadStats};
pub use selection::{Selection, SelectionError};
pub use stream::PIECE_BYTES;
