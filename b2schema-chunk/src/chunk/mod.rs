//! A chunk as a whole: its header, what to compress it with ([`params`]), the compress and
//! decompress drivers that cut it into blocks and streams and run the filters and codecs over
//! them, single blocks of a stored chunk ([`blocks`]), c-blosc2's blocksize rules and the chunks
//! stored without a codec.

#[cfg(feature = "std")]
pub(crate) mod arriving;
pub(crate) mod blocks;
pub(crate) mod blocksize;
pub(crate) mod blosc1;
pub(crate) mod buffers;
pub mod compress;
pub(crate) mod decompress;
pub(crate) mod header;
pub(crate) mod params;
pub(crate) mod source;
pub(crate) mod split;
pub(crate) mod stored;
pub(crate) mod vl;
pub(crate) mod vl_compress;

/// The threads a threaded path may use of the `wanted`: one where the target cannot start
/// threads (WebAssembly without atomics, as `wasm32-unknown-unknown`, where std's spawn fails),
/// so that `nthreads` above 1 decodes and compresses there on the calling thread.
#[cfg(feature = "std")]
pub(crate) const fn usable_threads(wanted: usize) -> usize {
    if cfg!(all(target_family = "wasm", not(target_feature = "atomics"))) { 1 } else { wanted }
}
