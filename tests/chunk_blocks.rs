//! Partial and parallel decoding agree with the whole-chunk decoder, on every chunk of the
//! corpus (every codec, filter pipeline, special kind, dictionary, Blosc1 and VL blocks) and on
//! mutations of them:
//!
//! - `ChunkBlocks`, fed only the prefix it asks for and then only each block's span, decodes each
//!   block to the bytes `decompress` gives for that block's range;
//! - `decompress_into_threaded` gives the same bytes, or the same error, at 1, 2, 3 and 8 threads.

use b2schema::chunk::{
    BlockScratch, ChunkBlocks, ChunkError, ErrorKind, Prefix, decompress_into_threaded, decompress_with_limit,
};
use b2schema_tests::frame_chunks;
use b2schema_tests::{Rng, chunk_corpus, compat_file, files_with_ext, fixture_file, read_file};

/// Output cap for mutated chunks.
const LIMIT: usize = 1 << 24;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for p in files_with_ext(&chunk_corpus("chunks"), "chunk")
        .into_iter()
        .chain(files_with_ext(&compat_file("c-blosc2/compat"), "cdata"))
    {
        out.push((p.display().to_string(), read_file(&p)));
    }
    let frames = files_with_ext(&chunk_corpus("frames"), "b2nd")
        .into_iter()
        .chain(files_with_ext(&chunk_corpus("frames"), "b2frame"))
        .chain(files_with_ext(&fixture_file(""), "b2nd"));
    for p in frames {
        let Ok(chunks) = frame_chunks::chunks(&read_file(&p)) else {
            continue; // sparse frames and variable-chunk frames: their chunks are elsewhere
        };
        for (i, c) in chunks.iter().enumerate() {
            out.push((format!("{} chunk {i}", p.display()), c.bytes().to_vec()));
        }
    }
    assert!(out.len() > 500, "only {} chunks in the corpus", out.len());
    out
}

/// Reads the table as a file reader would: only the prefix `from_prefix` asks for.
fn table(chunk: &[u8]) -> Result<ChunkBlocks, ChunkError> {
    let mut have = 0;
    for _ in 0..6 {
        match ChunkBlocks::from_prefix(&chunk[..have.min(chunk.len())])? {
            Prefix::Ready(t) => return Ok(t),
            Prefix::Need(n) if n > chunk.len() => {
                return Err(ChunkBlocks::from_chunk(chunk).err().expect("a truncated chunk is an error"));
            }
            Prefix::Need(n) => {
                assert!(n > have, "from_prefix asked for {n} bytes after {have}");
                have = n;
            }
        }
    }
    panic!("from_prefix asked for more six times");
}

/// Every block decoded from its span alone, concatenated; `Err` at the first failing block.
fn by_blocks(chunk: &[u8]) -> Result<Vec<u8>, ChunkError> {
    by_blocks_with(chunk, &mut BlockScratch::default())
}

/// [`by_blocks`] with the caller's scratch (kept from chunk to chunk, as the array reader does).
fn by_blocks_with(chunk: &[u8], scratch: &mut BlockScratch) -> Result<Vec<u8>, ChunkError> {
    let t = table(chunk)?;
    let n = t.header().uncompressed_len();
    if n > LIMIT {
        return Ok(Vec::new());
    }
    let mut out = vec![0u8; n];
    let mut first = Vec::new();
    for j in 0..t.nblocks() {
        let span = t.block_span(j)?;
        let bytes = chunk.get(span.clone()).unwrap_or(&chunk[span.start.min(chunk.len())..]);
        let range = t.block_range(j);
        let reference: &[u8] = if t.needs_first_block() && j > 0 { &first } else { &[] };
        let dst = &mut out[range.clone()];
        match t.decode_block(j, bytes, span.start, reference, dst, scratch) {
            // Blocks out of order: the block's streams run past the next block's start.
            Err(e) if e.kind == ErrorKind::ShortInput => {
                let rest = chunk.get(span.start..).unwrap_or(&[]);
                t.decode_block(j, rest, span.start, reference, dst, scratch)?;
            }
            r => r?,
        }
        if j == 0 {
            first = out[range].to_vec();
        }
    }
    Ok(out)
}

fn check(what: &str, chunk: &[u8]) {
    let whole = decompress_with_limit(chunk, LIMIT);
    if let Ok(want) = &whole {
        let t = table(chunk).unwrap_or_else(|e| panic!("{what}: table: {e}"));
        if t.header().is_vl_blocks() {
            return; // VL blocks are only decoded whole
        }
        let got = by_blocks(chunk).unwrap_or_else(|e| panic!("{what}: by blocks: {e}"));
        assert!(got == *want, "{what}: block-by-block output differs");
        let n = want.len();
        for threads in [1, 2, 3, 8] {
            let mut out = vec![0u8; n];
            let r = decompress_into_threaded(chunk, &mut out, threads);
            assert_eq!(r.map_err(|e| e.to_string()), Ok(n), "{what}: {threads} threads");
            assert!(out == *want, "{what}: {threads} threads: output differs");
        }
    } else if let Ok(h) = b2schema::chunk::ChunkHeader::parse(chunk)
        && h.uncompressed_len() <= LIMIT
    {
        let mut out = vec![0u8; h.uncompressed_len()];
        for threads in [1, 2, 8] {
            let r = decompress_into_threaded(chunk, &mut out, threads);
            assert_eq!(
                r.map_err(|e| e.to_string()),
                whole.as_ref().map(Vec::len).map_err(|e| e.to_string()),
                "{what}: {threads} threads"
            );
        }
    }
}

#[test]
fn every_block_of_every_chunk_decodes_alone_and_in_parallel() {
    let corpus = corpus();
    for (what, chunk) in &corpus {
        check(what, chunk);
    }
}

#[test]
fn mutated_chunks_agree_or_fail_cleanly() {
    let corpus = corpus();
    let mut rng = Rng(0x5eed_b10c);
    let small = corpus.iter().filter(|(_, c)| {
        b2schema::chunk::ChunkHeader::parse(c).is_ok_and(|h| h.uncompressed_len() <= 1 << 18)
    });
    for (what, chunk) in small.step_by(3) {
        for _ in 0..10 {
            let mut m = chunk.clone();
            let at = rng.below(m.len().min(256));
            m[at] ^= 1 << rng.below(8);
            check(&format!("{what} with byte {at} flipped"), &m);
            // Whatever the whole decoder says, the partial reader never panics.
            let _ = by_blocks(&m);
        }
    }
}

/// One `BlockScratch` for every zstd chunk of the corpus in turn, with and without dictionaries,
/// each after a mutated copy of itself (the array reader keeps one scratch per thread, and the
/// zstd decoder in it from chunk to chunk): every chunk decodes as with a fresh scratch, so no
/// chunk's dictionary, tables or failure reaches the next.
#[test]
fn one_scratch_kept_from_chunk_to_chunk_decodes_each_as_a_fresh_one() {
    let corpus = corpus();
    let mut scratch = BlockScratch::default();
    let mut rng = Rng(0x5c7a_7c4e);
    let (mut chunks, mut dicts) = (0, 0);
    for (what, chunk) in &corpus {
        let Ok(h) = b2schema::chunk::ChunkHeader::parse(chunk) else { continue };
        if h.codec().ok() != Some(b2schema::chunk::Codec::Zstd)
            || h.is_vl_blocks()
            || chunk.len() <= h.header_len()
        {
            continue;
        }
        let Ok(want) = decompress_with_limit(chunk, LIMIT) else { continue };
        let mut m = chunk.clone();
        let at = h.header_len() + rng.below(m.len() - h.header_len());
        m[at] ^= 1 << rng.below(8);
        let _ = by_blocks_with(&m, &mut scratch);
        let got = by_blocks_with(chunk, &mut scratch).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(got == want, "{what}: output differs with a kept scratch");
        chunks += 1;
        dicts += usize::from(h.blosc2_flags & 1 != 0 && h.header_len() > 16);
    }
    assert!(chunks > 20 && dicts > 0, "{chunks} zstd chunks, {dicts} with a dictionary");
}

#[test]
fn a_block_after_the_first_needs_the_delta_reference() {
    let chunk = read_file(&chunk_corpus("chunks/blosclz-delta-ts4.chunk"));
    let t = table(&chunk).unwrap();
    assert!(t.needs_first_block() && t.nblocks() > 1);
    let span = t.block_span(1).unwrap();
    let mut dst = vec![0u8; t.block_range(1).len()];
    let e = t.decode_block(1, &chunk[span.clone()], span.start, &[], &mut dst, &mut BlockScratch::default());
    assert!(e.unwrap_err().to_string().contains("delta reference"));
}
