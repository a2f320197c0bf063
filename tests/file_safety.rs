//! File safety of every in-place update (issue 8): `FieldRef::patch_file`,
//! `FrameFile::update_metalayer` and the writer's `append_chunk_to` / `set_vlmetalayer_to`.
//!
//! Failures are injected into an in-memory file at every I/O call in turn (the Nth read, write,
//! seek or flush fails), in two models: writes that complete or fail whole, and writes that land
//! one byte at a time (so a failure can tear a write). Whatever fails, nothing outside the fields
//! named changes (whole files compared), and with whole writes the file is always readable, as it
//! was before or as it is after. A torn write is the one thing an update cannot survive when it
//! tears a field others depend on (the writer's header patch): this is c-blosc2's model too, which
//! patches the header in one write; the tests below pin down exactly what a torn write leaves.
//!
//! `update_metalayer` opens the file by its path, so its failures are made through the file
//! system: a path that no longer opens, a file that changed since the frame was opened.

use std::io::{Cursor, Read, Seek, SeekFrom, Write};

use b2schema::b2nd::B2nd;
use b2schema::frame::{FrameFile, FrameHeader, FrameView, SpecialValue};
use b2schema::writer::{self, CParams, Chunk};
use b2schema_tests::repo_root;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(repo_root().join("tests/data/fixtures").join(name)).unwrap()
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-safety-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// An in-memory file whose I/O call number `fail_at` (counting from 0) fails. With `bytewise`,
/// each write call writes one byte, so a failure can land inside a `write_all`.
struct Flaky {
    data: Cursor<Vec<u8>>,
    calls: usize,
    fail_at: usize,
    bytewise: bool,
}

impl Flaky {
    fn new(bytes: &[u8], fail_at: usize, bytewise: bool) -> Self {
        Flaky { data: Cursor::new(bytes.to_vec()), calls: 0, fail_at, bytewise }
    }

    fn tick(&mut self) -> std::io::Result<()> {
        self.calls += 1;
        if self.calls - 1 == self.fail_at {
            return Err(std::io::Error::other(format!("injected failure at call {}", self.fail_at)));
        }
        Ok(())
    }

    fn contents(&self) -> &[u8] {
        self.data.get_ref()
    }
}

impl Read for Flaky {
    fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
        self.tick()?;
        self.data.read(b)
    }
}

impl Write for Flaky {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.tick()?;
        let n = if self.bytewise { b.len().min(1) } else { b.len() };
        self.data.write(&b[..n])
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.tick()
    }
}

impl Seek for Flaky {
    fn seek(&mut self, p: SeekFrom) -> std::io::Result<u64> {
        self.tick()?;
        self.data.seek(p)
    }
}

impl writer::FrameIo for Flaky {
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        self.tick()?;
        self.data.get_mut().resize(len as usize, 0);
        Ok(())
    }
}

/// An in-memory file on a disk of `cap` bytes: a write that reaches past it writes what fits,
/// then fails, as a full disk (ENOSPC) or a file-size limit (EFBIG, `prlimit --fsize`) does.
struct Full {
    data: Cursor<Vec<u8>>,
    cap: u64,
}

impl Read for Full {
    fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
        self.data.read(b)
    }
}

impl Write for Full {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let room = self.cap.saturating_sub(self.data.position()).min(b.len() as u64) as usize;
        if room == 0 && !b.is_empty() {
            return Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "no space left on device"));
        }
        self.data.write(&b[..room])
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Seek for Full {
    fn seek(&mut self, p: SeekFrom) -> std::io::Result<u64> {
        self.data.seek(p)
    }
}

impl writer::FrameIo for Full {
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        self.data.get_mut().resize(len as usize, 0);
        Ok(())
    }
}

/// The positions where `a` and `b` differ (and every position past the shorter one).
fn changed(a: &[u8], b: &[u8]) -> Vec<usize> {
    (0..a.len().max(b.len())).filter(|&i| a.get(i) != b.get(i)).collect()
}

/// Runs `update` on a clean copy to learn how many calls it makes and what it writes, then again
/// failing at every call; calls `check` on each outcome: (fail_at, result, bytes).
fn every_failure<T>(
    original: &[u8],
    bytewise: bool,
    mut update: impl FnMut(&mut Flaky) -> b2schema::Result<T>,
    mut check: impl FnMut(usize, &b2schema::Result<T>, &[u8]),
) -> (usize, Vec<u8>) {
    let mut clean = Flaky::new(original, usize::MAX, bytewise);
    update(&mut clean).expect("the update succeeds without failures");
    let (calls, after) = (clean.calls, clean.contents().to_vec());
    for fail_at in 0..calls {
        let mut f = Flaky::new(original, fail_at, bytewise);
        let r = update(&mut f);
        assert!(r.is_err(), "failure at call {fail_at} of {calls} was not reported");
        check(fail_at, &r, f.contents());
    }
    (calls, after)
}

#[test]
fn patch_file_changes_the_field_or_nothing() {
    let frame = fixture("nd-2d-u2.b2nd");
    // The frame inside a larger file, at an offset.
    let mut file = b"a prefix of 23 bytes...".to_vec();
    let base = file.len() as u64;
    file.extend_from_slice(&frame);
    file.extend_from_slice(b"and a suffix");
    let field = FrameHeader::BLOCKSIZE.layout();
    let (at, width) = (base as usize + field.marker_offset.unwrap(), field.width.unwrap());
    let value = 0x0102_0304i32;
    let mut expected = file.clone();
    FrameHeader::BLOCKSIZE.patch(&mut expected[base as usize..], &value).unwrap();
    assert_eq!(changed(&file, &expected), (at + 1..at + width).collect::<Vec<_>>());

    for bytewise in [false, true] {
        let mut torn = 0;
        let (calls, after) = every_failure(
            &file,
            bytewise,
            |f| FrameHeader::BLOCKSIZE.patch_file(f, base, &value).map_err(Into::into),
            |fail_at, r, bytes| {
                let diff = changed(&file, bytes);
                assert!(diff.iter().all(|&i| (at + 1..at + width).contains(&i)), "call {fail_at}: {diff:?}");
                if !bytewise {
                    assert!(bytes == file || bytes == expected, "call {fail_at}: a torn field");
                }
                if bytes != file && bytes != expected {
                    torn += 1;
                }
                // Readable whatever happened: the blocksize field is free.
                let frame = &bytes[base as usize..base as usize + frame.len()];
                FrameView::from_slice(frame).unwrap_or_else(|e| panic!("call {fail_at}: {e}"));
                assert!(r.as_ref().unwrap_err().to_string().contains("injected failure"));
            },
        );
        assert_eq!(after, expected);
        // seek, read the marker, seek, write the field with its marker (1 call, or 1 per byte),
        // flush.
        assert_eq!(calls, if bytewise { 4 + width } else { 5 });
        assert_eq!(torn, if bytewise { 3 } else { 0 });
    }

    // A wrong marker at the place: nothing is written.
    let mut f = Flaky::new(&file, usize::MAX, false);
    let e = FrameHeader::BLOCKSIZE.patch_file(&mut f, base + 1, &value).unwrap_err();
    assert_eq!(f.contents(), file);
    // The offset is the file's: base + 1 + 52, where the marker was looked for.
    assert_eq!(
        e.to_string(),
        "expected int32 marker d2 at offset 76 (blocksize), found 00 (positive fixint)"
    );
}

#[test]
fn update_metalayer_changes_the_content_or_nothing() {
    let original = fixture("nd-meta-vlmeta.b2nd");
    let path = temp("update.b2nd");
    std::fs::write(&path, &original).unwrap();
    let mut f = FrameFile::open(&path).unwrap();
    let (offset, new_meta) = {
        let v = f.view().unwrap();
        let (_, offset, content) = v.header.metalayers.iter().find(|(n, _, _)| *n == "b2nd").unwrap();
        let mut meta: B2nd = b2schema::from_slice(content).unwrap();
        meta.shape[0] += 1;
        (offset as usize, b2schema::to_vec(&meta).unwrap())
    };

    // Refused before any write: the file and the opened frame stay as they were.
    assert!(f.update_metalayer("nope", &new_meta).is_err());
    assert!(f.update_metalayer("b2nd", &new_meta[1..]).is_err());
    assert!(f.update_metalayer("unit", &new_meta).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), original);

    // The path no longer opens for writing (a directory in its place).
    let aside = temp("update-aside.b2nd");
    std::fs::rename(&path, &aside).unwrap();
    std::fs::create_dir(&path).unwrap();
    assert!(f.update_metalayer("b2nd", &new_meta).is_err());
    std::fs::remove_dir(&path).unwrap();
    std::fs::rename(&aside, &path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), original);
    assert_eq!(f.view().unwrap().header_bytes, FrameView::from_slice(&original).unwrap().header_bytes);

    // The file changed since it was opened: truncated before the layer, another frame in its
    // place, the layer rewritten by someone else. Each is refused without a write.
    let other = fixture("nd-2d-u2.b2nd");
    let mut rewritten = original.clone();
    rewritten[offset + 5 + 6] ^= 1;
    for (what, bytes) in
        [("truncated", &original[..offset]), ("another frame", &other[..]), ("rewritten", &rewritten)]
    {
        std::fs::write(&path, bytes).unwrap();
        let e = f.update_metalayer("b2nd", &new_meta).unwrap_err();
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{what}: {e}");
    }
    std::fs::write(&path, &rewritten).unwrap();
    assert_eq!(
        f.update_metalayer("b2nd", &new_meta).unwrap_err().to_string(),
        "expected the metalayer's bytes as read when the frame was opened (the file changed since): \
         b2nd at offset 149 (metalayers[\"b2nd\"]), found other bytes"
    );

    // Success: only the content's bytes change, and the file reads back with them.
    std::fs::write(&path, &original).unwrap();
    f.update_metalayer("b2nd", &new_meta).unwrap();
    let after = std::fs::read(&path).unwrap();
    let diff = changed(&original, &after);
    assert!(!diff.is_empty() && diff.iter().all(|&i| (offset + 5..offset + 5 + new_meta.len()).contains(&i)));
    let reopened = FrameFile::open(&path).unwrap();
    assert_eq!(reopened.view().unwrap().metalayer("b2nd").unwrap(), new_meta);
    assert_eq!(f.view().unwrap().metalayer("b2nd").unwrap(), new_meta);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn update_metalayer_of_a_frame_at_an_offset_and_of_a_sparse_frame() {
    // At an offset: the bytes before and after the frame do not move.
    let frame = fixture("nd-2d-u2.b2nd");
    let mut file = vec![0x5a; 1000];
    file.extend_from_slice(&frame);
    file.extend_from_slice(&[0xa5; 100]);
    let path = temp("offset.bin");
    std::fs::write(&path, &file).unwrap();
    let mut f = FrameFile::open_at(&path, 1000).unwrap();
    let (offset, mut content) = {
        let v = f.view().unwrap();
        let (_, offset, content) = v.header.metalayers.iter().next().unwrap();
        (offset as usize, content.to_vec())
    };
    content[12] ^= 0x01; // the low byte of shape[0]
    f.update_metalayer("b2nd", &content).unwrap();
    let after = std::fs::read(&path).unwrap();
    assert_eq!(changed(&file, &after), [1000 + offset + 5 + 12]);
    std::fs::remove_file(&path).unwrap();

    // A sparse frame: only its index file changes, at the content's place.
    let src = repo_root().join("tests/data/fixtures/sparse-2d-i4.b2nd");
    let dir = temp("sparse.b2nd");
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::write(dir.join(e.file_name()), std::fs::read(e.path()).unwrap()).unwrap();
    }
    let index = dir.join(b2schema::frame::SPARSE_INDEX);
    let before = std::fs::read(&index).unwrap();
    let mut f = FrameFile::open(&dir).unwrap();
    let (offset, mut content) = {
        let v = f.view().unwrap();
        let (_, offset, content) = v.header.metalayers.iter().next().unwrap();
        (offset as usize, content.to_vec())
    };
    content[12] ^= 0x01;
    f.update_metalayer("b2nd", &content).unwrap();
    assert_eq!(changed(&before, &std::fs::read(&index).unwrap()), [offset + 5 + 12]);
    FrameFile::open(&dir).unwrap().chunks().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Reads the frame at the start of `bytes` as a file reader does (bytes after it are allowed),
/// then every chunk: its length, chunk and vlmetalayer counts.
fn read_frame(bytes: &[u8]) -> Result<(usize, (u64, usize)), String> {
    let mut cursor = Cursor::new(bytes.to_vec());
    let file = FrameFile::from_reader(&mut cursor, bytes.len() as u64, 0).map_err(|e| e.to_string())?;
    let frame = &bytes[..file.frame_len() as usize];
    let v = FrameView::from_slice(frame).map_err(|e| e.to_string())?;
    for loc in v.chunk_locations().map_err(|e| e.to_string())? {
        if let b2schema::frame::ChunkLocation::Offset(o) = loc {
            let at = v.header_bytes.len() + o as usize;
            b2schema::chunk::decompress(&frame[at..]).map_err(|e| e.to_string())?;
        }
    }
    Ok((frame.len(), (v.nchunks().unwrap(), v.trailer.vlmetalayers.iter().count())))
}

/// What an append or a vlmetalayer update leaves when it fails: the old frame's bytes are
/// untouched but for the header fields it patches last (frame_len to has_vlmetalayers, bytes
/// 15..69), and with whole writes the file opens as the old frame or the new one.
fn check_writer_update(name: &str, original: &[u8], update: impl Fn(&mut Flaky) -> b2schema::Result<()>) {
    let old = FrameView::from_slice(original).unwrap();
    let (old_chunks, old_vl) = (old.nchunks().unwrap(), old.trailer.vlmetalayers.iter().count());
    for bytewise in [false, true] {
        let mut unreadable = Vec::new();
        let (calls, after) = every_failure(original, bytewise, &update, |fail_at, _, bytes| {
            let diff = changed(original, &bytes[..original.len().min(bytes.len())]);
            assert!(diff.iter().all(|i| (15..69).contains(i)), "{name}, call {fail_at}: {diff:?}");
            match read_frame(bytes) {
                Ok((frame_len, state)) => {
                    let is_old = frame_len == original.len() && state == (old_chunks, old_vl);
                    let is_new = frame_len == bytes.len();
                    assert!(is_old || is_new, "{name}, call {fail_at}: {state:?}");
                }
                Err(e) => unreadable.push((fail_at, e)),
            }
        });
        assert!(FrameView::from_slice(&after).is_ok(), "{name}");
        eprintln!(
            "{name}, {} writes: {calls} failure points, {} leave an unreadable frame",
            if bytewise { "byte-by-byte" } else { "whole" },
            unreadable.len()
        );
        if bytewise {
            // A header patch torn between frame_len and the rest: the fields disagree.
            assert!(!unreadable.is_empty(), "{name}");
        } else {
            assert!(unreadable.is_empty(), "{name}: {unreadable:?}");
        }
    }
}

#[test]
fn writer_updates_leave_the_old_or_the_new_frame() {
    let data: Vec<u8> = (0..80u8).collect();
    let original = writer::schunk(&data, 1, 40, CParams::default()).unwrap().to_vec().unwrap();
    let piece = Chunk::Stored(writer::chunk::memcpy(&[1u8; 40], 1, 0, &CParams::default()).unwrap());
    check_writer_update("append_chunk_to", &original, |f| writer::append_chunk_to(f, &piece));
    let zeros = Chunk::Special { kind: SpecialValue::Zeros, nbytes: 40 };
    check_writer_update("append a special chunk", &original, |f| writer::append_chunk_to(f, &zeros));
    check_writer_update("set_vlmetalayer_to", &original, |f| {
        writer::set_vlmetalayer_to(f, "note", b"\xa2hi")
    });
    // Updating a vlmetalayer that exists, in a python-blosc2 file.
    let fixture = fixture("schunk-vlmeta-values.b2frame");
    check_writer_update("set_vlmetalayer_to (update)", &fixture, |f| {
        writer::set_vlmetalayer_to(f, "int", b"\x2a")
    });
    check_writer_update("delete_vlmetalayer_from", &fixture, |f| writer::delete_vlmetalayer_from(f, "int"));
    // Deleting removes that one, keeps the others in order, and a missing name is an error.
    let mut file = std::io::Cursor::new(fixture.clone());
    writer::delete_vlmetalayer_from(&mut file, "int").unwrap();
    let names = |bytes: &[u8]| -> Vec<String> {
        let v = FrameView::from_slice(bytes).unwrap();
        v.trailer.vlmetalayers.iter().map(|(n, _, _)| n.to_string()).collect()
    };
    let mut want = names(&fixture);
    want.retain(|n| n != "int");
    assert_eq!(names(file.get_ref()), want);
    let e = writer::delete_vlmetalayer_from(&mut file, "int").unwrap_err();
    assert!(e.to_string().contains("an existing vlmetalayer named int"), "{e}");
}

type Update = Box<dyn Fn(&mut dyn writer::FrameIo) -> b2schema::Result<()>>;

/// Every update, interrupted at every byte by a full disk and at every I/O call, leaves the old
/// frame with a torn tail after it (or the new frame), and the next update reclaims that tail:
/// the same update again gives the file a clean run gives, byte for byte, and a different one
/// with a shorter tail (a vlmetalayer set after a torn append) leaves no byte after its frame.
#[test]
fn a_torn_tail_is_reclaimed_by_the_next_update() {
    let data: Vec<u8> = (0..80u8).collect();
    let original = writer::schunk(&data, 1, 40, CParams::default()).unwrap().to_vec().unwrap();
    let fixture = fixture("schunk-vlmeta-values.b2frame");
    let piece = Chunk::Stored(writer::chunk::memcpy(&[1u8; 40], 1, 0, &CParams::default()).unwrap());
    let zeros = Chunk::Special { kind: SpecialValue::Zeros, nbytes: 40 };
    let long = vec![b'x'; 300];
    let cases: Vec<(&str, &[u8], Update)> = vec![
        ("append", &original, Box::new(move |f| writer::append_chunk_to(f, &piece))),
        ("append zeros", &original, Box::new(move |f| writer::append_chunk_to(f, &zeros))),
        ("set", &original, Box::new(move |f| writer::set_vlmetalayer_to(f, "note", &long))),
        ("set (update)", &fixture, Box::new(|f| writer::set_vlmetalayer_to(f, "int", b"\x2a"))),
        ("del", &fixture, Box::new(|f| writer::delete_vlmetalayer_from(f, "int"))),
    ];
    let other = |f: &mut dyn writer::FrameIo| writer::set_vlmetalayer_to(f, "k", b"\x01");
    for (name, original, update) in &cases {
        let mut clean = Cursor::new(original.to_vec());
        update(&mut clean).unwrap();
        let want = clean.into_inner();
        // What an interruption left: the old frame with a torn tail (or the new frame).
        let mut states: Vec<(String, Vec<u8>)> = Vec::new();
        for cap in original.len() as u64..want.len() as u64 {
            let mut f = Full { data: Cursor::new(original.to_vec()), cap };
            let e = update(&mut f).unwrap_err();
            assert!(e.to_string().contains("no space left"), "{name}, {cap} bytes: {e}");
            states.push((format!("a disk full at {cap} bytes"), f.data.into_inner()));
        }
        let mut calls = Flaky::new(original, usize::MAX, false);
        update(&mut calls).unwrap();
        for fail_at in 0..calls.calls {
            let mut f = Flaky::new(original, fail_at, false);
            assert!(update(&mut f).is_err());
            states.push((format!("a failure at call {fail_at}"), f.contents().to_vec()));
        }
        let mut torn = 0;
        for (how, bytes) in states {
            let (frame_len, _) = read_frame(&bytes).unwrap_or_else(|e| panic!("{name}, {how}: {e}"));
            if frame_len == want.len() {
                assert_eq!(bytes, want, "{name}, {how}");
                continue;
            }
            assert_eq!(bytes[..original.len()], original[..], "{name}, {how}: not the old frame");
            torn += usize::from(bytes.len() > original.len());
            let mut again = Cursor::new(bytes.clone());
            update(&mut again).unwrap_or_else(|e| panic!("{name}, {how}: the update again: {e}"));
            assert_eq!(again.into_inner(), want, "{name}, {how}: the update again");
            let mut next = Cursor::new(bytes);
            other(&mut next).unwrap_or_else(|e| panic!("{name}, {how}: another update: {e}"));
            let next = next.into_inner();
            let (frame_len, _) = read_frame(&next).unwrap();
            assert_eq!(frame_len, next.len(), "{name}, {how}: bytes left after the frame");
        }
        assert!(torn >= want.len() - original.len() - 1, "{name}: {torn} torn tails");
    }
}

/// Bytes after a frame that are no torn tail of an update (text, another frame, a chunk header
/// that does not parse), and a frame that does not start the file, are refused for writing,
/// and the file is left as it was.
#[test]
fn bytes_that_are_no_torn_tail_are_never_reclaimed() {
    let data: Vec<u8> = (0..80u8).collect();
    let frame = writer::schunk(&data, 1, 40, CParams::default()).unwrap().to_vec().unwrap();
    let mut bad_chunk = writer::chunk::memcpy(&[1u8; 40], 1, 0, &CParams::default()).unwrap();
    bad_chunk[8..12].copy_from_slice(&0i32.to_le_bytes()); // blocksize 0
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("text after", [&frame[..], b"a note the user appended"].concat()),
        ("a frame after", [&frame[..], &frame[..]].concat()),
        ("a chunk header that does not parse after", [&frame[..], &bad_chunk[..]].concat()),
        ("a byte after", [&frame[..], &[0xa5][..]].concat()),
        ("bytes before", [&b"a prefix"[..], &frame[..]].concat()),
        ("a frame at an offset", [&[0u8; 100][..], &frame[..], &[1u8; 40][..]].concat()),
    ];
    for (name, bytes) in cases {
        let mut f = Cursor::new(bytes.clone());
        assert!(writer::set_vlmetalayer_to(&mut f, "k", b"\x01").is_err(), "{name}");
        assert!(
            writer::append_chunk_to(&mut f, &Chunk::Special { kind: SpecialValue::Zeros, nbytes: 40 })
                .is_err()
        );
        assert_eq!(f.into_inner(), bytes, "{name}");
    }
}

/// The chunks of an opened frame come from the file its metadata was read from: a file renamed
/// over its path afterwards (another frame, same layout, other data) is not read half-way.
#[cfg(unix)]
#[test]
fn chunks_come_from_the_file_that_was_opened() {
    let path = temp("kept.b2nd");
    let other = temp("kept-other.b2nd");
    // Two arrays of the same shape and parameters, different data.
    let make = |seed: u8| {
        let data: Vec<u8> = (0..4000u32).map(|i| (i as u8).wrapping_mul(seed)).collect();
        let a = writer::NdArray::new(&[1000], &[250], &[50], "<i4", 4, writer::Fill::Data(&data));
        (a.to_frame().unwrap().to_vec().unwrap(), data)
    };
    let (first, first_data) = make(3);
    let (second, second_data) = make(7);
    assert_ne!(first_data, second_data);
    std::fs::write(&path, &first).unwrap();
    std::fs::write(&other, &second).unwrap();
    let file = FrameFile::open(&path).unwrap();
    std::fs::rename(&other, &path).unwrap();
    assert_eq!(file.ndarray_data(1 << 20).unwrap(), first_data);
    // A new open reads the new file.
    assert_eq!(FrameFile::open(&path).unwrap().ndarray_data(1 << 20).unwrap(), second_data);
    let _ = std::fs::remove_file(&path);
}

/// The writer's updates by path open what they update, then check it: a FIFO (which would block
/// an open for writing without a reader, and never ends) is refused at once, and nothing is
/// written to it; a regular frame is updated.
#[cfg(unix)]
#[test]
fn writer_updates_by_path_refuse_what_is_not_a_regular_file() {
    use b2schema::writer;
    let dir = temp("update-fifo");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("frame.b2frame");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let started = std::time::Instant::now();
    let e = writer::set_vlmetalayer(&fifo, "k", b"v").unwrap_err();
    assert!(e.to_string().contains("a FIFO"), "{e}");
    assert!(writer::delete_vlmetalayer(&fifo, "k").unwrap_err().to_string().contains("a FIFO"));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let frame = dir.join("ok.b2frame");
    std::fs::write(&frame, fixture("schunk-bytes-ts1.b2frame")).unwrap();
    writer::set_vlmetalayer(&frame, "k", b"v").unwrap();
    writer::delete_vlmetalayer(&frame, "k").unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
