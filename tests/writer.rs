//! The frame writer: byte-identical to python-blosc2 where c-blosc2 writes the same bytes for the
//! same inputs, and readable back by b2schema everywhere else.

use b2schema::frame::{ChunkLocation, FrameFile, FrameView, SpecialValue};
use b2schema::writer::{self, CParams, Chunk, Fill, Frame, NdArray};
use b2schema_tests::repo_root;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(repo_root().join("tests/data/fixtures").join(name)).unwrap()
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-writer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn identical_to_python_an_empty_schunk() {
    // blosc2.SChunk(chunksize=1000, cparams={'typesize': 1})
    assert_eq!(Frame::new(1).to_vec().unwrap(), fixture("schunk-empty.b2frame"));
}

#[test]
fn identical_to_python_metalayers_and_a_small_vlmetalayer() {
    // SChunk(chunksize=1000, meta={'kind': 'demo', 'version': 1}); vlmeta['note'] = 'no data'
    let mut f = Frame::new(1);
    f.chunksize = 1000;
    f.metalayers = vec![("kind".into(), b"\xa4demo".to_vec()), ("version".into(), vec![1])];
    f.vlmetalayers = vec![("note".into(), b"\xa7no data".to_vec())];
    assert_eq!(f.to_vec().unwrap(), fixture("schunk-meta-vlmeta-nodata.b2frame"));
}

#[test]
fn identical_to_python_special_arrays() {
    let zeros = NdArray::new(&[100], &[30], &[10], "<f8", 8, Fill::Zeros).to_frame().unwrap();
    assert_eq!(zeros.to_vec().unwrap(), fixture("special-zeros-f8.b2nd"));
    let nans = NdArray::new(&[100], &[30], &[10], "<f8", 8, Fill::Nan).to_frame().unwrap();
    assert_eq!(nans.to_vec().unwrap(), fixture("special-nans-f8.b2nd"));
    let seven = 7i32.to_le_bytes();
    let full = NdArray::new(&[100], &[30], &[10], "<i4", 4, Fill::Value(&seven)).to_frame().unwrap();
    assert_eq!(full.to_vec().unwrap(), fixture("special-full-i4.b2nd"));
    let empty = NdArray::new(&[0], &[0], &[0], "<f4", 4, Fill::Zeros).to_frame().unwrap();
    assert_eq!(empty.to_vec().unwrap(), fixture("empty-shape-0-f4.b2nd"));
}

#[test]
fn identical_to_python_uncompressed_data() {
    // blosc2.asarray(..., chunks=(200,), blocks=(50,), cparams={'codec': ZSTD, 'clevel': 0}):
    // c-blosc2 stores memcpy chunks, which the writer reproduces from the same data.
    let original = fixture("codec-zstd-0.b2nd");
    let view = FrameView::from_slice(&original).unwrap();
    let mut data = Vec::new();
    for loc in view.chunk_locations().unwrap() {
        let ChunkLocation::Offset(o) = loc else { panic!() };
        let start = view.header.header_len as usize + o as usize;
        let len = b2schema::chunk::ChunkHeader::parse(&original[start..]).unwrap().compressed_len();
        data.extend(b2schema::chunk::decompress(&original[start..start + len]).unwrap());
    }
    let mut a = NdArray::new(&[600], &[200], &[50], "<i4", 4, Fill::Data(&data));
    a.cparams = CParams { clevel: 0, ..CParams::default() };
    assert_eq!(a.to_frame().unwrap().to_vec().unwrap(), original);
}

#[test]
fn edge_chunks_are_padded_in_block_order() {
    // shape (5, 3), chunks (4, 2), blocks (3, 1): extended chunks (6, 2), 2 x 2 chunks.
    let data: Vec<u8> = (0..15u8).collect();
    let frame = NdArray::new(&[5, 3], &[4, 2], &[3, 1], "|u1", 1, Fill::Data(&data)).to_frame().unwrap();
    let bytes = frame.to_vec().unwrap();
    let view = FrameView::from_slice(&bytes).unwrap();
    assert_eq!(view.header.chunksize, 12);
    assert_eq!(view.header.blocksize, 3);
    let chunk = |i: usize| {
        let Chunk::Stored(c) = &frame.chunks[i] else { panic!() };
        b2schema::chunk::decompress(c).unwrap()
    };
    // Chunk (0, 0): rows 0..4, columns 0..2; blocks (3,1) in C order over a 2 x 2 block grid:
    // block (0,0) = rows 0..3 of column 0, block (0,1) = rows 0..3 of column 1, then rows 3..6.
    assert_eq!(chunk(0), [0, 3, 6, 1, 4, 7, 9, 0, 0, 10, 0, 0]);
    // Chunk (0, 1): column 2 only (column 3 is padding).
    assert_eq!(chunk(1), [2, 5, 8, 0, 0, 0, 11, 0, 0, 0, 0, 0]);
    // Chunk (1, 0): row 4 only.
    assert_eq!(chunk(2), [12, 0, 0, 13, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(chunk(3), [14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn sparse_frames_are_written_as_directories() {
    let dir = temp("sparse.b2nd");
    let _ = std::fs::remove_dir_all(&dir);
    let data: Vec<u8> = (0..40i32).flat_map(|v| v.to_le_bytes()).collect();
    let mut frame = NdArray::new(&[40], &[16], &[8], "<i4", 4, Fill::Data(&data)).to_frame().unwrap();
    frame.chunks[1] = Chunk::Special { kind: SpecialValue::Zeros, nbytes: 64 };
    frame.write_sparse(&dir).unwrap();
    let f = FrameFile::open(&dir).unwrap();
    let v = f.view().unwrap();
    assert!(v.is_sparse());
    assert_eq!(
        v.chunk_locations().unwrap(),
        [ChunkLocation::File(0), ChunkLocation::Special(SpecialValue::Zeros), ChunkLocation::File(1)]
    );
    assert!(dir.join("00000001.chunk").exists() && !dir.join("00000002.chunk").exists());
}

#[test]
fn appending_changes_only_header_fields_and_the_tail() {
    let path = temp("append.b2frame");
    let data: Vec<u8> = (0..100u8).collect();
    writer::schunk(&data, 1, 40, CParams::default()).unwrap().write_file(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let piece = writer::chunk::memcpy(&[7u8; 40], 1, 0, &CParams::default()).unwrap();
    // 100 bytes in chunks of 40: the last chunk was partial, so no chunk can follow it.
    assert!(writer::append_chunk(&path, &Chunk::Stored(piece.clone())).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), before);

    writer::schunk(&data[..80], 1, 40, CParams::default()).unwrap().write_file(&path).unwrap();
    let before = std::fs::read(&path).unwrap();
    writer::append_chunk(&path, &Chunk::Stored(piece)).unwrap();
    writer::append_chunk(&path, &Chunk::Special { kind: SpecialValue::Zeros, nbytes: 40 }).unwrap();
    writer::set_vlmetalayer(&path, "note", b"\xa2hi").unwrap();
    writer::set_vlmetalayer(&path, "note", b"\xa3bye").unwrap();
    let after = std::fs::read(&path).unwrap();
    let changed: Vec<usize> = (0..before.len()).filter(|&i| before[i] != after[i]).collect();
    assert!(changed.iter().all(|&i| (15..69).contains(&i)), "{changed:?}");
    let f = FrameFile::open(&path).unwrap();
    let v = f.view().unwrap();
    assert_eq!(v.header.nbytes, 160);
    assert_eq!(v.nchunks().unwrap(), 4);
    let chunks = f.chunks().unwrap();
    assert_eq!(chunks[3].special, Some(SpecialValue::Zeros));
    assert_eq!(b2schema::chunk::decompress(&f.read_chunk(chunks[2].location).unwrap()).unwrap(), [7u8; 40]);
    assert_eq!(b2schema::chunk::decompress(v.vlmetalayer("note").unwrap()).unwrap(), b"\xa3bye");
}

#[test]
fn a_failed_write_leaves_the_old_frame_readable() {
    // A writer that fails after N bytes: whatever N, the file still opens as a frame.
    struct Failing {
        data: std::io::Cursor<Vec<u8>>,
        budget: usize,
    }
    impl std::io::Read for Failing {
        fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
            self.data.read(b)
        }
    }
    impl std::io::Seek for Failing {
        fn seek(&mut self, p: std::io::SeekFrom) -> std::io::Result<u64> {
            self.data.seek(p)
        }
    }
    impl writer::FrameIo for Failing {
        fn set_len(&mut self, len: u64) -> std::io::Result<()> {
            self.data.get_mut().resize(len as usize, 0);
            Ok(())
        }
    }
    impl std::io::Write for Failing {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.budget == 0 {
                return Err(std::io::Error::other("disk full"));
            }
            let n = b.len().min(self.budget);
            self.budget -= n;
            self.data.write(&b[..n])
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let data: Vec<u8> = (0..80u8).collect();
    let original = writer::schunk(&data, 1, 40, CParams::default()).unwrap().to_vec().unwrap();
    let piece = Chunk::Stored(writer::chunk::memcpy(&[1u8; 40], 1, 0, &CParams::default()).unwrap());
    // The size of the new tail, from a run that succeeds.
    let mut whole = Failing { data: std::io::Cursor::new(original.clone()), budget: usize::MAX };
    writer::append_chunk_to(&mut whole, &piece).unwrap();
    let tail = whole.data.into_inner().len() - original.len();
    // Failing anywhere while the tail is written (before the one header write) leaves the old
    // frame whole: it opens, with its 2 chunks, and the bytes after it are ignored.
    for budget in 0..=tail {
        let mut f = Failing { data: std::io::Cursor::new(original.clone()), budget };
        assert!(writer::append_chunk_to(&mut f, &piece).is_err());
        let bytes = f.data.into_inner();
        assert_eq!(bytes[..original.len()], original[..], "budget {budget}");
        let path = temp(&format!("failed-{budget}.b2frame"));
        std::fs::write(&path, &bytes).unwrap();
        let v = FrameFile::open(&path).unwrap();
        assert_eq!(v.view().unwrap().nchunks().unwrap(), 2, "budget {budget}");
        std::fs::remove_file(&path).unwrap();
    }
}

mod threads {
    use super::*;
    use proptest::prelude::*;

    /// An array of 1 to 3 dimensions with chunk and block shapes that divide it unevenly.
    fn array() -> impl Strategy<Value = (Vec<i64>, Vec<i32>, Vec<i32>, usize, Vec<u8>)> {
        (1usize..=3, prop::sample::select(vec![1usize, 2, 4, 8]))
            .prop_flat_map(|(ndim, ts)| {
                (prop::collection::vec((1i64..=20, 1i32..=9, 1i32..=4), ndim), Just(ts), any::<u64>())
            })
            .prop_map(|(dims, ts, seed)| {
                let shape: Vec<i64> = dims.iter().map(|d| d.0).collect();
                let chunks: Vec<i32> = dims.iter().map(|d| d.1).collect();
                let blocks: Vec<i32> = dims.iter().map(|d| d.2.min(d.1)).collect();
                let n = shape.iter().product::<i64>() as usize * ts;
                // Compressible and not: a ramp with noise from a small LCG.
                let mut x = seed | 1;
                let data = (0..n)
                    .map(|i| {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        (i / 3) as u8 ^ ((x >> 60) as u8)
                    })
                    .collect();
                (shape, chunks, blocks, ts, data)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// The chunks of an array do not depend on how many threads compress them: chunks side
        /// by side (nthreads > 1) give the bytes one thread gives, in grid order.
        #[test]
        fn chunks_are_the_same_whatever_the_thread_count(
            (shape, chunks, blocks, ts, data) in array(),
            codec in prop::sample::select(vec![0u8, 1, 2, 4, 5]),
            nthreads in 2i16..=9,
        ) {
            let dtype = format!("|V{ts}");
            let make = |nthreads: i16| {
                let mut a = NdArray::new(&shape, &chunks, &blocks, &dtype, ts, Fill::Data(&data));
                a.cparams = CParams { codec: b2schema::chunk::Codec::from_id(codec), clevel: 5, nthreads, ..CParams::default() };
                a.to_frame().unwrap()
            };
            let one = make(1);
            let many = make(nthreads);
            prop_assert_eq!(&one.chunks, &many.chunks);
            // And the frame reads back to the same items.
            let bytes = many.to_vec().unwrap();
            let view = FrameView::from_slice(&bytes).unwrap();
            prop_assert_eq!(view.nchunks().unwrap() as usize, one.chunks.len());
        }
    }
}

/// `CParams::use_dict` reaches the chunk compressor: a zstd, lz4 or lz4hc array's chunks carry
/// their dictionary (the `BLOSC2_USEDICT` bit) and read back; a codec without dictionaries
/// (blosclz, as in c-blosc2) says so.
#[test]
fn use_dict_reaches_the_chunks() {
    use b2schema::chunk::Codec;
    let data: Vec<u8> = (0..200_000u32).flat_map(|i| ((i % 1000) * 7 + i / 1000).to_le_bytes()).collect();
    let mut a = NdArray::new(&[200_000], &[50_000], &[5_000], "<u4", 4, Fill::Data(&data));
    a.cparams = CParams { use_dict: true, ..CParams::default() };
    for codec in [Codec::Zstd, Codec::Lz4, Codec::Lz4hc] {
        let mut a = a.clone();
        a.cparams.codec = codec;
        let bytes = a.to_frame().unwrap().to_vec().unwrap();
        let path = temp(&format!("dict-{codec}.b2nd"));
        std::fs::write(&path, &bytes).unwrap();
        let file = FrameFile::open(&path).unwrap();
        let view = FrameView::from_slice(&bytes).unwrap();
        let locations = view.chunk_locations().unwrap();
        assert_eq!(locations.len(), 4, "codec {codec}");
        for loc in locations {
            let h = file.chunk_header(loc).unwrap();
            assert!(h.uses_dict(), "codec {codec}: {loc:?}");
            assert_eq!(h.codec().unwrap(), codec, "codec {codec}: {loc:?}");
        }
        assert_eq!(file.ndarray_data(1 << 20).unwrap(), data, "codec {codec}");
    }
    let mut blosclz = a.clone();
    blosclz.cparams.codec = Codec::BloscLz;
    let err = blosclz.to_frame().unwrap_err().to_string();
    assert!(err.contains("dict"), "{err}");
}
