//! Changes in place on crafted frames (issue 50): `ArrayMut` (`resize`, `write_slice`,
//! `append`) and `FrameMut` (`update_chunk`, `insert_chunk`, `delete_chunk`, `append_chunk`) on
//! a frame in memory. The first bytes choose the change and its arguments, the rest is the frame.
//! Never a panic; a refused change writes nothing; an accepted one leaves the magic bytes and
//! the old frame's chunks and index (between the header and the old frame's end) as they were:
//! new bytes go after the frame, and the header's changing fields are the only ones rewritten.
#![no_main]

use b2schema::frame::SpecialValue;
use b2schema::writer::{ArrayMut, Chunk, FrameMut};
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

/// `header_len` and `frame_len` as the header says them (big-endian, at their fixed places).
fn frame_bounds(bytes: &[u8]) -> Option<(usize, usize)> {
    let header_len = i32::from_be_bytes(bytes.get(12..16)?.try_into().ok()?);
    let frame_len = i64::from_be_bytes(bytes.get(17..25)?.try_into().ok()?);
    Some((usize::try_from(header_len).ok()?, usize::try_from(frame_len).ok()?))
}

fuzz_target!(|data: &[u8]| {
    let Some((&[op, a, b, c], frame)) = data.split_first_chunk::<4>().map(|(h, t)| (h, t)) else {
        return;
    };
    let before = frame.to_vec();
    let mut buf = before.clone();
    let (a, b, c) = (a as u64, b as u64, c as usize);
    let zeros = Chunk::Special { kind: SpecialValue::Zeros, nbytes: 1 + (b << 4) };
    let r = match op % 7 {
        0 => ArrayMut::from_io(Cursor::new(&mut buf)).and_then(|mut m| {
            let ndim = m.shape()?.len();
            let shape: Vec<u64> = (0..ndim as u64).map(|d| (a + d * b) % 64).collect();
            m.resize(&shape)
        }),
        1 => ArrayMut::from_io(Cursor::new(&mut buf)).and_then(|mut m| {
            let shape = m.shape()?;
            let sel: Vec<_> = shape
                .iter()
                .map(|&s| {
                    let start = a % (s + 1);
                    start..(start + b % 4).min(s)
                })
                .collect();
            let n = sel.iter().map(|r| (r.end - r.start) as usize).product::<usize>();
            if n > 1 << 16 {
                return Ok(());
            }
            m.write_bytes(&sel, &vec![c as u8; n.saturating_mul(((a & 7) + 1) as usize)])
        }),
        2 => ArrayMut::from_io(Cursor::new(&mut buf)).and_then(|mut m| m.append_bytes(&vec![b as u8; c * 8])),
        3 => FrameMut::from_io(Cursor::new(&mut buf)).delete_chunk(c),
        4 => FrameMut::from_io(Cursor::new(&mut buf)).insert_chunk(c, &zeros),
        5 => FrameMut::from_io(Cursor::new(&mut buf)).append_chunk(&zeros),
        _ => FrameMut::from_io(Cursor::new(&mut buf)).update_chunk(c, &zeros),
    };
    match (r, frame_bounds(&before)) {
        (Ok(()), Some((header_len, frame_len))) => {
            assert_eq!(buf.get(..15), before.get(..15), "the magic bytes and header_len rewritten");
            let end = frame_len.min(before.len());
            assert_eq!(buf.get(header_len..end), before.get(header_len..end), "the old frame rewritten");
        }
        (Ok(()), None) => panic!("a change of a frame without a header"),
        (Err(e), _) => {
            let _ = e.to_string();
            assert_eq!(buf, before, "a refused change wrote");
        }
    }
});
