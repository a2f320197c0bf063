//! The streamed array writer (`NdArray::write_to`, `NdArray::write_from`) over the space of
//! array geometries, fills, codecs and thread counts: its bytes are those of the whole-frame
//! writer (`to_frame()?.to_vec()`), from a slice or from a reader that hands out the items in
//! reads of any size; written after other bytes it leaves them alone; a reader that ends early
//! is an error naming where, never a panic nor a frame.

use std::io::{Cursor, Read};

use b2schema::chunk::{Codec, Filter};
use b2schema::writer::{CParams, Fill, NdArray};
use proptest::prelude::*;

/// A shape of 0 to 3 dimensions with chunk and block shapes (block <= chunk, both >= 1).
fn geometry() -> impl Strategy<Value = (Vec<i64>, Vec<i32>, Vec<i32>)> {
    prop::collection::vec((0i64..13, 1i32..7, 1i32..7), 0..=3).prop_map(|dims| {
        let shape = dims.iter().map(|d| d.0).collect();
        let chunks: Vec<i32> = dims.iter().map(|d| d.1).collect();
        let blocks = dims.iter().zip(&chunks).map(|(d, &c)| d.2.min(c)).collect();
        (shape, chunks, blocks)
    })
}

/// A reader handing out `data` in reads of at most `step` bytes.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.step).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn cparams(codec: u8, filter: u8, nthreads: i16) -> CParams {
    let mut filters = [Filter::NoFilter; 6];
    filters[5] = [Filter::NoFilter, Filter::Shuffle, Filter::BitShuffle][filter as usize % 3];
    CParams {
        codec: [Codec::BloscLz, Codec::Lz4, Codec::Zstd][codec as usize % 3],
        clevel: codec % 10,
        filters,
        nthreads,
        ..CParams::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn streamed_frames_are_the_whole_frames(
        (shape, chunks, blocks) in geometry(),
        ts in 1usize..5,
        codec in 0u8..30,
        filter in 0u8..3,
        nthreads in 1i16..5,
        step in 1usize..200,
        runs in any::<bool>(),
        vlmeta in any::<bool>(),
    ) {
        let nitems: usize = shape.iter().map(|&s| s as usize).product();
        // Runs of equal bytes (zero chunks, runs) or counters.
        let data: Vec<u8> =
            (0..nitems * ts).map(|i| if runs { (i / 97 % 2) as u8 * 5 } else { (i * 7 + 3) as u8 }).collect();
        let mut a = NdArray::new(&shape, &chunks, &blocks, &format!("|V{ts}"), ts, Fill::Data(&data));
        a.cparams = cparams(codec, filter, nthreads);
        if vlmeta {
            a.vlmetalayers.push(("note".into(), vec![0xa3, b'a', b'b', b'c']));
            a.metalayers.push(("user".into(), vec![0xc0]));
        }
        let whole = a.to_frame().unwrap().to_vec().unwrap();

        let mut out = Cursor::new(Vec::new());
        let mut calls = Vec::new();
        let n = a.write_to(&mut out, |done, total| calls.push((done, total))).unwrap();
        prop_assert_eq!(n as usize, whole.len());
        prop_assert!(out.get_ref() == &whole, "write_to differs from to_vec");
        let mut whole_calls = Vec::new();
        a.to_frame_with_progress(|d, t| whole_calls.push((d, t))).unwrap();
        prop_assert_eq!(calls, whole_calls);

        // From a reader, after 5 bytes that stay as they are.
        let mut streamed = a.clone();
        streamed.fill = Fill::Data(&[]);
        let mut out = Cursor::new(b"head!".to_vec());
        out.set_position(5);
        streamed.write_from(&mut Trickle { data: &data, step }, &mut out, |_, _| {}).unwrap();
        prop_assert_eq!(&out.get_ref()[..5], b"head!");
        prop_assert!(out.get_ref()[5..] == whole[..], "write_from differs from to_vec");
        prop_assert_eq!(out.position() as usize, 5 + whole.len());

        // A reader that ends early: an error at the byte where it ended.
        if !data.is_empty() {
            let cut = step % data.len();
            let e = streamed
                .write_from(&mut Trickle { data: &data[..cut], step }, &mut Cursor::new(Vec::new()), |_, _| {})
                .unwrap_err()
                .to_string();
            prop_assert!(e.ends_with(&format!("bytes: {} at offset {cut}, found the end after {cut}", data.len())), "{e}");
        }
    }
}

/// The frame's bytes but the compression and decompression thread counts its header records
/// (int16 values at offsets 64 and 67): what may differ between thread counts.
fn without_thread_counts(mut frame: Vec<u8>) -> Vec<u8> {
    frame[64..66].fill(0);
    frame[67..69].fill(0);
    frame
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Packing from a reader writes the same frame at every thread count, on shapes of many
    /// chunks (more than the writer keeps in flight, so that slab and chunk buffers are reused
    /// with what earlier chunks left in them), few chunks of many blocks (blocks spread over the
    /// threads, up to 300 blocks a chunk, the last one short when the blocks do not divide the
    /// chunk) and one chunk; chunks alternate noise, counters and zeros (chunks of unlike
    /// sizes, memcpy and special chunks), and every frame is the whole-frame writer's.
    #[test]
    fn streamed_frames_do_not_depend_on_threads(
        rows in prop_oneof![1i64..40, 100i64..240],
        chunk_rows in prop_oneof![1i32..12, 100i32..300],
        block_rows in 1i32..6,
        codec in 0u8..30,
        filter in 0u8..3,
        step in prop_oneof![Just(usize::MAX), 1usize..5000],
        seed in any::<u64>(),
    ) {
        const COLS: usize = 96;
        let mut x = seed | 1;
        let data: Vec<u8> = (0..rows as usize * COLS * 4)
            .map(|i| match i / (COLS * 4 * 3) % 3 {
                0 => {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                }
                1 => (i / 4) as u8,
                _ => 0,
            })
            .collect();
        let shape = [rows, COLS as i64];
        let (chunks, blocks) = ([chunk_rows, COLS as i32], [block_rows.min(chunk_rows), COLS as i32]);
        let mut frames = Vec::new();
        for nthreads in 1..=4 {
            let mut a = NdArray::new(&shape, &chunks, &blocks, "<i4", 4, Fill::Data(&[]));
            a.cparams = cparams(codec, filter, nthreads);
            let mut out = Cursor::new(Vec::new());
            a.write_from(&mut Trickle { data: &data, step }, &mut out, |_, _| {}).unwrap();
            let mut w = NdArray::new(&shape, &chunks, &blocks, "<i4", 4, Fill::Data(&data));
            w.cparams = a.cparams;
            let whole = w.to_frame().unwrap().to_vec().unwrap();
            prop_assert!(out.get_ref() == &whole, "{} threads: write_from differs from to_vec", nthreads);
            frames.push(without_thread_counts(out.into_inner()));
        }
        for (t, f) in frames.iter().enumerate().skip(1) {
            prop_assert!(f == &frames[0], "{} threads wrote another frame than 1 thread", t + 1);
        }
    }
}

/// Fills (zeros, NaN, a value) stream to the same bytes as the whole frame.
#[test]
fn fills_stream_as_whole_frames() {
    for fill in [Fill::Zeros, Fill::Nan, Fill::Uninit, Fill::Value(&[1, 2, 3, 4])] {
        let a = NdArray::new(&[10, 7], &[4, 3], &[2, 3], "<f4", 4, fill);
        let mut out = Cursor::new(Vec::new());
        a.write_to(&mut out, |_, _| {}).unwrap();
        assert_eq!(out.into_inner(), a.to_frame().unwrap().to_vec().unwrap(), "{fill:?}");
    }
}

/// `write_from` refuses an array whose fill holds items: they would be ignored.
#[test]
fn write_from_refuses_items_in_the_fill() {
    let a = NdArray::new(&[2], &[2], &[1], "|u1", 1, Fill::Data(&[1, 2]));
    let e = a.write_from(&mut &[1u8, 2][..], &mut Cursor::new(Vec::new()), |_, _| {}).unwrap_err();
    assert!(e.to_string().contains("Fill::Data(&[])"), "{e}");
}

/// A reader that ends early names the byte it ended at and the bytes the array needs.
#[test]
fn a_short_reader_is_an_error_naming_where_it_ended() {
    let a = NdArray::new(&[10, 4], &[4, 4], &[2, 4], "<i2", 2, Fill::Data(&[]));
    let e = a.write_from(&mut &[0u8; 37][..], &mut Cursor::new(Vec::new()), |_, _| {}).unwrap_err();
    assert_eq!(
        e.to_string(),
        "expected items from the reader, bytes: 80 at offset 37, found the end after 37"
    );
}

/// A shape whose size in bytes overflows is a budget error from `write_from` (no items in memory
/// bound it), never a panic nor an allocation.
#[test]
fn write_from_refuses_a_shape_that_overflows() {
    // Chunks of up to 2^27 items keep the chunk count and the chunk size in range: the items
    // overflow, not the chunks (the last case: the chunk count).
    for (shape, chunks, what) in [
        ([i64::MAX / 2, 4], [1 << 13, 4], "the array's bytes"),
        ([1 << 40, 1 << 30], [1 << 13, 1 << 14], "the array's bytes"),
        ([i64::MAX / 2, i64::MAX / 2], [1, 1], "the chunk count"),
    ] {
        let a = NdArray::new(&shape, &chunks, &[1, 1], "<f8", 8, Fill::Data(&[]));
        let e = a.write_from(&mut &[0u8; 8][..], &mut Cursor::new(Vec::new()), |_, _| {}).unwrap_err();
        assert!(
            matches!(e.kind(), b2schema::ErrorKind::BudgetExceeded { what: w, max: 0, .. } if *w == what),
            "{shape:?}: {e}"
        );
        assert!(e.is_budget(), "{shape:?}: {e}");
    }
}

/// A writer that records where it was sent back to (`seek`s), over a `Cursor`.
struct Seeks {
    inner: Cursor<Vec<u8>>,
    seeks: Vec<u64>,
}

impl std::io::Write for Seeks {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::io::Seek for Seeks {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        let at = self.inner.seek(pos)?;
        self.seeks.push(at);
        Ok(at)
    }
}

/// The whole frame of `w`, `w` with its items to come from a reader, and an output recording
/// its seeks.
fn whole_and_to_stream<'a>(w: &NdArray<'a>) -> (Vec<u8>, NdArray<'a>, Seeks) {
    let whole = w.to_frame().unwrap().to_vec().unwrap();
    let mut a = w.clone();
    a.fill = Fill::Data(&[]);
    (whole, a, Seeks { inner: Cursor::new(Vec::new()), seeks: Vec::new() })
}

/// Items of `kind`: 0 noise (pieces written, then a memcpy chunk once the raw streams pass the
/// chunk's size), 1 slow counters, 2 noise then counters, 3 zeros then noise (a chunk that
/// looks like a zeros chunk first), 4 counters then noise.
fn items(kind: u8, len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    let mut noise = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as u8
    };
    (0..len)
        .map(|i| match (kind % 5, i < len / 2) {
            (0, _) | (2, true) | (3, false) | (4, false) => noise(),
            (3, true) => 0,
            _ => (i / 64) as u8,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A chunk compressed alone is written out in pieces as its blocks are done (its header
    /// and block table written again at the end, or the whole chunk again when it ends as a
    /// memcpy chunk): the frame is the whole-frame writer's at 1 to 3 threads, with one chunk,
    /// chunks fewer than threads and more chunks than are written in pieces, items of 1 to 8 bytes, incompressible items
    /// (stored streams, memcpy chunks), zeros then noise, and pieces of any size; each chunk is
    /// also read in pieces of whole blocks and compressed as they arrive, and a reader that ends
    /// inside one is an error naming where.
    #[test]
    fn chunks_written_in_pieces_are_the_whole_frames(
        rows in 1i64..120,
        nchunks in 1i64..7,
        block_rows in 1i32..9,
        ts in prop_oneof![Just(1usize), Just(2), Just(4), Just(8)],
        codec in 0u8..30,
        filter in 0u8..3,
        kind in 0u8..5,
        piece in prop_oneof![1usize..64, 64usize..5000],
        seed in any::<u64>(),
    ) {
        const COLS: i64 = 40;
        let data = items(kind, rows as usize * COLS as usize * ts, seed);
        let shape = [rows, COLS];
        // 1 to 6 chunks (up to 4 are written in pieces at 1 thread; at 1 with more threads).
        let chunks = [(rows + nchunks - 1) as i32 / nchunks.min(rows) as i32, COLS as i32];
        let blocks = [block_rows.min(chunks[0]), COLS as i32];
        let dtype = format!("|V{ts}");
        for nthreads in 1..=3 {
            let mut w = NdArray::new(&shape, &chunks, &blocks, &dtype, ts, Fill::Data(&data));
            w.cparams = cparams(codec, filter, nthreads);
            let (whole, a, mut out) = whole_and_to_stream(&w);
            let (n, _) = a.__write_from_in_pieces(&mut &data[..], &mut out, piece).unwrap();
            prop_assert_eq!(n as usize, whole.len());
            prop_assert!(out.inner.get_ref() == &whole, "{} threads: in pieces of {} differs", nthreads, piece);
            // A reader that ends early, inside a chunk read in pieces as it is compressed: an
            // error at the byte where it ended (the worker waiting for the next piece stops).
            let cut = (seed as usize) % data.len();
            let e = a
                .__write_from_in_pieces(&mut &data[..cut], &mut Cursor::new(Vec::new()), piece)
                .unwrap_err()
                .to_string();
            prop_assert!(e.ends_with(&format!("bytes: {} at offset {cut}, found the end after {cut}", data.len())), "{e}");
        }
    }
}

/// The promise the pieces keep: one chunk of 64 blocks, at 1 and 2 threads, is written while
/// it is made (the writer goes back to the chunk's header and table once it is done), and a
/// chunk of noise, written in pieces first, ends as c-blosc2's memcpy chunk (rewritten whole).
#[test]
fn a_chunk_made_alone_is_written_as_its_blocks_are_done() {
    let shape = [256i64, 64];
    for (kind, memcpyed) in [(1u8, false), (0, true)] {
        let data = items(kind, 256 * 64 * 4, 7);
        for nthreads in [1i16, 2] {
            let mut w = NdArray::new(&shape, &[256, 64], &[4, 64], "<i4", 4, Fill::Data(&data));
            w.cparams = cparams(1, 1, nthreads);
            w.cparams.clevel = 5;
            let (whole, a, mut out) = whole_and_to_stream(&w);
            let (_, buffers) = a.__write_from_in_pieces(&mut &data[..], &mut out, 1000).unwrap();
            assert!(out.inner.get_ref() == &whole, "{nthreads} threads, kind {kind}");
            // Read in 64 pieces of 1 KiB (a block each): the reader reads 4 ahead of the
            // compressor, which lets the pieces go once their blocks are done and the chunk can
            // no longer end as a memcpy chunk (from its first few blocks on: at most 3 here), and
            // the reader reads into them again; one that may end as a memcpy chunk keeps them all.
            match memcpyed {
                false => assert!(buffers <= 8, "{nthreads} threads: {buffers} buffers read into"),
                true => assert_eq!(buffers, 64, "{nthreads} threads"),
            }
            // Written in pieces, the writer went back to the chunk (after the frame's header)
            // before it went back to the frame's header (offset 0) at the end (the first seek
            // asks where the frame starts).
            let at = out.seeks.get(1).copied().unwrap_or(0) as usize;
            assert!(at > 0 && at < whole.len() / 2, "{nthreads} threads, kind {kind}: seeks {:?}", out.seeks);
            let h = b2schema::chunk::ChunkHeader::parse(&whole[at..]).unwrap();
            assert_eq!(h.is_memcpyed(), memcpyed, "{nthreads} threads, kind {kind}: the chunk's flags");
        }
    }
}

/// Large chunks are made one at a time, all the threads on each one's blocks, and written in
/// pieces as they are made (the writer goes back to each chunk's header once it is done), from
/// 1 MiB of chunk a thread; smaller ones, each on its own thread, are written whole (no going
/// back but to the frame's header). Both are the whole frame's bytes. (Planted: large chunks
/// each on its own thread: no chunk gone back to.)
#[test]
fn large_chunks_share_their_blocks_between_the_threads() {
    const NCHUNKS: usize = 6;
    for (chunk_items, nthreads, shared) in [(1 << 19, 2i16, true), (1 << 17, 2, false), (1 << 19, 3, false)] {
        // Each chunk half noise (its pieces pass the writer's piece size), half counters.
        let data: Vec<u8> = (0..NCHUNKS as u64).flat_map(|c| items(2, chunk_items * 4, c)).collect();
        let shape = [NCHUNKS as i64, chunk_items as i64];
        let mut w =
            NdArray::new(&shape, &[1, chunk_items as i32], &[1, 1 << 15], "<i4", 4, Fill::Data(&data));
        w.cparams = cparams(1, 1, nthreads);
        w.cparams.clevel = 5;
        let (whole, a, mut out) = whole_and_to_stream(&w);
        a.write_from(&mut &data[..], &mut out, |_, _| {}).unwrap();
        assert!(out.inner.get_ref() == &whole, "{chunk_items} items a chunk, {nthreads} threads");
        // Where the frame starts, each chunk's header when written in pieces, the frame's header.
        let chunks_gone_back_to = out.seeks.iter().filter(|&&at| at > 0).count().saturating_sub(1);
        match shared {
            true => assert!(chunks_gone_back_to >= NCHUNKS, "{chunk_items} items: seeks {:?}", out.seeks),
            false => assert_eq!(
                chunks_gone_back_to, 0,
                "{chunk_items} items, {nthreads} threads: seeks {:?}",
                out.seeks
            ),
        }
    }
}
