//! Frames and arrays changed in place (`writer::FrameMut`, `writer::ArrayMut`): the writer's
//! lock, `compact_file`, and crafted frames given to every change (never a panic, never a byte
//! written outside the header's changing fields and the space after the frame).

use b2schema::writer::{ArrayMut, Chunk, Fill, FrameMut, NdArray, compact_file};
use b2schema_tests::Rng;

fn small_array() -> Vec<u8> {
    let data: Vec<u8> = (0..60i32).flat_map(|v| v.to_le_bytes()).collect();
    NdArray::new(&[6, 10], &[4, 4], &[2, 2], "<i4", 4, Fill::Data(&data))
        .to_frame()
        .unwrap()
        .to_vec()
        .unwrap()
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-edits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_second_writer_is_refused_while_the_first_holds_the_lock() {
    let dir = tmp("lock");
    let path = dir.join("a.b2nd");
    std::fs::write(&path, small_array()).unwrap();
    let sparse = dir.join("s.b2frame");
    b2schema::writer::schunk(&[7u8; 4000], 4, 1000, Default::default())
        .unwrap()
        .write_sparse(&sparse)
        .unwrap();
    for p in [&path, &sparse] {
        let first = FrameMut::open(p).unwrap();
        let err = FrameMut::open(p).err().expect("a second writer is refused");
        assert!(err.to_string().contains("locked"), "{err}");
        assert!(ArrayMut::open(&path).is_err() || p != &path);
        drop(first);
        let cs = b2schema::frame::FrameFile::open(p).unwrap().view().unwrap().header.chunksize as u64;
        let zeros = Chunk::Special { kind: b2schema::frame::SpecialValue::Zeros, nbytes: cs };
        FrameMut::open(p).unwrap().update_chunk(0, &zeros).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compact_drops_the_bytes_changes_left_and_keeps_the_array() {
    let dir = tmp("compact");
    let path = dir.join("a.b2nd");
    std::fs::write(&path, small_array()).unwrap();
    let mut a = ArrayMut::open(&path).unwrap();
    for i in 0..5 {
        a.write_slice(&[0..6, 0..10], &vec![i; 60]).unwrap();
    }
    a.append(&[1i32; 10]).unwrap();
    drop(a);
    let before = b2schema::open(&path).unwrap().read_as::<i32>(":").unwrap();
    let grown = std::fs::metadata(&path).unwrap().len();
    compact_file(&path).unwrap();
    let after = std::fs::metadata(&path).unwrap().len();
    assert!(after < grown / 2, "{after} bytes after compact, {grown} before");
    assert_eq!(b2schema::open(&path).unwrap().read_as::<i32>(":").unwrap(), before);
    assert_eq!(before[..60], [4; 60]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Where a change may write in the frame `bytes` (as its header says): the header's totals and
/// the `b2nd` metalayer (bytes 15 up to the header's end), and after the frame's end.
fn frame_bounds(bytes: &[u8]) -> Option<(usize, usize)> {
    let header_len = i32::from_be_bytes(bytes.get(12..16)?.try_into().ok()?);
    let frame_len = i64::from_be_bytes(bytes.get(17..25)?.try_into().ok()?);
    Some((usize::try_from(header_len).ok()?, usize::try_from(frame_len).ok()?))
}

#[test]
fn crafted_frames_given_to_changes_never_panic_nor_write_outside_the_frame() {
    let good = small_array();
    let mut rng = Rng(0xc4af_7ed5);
    let zeros = Chunk::Special { kind: b2schema::frame::SpecialValue::Zeros, nbytes: 128 };
    for case in 0..600 {
        let mut bytes = good.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(bytes.len());
            bytes[i] = rng.next_u64() as u8;
        }
        if case % 50 == 0 {
            bytes.truncate(rng.below(bytes.len()));
        }
        let before = bytes.clone();
        let mut buf = bytes;
        let r = match case % 6 {
            0 => ArrayMut::from_io(std::io::Cursor::new(&mut buf)).and_then(|mut a| a.resize(&[9, 3])),
            1 => ArrayMut::from_io(std::io::Cursor::new(&mut buf))
                .and_then(|mut a| a.write_slice(&[1..5, 2..9], &[5i32; 28])),
            2 => ArrayMut::from_io(std::io::Cursor::new(&mut buf)).and_then(|mut a| a.append(&[3i32; 10])),
            3 => FrameMut::from_io(std::io::Cursor::new(&mut buf)).delete_chunk(1),
            4 => FrameMut::from_io(std::io::Cursor::new(&mut buf)).insert_chunk(0, &zeros),
            _ => FrameMut::from_io(std::io::Cursor::new(&mut buf)).update_chunk(2, &zeros),
        };
        match (r, frame_bounds(&before)) {
            (Ok(()), Some((header_len, frame_len))) => {
                assert_eq!(buf[..15], before[..15], "case {case}");
                let end = frame_len.min(before.len());
                assert_eq!(buf.get(header_len..end), before.get(header_len..end), "case {case}");
            }
            (Ok(()), None) => panic!("case {case}: a change of a frame without a header"),
            (Err(_), _) => assert_eq!(buf, before, "case {case}: a refused change wrote"),
        }
    }
}

#[test]
fn variable_size_chunks_are_updated_inserted_and_deleted() {
    use b2schema::writer::{CParams, Frame, chunk};
    let make = |n: usize, v: u8| {
        Chunk::from_compressed(chunk::compressed(&vec![v; n], 1, 0, &CParams::default()).unwrap()).unwrap()
    };
    let mut frame = Frame::new(1);
    frame.chunksize = 0;
    frame.chunks = vec![make(100, 1), make(300, 2), make(50, 3)];
    let mut f = FrameMut::from_io(std::io::Cursor::new(frame.to_vec().unwrap()));
    f.update_chunk(1, &make(70, 4)).unwrap();
    f.insert_chunk(0, &make(10, 5)).unwrap();
    f.delete_chunk(3).unwrap();
    let bytes = f.into_inner().unwrap().into_inner();
    let file = b2schema::frame::FrameFile::from_bytes(bytes, "v.b2frame", Default::default()).unwrap();
    let got: Vec<Vec<u8>> =
        file.chunks().unwrap().iter().map(|c| file.chunk_data(c, 1 << 20).unwrap()).collect();
    assert_eq!(got, [vec![5; 10], vec![1; 100], vec![4; 70]]);
    assert_eq!(file.view().unwrap().header.nbytes, 180);
}

/// A frame in memory that counts the syncs asked of it.
struct Counted {
    bytes: std::io::Cursor<Vec<u8>>,
    syncs: usize,
}

impl std::io::Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.bytes.read(buf)
    }
}

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::io::Seek for Counted {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.bytes.seek(pos)
    }
}

impl b2schema::writer::FrameIo for Counted {
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        self.bytes.get_mut().resize(len as usize, 0);
        Ok(())
    }

    fn sync(&mut self) -> std::io::Result<()> {
        self.syncs += 1;
        Ok(())
    }
}

#[test]
fn changes_sync_each_step_unless_told_not_to_and_write_the_same_bytes_either_way_at_any_thread_count() {
    let rows: Vec<i32> = (100..110).collect();
    let mut out = Vec::new();
    for synced in [true, false] {
        let mut a =
            ArrayMut::from_io(Counted { bytes: std::io::Cursor::new(small_array()), syncs: 0 }).unwrap();
        a.set_synced(synced);
        // The bytes do not depend on the threads that compress.
        a.set_threads(if synced { 4 } else { 1 });
        a.append(&rows).unwrap();
        a.write_slice(&[0..1, 0..2], &[-1i32, -2]).unwrap();
        let io = a.into_inner().unwrap();
        // Each change: the new tail synced, then the header patch synced.
        assert_eq!(io.syncs, if synced { 4 } else { 0 }, "synced: {synced}");
        out.push(io.bytes.into_inner());
    }
    assert_eq!(out[0], out[1]);
    let arr = b2schema::Container::from_bytes(out[1].clone()).unwrap();
    let all: Vec<i32> = arr.read_as(":").unwrap();
    assert_eq!(&all[60..], &rows[..]);
    assert_eq!(&all[..3], &[-1, -2, 2]);
}
