//! Slices of NDArrays: every fixture, whole and in random hyper-rectangles, read at 1, 2 and 8
//! threads, equals the same rectangle cut from the whole array (which `chunk_data.rs` checks
//! against python-blosc2's `arr[()]`); a one-item read decodes one block.

use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::frame::FrameFile;
use b2schema_tests::{Rng, fixture_file, fixtures};

/// The rectangle `ranges` cut from a C-order array of `shape` (the independent reference).
fn cut(data: &[u8], shape: &[u64], ranges: &[std::ops::Range<u64>], ts: usize) -> Vec<u8> {
    let n = shape.len();
    if n == 0 {
        return data[..ts].to_vec();
    }
    let mut strides = vec![1u64; n];
    for d in (0..n - 1).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    let mut out = Vec::new();
    if ranges.iter().any(|r| r.is_empty()) {
        return out;
    }
    let mut idx: Vec<u64> = ranges.iter().map(|r| r.start).collect();
    'all: loop {
        let at = idx.iter().zip(&strides).map(|(i, s)| i * s).sum::<u64>() as usize * ts;
        out.extend_from_slice(&data[at..at + ts]);
        for d in (0..n).rev() {
            idx[d] += 1;
            if idx[d] < ranges[d].end {
                continue 'all;
            }
            idx[d] = ranges[d].start;
        }
        return out;
    }
}

fn options(nthreads: usize) -> ReadOptions {
    // Threads even for the smallest slices, so that the split is what is tested.
    ReadOptions { nthreads, min_thread_bytes: 0, ..ReadOptions::default() }
}

#[test]
fn every_fixture_array_reads_whole_and_in_random_slices() {
    let mut rng = Rng(0xa11ce);
    let mut arrays = 0;
    let mut slices = 0;
    for (name, fx) in fixtures() {
        if fx.ndarray.is_none() || name.contains("uninit") {
            continue; // uninit chunks hold whatever c-blosc2 left: nothing to compare
        }
        let file = FrameFile::open(fixture_file(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let reader = ArrayReader::new(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let whole = file.ndarray_data(1 << 30).unwrap_or_else(|e| panic!("{name}: {e}"));
        let shape = reader.shape().to_vec();
        let ts = reader.typesize();
        for threads in [1, 2, 8] {
            let (got, _) = reader.read(&Selection::all(&shape), &options(threads)).unwrap();
            assert!(got == whole, "{name}: whole array at {threads} threads");
        }
        for _ in 0..12 {
            let ranges: Vec<_> = shape
                .iter()
                .map(|&s| {
                    let a = rng.below(s as usize + 1) as u64;
                    let b = rng.below(s as usize + 1) as u64;
                    a.min(b)..a.max(b)
                })
                .collect();
            let sel = Selection::new(ranges.clone(), &shape).unwrap();
            let want = cut(&whole, &shape, &ranges, ts);
            for threads in [1, 2, 8] {
                let (got, _) =
                    reader.read(&sel, &options(threads)).unwrap_or_else(|e| panic!("{name} {ranges:?}: {e}"));
                assert!(got == want, "{name}: slice {ranges:?} at {threads} threads");
            }
            slices += 1;
        }
        arrays += 1;
    }
    assert!(arrays >= 60 && slices >= 700, "{arrays} arrays, {slices} slices");
}

#[test]
fn one_item_decodes_one_block() {
    let file = FrameFile::open(fixture_file("nd-2d-u2.b2nd")).unwrap();
    let reader = ArrayReader::new(&file).unwrap();
    let meta = reader.meta().clone();
    let shape = reader.shape().to_vec();
    let last: Vec<u64> = shape.iter().map(|s| s - 1).collect();
    let sel = Selection::new(last.iter().map(|&i| i..i + 1).collect(), &shape).unwrap();
    let (item, stats) = reader.read(&sel, &options(1)).unwrap();
    assert_eq!(item.len(), 2);
    assert_eq!((stats.chunks, stats.blocks), (1, 1), "{stats:?}");
    assert_eq!(stats.bytes_decoded, meta.blocksize(2));
    let whole = file.ndarray_data(1 << 30).unwrap();
    assert_eq!(item, whole[whole.len() - 2..]);
    // Typed, with the dtype checked.
    let v: Vec<u16> = reader.read_as(&sel, &options(1)).unwrap();
    assert_eq!(v, [u16::from_le_bytes([item[0], item[1]])]);
    assert!(reader.read_as::<i16>(&sel, &options(1)).unwrap_err().to_string().contains("<u2"));
    assert!(reader.read_as::<u32>(&sel, &options(1)).is_err());
}

#[test]
fn typed_reads_follow_the_byte_order() {
    for (name, want) in [("dtype-be-i4.b2nd", "big"), ("dtype-i4.b2nd", "little")] {
        let file = FrameFile::open(fixture_file(name)).unwrap();
        let reader = ArrayReader::new(&file).unwrap();
        let sel = Selection::all(reader.shape());
        let bytes = file.ndarray_data(1 << 30).unwrap();
        let v: Vec<i32> = reader.read_as(&sel, &options(2)).unwrap();
        let expect: Vec<i32> = bytes
            .chunks_exact(4)
            .map(|b| {
                if want == "big" {
                    i32::from_be_bytes(b.try_into().unwrap())
                } else {
                    i32::from_le_bytes(b.try_into().unwrap())
                }
            })
            .collect();
        assert_eq!(v, expect, "{name}");
    }
}

/// A 1 GiB uint8 array in one special chunk, one item per block (a 200-byte frame): reading it
/// whole, in streamed pieces or on threads, takes memory and time that follow the output, not
/// the 2^30 blocks (the bands of the first dimension were once a vector of one entry per block
/// row: 16 GiB, an abort).
#[test]
fn a_special_chunk_of_two_to_the_thirty_one_item_blocks_reads_without_a_table_per_block() {
    use b2schema::writer::{Fill, NdArray};
    let n: i64 = 1 << 30;
    let frame = NdArray::new(&[n], &[n as i32], &[1], "|u1", 1, Fill::Value(&[7])).to_frame().unwrap();
    let bytes = frame.to_vec().unwrap();
    assert!(bytes.len() < 400, "{} bytes", bytes.len());
    let path = std::env::temp_dir().join(format!("b2schema-blocks-{}.b2nd", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let file = FrameFile::open(&path).unwrap();
    let reader = ArrayReader::new(&file).unwrap();
    let whole = Selection::all(&[n as u64]);
    let (mut total, mut pieces) = (0u64, 0);
    reader
        .read_to(&whole, &options(1), 64 << 20, |piece| {
            assert!(piece.iter().all(|&b| b == 7));
            total += piece.len() as u64;
            pieces += 1;
            Ok(())
        })
        .unwrap();
    assert_eq!((total, pieces), (1 << 30, 16));
    // A slice across the middle, on 8 threads.
    let mid =
        Selection::new(std::iter::once((1 << 29) - 5..(1 << 29) + 1_000_000).collect(), &[n as u64]).unwrap();
    let mut out = vec![0u8; 1_000_005];
    reader.read_into(&mid, &mut out, &options(8)).unwrap();
    assert!(out.iter().all(|&b| b == 7));
    let _ = std::fs::remove_file(&path);
}
