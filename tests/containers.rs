//! The containers (`b2schema/src/container/`): frames and sparse frames, `b2nd` arrays and
//! slices, dtypes, the writer, chunks inside frames, crafted and hostile files, and the import
//! scan of the layers; the examples of `examples/`, run.
//!
//! One test binary (`cargo test --test containers`) whose modules are the files beside it.

mod array_elements;
mod array_slices;
mod chunk_blocks;
mod chunk_data;
mod chunk_python_refs;
mod chunk_robustness;
mod compat;
mod dtype_hostile;
mod dtype_numpy;
mod edits;
mod examples;
mod file_safety;
mod frame_files;
mod frames;
mod fuzz_regressions;
mod hostile_props;
mod layers;
mod malformed;
mod nd_codecs_hostile;
mod remote;
mod remote_stores;
mod remote_stream;
mod remote_tls;
mod store_edits;
mod stores;
mod tables;
mod writer;
mod writer_stream;
