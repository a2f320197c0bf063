//! BatchArrays written by b2schema (`b2schema::table::BatchArrayWriter`, VL-block chunks from
//! `b2schema_chunk::compress_vl_blocks`) against the reference: random items of every msgpack
//! kind python-blosc2 reads back as Python values (integers to 64 bits, float64 and float32,
//! text, bytes, None, bools, lists, maps, tuples, complex numbers; nested), random batch sizes,
//! items per block, codecs, levels, typesizes and filters; python-blosc2 4.14.1 opens every
//! `.b2b` with `blosc2.open` and reads every batch and item equal; b2schema reads them back equal
//! too. Never skipped: without python-blosc2 (`scripts/pyenv.sh`) it fails.

use b2schema::Value;
use b2schema::chunk::{Codec, Filter, Params};
use b2schema::table::{BatchArray, BatchArrayWriter};
use b2schema_tests::{python_checks, value_json};
use serde_json::json;

use b2schema_tests::XorShift as Rng;

const CODECS: [Codec; 5] = [Codec::Zstd, Codec::Lz4, Codec::Lz4hc, Codec::BloscLz, Codec::Zlib];

fn text(rng: &mut Rng, max: u64) -> String {
    let n = rng.below(max.max(1));
    const ALPHABET: [char; 12] =
        ['a', 'b', 'z', ' ', ',', '"', '\n', '\u{e9}', '\u{4e2d}', '\u{1f600}', '\0', '_'];
    (0..n).map(|_| ALPHABET[rng.below(ALPHABET.len() as u64) as usize]).collect()
}

fn item(rng: &mut Rng, depth: u32) -> Value {
    match rng.below(if depth < 2 { 13 } else { 9 }) {
        0 => Value::Int((rng.next() as i64 >> rng.below(64)) as i128),
        1 => Value::Int(
            [i64::MAX as i128, i64::MIN as i128, u64::MAX as i128, 0, -1, 127, 128, 255, 256, -33, -32]
                [rng.below(11) as usize],
        ),
        2 => Value::F64(f64::from_bits(rng.next() >> 2) * if rng.below(2) == 0 { 1.0 } else { -1.0 }),
        3 => Value::F32((rng.next() % 100_000) as f32 / 7.0),
        4 => Value::Str(text(rng, 40)),
        5 => Value::Bin((0..rng.below(300)).map(|_| rng.next() as u8).collect()),
        6 => Value::Nil,
        7 => Value::Bool(rng.below(2) == 0),
        8 => Value::Str(text(rng, 400)),
        9 => Value::Array((0..rng.below(5)).map(|_| item(rng, depth + 1)).collect()),
        10 => Value::Map(
            (0..rng.below(4))
                .map(|i| (Value::Str(format!("k{i}{}", text(rng, 2))), item(rng, depth + 1)))
                .collect(),
        ),
        11 => Value::Tuple((0..1 + rng.below(3)).map(|_| item(rng, depth + 1)).collect()),
        _ => Value::Complex { re: (rng.next() % 1000) as f64 / 8.0, im: -((rng.next() % 1000) as f64) },
    }
}

#[test]
fn random_batch_arrays_written_by_b2schema_read_equal_in_python_blosc2() {
    let dir = std::env::temp_dir().join(format!("b2schema-batch-write-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x0ba7_c4e5_0b1e_u64 | 1);
    let mut entries = Vec::new();
    let (mut items_written, mut blocks_written) = (0, 0);
    for case in 0..40 {
        let mut p = Params::new([1, 1, 2, 4][rng.below(4) as usize]);
        p.codec = CODECS[rng.below(CODECS.len() as u64) as usize];
        p.clevel = rng.below(10) as u8;
        p.filters = [[Filter::NoFilter; 6], Params::SHUFFLE_LAST, {
            let mut f = [Filter::NoFilter; 6];
            f[5] = Filter::BitShuffle;
            f
        }][rng.below(3) as usize];
        let ipb = [None, Some(1), Some(2), Some(3), Some(7), Some(1000)][rng.below(6) as usize];
        let mut w = BatchArrayWriter::new(p, ipb);
        let mut batches = Vec::new();
        for _ in 0..1 + rng.below(5) {
            // Now and then a batch of many small items (many VL blocks).
            let n = if rng.below(5) == 0 { 50 + rng.below(200) } else { 1 + rng.below(20) };
            let items: Vec<Value> = (0..n).map(|_| item(&mut rng, 0)).collect();
            w.push(&items).unwrap();
            let per = ipb.unwrap_or(batches.first().map_or(n, |b: &Vec<Value>| b.len() as u64));
            blocks_written += n.div_ceil(per);
            items_written += n;
            batches.push(items);
        }
        let path = dir.join(format!("b{case}.b2b"));
        w.write_file(&path).unwrap();
        // b2schema reads what it wrote.
        let back = BatchArray::open(&path).unwrap();
        for (i, b) in batches.iter().enumerate() {
            assert_eq!(&back.batch(i).unwrap(), b, "case {case} batch {i}");
        }
        let want: Vec<Vec<serde_json::Value>> =
            batches.iter().map(|b| b.iter().map(value_json).collect()).collect();
        entries.push(json!({
            "name": format!("case {case} ({:?} {} typesize {} ipb {ipb:?})", p.codec, p.clevel, p.typesize),
            "path": path,
            "batches": want,
            "items_per_block": ipb,
        }));
    }
    python_checks("check_batches.py", &dir, &entries);
    assert!(items_written > 1500 && blocks_written > 500, "items {items_written}, blocks {blocks_written}");
    std::fs::remove_dir_all(&dir).unwrap();
}
