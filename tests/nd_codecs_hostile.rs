//! Hostile input for c-blosc2's plugin codecs and filters that b2schema implements (ZFP in its
//! three modes, NDLZ, ndcell, ndmean): real chunks of each (ZFP, ndcell and ndmean written by
//! b2schema's compressor, byte-identical to c-blosc2's per `python::nd_codecs_python`; NDLZ
//! streams made here by a small encoder of c-blosc2's format, every token kind, decoded back to
//! their block) are truncated everywhere and mutated at random, and decoded with the array's
//! shapes and with shapes that lie (huge, zero, negative, 5-D, another size): every result is
//! data or an error naming an offset inside the chunk and a field, never a panic, and each
//! decode stays within the output limit. Crafted NDLZ streams (references before the stream,
//! row matches past the cell, huge embedded block shapes, unknown tokens) are refused by name.

use std::panic::{AssertUnwindSafe, catch_unwind};

use b2schema::chunk::compress::{self, Params};
use b2schema::chunk::{Codec, CodecPlugin, Decoder, Filter, PluginContext, PluginError, Registry};
use b2schema_tests::Rng;

/// Output cap: no decode may give more.
const LIMIT: usize = 1 << 22;

/// A chunk with its array's shapes and typesize.
struct Case {
    name: String,
    chunk: Vec<u8>,
    chunkshape: Vec<i32>,
    blockshape: Vec<i32>,
}

/// Smooth floats with noise, `n` items of `ts` bytes.
fn floats(rng: &mut Rng, n: usize, ts: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let v = (i as f64 * 0.07).sin() * 100.0 + (rng.below(1000) as f64) / 1e4;
            if ts == 4 { (v as f32).to_le_bytes().to_vec() } else { v.to_le_bytes().to_vec() }
        })
        .collect()
}

/// NDLZ streams of c-blosc2's format for the test's chunks: per cell, a run token for a cell of
/// one byte, a cell match for a full cell seen before as a literal, a pair-of-rows match (4x4
/// token 128, 8x8 token 136 + row) for a full cell whose two rows were seen as literal rows, and
/// a literal otherwise.
struct HandNdlz;

impl CodecPlugin for HandNdlz {
    fn name(&self) -> &str {
        "hand-ndlz"
    }

    fn encode(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<usize, PluginError> {
        let bs = ctx.blockshape.ok_or(PluginError("shapes"))?;
        let (b0, b1) = (bs[0] as usize, bs[1] as usize);
        let side = usize::from(ctx.meta);
        if src.len() != b0 * b1 {
            return Ok(0);
        }
        let mut out = vec![2u8];
        out.extend_from_slice(&bs[0].to_le_bytes());
        out.extend_from_slice(&bs[1].to_le_bytes());
        let mut literals: Vec<(Vec<u8>, usize)> = Vec::new(); // full literal cells: bytes, where
        for i0 in 0..b0.div_ceil(side) {
            for i1 in 0..b1.div_ceil(side) {
                let pad0 = (b0 - i0 * side).min(side);
                let pad1 = (b1 - i1 * side).min(side);
                let cell: Vec<u8> = (0..pad0)
                    .flat_map(|r| {
                        let at = (i0 * side + r) * b1 + i1 * side;
                        src[at..at + pad1].to_vec()
                    })
                    .collect();
                let cur = out.len();
                let full = pad0 == side && pad1 == side;
                if full && cell.iter().all(|&b| b == cell[0]) {
                    out.extend_from_slice(&[0x40, cell[0]]);
                } else if let Some((_, at)) = literals.iter().find(|(c, _)| full && *c == cell) {
                    out.push(0xc0);
                    out.extend_from_slice(&((cur - at) as u16).to_le_bytes());
                } else if let Some((_, at)) =
                    literals.iter().find(|(c, _)| full && c[..2 * side] == cell[..2 * side])
                {
                    // rows 0 and 1 from a literal cell's first two rows, the rest literal
                    if side == 4 {
                        // token 128 + (0 << 5) + (1 << 3): rows i = 0, j = 1 at cur + 3 - (u16 + 3)
                        out.push(128 + 8);
                        out.extend_from_slice(&((cur - at) as u16).to_le_bytes());
                    } else {
                        out.push(136); // pair match at row 0: bpos = cur - u16
                        out.extend_from_slice(&((cur - at) as u16).to_le_bytes());
                    }
                    out.extend_from_slice(&cell[2 * side..]);
                } else {
                    out.push(0);
                    if full {
                        literals.push((cell.clone(), out.len()));
                    }
                    out.extend_from_slice(&cell);
                }
            }
        }
        if out.len() >= src.len() || out.len() > dst.len() {
            return Ok(0);
        }
        dst[..out.len()].copy_from_slice(&out);
        Ok(out.len())
    }

    fn decode(&self, _: &[u8], _: &mut [u8], _: &PluginContext<'_>) -> Result<usize, PluginError> {
        Err(PluginError("only the built-in decoder decodes"))
    }
}

/// An image of tiles with a few changed pixels (cells that repeat, rows that repeat).
fn image(rng: &mut Rng, b0: usize, b1: usize, nblocks: usize) -> Vec<u8> {
    (0..nblocks * b0 * b1)
        .map(|i| {
            let (r, c) = ((i / b1) % b0, i % b1);
            if rng.below(300) == 0 {
                rng.below(256) as u8
            } else {
                ((r % 2) * 4 + c % 4 + 8 * ((r / 8 + c / 8) % 2) + 16 * usize::from(r >= 16)) as u8
            }
        })
        .collect()
}

fn cases() -> Vec<Case> {
    let mut rng = Rng(0x40_57113);
    let mut out = Vec::new();
    let zfp = [(Codec::ZfpAcc, 253u8), (Codec::ZfpAcc, 0), (Codec::ZfpPrec, 12), (Codec::ZfpRate, 40)];
    for (k, (codec, meta)) in zfp.into_iter().enumerate() {
        for (dims, ts) in [(1, 4), (2, 8), (3, 4), (4, 8)] {
            let blockshape: Vec<i32> = [7, 6, 5, 4][..dims].iter().map(|&s| s + (k as i32 % 2)).collect();
            let chunkshape: Vec<i32> =
                blockshape.iter().enumerate().map(|(i, &b)| if i == 0 { 2 * b } else { b }).collect();
            let items: usize = chunkshape.iter().product::<i32>() as usize;
            let data = floats(&mut rng, items, ts);
            let bs = blockshape.iter().product::<i32>() as usize * ts;
            let p = Params::new(ts)
                .with_codec(codec)
                .with_codec_meta(meta)
                .with_filters([Filter::NoFilter; 6], [0; 6])
                .with_blocksize(bs);
            let registry = Registry::new().with_array_shapes(&chunkshape, &blockshape);
            let chunk = compress::compress_with(&data, &p, &registry).unwrap();
            out.push(Case { name: format!("{codec}:{meta} {dims}-d ts{ts}"), chunk, chunkshape, blockshape });
        }
    }
    for (filter, meta, ts) in [
        (Filter::NdCell, 3u8, 2usize),
        (Filter::NdCell, 4, 8),
        (Filter::NdMean, 3, 4),
        (Filter::NdMean, 5, 8),
    ] {
        let blockshape = vec![9, 7];
        let chunkshape = vec![18, 7];
        let data = floats(&mut rng, 18 * 7, ts.max(4)).into_iter().take(18 * 7 * ts).collect::<Vec<_>>();
        let p = Params::new(ts)
            .with_codec(Codec::Lz4)
            .with_filter(0, filter, meta)
            .with_filter(1, Filter::Shuffle, 0)
            .with_blocksize(9 * 7 * ts);
        let registry = Registry::new().with_array_shapes(&chunkshape, &blockshape);
        let chunk = compress::compress_with(&data, &p, &registry).unwrap();
        out.push(Case { name: format!("{filter}:{meta} ts{ts}"), chunk, chunkshape, blockshape });
    }
    for (side, b0, b1) in [(4u8, 16, 24), (4, 13, 10), (8, 32, 24), (8, 30, 27)] {
        let blockshape = vec![b0 as i32, b1 as i32];
        let chunkshape = vec![2 * b0 as i32, b1 as i32];
        let data = image(&mut rng, b0, b1, 2);
        let mut registry = Registry::new().with_array_shapes(&chunkshape, &blockshape);
        registry.register_codec(Codec::Ndlz, HandNdlz).unwrap();
        let p = Params::new(1)
            .with_codec(Codec::Ndlz)
            .with_codec_meta(side)
            .with_filters([Filter::NoFilter; 6], [0; 6])
            .with_blocksize(b0 * b1);
        let chunk = compress::compress_with(&data, &p, &registry).unwrap();
        assert!(chunk[2] & 0x02 == 0, "ndlz {side} {b0}x{b1}: the hand encoder compressed nothing");
        // The built-in decoder gives the block back (NDLZ needs no shapes).
        assert_eq!(Decoder::new(&Registry::new()).decompress(&chunk).unwrap(), data, "ndlz {side} {b0}x{b1}");
        out.push(Case { name: format!("ndlz:{side} {b0}x{b1}"), chunk, chunkshape, blockshape });
    }
    out
}

/// Decodes `bytes` with `registry`: data within the limit, or an error inside the chunk.
fn must_hold(what: &str, bytes: &[u8], registry: &Registry) -> bool {
    let r = catch_unwind(AssertUnwindSafe(|| Decoder::new(registry).max_nbytes(LIMIT).decompress(bytes)));
    match r {
        Err(_) => panic!("decoder panicked on {what}"),
        Ok(Ok(v)) => {
            assert!(v.len() <= LIMIT, "{what}: {} bytes", v.len());
            true
        }
        Ok(Err(e)) => {
            assert!(!e.field.is_empty() && e.offset <= bytes.len().max(32), "{what}: {e}");
            false
        }
    }
}

#[test]
fn plugin_codec_chunks_truncated_mutated_and_with_lying_shapes_never_panic() {
    let cases = cases();
    let mut rng = Rng(0xbad_5eed);
    let (mut runs, mut decoded) = (0usize, 0usize);
    let started = std::time::Instant::now();
    for c in &cases {
        let good = Registry::new().with_array_shapes(&c.chunkshape, &c.blockshape);
        assert!(must_hold(&c.name, &c.chunk, &good), "{}: the chunk does not decode", c.name);
        // The decoder's own shapes serve codecs and filters as the registry's do.
        let plain = Registry::new();
        assert_eq!(
            Decoder::new(&plain).shapes(&c.chunkshape, &c.blockshape).decompress(&c.chunk).unwrap(),
            Decoder::new(&good).decompress(&c.chunk).unwrap(),
            "{}",
            c.name
        );
        let n = c.blockshape.len();
        let lies: Vec<Vec<i32>> = vec![
            vec![1 << 30; n],
            vec![0; n],
            vec![-4; n],
            vec![4; 5],
            c.blockshape.iter().map(|&b| b + 1).collect(),
            vec![c.blockshape.iter().product()],
        ];
        for lie in &lies {
            let r = Registry::new().with_array_shapes(&c.chunkshape, lie);
            decoded += usize::from(must_hold(&format!("{} with block shape {lie:?}", c.name), &c.chunk, &r));
            runs += 1;
        }
        for cut in 0..c.chunk.len() {
            let mut t = c.chunk[..cut].to_vec();
            if t.len() >= 16 {
                t[12..16].copy_from_slice(&(cut as i32).to_le_bytes());
            }
            decoded += usize::from(must_hold(&format!("{} cut to {cut}", c.name), &t, &good));
            runs += 1;
        }
        let mut m = c.chunk.clone();
        for _ in 0..1500 {
            // Most mutations hit the streams (past the 32-byte header and the block starts).
            let pos = if rng.below(4) == 0 { rng.below(m.len()) } else { 32 + rng.below(m.len() - 32) };
            let old = m[pos];
            m[pos] ^= (rng.below(255) + 1) as u8;
            decoded += usize::from(must_hold(
                &format!("{} byte {pos} {old:#04x}->{:#04x}", c.name, m[pos]),
                &m,
                &good,
            ));
            m[pos] = old;
            runs += 1;
        }
    }
    eprintln!(
        "{} chunks, {runs} hostile decodes ({decoded} gave data) in {:?}",
        cases.len(),
        started.elapsed()
    );
}

/// A chunk of one NDLZ block holding `stream`, for a block of `len` bytes.
fn ndlz_chunk(stream: &[u8], len: usize, side: u8) -> Vec<u8> {
    let mut c = vec![0u8; 32];
    c[0] = 5; // version
    c[1] = 1; // versionlz
    c[2] = 0x01 | 0x04 | 0x10 | (6 << 5); // extended header, dont_split, user codec
    c[3] = 1;
    c[4..8].copy_from_slice(&(len as i32).to_le_bytes());
    c[8..12].copy_from_slice(&(len as i32).to_le_bytes());
    c[22] = Codec::Ndlz.id();
    c[23] = side;
    c.extend_from_slice(&36i32.to_le_bytes()); // bstarts[0]
    c.extend_from_slice(&(stream.len() as i32).to_le_bytes());
    c.extend_from_slice(stream);
    let cbytes = c.len() as i32;
    c[12..16].copy_from_slice(&cbytes.to_le_bytes());
    c
}

fn ndlz_header(b0: i32, b1: i32) -> Vec<u8> {
    let mut s = vec![2u8];
    s.extend_from_slice(&b0.to_le_bytes());
    s.extend_from_slice(&b1.to_le_bytes());
    s
}

#[test]
fn crafted_ndlz_streams_are_refused_by_name() {
    let reg = Registry::new();
    let decode = |stream: &[u8], side: u8| Decoder::new(&reg).decompress(&ndlz_chunk(stream, 64, side));
    // A literal cell then a run: a valid 4x8 block (one 4x4 literal, one run).
    let mut ok = ndlz_header(4, 8);
    ok.push(0);
    ok.extend(0..16u8);
    ok.extend_from_slice(&[0x40, 9]);
    let mut two = vec![0u8; 32];
    let got = Decoder::new(&reg).decompress(&ndlz_chunk(&ok, 32, 4)).unwrap();
    for r in 0..4 {
        two[r * 8..r * 8 + 4].copy_from_slice(&[
            4 * r as u8,
            4 * r as u8 + 1,
            4 * r as u8 + 2,
            4 * r as u8 + 3,
        ]);
        two[r * 8 + 4..r * 8 + 8].fill(9);
    }
    assert_eq!(got, two);
    let refused: Vec<(&str, Vec<u8>, u8, &str)> = vec![
        (
            "a cell match before the stream",
            [ndlz_header(8, 8), vec![0xc0, 0xff, 0xff]].concat(),
            4,
            "inside the stream",
        ),
        (
            "three rows from before the stream",
            [ndlz_header(8, 8), vec![0xe0, 0x00, 0x40]].concat(),
            4,
            "inside the stream",
        ),
        (
            "an 8x8 triple match at row 6",
            [ndlz_header(8, 8), vec![168 + 6, 1, 0]].concat(),
            8,
            "inside the cell",
        ),
        ("an unknown 4x4 token", [ndlz_header(8, 8), vec![7]].concat(), 4, "token"),
        ("an unknown 8x8 token", [ndlz_header(8, 8), vec![200]].concat(), 8, "token"),
        ("a block shape of 2^31 - 1 rows", [ndlz_header(i32::MAX, 8), vec![0]].concat(), 4, "block shape"),
        ("a negative block side", [ndlz_header(-8, -8), vec![0]].concat(), 4, "non-negative"),
        ("ndim 3", [vec![3u8], ndlz_header(8, 8)[1..].to_vec()].concat(), 4, "ndim 2"),
        ("a cell size of 5", [ndlz_header(8, 8), vec![0x40, 1]].concat(), 5, "4 or 8"),
        ("a stream cut in its header", vec![2, 8, 0, 0], 4, "9 bytes"),
        ("a literal cut short", [ndlz_header(8, 8), vec![0, 1, 2, 3]].concat(), 4, "inside the stream"),
    ];
    for (what, stream, side, says) in refused {
        let e = decode(&stream, side).unwrap_err();
        assert!(e.to_string().contains(says), "{what}: {e}");
        assert_eq!(e.field, "stream", "{what}: {e}");
        assert!(e.offset >= 40 && e.offset < 40 + stream.len().max(1), "{what}: {e}");
    }
}

/// c-blosc2's ZFP takes 1 to 4 dimensions (`ZFP_MAX_DIM`): a 5-D array is refused when written
/// (python-blosc2 fails there too) and a ZFP chunk read with 5-D shapes is refused, by name.
#[test]
fn zfp_beyond_four_dimensions_is_refused_both_ways() {
    use b2schema::writer::{CParams, Fill, NdArray};
    let data: Vec<u8> = (0..4usize.pow(5)).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let mut a = NdArray::new(&[4; 5], &[4; 5], &[4; 5], "<f4", 4, Fill::Data(&data));
    a.cparams = CParams {
        codec: Codec::ZfpRate,
        codec_meta: 50,
        filters: [Filter::NoFilter; 6],
        ..CParams::default()
    };
    let e = a.to_frame().unwrap_err().to_string();
    assert!(e.contains("1 to 4 dimensions"), "{e}");
    let chunk = cases().into_iter().find(|c| c.name.starts_with("zfp_rate")).unwrap();
    let five = Registry::new().with_array_shapes(&[4; 5], &[4; 5]);
    let e = Decoder::new(&five).decompress(&chunk.chunk).unwrap_err().to_string();
    assert!(e.contains("1 to 4 dimensions"), "{e}");
}
