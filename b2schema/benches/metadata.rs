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

use b2schema::b2nd::B2nd;
use b2schema::frame::{FrameFile, FrameHeader};
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

mod floor;
use floor::{
    B2ndFixed8, b2nd_value, contents, fixed8_value, hand_decode_b2nd, hand_decode_header, hand_encode_b2nd,
    hand_encode_header, header_bytes, names,
};

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

fn main() {
    // `cargo bench -p b2schema --bench metadata -- header` runs the parts named with "header".
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-')).unwrap_or_default();
    println!("b2schema benchmarks (median ns per call; ratio = b2schema / other)\n");
    let parts: [(&str, fn()); 5] = [
        ("b2nd", b2nd),
        ("header", header),
        ("allocations", allocations),
        ("open-frame", open_frame),
        ("inspect", inspect),
    ];
    for (name, part) in parts {
        if name.contains(filter.as_str()) {
            part();
            println!();
        }
    }
}

/// 1. The b2nd metalayer, 8 dimensions. Both encoders write into a reused Vec (cleared each call).
fn b2nd() {
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
            let _ = black_box(b2schema::decode_from_slice::<B2nd>(black_box(&bytes)));
        },
        || {
            black_box(hand_decode_b2nd(black_box(&bytes)));
        },
    );
    row("b2nd 8-dim decode", ours, floor, "hand-written");
    let fixed = fixed8_value();
    assert_eq!(b2schema::encode_to_vec(&fixed).unwrap(), bytes);
    let (ours, floor) = paired(
        || {
            let _ = black_box(b2schema::decode_from_slice::<B2ndFixed8>(black_box(&bytes)));
        },
        || {
            black_box(hand_decode_b2nd(black_box(&bytes)));
        },
    );
    row("b2nd 8-dim decode, borrowed arrays", ours, floor, "hand-written");
    let (serde, floor) = paired(
        || {
            let _ = black_box(b2schema::from_slice::<B2nd>(black_box(&bytes)));
        },
        || {
            black_box(hand_decode_b2nd(black_box(&bytes)));
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
            let _ = black_box(b2schema::decode_from_slice::<B2nd>(black_box(&bytes)));
        },
        || {
            let _ = black_box(rmp_serde::from_slice::<RmpB2nd>(black_box(&rmp_bytes)));
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
}

/// 2. The frame header with 16 metalayers.
fn header() {
    let mut buf = Vec::with_capacity(1024);
    let mut floor_buf = Vec::with_capacity(1024);
    let names = names();
    let contents = contents();
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
            let _ = black_box(b2schema::decode_from_slice::<FrameHeader>(black_box(&hbytes)));
        },
        || {
            black_box(hand_decode_header(black_box(&hbytes)));
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
            let _ = black_box(b2schema::decode_from_slice::<FrameHeader>(black_box(&hbytes)));
        },
        || {
            let _ = black_box(rmp_serde::from_slice::<(Vec<i64>, Vec<(&str, &serde_bytes::Bytes)>)>(
                black_box(&rmp_hbytes),
            ));
        },
    );
    row("frame header + 16 metalayers decode", ours, other, "rmp-serde");
}

/// 3. Heap allocations per decode, and per encode into a slice.
fn allocations() {
    let bytes = b2schema::encode_to_vec(&b2nd_value()).unwrap();
    let hbytes = header_bytes(&names(), &contents());
    let fixed = fixed8_value();
    let mut slice = [0u8; 256];
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
}

/// 4. Opening a large frame: only the metadata is read.
fn open_frame() {
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
}

/// 5. The command line tool over many small files.
fn inspect() {
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
