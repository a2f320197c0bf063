//! b2schema-chunk on WebAssembly: what the `.wasm` module exports (`exports.rs`) runs these
//! functions, and `tests/node.rs` runs the same ones natively to make the results the module
//! must reproduce under node (`run.mjs`).
//!
//! A compression is described by a spec, words `key=value` separated by spaces, whose names are
//! the chunk crate's own (`Codec` and `Filter` parse them):
//! `codec=lz4 clevel=5 typesize=4 filters=nofilter,nofilter,nofilter,nofilter,delta,shuffle
//! metas=0,0,0,0,0,0 split=3 blocksize=0 dict=0 meta=0 shapes=18x7;9x7` (split: c-blosc2's
//! value, 1 to 4; meta: the codec's; shapes: the array's chunk and block shapes, which ZFP,
//! ndcell and ndmean need). A key left out keeps `Params::new`'s default (no shapes).
// Safe Rust only, but for the `no_mangle` attribute of the module's one exported function
// (`exports::b2`), allowed where it stands.
#![deny(unsafe_code)]

mod exports;
#[cfg(not(target_arch = "wasm32"))]
pub mod host;

use b2schema_chunk::compress::{self, Params, Split};
use b2schema_chunk::{BlockScratch, ChunkBlocks, Codec, Decoder, Filter, MAX_FILTERS, Registry};

/// The chunk decompressed on 3 threads (one where the target has none), refused when it holds
/// more than `limit` bytes, or the error's message.
pub fn decompress(chunk: &[u8], limit: usize) -> Result<Vec<u8>, String> {
    let registry = Registry::new();
    Decoder::new(&registry).max_nbytes(limit).nthreads(3).decompress(chunk).map_err(|e| e.to_string())
}

/// The chunk decoded block by block, last block first, each from the bytes of its span only
/// (`ChunkBlocks`, as a reader of a part of a chunk does), at most `limit` bytes; or the first
/// error's message.
pub fn decompress_blocks(chunk: &[u8], limit: usize) -> Result<Vec<u8>, String> {
    let blocks = ChunkBlocks::from_chunk(chunk).map_err(|e| e.to_string())?;
    let len = blocks.header().uncompressed_len();
    if len > limit {
        return Err(format!("the chunk holds {len} bytes, over the limit of {limit}"));
    }
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| format!("cannot allocate {len} bytes"))?;
    out.resize(len, 0);
    let mut scratch = BlockScratch::default();
    let mut decode = |j: usize, reference: &[u8], out: &mut [u8]| -> Result<(), String> {
        let span = blocks.block_span(j).map_err(|e| e.to_string())?;
        let bytes =
            chunk.get(span.clone()).ok_or_else(|| format!("block {j}: span {span:?} past the chunk"))?;
        let dst =
            out.get_mut(blocks.block_range(j)).ok_or_else(|| format!("block {j}: range past the output"))?;
        blocks.decode_block(j, bytes, span.start, reference, dst, &mut scratch).map_err(|e| e.to_string())
    };
    let nblocks = blocks.nblocks();
    let reference = if blocks.needs_first_block() && nblocks > 0 {
        decode(0, &[], &mut out)?;
        out[blocks.block_range(0)].to_vec()
    } else {
        Vec::new()
    };
    for j in (0..nblocks).rev() {
        decode(j, &reference, &mut out)?;
    }
    Ok(out)
}

/// `data` compressed as `spec` says, or the error's message (a bad spec included).
pub fn compress(data: &[u8], spec: &str) -> Result<Vec<u8>, String> {
    let s = Spec::parse(spec)?;
    compress::compress_with(data, &s.params, &s.registry).map_err(|e| e.to_string())
}

/// The chunk decompressed with the plugins' shapes of `spec` (as `compress` made it), at most
/// `limit` bytes, or the error's message.
pub fn decompress_as(chunk: &[u8], spec: &str, limit: usize) -> Result<Vec<u8>, String> {
    let s = Spec::parse(spec)?;
    Decoder::new(&s.registry).max_nbytes(limit).decompress(chunk).map_err(|e| e.to_string())
}

/// What a spec describes: the parameters, and the registry that gives the plugins (ZFP, ndcell,
/// ndmean) the array's shapes.
pub struct Spec {
    /// The compression parameters.
    pub params: Params,
    /// The built-in codecs and filters, with the shapes of `shapes=`.
    pub registry: Registry,
}

impl Spec {
    /// Reads a spec (see the crate's docs).
    pub fn parse(spec: &str) -> Result<Spec, String> {
        let mut p = Params::new(1);
        let mut registry = Registry::new();
        for word in spec.split_ascii_whitespace() {
            let (key, value) =
                word.split_once('=').ok_or_else(|| format!("spec word {word:?} is not key=value"))?;
            let bad = |what: &str| format!("spec {key}: {value:?} is not {what}");
            match key {
                "codec" => p.codec = value.parse::<Codec>().map_err(|_| bad("a codec"))?,
                "clevel" => p.clevel = value.parse().map_err(|_| bad("0 to 255"))?,
                "typesize" => p.typesize = value.parse().map_err(|_| bad("a size"))?,
                "filters" => {
                    p.filters = six(value, Filter::NoFilter, |s| s.parse::<Filter>().ok())
                        .ok_or_else(|| bad("six filters"))?
                }
                "metas" => {
                    p.filters_meta =
                        six(value, 0, |s| s.parse::<u8>().ok()).ok_or_else(|| bad("six bytes"))?
                }
                "split" => {
                    p.split = value.parse().ok().and_then(Split::from_value).ok_or_else(|| bad("1 to 4"))?;
                }
                "blocksize" => p.blocksize = value.parse().map_err(|_| bad("a size"))?,
                "dict" => p.use_dict = value == "1",
                "nthreads" => p.nthreads = value.parse().map_err(|_| bad("a count"))?,
                "meta" => p.codec_meta = value.parse().map_err(|_| bad("0 to 255"))?,
                "shapes" => {
                    let (chunk, block) = value
                        .split_once(';')
                        .and_then(|(c, b)| Some((dims(c)?, dims(b)?)))
                        .ok_or_else(|| bad("CHUNKSHAPE;BLOCKSHAPE, each as 18x7"))?;
                    registry = registry.with_array_shapes(&chunk, &block);
                }
                _ => return Err(format!("spec key {key:?} is unknown")),
            }
        }
        Ok(Spec { params: p, registry })
    }
}

/// Dimensions written `18x7`.
fn dims(text: &str) -> Option<Vec<i32>> {
    text.split('x').map(|d| d.parse().ok()).collect()
}

/// Six comma-separated values, each read by `parse`.
fn six<T: Copy>(list: &str, init: T, parse: impl Fn(&str) -> Option<T>) -> Option<[T; MAX_FILTERS]> {
    let mut out = [init; MAX_FILTERS];
    let mut items = list.split(',');
    for slot in &mut out {
        *slot = parse(items.next()?)?;
    }
    items.next().is_none().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_sets_every_field_and_bad_words_are_errors() {
        let p = Spec::parse("codec=lz4hc clevel=7 typesize=8 filters=nofilter,nofilter,nofilter,nofilter,delta,bitshuffle metas=0,0,0,0,0,0 split=2 blocksize=4096 dict=1")
            .unwrap()
            .params;
        assert_eq!(
            (p.codec, p.clevel, p.typesize, p.split, p.blocksize, p.use_dict),
            (Codec::Lz4hc, 7, 8, Split::Never, 4096, true)
        );
        assert_eq!(p.filters[4..], [Filter::Delta, Filter::BitShuffle]);
        let s = Spec::parse("codec=zfp_acc meta=253 shapes=18x7;9x7").unwrap();
        assert_eq!((s.params.codec, s.params.codec_meta), (Codec::ZfpAcc, 253));
        assert_eq!(
            (s.registry.chunkshape(), s.registry.blockshape()),
            (Some(&[18, 7][..]), Some(&[9, 7][..]))
        );
        for bad in [
            "codec=nope",
            "clevel=x",
            "filters=shuffle",
            "split=5",
            "what=1",
            "typesize",
            "shapes=4x4",
            "shapes=4;x",
        ] {
            assert!(Spec::parse(bad).is_err(), "{bad}");
        }
    }
}
