//! The top layer: the Blosc2 containers, over the format and the derive's runtime.
//!
//! Frames and their metalayers, the b2nd metadata and its NumPy dtypes, the writer, the array
//! reader, the sources of bytes, python-blosc2's stores and tables, and the read budget that
//! bounds what an input may make them spend. The layouts of frames and of b2nd are declared with `#[derive(B2Layout)]`: those modules come with the
//! `derive` feature.

#[cfg(all(feature = "std", feature = "derive"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "std", feature = "derive"))))]
pub mod array;
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub mod b2nd;
pub mod dtype;
pub mod error;
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub mod frame;
#[cfg(all(feature = "std", feature = "derive"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "std", feature = "derive"))))]
pub mod handle;
pub mod limits;
#[cfg(all(feature = "std", feature = "derive"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "std", feature = "derive"))))]
pub mod open;
#[cfg(all(feature = "std", feature = "derive"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "std", feature = "derive"))))]
pub mod options;
#[cfg(feature = "std")]
pub(crate) mod pages;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod source;
#[cfg(all(feature = "std", feature = "derive"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "std", feature = "derive"))))]
pub mod store;
#[cfg(all(feature = "std", feature = "derive"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "std", feature = "derive"))))]
pub mod table;
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub mod writer;
