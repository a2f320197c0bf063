//! The top layer: the Blosc2 containers, declared with the layers below.
//!
//! Frames and their metalayers, the b2nd metadata and its NumPy dtypes, the writer, the array
//! reader, and the read budget that bounds what an input may make them spend.

#[cfg(feature = "std")]
pub mod array;
pub mod b2nd;
pub mod dtype;
pub mod frame;
pub mod limits;
pub mod writer;
