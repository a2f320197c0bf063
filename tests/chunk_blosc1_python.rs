//! Blosc1-format chunks against c-blosc 1.x (numcodecs' `Blosc`, c-blosc 1.21.x), both ways, in
//! one python process: a property test draws chunks over every codec c-blosc 1.x knows
//! (blosclz, lz4, lz4hc, zlib, zstd), every shuffle (none, byte, bit), typesizes 1 to 16,
//! clevels 0 to 9, automatic and forced blocksizes, and sizes from empty through tiny, not a
//! multiple of the typesize, to several blocks. numcodecs decompresses every chunk b2schema
//! writes to the same bytes, and compresses the same data with the same parameters; b2schema
//! decodes that chunk equal and, for the codecs whose c-blosc 1.x output this compressor
//! reproduces, writes it byte for byte. This test never skips: without numcodecs
//! (`scripts/pyenv.sh`) it fails.

use std::collections::BTreeMap;

use b2schema::chunk::compress::{self, Format, Params, Split};
use b2schema::chunk::{Codec, Filter};
use b2schema_tests::python_checks;
use proptest::strategy::{Just, Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use serde_json::json;

/// The codecs c-blosc 1.x knows, with numcodecs' names.
const CODECS: [(Codec, &str); 5] = [
    (Codec::BloscLz, "blosclz"),
    (Codec::Lz4, "lz4"),
    (Codec::Lz4hc, "lz4hc"),
    (Codec::Zlib, "zlib"),
    (Codec::Zstd, "zstd"),
];
/// The shuffles, with numcodecs' names.
const SHUFFLES: [(Filter, &str); 3] =
    [(Filter::NoFilter, "noshuffle"), (Filter::Shuffle, "shuffle"), (Filter::BitShuffle, "bitshuffle")];
/// c-blosc 1.x's split modes, with the names of its `BLOSC_SPLITMODE` variable.
const SPLITS: [(Split, &str); 4] = [
    (Split::ForwardCompat, "FORWARD_COMPAT"),
    (Split::Auto, "AUTO"),
    (Split::Never, "NEVER"),
    (Split::Always, "ALWAYS"),
];
/// Codecs whose chunks must be byte-identical to c-blosc 1.x's (the others: see `identical`).
const IDENTICAL_CODECS: [&str; 3] = ["blosclz", "lz4", "lz4hc"];
/// Chunks drawn per run (one python process checks them all).
const CASES: usize = 400;

#[derive(Debug, Clone)]
struct Case {
    codec: usize,
    shuffle: usize,
    typesize: usize,
    clevel: u8,
    blocksize: usize,
    split: usize,
    data: Vec<u8>,
}

/// Data that compresses like real data (a slow ramp of items with a little noise, runs of one
/// value) or does not (noise), of any length: empty, tiny, not a multiple of the typesize, or
/// several blocks long.
fn data(typesize: usize) -> impl Strategy<Value = Vec<u8>> {
    let len = proptest::prop_oneof![
        2 => 0usize..160,
        3 => 160usize..20_000,
        2 => 20_000usize..300_000,
    ];
    (len, 0u8..3, proptest::num::u64::ANY).prop_map(move |(len, kind, seed)| {
        let mut s = seed | 1;
        let mut noise = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        (0..len)
            .map(|i| {
                let item = (i / typesize) as u64;
                let byte = i % typesize;
                match kind {
                    0 => ((item / 7 + noise() % 3) >> (8 * (byte % 8))) as u8,
                    1 => ((item / 500) * 0x9e37) as u8 ^ byte as u8,
                    _ => noise() as u8,
                }
            })
            .collect()
    })
}

fn case() -> impl Strategy<Value = Case> {
    (
        0..CODECS.len(),
        0..SHUFFLES.len(),
        1usize..=16,
        0u8..=9,
        proptest::prop_oneof![3 => Just(0usize), 1 => 1usize..70_000],
        proptest::prop_oneof![3 => Just(0usize), 1 => 1..SPLITS.len()],
    )
        .prop_flat_map(|(codec, shuffle, typesize, clevel, blocksize, split)| {
            data(typesize).prop_map(move |data| Case {
                codec,
                shuffle,
                typesize,
                clevel,
                blocksize,
                split,
                data,
            })
        })
}

fn params(c: &Case) -> Params {
    Params::blosc1(c.typesize)
        .with_codec(CODECS[c.codec].0)
        .with_clevel(c.clevel)
        .with_filter(5, SHUFFLES[c.shuffle].0, 0)
        .with_blocksize(c.blocksize)
        .with_split(SPLITS[c.split].0)
}

#[test]
fn numcodecs_decodes_our_blosc1_chunks_and_we_write_what_it_writes() {
    let dir = std::env::temp_dir().join(format!("b2schema-blosc1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut runner = TestRunner::deterministic();
    let strategy = case();
    let mut cases = Vec::new();
    let mut entries = Vec::new();
    for i in 0..CASES {
        let c = strategy.new_tree(&mut runner).unwrap().current();
        let p = params(&c);
        let ours = compress::compress(&c.data, &p).unwrap();
        assert_eq!(p.format, Format::Blosc1);
        assert_eq!(ours[0], 2, "case {i}: a Blosc1 chunk has format version 2");
        assert_eq!(b2schema::chunk::decompress(&ours).unwrap(), c.data, "case {i}: our own decoder");
        let (data, ours_path, theirs) =
            (dir.join(format!("{i}.data")), dir.join(format!("{i}.ours")), dir.join(format!("{i}.theirs")));
        std::fs::write(&data, &c.data).unwrap();
        std::fs::write(&ours_path, &ours).unwrap();
        entries.push(json!({
            "name": format!("{i}: {} {} ts{} clevel{} blocksize{} split {} {} bytes", CODECS[c.codec].1,
                SHUFFLES[c.shuffle].1, c.typesize, c.clevel, c.blocksize, SPLITS[c.split].1, c.data.len()),
            "data": data, "ours": ours_path, "theirs": theirs,
            "cname": CODECS[c.codec].1, "shuffle": SHUFFLES[c.shuffle].1,
            "typesize": c.typesize, "clevel": c.clevel, "blocksize": c.blocksize, "split": SPLITS[c.split].1,
        }));
        cases.push((c, ours));
    }
    python_checks("blosc1_chunks.py", &dir, &entries);

    // Per codec: chunks compared, and chunks equal byte for byte.
    let mut identical: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut differing = Vec::new();
    let mut unreadable = 0;
    for (i, (c, ours)) in cases.iter().enumerate() {
        let theirs = std::fs::read(dir.join(format!("{i}.theirs"))).unwrap();
        // Split "always" where c-blosc 1.x's reader does not split (fewer than 128 items a
        // block): c-blosc 1.x writes a header that says "split" (and streams it cannot read
        // itself unless the chunk is a memcpy one); ours says "dont split". Only numcodecs
        // reading ours (above) is checked then.
        let blocksize = i32::from_le_bytes(ours[8..12].try_into().unwrap()) as usize;
        if SPLITS[c.split].0 == Split::Always && blocksize / c.typesize < 128 && theirs[2] & 0x10 == 0 {
            unreadable += 1;
            continue;
        }
        assert_eq!(b2schema::chunk::decompress(&theirs).unwrap(), c.data, "case {i}: c-blosc 1.x's chunk");
        let name = CODECS[c.codec].1;
        let e = identical.entry(name).or_default();
        e.0 += 1;
        // The 16-byte header is c-blosc 1.x's for every codec.
        // (A codec that compresses less may fall back to a memcpy chunk where the other did not.)
        assert_eq!(ours[..2], theirs[..2], "case {i} ({name}): versions");
        assert_eq!(ours[2] & !0x02, theirs[2] & !0x02, "case {i} ({name}): flags");
        assert_eq!(ours[3..12], theirs[3..12], "case {i} ({name}): typesize, nbytes, blocksize");
        if *ours == theirs {
            e.1 += 1;
        } else if IDENTICAL_CODECS.contains(&name) {
            differing.push(format!("case {i}: {}", entries[i]["name"]));
        }
    }
    eprintln!(
        "byte-identical chunks per codec (compared, equal): {identical:?}; {unreadable} chunks c-blosc 1.x cannot read itself left out"
    );
    assert!(differing.is_empty(), "chunks unlike c-blosc 1.x's: {differing:#?}");
    std::fs::remove_dir_all(&dir).ok();
}
