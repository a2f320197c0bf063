//! What a file is, in a few words, when it is not a readable frame: the lead of the errors of
//! [`crate::open`] and of the command line ("not a Blosc2 frame", "truncated: ...", "a sparse
//! frame: give the directory"), found from the first bytes alone.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use alloc::string::ToString;

use crate::container::error::ErrorKind;

use super::file::SPARSE_INDEX;
use super::header::FrameHeader;
use super::regular::open_regular;
use crate::schema::layout::B2Layout;

/// The magic every frame header holds (the header layout's `magic` field).
const MAGIC: &[u8] = b"b2frame\0";
/// `FRAME_DIRECTORY_TYPE`: the flags byte `frame_type` of a sparse frame's index.
const SPARSE_TYPE: u8 = 1;

/// Where a value of the frame header lies (frame-relative): the header layout's offsets.
fn value_offset(name: &str) -> usize {
    FrameHeader::LAYOUT.field(name).and_then(|f| f.value_offset).unwrap_or(0)
}

/// What is wrong with the file at `path` (frame at `offset`) before any field is decoded, as the
/// kind of its error (rendered in a few words by `Error::new(kind)`); `None` when the frame looks
/// like one (the field-level error says the rest) or the file cannot be opened (the open's error
/// says why).
pub fn first_words(path: &Path, offset: u64) -> Option<ErrorKind> {
    if path.is_dir() {
        return (!path.join(SPARSE_INDEX).exists())
            .then_some(ErrorKind::NotASparseFrame { missing: SPARSE_INDEX });
    }
    // Opened without blocking, then checked: only a regular file is read.
    let (mut f, file_len) = open_regular(path).ok()?;
    let at = |o: usize| offset.saturating_add(o as u64);
    let magic_at = value_offset("magic");
    let frame_len_at = value_offset("frame_len");
    let flags_at = value_offset("flags");
    if offset >= file_len {
        return Some(ErrorKind::NothingAt { offset, len: file_len });
    }
    let mut head = [0u8; 32];
    let want = (flags_at + 2).min(head.len());
    f.seek(SeekFrom::Start(offset)).ok()?;
    let got = read_up_to(&mut f, &mut head[..want]);
    if got < magic_at + MAGIC.len() || &head[magic_at..magic_at + MAGIC.len()] != MAGIC {
        return Some(ErrorKind::NotAFrame {
            why: alloc::format!("no b2frame magic at offset {}", at(magic_at)),
        });
    }
    if got == want && head[flags_at + 1] == SPARSE_TYPE {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        return Some(ErrorKind::SparseIndex { dir: dir.display().to_string() });
    }
    if got >= frame_len_at + 8 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&head[frame_len_at..frame_len_at + 8]);
        let frame_len = u64::from_be_bytes(b);
        let have = file_len.saturating_sub(offset);
        if frame_len > have {
            return Some(ErrorKind::Truncated { stated: frame_len, available: have });
        }
    }
    None
}

fn read_up_to(f: &mut std::fs::File, buf: &mut [u8]) -> usize {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k,
        }
    }
    n
}
