//! `cargo bench -p b2schema`: b2schema against the physical floor (a byte-pushing encoder and
//! decoder written here for exactly each layout) and against rmp-serde (a general msgpack
//! library: it writes other bytes, the smallest forms, for the same logical values).
//!
//! Each comparison times both sides in the same run, interleaved (A, B, A, B, ...), and reports
//! the median of each and their ratio, so machine noise hits both alike. Then: heap allocations
//! per decode, the bytes and time to open a frame of a few hundred MB, and the command line
//! tool's speed over many small files. Results are written up in BENCHMARKS.md.

use std::hint::black_box;
use std::time::{Duration, Instant};

use b2schema::B2Layout;
use b2schema::b2nd::B2nd;
use b2schema::frame::{FrameFile, FrameHeader, MetaLayers};
use serde::{Deserialize, Serialize};

/// Median nanoseconds per call of `a` and `b`, timed in interleaved samples.
fn paired(mut a: impl FnMut(), mut b: impl FnMut()) -> (f64, f64) {
    const SAMPLES: usize = 41;
    let calibrate = |f: &mut dyn FnMut()| {
        let mut n = 1u64;
        loop {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            if t.elapsed() > Duration::from_millis(5) {
                return n;
            }
            n *= 2;
        }
    };
    let na = calibrate(&mut a);
    let nb = calibrate(&mut b);
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..SAMPLES {
        let t = Instant::now();
        for _ in 0..na {
            a();
        }
        ta.push(t.elapsed().as_nanos() as f64 / na as f64);
        let t = Instant::now();
        for _ in 0..nb {
            b();
        }
        tb.push(t.elapsed().as_nanos() as f64 / nb as f64);
    }
    ta.sort_by(f64::total_cmp);
    tb.sort_by(f64::total_cmp);
    (ta[SAMPLES / 2], tb[SAMPLES / 2])
}

fn row(name: &str, ours: f64, other: f64, against: &str) {
    println!("{name:<44} {ours:>9.1} ns  {against:<12} {other:>9.1} ns  ratio {:>5.2}", ours / other);
}

// ---------------------------------------------------------------------------------------------
// The b2nd metalayer of an 8-dimensional array.

fn b2nd_value() -> B2nd<'static> {
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
fn hand_encode_b2nd(m: &B2nd<'_>, out: &mut Vec<u8>) {
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
fn hand_decode_b2nd(b: &[u8]) -> Option<B2nd<'_>> {
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

/// The same logical values for rmp-serde (plain serde; it picks the smallest encodings).
#[derive(Serialize, Deserialize)]
struct RmpB2nd<'a> {
    version: u8,
    ndim: u8,
    shape: Vec<i64>,
    chunkshape: Vec<i32>,
    blockshape: Vec<i32>,
    dtype_format: u8,
    dtype: &'a str,
}

/// A borrowed, allocation-free b2nd for 8 dimensions.
#[derive(B2Layout, PartialEq, Debug)]
struct B2ndFixed8<'a> {
    #[b2(fixint)]
    version: u8,
    #[b2(fixint)]
    ndim: u8,
    #[b2(counted)]
    shape: [i64; 8],
    #[b2(counted)]
    chunkshape: [i32; 8],
    #[b2(counted)]
    blockshape: [i32; 8],
    #[b2(fixint)]
    dtype_format: u8,
    #[b2(str32)]
    dtype: &'a str,
}

// ---------------------------------------------------------------------------------------------
// The frame header with 16 metalayers.

fn names() -> Vec<String> {
    (0..16).map(|i| format!("layer{i:02}")).collect()
}

fn header_bytes(names: &[String], contents: &[Vec<u8>]) -> Vec<u8> {
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
/// every marker.
fn hand_decode_header(b: &[u8]) -> Option<FrameHeader<'_>> {
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

fn hand_encode_header(h: &FrameHeader<'_>, out: &mut Vec<u8>) {
    out.extend_from_slice(&[0x9e, 0xa8]);
    out.extend_from_slice(b"b2frame\0");
    out.push(0xd2);
    out.extend_from_slice(&h.header_len.to_be_bytes());
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
    out.extend_from_slice(&[0x93, 0xcd]);
    out.extend_from_slice(&m.idx.to_be_bytes());
    out.push(0xde);
    out.extend_from_slice(&(m.index.0.len() as u16).to_be_bytes());
    for (name, off) in &m.index.0 {
        out.push(0xa0 + name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.push(0xd2);
        out.extend_from_slice(&off.to_be_bytes());
    }
    out.push(0xdc);
    out.extend_from_slice(&(m.contents.len() as u16).to_be_bytes());
    for c in &m.contents {
        out.push(0xc6);
        out.extend_from_slice(&(c.0.len() as u32).to_be_bytes());
        out.extend_from_slice(c.0);
    }
}

fn main() {
    println!("b2schema benchmarks (median ns per call; ratio = b2schema / other)\n");

    // 1. b2nd, 8 dimensions. Both encoders write into a reused Vec (cleared each call).
    let m = b2nd_value();
    let bytes = b2schema::encode_to_vec(&m).unwrap();
    assert_eq!(bytes, b2schema::to_vec(&m).unwrap(), "the direct and serde paths write the same bytes");
    let mut hand = Vec::new();
    hand_encode_b2nd(&m, &mut hand);
    assert_eq!(hand, bytes, "the hand-written encoder writes the same bytes");
    assert_eq!(hand_decode_b2nd(&bytes).as_ref(), Some(&m));
    let mut buf = Vec::with_capacity(1024);
    let mut floor_buf = Vec::with_capacity(1024);
    let (ours, floor) = paired(
        || {
            buf.clear();
            b2schema::encode_into(black_box(&m), &mut buf).unwrap();
            black_box(&buf);
        },
        || {
            floor_buf.clear();
            hand_encode_b2nd(black_box(&m), &mut floor_buf);
            black_box(&floor_buf);
        },
    );
    row("b2nd 8-dim encode (into a Vec)", ours, floor, "hand-written");
    let mut slice = [0u8; 256];
    let (ours, floor) = paired(
        || {
            black_box(b2schema::encode_to_slice(black_box(&m), &mut slice).unwrap());
        },
        || {
            floor_buf.clear();
            hand_encode_b2nd(black_box(&m), &mut floor_buf);
            black_box(&floor_buf);
        },
    );
    row("b2nd 8-dim encode (into a slice)", ours, floor, "hand-written");
    let (ours, floor) = paired(
        || {
            black_box(b2schema::decode_from_slice::<B2nd>(black_box(&bytes)).unwrap());
        },
        || {
            black_box(hand_decode_b2nd(black_box(&bytes)).unwrap());
        },
    );
    row("b2nd 8-dim decode", ours, floor, "hand-written");
    let fixed = B2ndFixed8 {
        version: 0,
        ndim: 8,
        shape: [100, 200, 3, 4, 5, 6, 7, 8],
        chunkshape: [10, 20, 3, 4, 5, 6, 7, 8],
        blockshape: [5, 10, 3, 2, 5, 3, 7, 4],
        dtype_format: 0,
        dtype: "<f8",
    };
    assert_eq!(b2schema::encode_to_vec(&fixed).unwrap(), bytes);
    let (ours, floor) = paired(
        || {
            black_box(b2schema::decode_from_slice::<B2ndFixed8>(black_box(&bytes)).unwrap());
        },
        || {
            black_box(hand_decode_b2nd(black_box(&bytes)).unwrap());
        },
    );
    row("b2nd 8-dim decode, borrowed arrays", ours, floor, "hand-written");
    let (serde, floor) = paired(
        || {
            black_box(b2schema::from_slice::<B2nd>(black_box(&bytes)).unwrap());
        },
        || {
            black_box(hand_decode_b2nd(black_box(&bytes)).unwrap());
        },
    );
    row("b2nd 8-dim decode through serde (from_slice)", serde, floor, "hand-written");
    let rmp = RmpB2nd {
        version: 0,
        ndim: 8,
        shape: m.shape.clone(),
        chunkshape: m.chunkshape.clone(),
        blockshape: m.blockshape.clone(),
        dtype_format: 0,
        dtype: "<f8",
    };
    let rmp_bytes = rmp_serde::to_vec(&rmp).unwrap();
    let (ours, other) = paired(
        || {
            black_box(b2schema::decode_from_slice::<B2nd>(black_box(&bytes)).unwrap());
        },
        || {
            black_box(rmp_serde::from_slice::<RmpB2nd>(black_box(&rmp_bytes)).unwrap());
        },
    );
    row("b2nd 8-dim decode", ours, other, "rmp-serde");
    let mut rmp_buf = Vec::with_capacity(1024);
    let (ours, other) = paired(
        || {
            buf.clear();
            b2schema::encode_into(black_box(&m), &mut buf).unwrap();
            black_box(&buf);
        },
        || {
            rmp_buf.clear();
            rmp_serde::encode::write(&mut rmp_buf, black_box(&rmp)).unwrap();
            black_box(&rmp_buf);
        },
    );
    row("b2nd 8-dim encode", ours, other, "rmp-serde");
    println!(
        "  (rmp-serde writes {} bytes, the smallest forms; b2schema {} bytes, c-blosc2's fixed widths)",
        rmp_bytes.len(),
        bytes.len()
    );

    // 2. The frame header with 16 metalayers.
    let names = names();
    let contents: Vec<Vec<u8>> = (0..16).map(|i| vec![i as u8; 20 + i]).collect();
    let hbytes = header_bytes(&names, &contents);
    let header: FrameHeader = b2schema::decode_from_slice(&hbytes).unwrap();
    assert_eq!(header, b2schema::from_slice::<FrameHeader>(&hbytes).unwrap());
    let mut hand = Vec::new();
    hand_encode_header(&header, &mut hand);
    assert_eq!(hand, hbytes, "the hand-written header encoder writes the same bytes");
    assert_eq!(b2schema::encode_to_vec(&header).unwrap(), hbytes);
    assert_eq!(hand_decode_header(&hbytes).as_ref(), Some(&header));
    let (ours, floor) = paired(
        || {
            black_box(b2schema::decode_from_slice::<FrameHeader>(black_box(&hbytes)).unwrap());
        },
        || {
            black_box(hand_decode_header(black_box(&hbytes)).unwrap());
        },
    );
    row("frame header + 16 metalayers decode", ours, floor, "hand-written");
    let (ours, floor) = paired(
        || {
            buf.clear();
            b2schema::encode_into(black_box(&header), &mut buf).unwrap();
            black_box(&buf);
        },
        || {
            floor_buf.clear();
            hand_encode_header(black_box(&header), &mut floor_buf);
            black_box(&floor_buf);
        },
    );
    row("frame header + 16 metalayers encode", ours, floor, "hand-written");
    let rmp_header: (Vec<i64>, Vec<(&str, &serde_bytes::Bytes)>) = (
        vec![header.header_len as i64, header.frame_len, header.nbytes, header.cbytes],
        header.metalayers.iter().map(|(n, _, c)| (n, serde_bytes::Bytes::new(c))).collect(),
    );
    let rmp_hbytes = rmp_serde::to_vec(&rmp_header).unwrap();
    let (ours, other) = paired(
        || {
            black_box(b2schema::decode_from_slice::<FrameHeader>(black_box(&hbytes)).unwrap());
        },
        || {
            black_box(
                rmp_serde::from_slice::<(Vec<i64>, Vec<(&str, &serde_bytes::Bytes)>)>(black_box(&rmp_hbytes))
                    .unwrap(),
            );
        },
    );
    row("frame header + 16 metalayers decode", ours, other, "rmp-serde");

    // 3. Heap allocations per decode.
    println!();
    let count = |f: &mut dyn FnMut()| allocation_counter::measure(f).count_total;
    println!(
        "allocations per decode: borrowed b2nd (arrays, &str) {}",
        count(&mut || {
            black_box(b2schema::decode_from_slice::<B2ndFixed8>(&bytes).unwrap());
        })
    );
    println!(
        "allocations per encode into a caller's slice: {}",
        count(&mut || {
            black_box(b2schema::encode_to_slice(&fixed, &mut slice).unwrap());
        })
    );
    println!(
        "allocations per decode: B2nd (three Vec shapes) {}",
        count(&mut || {
            black_box(b2schema::decode_from_slice::<B2nd>(&bytes).unwrap());
        })
    );
    println!(
        "allocations per decode: FrameHeader + 16 metalayers (index and contents Vecs) {}",
        count(&mut || {
            black_box(b2schema::decode_from_slice::<FrameHeader>(&hbytes).unwrap());
        })
    );

    // 4. Opening a large frame: only the metadata is read.
    println!();
    let dir = std::env::temp_dir().join(format!("b2schema-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("large.b2frame");
    let chunk = 64 * 1024;
    let nchunks = 4000;
    let data: Vec<u8> = (0..chunk * nchunks).map(|i| (i * 31 % 251) as u8).collect();
    b2schema::writer::schunk(&data, 1, chunk, Default::default()).unwrap().write_file(&path).unwrap();
    drop(data);
    let size = std::fs::metadata(&path).unwrap().len();
    let mut times = Vec::new();
    let mut read = 0;
    for _ in 0..21 {
        let t = Instant::now();
        let f = FrameFile::open(&path).unwrap();
        let n = f.view().unwrap().chunk_locations().unwrap().len();
        times.push(t.elapsed());
        assert_eq!(n, nchunks);
        read = f.bytes_read();
    }
    times.sort();
    println!(
        "open a frame of {} MB, {nchunks} chunks: {:.2} ms median, {read} bytes read ({:.5}% of the file)",
        size / 1_000_000,
        times[10].as_secs_f64() * 1e3,
        read as f64 * 100.0 / size as f64
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // 5. The command line tool over many small files.
    let bin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/b2schema");
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/fixtures");
    if bin.exists() {
        let files: Vec<_> = std::fs::read_dir(&fixtures).unwrap().map(|e| e.unwrap().path()).collect();
        let t = Instant::now();
        for f in &files {
            let o = std::process::Command::new(&bin).arg("inspect").arg("--json").arg(f).output().unwrap();
            assert!(o.status.success());
        }
        let dt = t.elapsed().as_secs_f64();
        println!(
            "b2schema inspect --json: {} files in {:.2} s, {:.0} files/s (one process per file)",
            files.len(),
            dt,
            files.len() as f64 / dt
        );
        // One process over the directory (JSON Lines), the fixtures listed 20 times.
        let mut times = Vec::new();
        let args: Vec<_> = std::iter::repeat_n(&files, 20).flatten().collect();
        for _ in 0..5 {
            let t = Instant::now();
            let o =
                std::process::Command::new(&bin).arg("inspect").arg("--json").args(&args).output().unwrap();
            assert!(o.status.success());
            assert_eq!(o.stdout.iter().filter(|&&b| b == b'\n').count(), args.len());
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        println!(
            "b2schema inspect --json over {} paths in one process: {:.3} s median, {:.0} files/s",
            args.len(),
            times[2],
            args.len() as f64 / times[2]
        );
    } else {
        println!("(build the tool with `cargo build --release -p b2schema-cli` to time inspect --json)");
    }
}
