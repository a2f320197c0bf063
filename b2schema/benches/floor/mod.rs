//! The physical floor of the benchmarks: the metadata values they time, and a byte-pushing
//! encoder and decoder written by hand for exactly each layout, checking every marker. Shared by
//! the bench (`metadata.rs`) and the profiling tool (`benches/profile_decode.rs`).
#![allow(dead_code)]

use b2schema::B2Layout;
use b2schema::b2nd::B2nd;
use b2schema::frame::{FrameHeader, MetaLayers};

// ---------------------------------------------------------------------------------------------
// The b2nd metalayer of an 8-dimensional array.

pub fn b2nd_value() -> B2nd<'static> {
    B2nd {
        version: 0,
        ndim: 8,
        shape: vec![100, 200, 3, 4, 5, 6, 7, 8],
        chunkshape: vec![10, 20, 3, 4, 5, 6, 7, 8],
        blockshape: vec![5, 10, 3, 2, 5, 3, 7, 4],
        dtype_format: 0,
        dtype: "<f8",
    }
}

/// The floor: the b2nd bytes pushed by hand.
pub fn hand_encode_b2nd(m: &B2nd<'_>, out: &mut Vec<u8>) {
    let n = m.shape.len();
    out.push(0x97);
    out.push(m.version);
    out.push(n as u8);
    out.push(0x90 + n as u8);
    for s in &m.shape {
        out.push(0xd3);
        out.extend_from_slice(&s.to_be_bytes());
    }
    for shape in [&m.chunkshape, &m.blockshape] {
        out.push(0x90 + n as u8);
        for s in shape {
            out.push(0xd2);
            out.extend_from_slice(&s.to_be_bytes());
        }
    }
    out.push(m.dtype_format);
    out.push(0xdb);
    out.extend_from_slice(&(m.dtype.len() as u32).to_be_bytes());
    out.extend_from_slice(m.dtype.as_bytes());
}

/// The floor: the b2nd bytes read by hand, with the same checks of every marker.
pub fn hand_decode_b2nd(b: &[u8]) -> Option<B2nd<'_>> {
    let mut p = 0;
    let byte = |p: &mut usize| -> Option<u8> {
        let v = *b.get(*p)?;
        *p += 1;
        Some(v)
    };
    if byte(&mut p)? != 0x97 {
        return None;
    }
    let version = byte(&mut p)?;
    let ndim = byte(&mut p)?;
    if ndim > 16 || byte(&mut p)? != 0x90 + ndim {
        return None;
    }
    let n = ndim as usize;
    let mut shape = Vec::with_capacity(n);
    for _ in 0..n {
        if *b.get(p)? != 0xd3 {
            return None;
        }
        shape.push(i64::from_be_bytes(b.get(p + 1..p + 9)?.try_into().ok()?));
        p += 9;
    }
    let read32 = |p: &mut usize| -> Option<Vec<i32>> {
        if *b.get(*p)? != 0x90 + ndim {
            return None;
        }
        *p += 1;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            if *b.get(*p)? != 0xd2 {
                return None;
            }
            v.push(i32::from_be_bytes(b.get(*p + 1..*p + 5)?.try_into().ok()?));
            *p += 5;
        }
        Some(v)
    };
    let chunkshape = read32(&mut p)?;
    let blockshape = read32(&mut p)?;
    let dtype_format = *b.get(p)?;
    if *b.get(p + 1)? != 0xdb {
        return None;
    }
    let len = u32::from_be_bytes(b.get(p + 2..p + 6)?.try_into().ok()?) as usize;
    let dtype = std::str::from_utf8(b.get(p + 6..p + 6 + len)?).ok()?;
    (p + 6 + len == b.len()).then_some(B2nd {
        version,
        ndim,
        shape,
        chunkshape,
        blockshape,
        dtype_format,
        dtype,
    })
}

/// A borrowed, allocation-free b2nd for 8 dimensions.
#[derive(B2Layout, PartialEq, Debug)]
pub struct B2ndFixed8<'a> {
    #[b2(fixint)]
    pub version: u8,
    #[b2(fixint)]
    pub ndim: u8,
    #[b2(counted)]
    pub shape: [i64; 8],
    #[b2(counted)]
    pub chunkshape: [i32; 8],
    #[b2(counted)]
    pub blockshape: [i32; 8],
    #[b2(fixint)]
    pub dtype_format: u8,
    #[b2(str32)]
    pub dtype: &'a str,
}

// ---------------------------------------------------------------------------------------------
// The frame header with 16 metalayers.

/// The same b2nd as [`b2nd_value`], in the borrowed form.
pub fn fixed8_value() -> B2ndFixed8<'static> {
    B2ndFixed8 {
        version: 0,
        ndim: 8,
        shape: [100, 200, 3, 4, 5, 6, 7, 8],
        chunkshape: [10, 20, 3, 4, 5, 6, 7, 8],
        blockshape: [5, 10, 3, 2, 5, 3, 7, 4],
        dtype_format: 0,
        dtype: "<f8",
    }
}

/// The 16 metalayer names of the header benchmarks.
pub fn names() -> Vec<String> {
    (0..16).map(|i| format!("layer{i:02}")).collect()
}

/// The 16 metalayer contents of the header benchmarks (20 to 35 bytes).
pub fn contents() -> Vec<Vec<u8>> {
    (0..16).map(|i| vec![i as u8; 20 + i]).collect()
}

/// A real frame header (of a fixture) with the 16 metalayers `names` and `contents`.
pub fn header_bytes(names: &[String], contents: &[Vec<u8>]) -> Vec<u8> {
    let layers: Vec<(&str, &[u8])> =
        names.iter().map(|n| n.as_str()).zip(contents.iter().map(|c| c.as_slice())).collect();
    let file =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/fixtures/nd-3d-f8-zstd.b2nd"))
            .unwrap();
    let (mut h, _) = b2schema::take_from_slice::<FrameHeader>(&file).unwrap();
    h.metalayers = MetaLayers::build(&layers, 87);
    b2schema::to_vec(&h).unwrap()
}

/// The floor: the header decoded by hand into the same `FrameHeader` (same Vecs), checking
/// every marker and, as b2schema does, the header length and the metalayer index's `idx`.
pub fn hand_decode_header(b: &[u8]) -> Option<FrameHeader<'_>> {
    use b2schema::frame::{Content, FilterPipeline, FrameFlags, NameOffsets};
    let be64 = |o: usize| -> Option<i64> { Some(i64::from_be_bytes(b.get(o..o + 8)?.try_into().ok()?)) };
    let be32 = |o: usize| -> Option<i32> { Some(i32::from_be_bytes(b.get(o..o + 4)?.try_into().ok()?)) };
    let be16 = |o: usize| -> Option<i16> { Some(i16::from_be_bytes(b.get(o..o + 2)?.try_into().ok()?)) };
    let markers = [
        (0, 0x9e),
        (1, 0xa8),
        (10, 0xd2),
        (15, 0xcf),
        (24, 0xa4),
        (29, 0xd3),
        (38, 0xd3),
        (47, 0xd2),
        (52, 0xd2),
        (57, 0xd2),
        (62, 0xd1),
        (65, 0xd1),
        (69, 0xd8),
        (87, 0x93),
        (88, 0xcd),
        (91, 0xde),
    ];
    if markers.iter().any(|&(o, m)| b.get(o) != Some(&m)) || b.get(2..10)? != b"b2frame\0" {
        return None;
    }
    let f = b.get(25..29)?;
    let p = b.get(70..87)?;
    let n = u16::from_be_bytes([b[92], b[93]]) as usize;
    let mut at = 94;
    let mut index = Vec::with_capacity(n);
    for _ in 0..n {
        let m = *b.get(at)?;
        if !(0xa0..=0xbf).contains(&m) {
            return None;
        }
        let len = (m - 0xa0) as usize;
        let name = std::str::from_utf8(b.get(at + 1..at + 1 + len)?).ok()?;
        at += 1 + len;
        if *b.get(at)? != 0xd2 {
            return None;
        }
        index.push((name, be32(at + 1)?));
        at += 5;
    }
    // The same checks as b2schema's computed fields, from positions: `idx` is 7 plus the bytes
    // of the map entries, `header_len` the length of the whole header.
    if be16(89)? as usize != 7 + (at - 94) {
        return None;
    }
    if *b.get(at)? != 0xdc || u16::from_be_bytes([*b.get(at + 1)?, *b.get(at + 2)?]) as usize != n {
        return None;
    }
    at += 3;
    let mut contents = Vec::with_capacity(n);
    for _ in 0..n {
        if *b.get(at)? != 0xc6 {
            return None;
        }
        let len = u32::from_be_bytes(b.get(at + 1..at + 5)?.try_into().ok()?) as usize;
        contents.push(Content(b.get(at + 5..at + 5 + len)?));
        at += 5 + len;
    }
    if be32(11)? as usize != at {
        return None;
    }
    Some(FrameHeader {
        magic: *b"b2frame\0",
        header_len: be32(11)?,
        frame_len: be64(16)?,
        flags: FrameFlags { general: f[0], frame_type: f[1], codec: f[2], other: f[3] },
        nbytes: be64(30)?,
        cbytes: be64(39)?,
        typesize: be32(48)?,
        blocksize: be32(53)?,
        chunksize: be32(58)?,
        nthreads_comp: be16(63)?,
        nthreads_decomp: be16(66)?,
        has_vlmetalayers: b[68] == 0xc3,
        filter_pipeline: FilterPipeline {
            nfilters: p[0],
            filters: p[1..7].try_into().ok()?,
            udcodec: p[7],
            codec_meta: p[8],
            filters_meta: p[9..15].try_into().ok()?,
            other_flags2: p[15],
            reserved: p[16],
        },
        metalayers: MetaLayers { idx: be16(89)? as u16, index: NameOffsets(index), contents },
    })
}

/// The floor: the header encoded by hand. As b2schema (and c-blosc2) do, `header_len` and the
/// index's `idx` are not taken from the value but computed: written as placeholders and patched
/// once the entries and the whole header are written.
pub fn hand_encode_header(h: &FrameHeader<'_>, out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(&[0x9e, 0xa8]);
    out.extend_from_slice(b"b2frame\0");
    out.extend_from_slice(&[0xd2, 0, 0, 0, 0]);
    out.push(0xcf);
    out.extend_from_slice(&h.frame_len.to_be_bytes());
    out.push(0xa4);
    out.extend_from_slice(&[h.flags.general, h.flags.frame_type, h.flags.codec, h.flags.other]);
    for v in [h.nbytes, h.cbytes] {
        out.push(0xd3);
        out.extend_from_slice(&v.to_be_bytes());
    }
    for v in [h.typesize, h.blocksize, h.chunksize] {
        out.push(0xd2);
        out.extend_from_slice(&v.to_be_bytes());
    }
    for v in [h.nthreads_comp, h.nthreads_decomp] {
        out.push(0xd1);
        out.extend_from_slice(&v.to_be_bytes());
    }
    out.push(if h.has_vlmetalayers { 0xc3 } else { 0xc2 });
    let p = &h.filter_pipeline;
    out.extend_from_slice(&[0xd8, p.nfilters]);
    out.extend_from_slice(&p.filters);
    out.extend_from_slice(&[p.udcodec, p.codec_meta]);
    out.extend_from_slice(&p.filters_meta);
    out.extend_from_slice(&[p.other_flags2, p.reserved]);
    let m = &h.metalayers;
    out.extend_from_slice(&[0x93, 0xcd, 0, 0, 0xde]);
    out.extend_from_slice(&(m.index.0.len() as u16).to_be_bytes());
    let entries = out.len();
    for (name, off) in &m.index.0 {
        out.push(0xa0 + name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.push(0xd2);
        out.extend_from_slice(&off.to_be_bytes());
    }
    let idx = (7 + out.len() - entries) as u16;
    out[start + 89..start + 91].copy_from_slice(&idx.to_be_bytes());
    out.push(0xdc);
    out.extend_from_slice(&(m.contents.len() as u16).to_be_bytes());
    for c in &m.contents {
        out.push(0xc6);
        out.extend_from_slice(&(c.0.len() as u32).to_be_bytes());
        out.extend_from_slice(c.0);
    }
    let header_len = (out.len() - start) as i32;
    out[start + 11..start + 15].copy_from_slice(&header_len.to_be_bytes());
}
