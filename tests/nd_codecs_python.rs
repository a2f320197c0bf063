//! c-blosc2's plugin codecs and filters that python-blosc2 4.14.1 writes out of the box: NDLZ
//! (32), ZFP_ACC (33), ZFP_PREC (34), ZFP_RATE (35), NDCELL (32), NDMEAN (33) and INT_TRUNC (36).
//!
//! Random arrays (dtype, 1-4 dimensions, chunk and block shapes that do not divide the shape,
//! the parameters' ranges) are written by python-blosc2 with each of them and read by b2schema,
//! every chunk whole equal bit for bit to c-blosc2's decoding of it, and the array whole and in
//! random slices equal to python-blosc2's own `arr[()]` (the lossy ones as c-blosc2 decodes
//! them). The same arrays written by b2schema are read by python-blosc2 equal to what
//! b2schema's reader gives, and their chunks are byte-identical to python-blosc2's (c-blosc2 is
//! deterministic for all of these).
//!
//! Where python-blosc2 4.14.1 / c-blosc2 3.3.5 fail, the cases stay out: int_trunc metas below 0
//! and ndcell metas above 127 (python-blosc2 writes them but cannot reopen the file: its
//! `update_cparams` casts the metas to `int8_t`); NDLZ blocks that do not compress (c-blosc2
//! fails to write them: blocks of at least 8x8 items of a tiled image here); ndmean cells larger than a block side (c-blosc2 cannot decode them);
//! ZFP streams of nearly the block's size (c-blosc2 copies them past its buffer). c-blosc2
//! cannot give `arr[()]` of some 4-D zfp_rate arrays (see `tests/python/nd_codecs.py`): those
//! are checked chunk by chunk only, and counted. Never skipped: python-blosc2 comes from
//! `scripts/pyenv.sh`.

use std::ops::Range;
use std::path::Path;

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::chunk::{Codec, Filter};
use b2schema::frame::{ChunkLocation, FrameFile};
use b2schema::writer::{CParams, Fill, NdArray};
use b2schema_tests::{Rng, python_checks};
use serde_json::json;

/// What a case exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ndlz,
    ZfpAcc,
    ZfpPrec,
    ZfpRate,
    NdCell,
    NdMean,
    IntTrunc,
}

const KINDS: [Kind; 7] =
    [Kind::Ndlz, Kind::ZfpAcc, Kind::ZfpPrec, Kind::ZfpRate, Kind::NdCell, Kind::NdMean, Kind::IntTrunc];
const INTS: &[&str] = &["|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8"];
const FLOATS: &[&str] = &["<f4", "<f8"];
const CODECS: &[Codec] = &[Codec::BloscLz, Codec::Lz4, Codec::Zlib, Codec::Zstd];

struct Case {
    name: String,
    kind: Kind,
    dtype: &'static str,
    shape: Vec<usize>,
    chunks: Vec<usize>,
    blocks: Vec<usize>,
    cparams: CParams,
    data: Vec<u8>,
    slices: Vec<Vec<Range<u64>>>,
}

fn pick<'a, T>(rng: &mut Rng, from: &'a [T]) -> &'a T {
    &from[rng.below(from.len())]
}

/// `lo..=hi`.
fn between(rng: &mut Rng, lo: usize, hi: usize) -> usize {
    lo + rng.below(hi - lo + 1)
}

/// A shape of `ndim` sides of at least `min` items, about `budget` items in all, with chunk and
/// block shapes that need not divide it (blocks of at least `min_block` a side).
fn shapes(
    rng: &mut Rng,
    ndim: usize,
    min_block: usize,
    budget: usize,
) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let side = ((budget as f64).powf(1.0 / ndim as f64) as usize).max(min_block + 1);
    let shape: Vec<usize> = (0..ndim).map(|_| between(rng, min_block, side * 2)).collect();
    let chunks: Vec<usize> = shape.iter().map(|&s| between(rng, min_block, s)).collect();
    let blocks: Vec<usize> = chunks.iter().map(|&c| between(rng, min_block, c)).collect();
    (shape, chunks, blocks)
}

/// Data of `n` items of `dtype`: smooth floats with noise (what ZFP is for), integers over the
/// whole range or a small one.
fn data(rng: &mut Rng, dtype: &str, n: usize, scale_exp: i32) -> Vec<u8> {
    let size: usize = dtype[2..].parse().unwrap();
    let wide = rng.below(2) == 0;
    let scale = 10f64.powi(scale_exp);
    let mut out = Vec::with_capacity(n * size);
    for i in 0..n {
        let noise = (rng.next_u64() % 1000) as f64 / 1000.0;
        match dtype {
            "<f4" | "<f8" => {
                let v = ((i as f64) * 0.05).sin() * scale + noise * 0.1 * scale;
                if size == 4 {
                    out.extend((v as f32).to_le_bytes());
                } else {
                    out.extend(v.to_le_bytes());
                }
            }
            _ => {
                let v = if wide { rng.next_u64() } else { (i as u64 / 3) % 50 + rng.below(3) as u64 };
                out.extend_from_slice(&v.to_le_bytes()[..size]);
            }
        }
    }
    out
}

fn case(rng: &mut Rng, kind: Kind, i: usize) -> Case {
    let mut filters = Vec::new();
    let mut codec = *pick(rng, CODECS);
    let mut codec_meta = 0u8;
    let (dtype, ndim, min_block) = match kind {
        Kind::Ndlz => ("|u1", 2, 8),
        Kind::ZfpAcc | Kind::ZfpPrec | Kind::ZfpRate => (*pick(rng, FLOATS), between(rng, 1, 4), 4),
        Kind::NdCell => (*pick(rng, &[INTS, FLOATS].concat()), between(rng, 1, 4), 1),
        Kind::NdMean => (*pick(rng, FLOATS), between(rng, 1, 4), 1),
        Kind::IntTrunc => (*pick(rng, INTS), between(rng, 1, 4), 1),
    };
    let (shape, chunks, blocks) = shapes(rng, ndim, min_block, 6000);

    let scale_exp = [-6, 0, 3, 12][rng.below(4)];
    let bits = 8 * dtype[2..].parse::<usize>().unwrap() as i32;
    match kind {
        Kind::Ndlz => {
            codec = Codec::Ndlz;
            codec_meta = *pick(rng, &[4u8, 8]);
        }
        // c-blosc2 3.3.5 copies a ZFP stream into its block's place without checking that it
        // fits there, only that it is smaller than the block: a stream of nearly the block's size
        // late in a chunk overflows its buffer (python-blosc2 fails or aborts: "double free or
        // corruption"). The parameters stay where the streams are clearly smaller than the data
        // (tolerances at most 4 or 8 digits under the data's scale, up to 17 or 35 bit planes,
        // rates up to 60 %).
        Kind::ZfpAcc => {
            codec = Codec::ZfpAcc;
            // the tolerance's decimal exponent, from the data's scale down to 6 or 10 digits under it
            let digits = if dtype == "<f4" { 4 } else { 8 };
            codec_meta = (scale_exp - between(rng, 0, digits) as i32) as i8 as u8;
        }
        Kind::ZfpPrec => {
            codec = Codec::ZfpPrec;
            codec_meta = between(rng, 0, if dtype == "<f4" { 12 } else { 30 }) as u8;
        }
        Kind::ZfpRate => {
            codec = Codec::ZfpRate;
            codec_meta = between(rng, 0, 60) as u8;
        }
        Kind::NdCell => {
            // cells no larger than the block (c-blosc2 refuses larger)
            let items: usize = blocks.iter().product();
            let most = (1..=255).take_while(|c: &usize| c.pow(ndim as u32) <= items).last().unwrap_or(1);
            filters.push((Filter::NdCell, between(rng, 1, most.min(127)) as u8));
        }
        Kind::NdMean => {
            // at most the smallest block side: c-blosc2 cannot decode the cells of a larger one
            let most = blocks.iter().copied().min().unwrap().min(127);
            filters.push((Filter::NdMean, between(rng, 1, most) as u8));
        }
        Kind::IntTrunc => {
            filters.push((Filter::IntTrunc, between(rng, 1, bits as usize) as u8));
        }
    }
    if matches!(kind, Kind::NdCell | Kind::NdMean | Kind::IntTrunc) && rng.below(2) == 0 {
        filters.push((Filter::Shuffle, 0));
    }
    let mut slots = [Filter::NoFilter; 6];
    let mut metas = [0u8; 6];
    for (k, (f, m)) in filters.iter().enumerate() {
        slots[k] = *f;
        metas[k] = *m;
    }
    let cparams = CParams {
        codec,
        codec_meta,
        clevel: between(rng, 1, 9) as u8,
        filters: slots,
        filters_meta: metas,
        ..CParams::default()
    };
    let n: usize = shape.iter().product();
    let data = if kind == Kind::Ndlz {
        // An image of 4x4 tiles, some pixels changed: what NDLZ matches cells and rows in
        // (c-blosc2 fails to write NDLZ blocks it cannot make smaller).
        let every = [usize::MAX, 97, 13][rng.below(3)];
        (0..n)
            .map(|i| {
                let (r, c) = (i / shape[1], i % shape[1]);
                if i % every == 5 { 255 } else { (((r / 4) * 7 + (c / 4) * 3) % 16) as u8 }
            })
            .collect()
    } else {
        data(rng, dtype, n, scale_exp)
    };
    let slices = (0..4)
        .map(|_| {
            shape
                .iter()
                .map(|&s| {
                    let a = rng.below(s + 1) as u64;
                    let b = rng.below(s + 1) as u64;
                    a.min(b)..a.max(b)
                })
                .collect()
        })
        .collect();
    Case { name: format!("{kind:?}-{i:02}"), kind, dtype, shape, chunks, blocks, cparams, data, slices }
}

/// The item selection `ranges` of the C-order array `whole` of `shape`.
fn slice_of(whole: &[u8], shape: &[usize], ts: usize, ranges: &[Range<u64>]) -> Vec<u8> {
    let mut out = Vec::new();
    let n = shape.len();
    if ranges.iter().any(|r| r.is_empty()) {
        return out;
    }
    let mut idx: Vec<u64> = ranges.iter().map(|r| r.start).collect();
    loop {
        let mut at = 0usize;
        for d in 0..n {
            at = at * shape[d] + idx[d] as usize;
        }
        out.extend_from_slice(&whole[at * ts..(at + 1) * ts]);
        let mut d = n;
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < ranges[d].end {
                break;
            }
            idx[d] = ranges[d].start;
        }
    }
}

fn read_whole(path: &Path) -> b2schema::Result<Vec<u8>> {
    let file = FrameFile::open(path)?;
    let reader = ArrayReader::new(&file)?;
    let all: Vec<Range<u64>> = reader.shape().iter().map(|&s| 0..s).collect();
    let sel = Selection::new(all, reader.shape())?;
    Ok(reader.read(&sel, &ReadOptions::default())?.0)
}

/// Every chunk of the frame at `path` decoded whole, end to end.
fn chunk_data(path: &Path) -> b2schema::Result<Vec<u8>> {
    let file = FrameFile::open(path)?;
    let mut out = Vec::new();
    for info in file.chunks()? {
        out.extend(file.chunk_data(&info, 1 << 26)?);
    }
    Ok(out)
}

/// The stored chunks of the frame at `path` (a special index entry as its kind's name).
fn stored_chunks(path: &Path) -> Vec<Vec<u8>> {
    let file = FrameFile::open(path).unwrap();
    file.chunks()
        .unwrap()
        .into_iter()
        .map(|c| match c.location {
            ChunkLocation::Special(kind) => format!("{kind:?}").into_bytes(),
            loc => file.read_chunk(loc).unwrap(),
        })
        .collect()
}

#[test]
fn plugin_codecs_and_filters_round_trip_with_python_blosc2() {
    let dir = std::env::temp_dir().join(format!("b2schema-ndcodecs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x2d_c0de);
    let cases: Vec<Case> =
        (0..10).flat_map(|i| KINDS.map(|k| (k, i))).map(|(k, i)| case(&mut rng, k, i)).collect();
    let mut entries = Vec::new();
    for c in &cases {
        let ts = c.dtype[2..].parse::<usize>().unwrap();
        let data_path = dir.join(format!("{}.data", c.name));
        std::fs::write(&data_path, &c.data).unwrap();
        let ours = dir.join(format!("{}.ours.b2nd", c.name));
        let ours_read = dir.join(format!("{}.ours.read", c.name));
        let ours_chunks = dir.join(format!("{}.ours.chunks", c.name));
        {
            let shape: Vec<i64> = c.shape.iter().map(|&s| s as i64).collect();
            let chunks: Vec<i32> = c.chunks.iter().map(|&s| s as i32).collect();
            let blocks: Vec<i32> = c.blocks.iter().map(|&s| s as i32).collect();
            let mut array = NdArray::new(&shape, &chunks, &blocks, c.dtype, ts, Fill::Data(&c.data));
            array.cparams = c.cparams;
            array.to_frame().unwrap_or_else(|e| panic!("{}: {e}", c.name)).write_file(&ours).unwrap();
            std::fs::write(
                &ours_read,
                read_whole(&ours).unwrap_or_else(|e| panic!("{} (ours): {e}", c.name)),
            )
            .unwrap();
            std::fs::write(&ours_chunks, chunk_data(&ours).unwrap()).unwrap();
        }
        let used = c.cparams.filters.iter().take_while(|f| **f != Filter::NoFilter).count();
        entries.push(json!({
            "name": c.name, "dtype": c.dtype, "shape": c.shape, "chunks": c.chunks, "blocks": c.blocks,
            "codec": c.cparams.codec.id(), "codec_meta": c.cparams.codec_meta, "clevel": c.cparams.clevel,
            "filters": c.cparams.filters[..used].iter().map(|f| f.id()).collect::<Vec<_>>(),
            // python-blosc2 takes filter metas as int8
            "filters_meta": c.cparams.filters_meta[..used].iter().map(|&m| m as i8).collect::<Vec<_>>(),
            "data": data_path, "theirs": dir.join(format!("{}.theirs.b2nd", c.name)),
            "expected": dir.join(format!("{}.expected", c.name)),
            "theirs_chunks": dir.join(format!("{}.theirs.chunks", c.name)), "ours_chunks": ours_chunks,
            "ours": ours, "ours_read": ours_read,
        }));
    }
    python_checks("nd_codecs.py", &dir, &entries);
    let (mut slices, mut identical, mut chunks_total, mut comparable, mut unreadable) = (0, 0, 0, 0, 0);
    for c in &cases {
        let ts = c.dtype[2..].parse::<usize>().unwrap();
        let theirs = dir.join(format!("{}.theirs.b2nd", c.name));
        let by_chunk = chunk_data(&theirs).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let want = std::fs::read(dir.join(format!("{}.theirs.chunks", c.name))).unwrap();
        assert!(by_chunk == want, "{}: b2schema decodes python-blosc2's chunks as other data", c.name);
        let Ok(expected) = std::fs::read(dir.join(format!("{}.expected", c.name))) else {
            assert!(
                c.kind == Kind::ZfpRate && c.shape.len() == 4,
                "{}: python-blosc2 cannot read it",
                c.name
            );
            unreadable += 1;
            continue;
        };
        let file = FrameFile::open(&theirs).unwrap();
        let reader = ArrayReader::new(&file).unwrap();
        let got = read_whole(&theirs).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert!(got == expected, "{}: b2schema reads python-blosc2's array as other data", c.name);
        for ranges in &c.slices {
            let sel = Selection::new(ranges.clone(), reader.shape()).unwrap();
            for nthreads in [1, 3] {
                let opts = ReadOptions { nthreads, min_thread_bytes: 0, ..ReadOptions::default() };
                let (part, _) =
                    reader.read(&sel, &opts).unwrap_or_else(|e| panic!("{} {ranges:?}: {e}", c.name));
                assert!(part == slice_of(&expected, &c.shape, ts, ranges), "{} {ranges:?}", c.name);
            }
            slices += 1;
        }
        {
            let ours = dir.join(format!("{}.ours.b2nd", c.name));
            let (a, b) = (stored_chunks(&ours), stored_chunks(&theirs));
            assert_eq!(a.len(), b.len(), "{}: chunk count", c.name);
            // b2schema's zstd (its own encoder) is not libzstd's bytes (sizes within 0.1 %); every
            // other codec here is byte-identical to c-blosc2's, zlib too (its own deflate writes
            // zlib-ng's bytes, which c-blosc2 bundles).
            let same_codec = !matches!(c.cparams.codec, Codec::Zstd);
            for (k, (a, b)) in a.iter().zip(&b).enumerate() {
                assert!(a == b || !same_codec, "{}: chunk {k} differs from python-blosc2's", c.name);
                identical += usize::from(a == b);
            }
            chunks_total += b.len();
            comparable += if same_codec { b.len() } else { 0 };
        }
    }
    eprintln!(
        "{} arrays ({unreadable} that python-blosc2 cannot read whole), {slices} slices equal python-blosc2's; \
         {identical} of {chunks_total} chunks byte-identical ({comparable} compared: not zstd)",
        cases.len()
    );
    assert!(
        identical >= comparable && comparable * 3 > chunks_total,
        "{comparable} of {chunks_total} chunks compared"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
