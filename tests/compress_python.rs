//! The compression matrix against the reference, both ways, in one python process: for every
//! codec x filter pipeline x typesize (1, 2, 3, 4, 8, 16) x split mode, b2schema writes a `.b2nd`
//! array that python-blosc2 4.14.1 opens with equal data (`arr[()]`), and python-blosc2 writes the
//! same data with the same parameters for b2schema to decode. SChunks with the automatic
//! blocksize show that both cut the same blocks and streams. This test never skips: without
//! python-blosc2 (`scripts/pyenv.sh`) it fails.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use b2schema::chunk::{self, ChunkHeader, Codec, Filter};

/// The filter ids this test writes into its manifests.
mod filter_id {
    use b2schema::chunk::Filter;
    pub const SHUFFLE: u8 = Filter::Shuffle.id();
    pub const BITSHUFFLE: u8 = Filter::BitShuffle.id();
    pub const DELTA: u8 = Filter::Delta.id();
    pub const BYTEDELTA: u8 = Filter::ByteDelta.id();
    pub const TRUNC_PREC: u8 = Filter::TruncPrec.id();
}
use b2schema::frame::{ChunkLocation, FrameView, SplitMode};
use b2schema::writer::{self, CParams, Fill, NdArray};
use b2schema_tests::python_checks;
use serde_json::{Value, json};

const CODECS: [(u8, &str); 5] = [
    (Codec::BloscLz.id(), "blosclz"),
    (Codec::Lz4.id(), "lz4"),
    (Codec::Lz4hc.id(), "lz4hc"),
    (Codec::Zlib.id(), "zlib"),
    (Codec::Zstd.id(), "zstd"),
];
/// Codecs whose chunks must be byte-identical to c-blosc2's.
const IDENTICAL_CODECS: [&str; 4] = ["blosclz", "lz4", "lz4hc", "zlib"];
const SPLITS: [SplitMode; 4] =
    [SplitMode::Always, SplitMode::Never, SplitMode::Auto, SplitMode::ForwardCompat];
/// typesize and the NumPy dtype used for it.
const TYPES: [(usize, &str); 6] = [(1, "|u1"), (2, "<u2"), (3, "|S3"), (4, "<f4"), (8, "<f8"), (16, "|S16")];

/// (name, filters, metas); trunc_prec only for floats.
fn pipelines(ts: usize) -> Vec<(&'static str, [u8; 6], [u8; 6])> {
    use filter_id::*;
    let mut p = vec![
        ("nofilter", [0; 6], [0; 6]),
        ("shuffle", [0, 0, 0, 0, 0, SHUFFLE], [0; 6]),
        ("bitshuffle", [0, 0, 0, 0, 0, BITSHUFFLE], [0; 6]),
        ("delta-shuffle", [0, 0, 0, 0, DELTA, SHUFFLE], [0; 6]),
        ("shuffle-bytedelta", [0, 0, 0, 0, SHUFFLE, BYTEDELTA], [0; 6]),
    ];
    if ts == 4 || ts == 8 {
        p.push(("truncprec-bitshuffle", [0, 0, 0, 0, TRUNC_PREC, BITSHUFFLE], [0, 0, 0, 0, 12, 0]));
    }
    p
}

/// Items that compress like real data: a slow signal with noise, a run of zeros, a zero chunk.
fn data(ts: usize, n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    let mut noise = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut out = Vec::with_capacity(n * ts);
    for i in 0..n {
        let zero = (1000..2000).contains(&i) || (2300..2400).contains(&i);
        let r = noise();
        match ts {
            4 => out.extend_from_slice(
                &if zero { 0f32 } else { (i as f32 * 0.01).sin() * 100.0 + (r % 7) as f32 }.to_le_bytes(),
            ),
            8 => out.extend_from_slice(
                &if zero { 0f64 } else { (i as f64 * 0.003).cos() * 1e3 + (r % 1000) as f64 * 1e-3 }
                    .to_le_bytes(),
            ),
            _ => {
                let v = if zero { 0 } else { (i as u64 / 3) + (r % 4) };
                out.extend((0..ts).map(|k| (v >> (8 * (k % 8))) as u8 ^ if k >= 8 { 0x55 } else { 0 }));
            }
        }
    }
    out
}

/// Bytes that do not compress (a xorshift), with a run of zeros of `run` bytes in the middle of
/// each `chunk` bytes: chunks at c-blosc2's output limit, stored as memcpy chunks, or with
/// streams stored raw, as c-blosc2 decides block by block (its early exit).
fn noise(n: usize, seed: u64, chunk: usize, run: usize) -> Vec<u8> {
    let mut s = seed | 1;
    let mut out: Vec<u8> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect();
    for c in out.chunks_mut(chunk) {
        let mid = c.len() / 2;
        let end = (mid + run).min(c.len());
        c[mid..end].fill(0);
    }
    out
}

/// What trunc_prec keeps of `data` (the low mantissa bits cleared).
fn truncated(data: &[u8], ts: usize, keep: u32) -> Vec<u8> {
    let zeroed = if ts == 4 { 23 - keep } else { 52 - keep };
    data.chunks_exact(ts)
        .flat_map(|c| {
            if ts == 4 {
                (u32::from_le_bytes(c.try_into().unwrap()) & !((1u32 << zeroed) - 1)).to_le_bytes().to_vec()
            } else {
                (u64::from_le_bytes(c.try_into().unwrap()) & !((1u64 << zeroed) - 1)).to_le_bytes().to_vec()
            }
        })
        .collect()
}

/// The stored chunks of a contiguous frame, in order (`None` for special chunks).
fn chunks_of(frame: &[u8]) -> Vec<Option<Vec<u8>>> {
    let view = FrameView::from_slice(frame).unwrap();
    let base = view.header.header_len as usize;
    view.chunk_locations()
        .unwrap()
        .into_iter()
        .map(|loc| match loc {
            ChunkLocation::Offset(o) => {
                let start = base + o as usize;
                let len = ChunkHeader::parse(&frame[start..]).unwrap().compressed_len();
                Some(frame[start..start + len].to_vec())
            }
            _ => None,
        })
        .collect()
}

/// The decoded chunks of a frame (special chunks, here only zeros, of `chunksize` bytes).
fn decoded_chunks(frame: &[u8]) -> Vec<Vec<u8>> {
    let chunksize = FrameView::from_slice(frame).unwrap().header.chunksize as usize;
    chunks_of(frame)
        .into_iter()
        .map(|c| c.map_or_else(|| vec![0; chunksize], |c| chunk::decompress(&c).unwrap()))
        .collect()
}

fn decode_all(frame: &[u8]) -> Vec<u8> {
    decoded_chunks(frame).concat()
}

struct Case {
    manifest: Value,
    theirs: PathBuf,
    ours: PathBuf,
    expect: Vec<u8>,
    codec: &'static str,
}

#[allow(clippy::too_many_arguments)]
fn cparams(codec: u8, clevel: u8, filters: [u8; 6], metas: [u8; 6], split: SplitMode) -> CParams {
    CParams {
        codec: Codec::from_id(codec),
        clevel,
        filters: filters.map(Filter::from_id),
        filters_meta: metas,
        splitmode: split,
        ..CParams::default()
    }
}

fn array_cases(dir: &Path) -> Vec<Case> {
    let n = 3000usize;
    let mut cases = Vec::new();
    let mut k = 0u8;
    for (codec, cname) in CODECS {
        for (ts, dtype) in TYPES {
            let input = data(ts, n, ts as u64 * 7 + u64::from(codec));
            for (pname, filters, metas) in pipelines(ts) {
                let expect =
                    if pname.starts_with("trunc") { truncated(&input, ts, 12) } else { input.clone() };
                for split in SPLITS {
                    k = k % 9 + 1;
                    let name = format!("{cname}-{pname}-ts{ts}-split{}-c{k}", split.value());
                    let ours = dir.join(format!("{name}.ours.b2nd"));
                    let theirs = dir.join(format!("{name}.theirs.b2nd"));
                    let data_path = dir.join(format!("{name}.data"));
                    let expect_path = dir.join(format!("{name}.expect"));
                    let mut a = NdArray::new(&[n as i64], &[1000], &[250], dtype, ts, Fill::Data(&input));
                    a.cparams = cparams(codec, k, filters, metas, split);
                    a.to_frame().unwrap_or_else(|e| panic!("{name}: {e}")).write_file(&ours).unwrap();
                    std::fs::write(&data_path, &input).unwrap();
                    std::fs::write(&expect_path, &expect).unwrap();
                    cases.push(Case {
                        manifest: json!({
                            "name": name, "kind": "ndarray", "ours": ours, "theirs": theirs,
                            "data": data_path, "expect": expect_path, "dtype": dtype, "shape": [n],
                            "chunks": [1000], "blocks": [250], "codec": codec, "clevel": k,
                            "typesize": ts, "splitmode": split.value(), "filters": filters, "filters_meta": metas,
                        }),
                        theirs,
                        ours,
                        expect: expect.clone(),
                        codec: cname,
                    });
                }
            }
        }
    }
    cases
}

/// SChunks with c-blosc2's automatic blocksize: 2 chunks of 96 KiB, of data that compresses,
/// of noise, and of noise with a run of zeros (chunks at the output limit).
fn schunk_cases(dir: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    let kinds = ["data", "noise", "nearly-noise"];
    for (codec, cname) in CODECS {
        for clevel in [1u8, 5, 9] {
            for ts in [1usize, 4, 8] {
                for (kind, split) in kinds.iter().flat_map(|k| [(k, SplitMode::Auto), (k, SplitMode::Never)])
                {
                    let name = format!("schunk-{kind}-{cname}-c{clevel}-ts{ts}-split{}", split.value());
                    let n = 2 * 96 * 1024;
                    let input = match *kind {
                        "data" => data(ts, n / ts, clevel as u64),
                        "noise" => noise(n, u64::from(clevel) * 31 + ts as u64, 96 * 1024, 0),
                        _ => noise(
                            n,
                            u64::from(clevel) * 37 + ts as u64,
                            96 * 1024,
                            24 * usize::from(clevel) * ts,
                        ),
                    };
                    let shuffle = [0, 0, 0, 0, 0, filter_id::SHUFFLE];
                    let cp = cparams(codec, clevel, shuffle, [0; 6], split);
                    let ours = dir.join(format!("{name}.ours.b2frame"));
                    let theirs = dir.join(format!("{name}.theirs.b2frame"));
                    let data_path = dir.join(format!("{name}.data"));
                    writer::schunk(&input, ts, 96 * 1024, cp).unwrap().write_file(&ours).unwrap();
                    std::fs::write(&data_path, &input).unwrap();
                    cases.push(Case {
                        manifest: json!({
                            "name": name, "kind": "schunk", "ours": ours, "theirs": theirs,
                            "data": data_path, "expect": data_path, "chunksize": 96 * 1024,
                            "codec": codec, "clevel": clevel, "typesize": ts, "splitmode": split.value(),
                            "filters": shuffle, "filters_meta": [0, 0, 0, 0, 0, 0],
                        }),
                        theirs,
                        ours,
                        expect: input,
                        codec: cname,
                    });
                }
            }
        }
    }
    cases
}

#[test]
fn python_blosc2_and_b2schema_read_each_others_compressed_files() {
    let dir = std::env::temp_dir().join(format!("b2schema-compress-matrix-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = array_cases(&dir);
    cases.extend(schunk_cases(&dir));
    let entries: Vec<&Value> = cases.iter().map(|c| &c.manifest).collect();

    // Our own decoder reads what we wrote: the input, truncated where trunc_prec ran (a
    // memcpy chunk stores the input as is, filters not applied, as c-blosc2 does).
    for c in &cases {
        let ours = std::fs::read(&c.ours).unwrap();
        let name = c.manifest["name"].as_str().unwrap();
        let input = std::fs::read(c.manifest["data"].as_str().unwrap()).unwrap();
        let mut at = 0;
        for (i, (o, got)) in chunks_of(&ours).into_iter().zip(decoded_chunks(&ours)).enumerate() {
            let memcpyed = o.is_some_and(|o| ChunkHeader::parse(&o).unwrap().is_memcpyed());
            let want = if memcpyed { &input[at..at + got.len()] } else { &c.expect[at..at + got.len()] };
            assert_eq!(got, want, "{name}: chunk {i} decodes to other data");
            at += got.len();
        }
        assert_eq!(at, c.expect.len(), "{name}: length");
        std::fs::write(c.manifest["expect"].as_str().unwrap(), decode_all(&ours)).unwrap();
    }

    python_checks("compress_matrix.py", &dir, &entries);

    // b2schema decodes python-blosc2's files; chunk by chunk, both cut the same blocks and
    // streams, and the chunks of the codecs b2schema implements as c-blosc2 does (blosclz,
    // lz4 and lz4hc as liblz4 1.10.0 does them, zlib as zlib-ng does) are byte-identical.
    let mut identical: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut layout_differs = Vec::new();
    let mut not_identical = Vec::new();
    for c in &cases {
        let name = c.manifest["name"].as_str().unwrap();
        let theirs = std::fs::read(&c.theirs).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = std::fs::read(&c.ours).unwrap();
        let (tc, oc) = (chunks_of(&theirs), chunks_of(&ours));
        assert_eq!(tc.len(), oc.len(), "{name}: chunk count");
        let trunc = name.contains("trunc");
        for (i, (t, o)) in tc.iter().zip(&oc).enumerate() {
            let (Some(t), Some(o)) = (t, o) else {
                assert_eq!(t.is_some(), o.is_some(), "{name} chunk {i}: special in one file only");
                continue;
            };
            let (td, od) = (chunk::decompress(t).unwrap(), chunk::decompress(o).unwrap());
            let (th, oh) = (ChunkHeader::parse(t).unwrap(), ChunkHeader::parse(o).unwrap());
            if !trunc || th.is_memcpyed() == oh.is_memcpyed() {
                assert_eq!(td, od, "{name} chunk {i}: python's chunk decodes to other data");
            }
            // python-blosc2 (not c-blosc2) drops bytedelta for 1-byte items.
            let mut our_filters = oh.filters;
            if oh.typesize == 1 {
                our_filters.iter_mut().filter(|f| **f == filter_id::BYTEDELTA).for_each(|f| *f = 0);
            }
            let same_layout = (th.nbytes, th.blocksize, th.typesize, th.filters, th.udcompcode)
                == (oh.nbytes, oh.blocksize, oh.typesize, our_filters, oh.udcompcode)
                && (th.is_memcpyed() || oh.is_memcpyed() || th.dont_split() == oh.dont_split());
            if !same_layout {
                layout_differs.push(format!("{name} chunk {i}: python {th:?}\n  ours {oh:?}"));
            }
            // Noise is stored as memcpy chunks by both (every codec gives up on it).
            if name.starts_with("schunk-noise-") {
                assert!(th.is_memcpyed() && oh.is_memcpyed(), "{name} chunk {i}: noise not a memcpy chunk");
            }
            let e = identical.entry(c.codec).or_default();
            e.1 += 1;
            // python-blosc2 records bytedelta's meta as the typesize where b2schema keeps 0
            // (both mean the typesize): compare the chunks without the metas for those.
            let strip = |c: &[u8]| {
                if name.contains("bytedelta") { [&c[..24], &c[30..]].concat() } else { c.to_vec() }
            };
            if strip(t) == strip(o) {
                e.0 += 1;
            } else if IDENTICAL_CODECS.contains(&c.codec) && !(oh.typesize == 1 && name.contains("bytedelta"))
            {
                not_identical
                    .push(format!("{name} chunk {i}: cbytes python {} ours {}", th.cbytes, oh.cbytes));
            }
        }
        if !trunc {
            assert_eq!(decode_all(&theirs), c.expect, "{name}: python's file decodes to other data");
        }
    }
    eprintln!("chunks byte-identical to python-blosc2's, per codec: {identical:?}");
    assert!(
        layout_differs.is_empty(),
        "{} chunks cut differently:\n{}",
        layout_differs.len(),
        layout_differs.join("\n")
    );
    assert!(
        not_identical.is_empty(),
        "{} chunks not byte-identical to c-blosc2's:\n{}",
        not_identical.len(),
        not_identical.join("\n")
    );
    // Each of those codecs had chunks to compare.
    for codec in IDENTICAL_CODECS {
        assert!(identical.get(codec).is_some_and(|&(same, _)| same > 0), "no {codec} chunk compared");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
