//! The msgpack format layer (`b2schema/src/format/`): the fixed-width encodings, round trips,
//! strict and lenient decoding, allocation bounds, and the streamed data writer.
//!
//! One test binary (`cargo test --test format`) whose modules are the files beside it.

mod alloc_bound;
mod data_stream;
mod decode;
mod encodings;
mod roundtrip;
mod value;
