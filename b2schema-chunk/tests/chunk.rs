//! The chunk codec's integration tests, in one binary (`cargo test -p b2schema-chunk`): the
//! public API on hand-made chunks, the compat chunks of older Blosc writers, the compressor's
//! properties, the threaded decoder against one thread, dictionaries, the zstd and lz4 property
//! tests, shuffled blocks read plane by plane
//! where their streams lie, and a Zarr-style caller. Data
//! comes from the workspace's `tests/data/` ([`common`]).

mod api;
mod common;
mod compat_cdata;
mod compress_props;
mod decode_threads;
mod lz4_dict_props;
mod planes_props;
mod zarr_style;
mod zstd_props;
