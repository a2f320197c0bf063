//! Crafted files, built here by code, run through the `b2schema` binary under a memory limit
//! (512 MiB of address space, `prlimit --as`) and a time limit (5 s of CPU, `prlimit --cpu`, and
//! 15 s of wall clock for what blocks without computing, then killed; the machine is shared, so
//! the wall clock is looser than the CPU time): each must give a clean error (exit 2, a `b2schema:` message, no panic) or a
//! correct, bounded result (exit 0, the exact bytes for `cat`). The cases are the attacks of
//! issue 17 (a value claiming gigabytes, an index standing for millions of chunks, chunk shapes
//! of 2^31, sparse gaps, FIFOs, lying lengths) and more of the same kind.

use b2schema_tests::chunk_header;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use b2schema::frame::{FrameHeader, FrameView, SpecialValue};
use b2schema::writer::{Chunk, Fill, Frame, NdArray, chunk};

/// Address space given to each run.
const MEMORY: u64 = 512 << 20;
/// CPU time given to each run (seconds).
const CPU: u32 = 5;
/// Wall-clock time given to each run (a blocked read uses no CPU).
const WALL: Duration = Duration::from_secs(15);
/// The most bytes a report may print.
const MAX_REPORT: u64 = 32 << 20;

/// What a run must end with.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    /// Exit 2 with a `b2schema:` message naming where (an offset, or the path and what it is).
    Fails,
    /// Exit 0 with a bounded report.
    Succeeds,
    /// `cat` succeeds with exactly this many bytes.
    Bytes(u64),
    /// Exit 0 or 2, cleanly.
    Clean,
    /// `verify`: 0 (identical), 1 (a difference or a section that does not decode) or 2.
    Verdict,
}

struct Case {
    name: String,
    path: PathBuf,
    args: Vec<String>,
    expect: Expect,
}

/// The binary under test: this build's, or another one (a release build) named by
/// `B2SCHEMA_HOSTILE_BIN`.
fn bin() -> String {
    std::env::var("B2SCHEMA_HOSTILE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_b2schema").to_string())
}

fn work_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs one case under the limits; `Err` says how it failed.
fn run(case: &Case, dir: &Path) -> Result<(), String> {
    let err_path = dir.join(format!("{}.err", case.name));
    let mut cmd = Command::new("prlimit");
    cmd.arg(format!("--as={MEMORY}")).arg(format!("--cpu={CPU}")).arg("--").arg(bin());
    cmd.args(&case.args);
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(File::create(&err_path).unwrap());
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("cannot run prlimit: {e}"))?;
    // stdout is counted, not kept (cat writes up to gigabytes).
    let mut stdout = child.stdout.take().unwrap();
    let counter = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()).unwrap_or(0));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > WALL {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {WALL:?}: killed"));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = start.elapsed();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let out_len = counter.join().unwrap();
    let code = status.code();
    let why = || format!("exit {code:?} in {took:?}, stdout {out_len} bytes, stderr: {}", stderr.trim_end());
    if code.is_none() {
        return Err(format!("killed by a signal ({status}): {}", why()));
    }
    if stderr.contains("panicked") || stderr.contains("memory allocation") {
        return Err(format!("panicked or aborted: {}", why()));
    }
    match case.expect {
        Expect::Fails => {
            if code != Some(2) || !stderr.starts_with("b2schema: ") {
                return Err(format!("expected a clean error: {}", why()));
            }
        }
        Expect::Succeeds => {
            if code != Some(0) || out_len > MAX_REPORT {
                return Err(format!("expected a bounded success: {}", why()));
            }
        }
        Expect::Bytes(n) => {
            if code != Some(0) || out_len != n {
                return Err(format!("expected exactly {n} bytes: {}", why()));
            }
        }
        Expect::Clean => {
            if !matches!(code, Some(0 | 2)) || out_len > MAX_REPORT.max(1 << 30) {
                return Err(format!("expected exit 0 or 2: {}", why()));
            }
        }
        Expect::Verdict => {
            if !matches!(code, Some(0..=2)) || out_len > MAX_REPORT {
                return Err(format!("expected exit 0, 1 or 2: {}", why()));
            }
        }
    }
    if code == Some(2) && stderr.lines().count() > 100 {
        return Err(format!("an unbounded error report: {}", why()));
    }
    Ok(())
}

/// The cases of one crafted input: `cmds` are (subcommand args, expectation); the path is
/// appended to each.
struct Suite {
    dir: PathBuf,
    cases: Vec<Case>,
    files: usize,
}

impl Suite {
    fn file(&mut self, name: &str, bytes: &[u8], cmds: &[(&[&str], Expect)]) {
        let path = self.dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        self.input(name, path, cmds);
    }

    fn input(&mut self, name: &str, path: PathBuf, cmds: &[(&[&str], Expect)]) {
        self.files += 1;
        for (i, (args, expect)) in cmds.iter().enumerate() {
            let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            a.push(path.to_str().unwrap().to_string());
            self.cases.push(Case {
                name: format!("{name}.{i}"),
                path: path.clone(),
                args: a,
                expect: *expect,
            });
        }
    }
}

// ---- building blocks ----

const INSPECT: &[&str] = &["inspect"];
const JSON: &[&str] = &["inspect", "--json"];
const CAT: &[&str] = &["cat"];
const DUMP: &[&str] = &["dump"];
const VERIFY: &[&str] = &["verify"];

/// The extended-header flag bits (byte shuffle and bit shuffle together).
const EXTENDED: u8 = b2schema::chunk::FLAG_SHUFFLE | b2schema::chunk::FLAG_BITSHUFFLE;

/// A special chunk of `nbytes`: `kind` 1 zeros, 2 NaN, 3 a repeated value (of `typesize`
/// bytes of 0x42), 4 uninit.
fn special(kind: u8, nbytes: i32, typesize: u8) -> Vec<u8> {
    let value = if kind == 3 { typesize as usize } else { 0 };
    let mut c =
        chunk_header(EXTENDED, typesize, nbytes, nbytes.clamp(1, 1 << 20), 32 + value as i32, kind << 4);
    c.extend(std::iter::repeat_n(0x42, value));
    c
}

/// A one-stream-per-block chunk whose blocks hold `streams` (codec format `format`: 3 zlib,
/// 4 zstd), each block `blocksize` bytes.
fn codec_chunk(format: u8, nbytes: i32, blocksize: i32, streams: &[Vec<u8>]) -> Vec<u8> {
    let nblocks = streams.len();
    let body: usize = streams.iter().map(|s| 4 + s.len()).sum();
    let cbytes = 32 + 4 * nblocks + body;
    let flags = EXTENDED | b2schema::chunk::FLAG_DONT_SPLIT | (format << 5);
    let mut c = chunk_header(flags, 1, nbytes, blocksize, cbytes as i32, 0);
    let mut at = 32 + 4 * nblocks;
    for s in streams {
        c.extend_from_slice(&(at as i32).to_le_bytes());
        at += 4 + s.len();
    }
    for s in streams {
        c.extend_from_slice(&(s.len() as i32).to_le_bytes());
        c.extend_from_slice(s);
    }
    c
}

/// A zstd frame of `real` bytes of 0x61 made of RLE blocks (4 bytes per 128 KiB), declaring
/// `declared` bytes of content.
fn zstd_rle(declared: u64, real: u64) -> Vec<u8> {
    let mut z = vec![0x28, 0xb5, 0x2f, 0xfd, 0xe0];
    z.extend_from_slice(&declared.to_le_bytes());
    let mut left = real;
    loop {
        let n = left.min(128 << 10);
        left -= n;
        let last = u32::from(left == 0);
        let h = last | (1 << 1) | ((n as u32) << 3);
        z.extend_from_slice(&h.to_le_bytes()[..3]);
        z.push(0x61);
        if left == 0 {
            return z;
        }
    }
}

/// A zlib stream of `n` zeros.
fn zlib_zeros(n: usize) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(&vec![0u8; n], 9)
}

fn schunk(chunks: Vec<Chunk>, chunksize: i32) -> Frame {
    let mut f = Frame::new(1);
    f.chunksize = chunksize;
    f.chunks = chunks;
    f
}

fn bytes_of(f: &Frame) -> Vec<u8> {
    f.to_vec().unwrap()
}

/// A frame of `nd`.
fn nd(shape: &[i64], chunks: &[i32], blocks: &[i32], ts: usize, fill: Fill<'_>) -> Vec<u8> {
    let dtype = format!("|V{ts}");
    bytes_of(&NdArray::new(shape, chunks, blocks, &dtype, ts, fill).to_frame().unwrap())
}

/// `frame` with its b2nd metalayer replaced by this one.
fn with_b2nd(frame: &[u8], shape: &[i64], chunks: &[i32], blocks: &[i32], dtype: &str) -> Vec<u8> {
    let meta = b2schema::b2nd::B2nd {
        version: 0,
        ndim: shape.len() as u8,
        shape: shape.to_vec(),
        chunkshape: chunks.to_vec(),
        blockshape: blocks.to_vec(),
        dtype_format: 0,
        dtype,
    };
    let content = b2schema::encode_to_vec(&meta).unwrap();
    b2schema_tests::with_metalayers(frame, &[("b2nd", &content)])
}

/// Patches an i64 header field.
/// Writes `v` (big-endian, as msgpack stores it) over the value bytes of `field`, whatever its
/// role: crafting writes lies into computed fields such as `header_len`, which
/// `FieldRef::patch` refuses on purpose.
fn set_value(frame: &mut [u8], field: &'static b2schema::layout::FieldLayout, be: &[u8]) {
    let at = field.value_offset.expect("a field at a fixed offset");
    frame[at..at + be.len()].copy_from_slice(be);
}

fn set_i64(frame: &mut [u8], field: &b2schema::FieldRef<i64>, v: i64) {
    set_value(frame, field.layout(), &v.to_be_bytes());
}

fn set_i32(frame: &mut [u8], field: &b2schema::FieldRef<i32>, v: i32) {
    set_value(frame, field.layout(), &v.to_be_bytes());
}

/// Where the offsets index chunk starts (header_len + cbytes).
fn index_at(frame: &[u8]) -> usize {
    let v = FrameView::from_slice(frame).unwrap();
    v.index_offset as usize
}

/// An empty frame whose trailer holds one vlmetalayer per chunk of `chunks` (any number: the
/// writer stops at 16, a reader accepts 8192).
fn with_vlmeta_chunks(chunks: &[Vec<u8>]) -> Vec<u8> {
    use b2schema::frame::{MetaLayers, Trailer};
    let mut f = schunk(vec![], -1);
    f.vlmetalayers.push(("placeholder".into(), vec![1]));
    let bytes = bytes_of(&f);
    // Two-character names: 8000 entries still fit the u16 size of the names' index.
    let names: Vec<String> = (0..chunks.len())
        .map(|i| format!("{}{}", (b'!' + (i / 90) as u8) as char, (b'!' + (i % 90) as u8) as char))
        .collect();
    let layers: Vec<(&str, &[u8])> =
        names.iter().map(String::as_str).zip(chunks.iter().map(Vec::as_slice)).collect();
    let t = Trailer {
        version: 1,
        vlmetalayers: MetaLayers::build(&layers, 2),
        trailer_len: 0,
        fingerprint: Default::default(),
    };
    let trailer = b2schema::encode_to_vec(&t).unwrap();
    let at = FrameView::from_slice(&bytes).unwrap().trailer_offset as usize;
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(&trailer);
    let len = out.len() as i64;
    set_i64(&mut out, &FrameHeader::FRAME_LEN, len);
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn mkfifo(path: &Path) {
    let st = Command::new("mkfifo").arg(path).status().expect("mkfifo (coreutils) must exist");
    assert!(st.success(), "mkfifo {}", path.display());
}

/// A sparse frame's directory of `frame` (written by the library), returned with its path.
fn sparse(dir: &Path, name: &str, frame: &Frame) -> PathBuf {
    let path = dir.join(name);
    frame.write_sparse(&path).unwrap();
    path
}

#[test]
fn crafted_files_end_cleanly_within_5_s_and_512_mib() {
    let st = Command::new("prlimit").arg("--version").output();
    assert!(
        st.as_ref().is_ok_and(|o| o.status.success()),
        "prlimit (util-linux) is needed to run the crafted files under a memory limit: {st:?}"
    );
    let dir = work_dir();
    let mut s = Suite { dir: dir.clone(), cases: Vec::new(), files: 0 };
    let all: &[(&[&str], Expect)] =
        &[(INSPECT, Expect::Clean), (JSON, Expect::Clean), (CAT, Expect::Clean), (DUMP, Expect::Clean)];

    // -- vlmetalayers that claim or hold far more than they store --
    let gb15 = 1_500_000_000;
    s.file(
        "vlmeta-special-1.5GB.b2frame",
        &with_vlmeta_chunks(&[special(1, gb15, 1)]),
        &[
            (INSPECT, Expect::Succeeds),
            (JSON, Expect::Succeeds),
            (DUMP, Expect::Succeeds),
            (VERIFY, Expect::Verdict),
        ],
    );
    for (kind, name) in [(2, "nan"), (3, "value"), (4, "uninit")] {
        let ts = if kind == 2 { 4 } else { 8 };
        s.file(
            &format!("vlmeta-special-{name}-2GB.b2frame"),
            &with_vlmeta_chunks(&[special(kind, (i32::MAX - 32) & !7, ts)]),
            &[(INSPECT, Expect::Succeeds), (JSON, Expect::Succeeds)],
        );
    }
    let big = 500 << 20;
    let zstd500 = codec_chunk(4, big, big, &[zstd_rle(big as u64, big as u64)]);
    assert!(zstd500.len() < 20_000, "a 500 MB zstd stream of {} bytes", zstd500.len());
    s.file(
        "vlmeta-zstd-500MB.b2frame",
        &with_vlmeta_chunks(&[zstd500]),
        &[(INSPECT, Expect::Succeeds), (JSON, Expect::Succeeds)],
    );
    // 100 MB: within --max-decompressed, decompressed once, shown as its length and a prefix.
    let mb100 = 100 << 20;
    let zstd100 = codec_chunk(4, mb100, mb100, &[zstd_rle(mb100 as u64, mb100 as u64)]);
    s.file("vlmeta-zstd-100MB.b2frame", &with_vlmeta_chunks(&[zstd100]), &[(JSON, Expect::Succeeds)]);
    // 200 MB in one single-segment zstd frame (its window is its content): within
    // --max-decompressed, decoded straight into the block as libzstd's one-shot decoder (which
    // c-blosc2 calls) decodes it; no window is allocated besides the block.
    let mb200 = 200 << 20;
    let zstd200 = codec_chunk(4, mb200, mb200, &[zstd_rle(mb200 as u64, mb200 as u64)]);
    s.file("vlmeta-zstd-200MB-window.b2frame", &with_vlmeta_chunks(&[zstd200]), &[(JSON, Expect::Succeeds)]);
    // A zstd stream whose frame declares 4 GB, in a 1 MB block.
    let mb1 = 1 << 20;
    s.file(
        "vlmeta-zstd-declares-4GB.b2frame",
        &with_vlmeta_chunks(&[codec_chunk(4, mb1, mb1, &[zstd_rle(4 << 30, mb1 as u64)])]),
        &[(JSON, Expect::Fails)],
    );
    // A zstd stream holding more than its block.
    s.file(
        "vlmeta-zstd-overflows-its-block.b2frame",
        &with_vlmeta_chunks(&[codec_chunk(4, 4096, 4096, &[zstd_rle(64 << 20, 64 << 20)])]),
        &[(JSON, Expect::Clean)],
    );
    // zlib: 64 MB of zeros in about 64 KB, declared as such, and declared as 1.9 GB.
    let mb64 = 64 << 20;
    let z = zlib_zeros(mb64 as usize);
    s.file(
        "vlmeta-zlib-64MB.b2frame",
        &with_vlmeta_chunks(&[codec_chunk(3, mb64, mb64, std::slice::from_ref(&z))]),
        &[(INSPECT, Expect::Succeeds)],
    );
    s.file(
        "vlmeta-zlib-declares-1.9GB.b2frame",
        &with_vlmeta_chunks(&[codec_chunk(3, 1_900_000_000, 1 << 28, std::slice::from_ref(&z))]),
        &[(JSON, Expect::Clean)],
    );
    // 8000 vlmetalayers of 256 KB each (2 GB together) in a 300 KB file (8000: their names'
    // index has a u16 size).
    let many: Vec<Vec<u8>> = (0..8000).map(|_| special(1, 256 << 10, 1)).collect();
    s.file(
        "vlmeta-8000-of-256KB.b2frame",
        &with_vlmeta_chunks(&many),
        &[(INSPECT, Expect::Succeeds), (JSON, Expect::Succeeds)],
    );
    // 300 memcpy vlmetalayers of 16 KB: shown as prefixes.
    let memcpys: Vec<Vec<u8>> = (0..300).map(|i| chunk::vlmeta(&vec![i as u8; 16 << 10]).unwrap()).collect();
    s.file("vlmeta-300-memcpy-16KB.b2frame", &with_vlmeta_chunks(&memcpys), &[(JSON, Expect::Succeeds)]);
    // A vlmetalayer that is not a chunk.
    s.file("vlmeta-not-a-chunk.b2frame", &with_vlmeta_chunks(&[vec![0xff; 40]]), &[(INSPECT, Expect::Fails)]);

    // -- an offsets index standing for millions of chunks --
    let one_special = schunk(vec![Chunk::Special { kind: SpecialValue::Zeros, nbytes: 1 }], 1);
    let base = bytes_of(&one_special);
    for (n, name) in
        [(1u64 << 22, "4Mi"), ((1 << 22) + 1, "4Mi-plus-1"), (1 << 26, "64Mi"), (268_435_455, "max")]
    {
        let mut f = base.clone();
        set_i64(&mut f, &FrameHeader::NBYTES, n as i64);
        let at = index_at(&f);
        f[at + 4..at + 8].copy_from_slice(&((n * 8).min(i32::MAX as u64) as i32).to_le_bytes());
        let within = n <= 1 << 22;
        s.file(
            &format!("index-repeat-{name}-zeros.b2frame"),
            &f,
            &[
                (INSPECT, if within { Expect::Succeeds } else { Expect::Fails }),
                (JSON, if within { Expect::Succeeds } else { Expect::Fails }),
                (VERIFY, Expect::Verdict),
                (CAT, if within { Expect::Bytes(n) } else { Expect::Fails }),
            ],
        );
    }
    // An index entry that is neither an offset nor a special value.
    let mut f = bytes_of(&schunk(
        vec![Chunk::Stored(chunk::memcpy(&[1; 16], 1, 0, &Default::default()).unwrap())],
        16,
    ));
    let at = index_at(&f);
    f[at + 32..at + 40].copy_from_slice(&0x8000_0000_0000_0000u64.to_le_bytes());
    s.file("index-entry-0x8000000000000000.b2frame", &f, &[(INSPECT, Expect::Fails), (CAT, Expect::Fails)]);
    // Two chunks at the same offset (c-blosc2 allows it: a deduplicated chunk).
    let two = schunk(
        vec![
            Chunk::Stored(chunk::memcpy(&[1; 16], 1, 0, &Default::default()).unwrap()),
            Chunk::Stored(chunk::memcpy(&[2; 16], 1, 0, &Default::default()).unwrap()),
        ],
        16,
    );
    let mut f = bytes_of(&two);
    let at = index_at(&f);
    f[at + 40..at + 48].copy_from_slice(&0i64.to_le_bytes());
    s.file("index-overlapping-offsets.b2frame", &f, &[(INSPECT, Expect::Succeeds), (CAT, Expect::Bytes(32))]);
    // An offset into the middle of the other chunk.
    let mut f = bytes_of(&two);
    let at = index_at(&f);
    f[at + 40..at + 48].copy_from_slice(&20i64.to_le_bytes());
    s.file("index-offset-inside-a-chunk.b2frame", &f, &[(INSPECT, Expect::Clean), (CAT, Expect::Fails)]);
    // The index claims fewer chunks than nbytes implies (a lying count).
    let mut f = bytes_of(&two);
    set_i64(&mut f, &FrameHeader::NBYTES, 48);
    s.file("index-lying-count.b2frame", &f, &[(INSPECT, Expect::Fails), (CAT, Expect::Fails)]);

    // -- chunks whose header claims more than the frame allows --
    let stored_claims = |nbytes: i32, chunksize: i32| {
        let mut c = chunk::memcpy(&[7; 4], 1, 0, &Default::default()).unwrap();
        c[4..8].copy_from_slice(&nbytes.to_le_bytes());
        let mut f = bytes_of(&schunk(
            vec![Chunk::Stored(chunk::memcpy(&[7; 4], 1, 0, &Default::default()).unwrap())],
            chunksize,
        ));
        let at = find(&f, &chunk::memcpy(&[7; 4], 1, 0, &Default::default()).unwrap()).unwrap();
        f[at..at + c.len()].copy_from_slice(&c);
        f
    };
    s.file(
        "chunk-claims-1.9GB-chunksize-4.b2frame",
        &stored_claims(1_900_000_000, 4),
        &[(INSPECT, Expect::Fails), (CAT, Expect::Fails)],
    );
    s.file("chunk-claims-1.9GB-variable.b2frame", &stored_claims(1_900_000_000, 0), &[(CAT, Expect::Fails)]);
    // A stored chunk whose cbytes runs past the chunks section.
    let mut f =
        bytes_of(&schunk(vec![Chunk::Stored(chunk::memcpy(&[7; 4], 1, 0, &Default::default()).unwrap())], 4));
    let at = find(&f, &chunk::memcpy(&[7; 4], 1, 0, &Default::default()).unwrap()).unwrap();
    f[at + 12..at + 16].copy_from_slice(&i32::MAX.to_le_bytes());
    s.file("chunk-cbytes-past-section.b2frame", &f, &[(INSPECT, Expect::Clean), (CAT, Expect::Fails)]);
    // cat: chunks adding up to more than the header's nbytes (10 bytes for nbytes 4).
    let mut f = bytes_of(&schunk(
        vec![Chunk::Stored(chunk::memcpy(&[3; 10], 1, 0, &Default::default()).unwrap())],
        10,
    ));
    set_i64(&mut f, &FrameHeader::NBYTES, 4);
    s.file("cat-10-bytes-for-nbytes-4.b2frame", &f, &[(CAT, Expect::Fails)]);
    // Special stored chunks of every kind at the largest size, in an SChunk.
    for (kind, name) in [(1, "zeros"), (2, "nan"), (3, "value"), (4, "uninit")] {
        let ts = if kind == 2 { 4 } else { 1 };
        let n = (i32::MAX - 32) & !7;
        let mut fr = schunk(vec![Chunk::Stored(special(kind, n, ts))], n);
        fr.typesize = ts as i32;
        s.file(
            &format!("chunk-special-{name}-2GB.b2frame"),
            &bytes_of(&fr),
            &[(INSPECT, Expect::Succeeds), (JSON, Expect::Succeeds), (CAT, Expect::Fails)],
        );
        let mut fr = schunk(vec![Chunk::Stored(special(kind, 1 << 20, ts))], 1 << 20);
        fr.typesize = ts as i32;
        s.file(
            &format!("chunk-special-{name}-1MB.b2frame"),
            &bytes_of(&fr),
            &[(CAT, Expect::Bytes(1 << 20))],
        );
    }
    // Index-special chunks of every kind: a 2 GB chunk, and 100 MB in 100 chunks.
    for (kind, name) in
        [(SpecialValue::Zeros, "zeros"), (SpecialValue::Nan, "nan"), (SpecialValue::Uninit, "uninit")]
    {
        let n = (i32::MAX as u64 - 32) & !7;
        let mut fr = schunk(vec![Chunk::Special { kind, nbytes: n }], n as i32);
        fr.typesize = 4;
        // Zeros with no bytes are streamed without being allocated: refused only by the output
        // limit; NaN is built, so refused by the per-chunk limit.
        let cat: &[&str] = if kind == SpecialValue::Nan { CAT } else { &["cat", "--max-output", "1G"] };
        s.file(
            &format!("index-special-{name}-2GB.b2frame"),
            &bytes_of(&fr),
            &[(INSPECT, Expect::Succeeds), (cat, Expect::Fails)],
        );
        let mut fr = schunk((0..100).map(|_| Chunk::Special { kind, nbytes: 1 << 20 }).collect(), 1 << 20);
        fr.typesize = 4;
        s.file(
            &format!("index-special-{name}-100MB.b2frame"),
            &bytes_of(&fr),
            &[(INSPECT, Expect::Succeeds), (CAT, Expect::Bytes(100 << 20))],
        );
    }
    // Stored zstd and zlib chunks: real 64 MB outputs (streamed by cat) and lying ones.
    let z64 = codec_chunk(4, mb64, mb64, &[zstd_rle(mb64 as u64, mb64 as u64)]);
    s.file(
        "chunk-zstd-64MB.b2frame",
        &bytes_of(&schunk(vec![Chunk::Stored(z64)], mb64)),
        &[(INSPECT, Expect::Succeeds), (CAT, Expect::Bytes(mb64 as u64))],
    );
    let zl = codec_chunk(3, mb64, mb64, std::slice::from_ref(&z));
    s.file(
        "chunk-zlib-64MB.b2frame",
        &bytes_of(&schunk(vec![Chunk::Stored(zl)], mb64)),
        &[(CAT, Expect::Bytes(mb64 as u64))],
    );
    let short = codec_chunk(4, mb64, mb64, &[zstd_rle(mb64 as u64, 1 << 20)]);
    s.file(
        "chunk-zstd-short-of-its-nbytes.b2frame",
        &bytes_of(&schunk(vec![Chunk::Stored(short)], mb64)),
        &[(CAT, Expect::Fails)],
    );
    let over = codec_chunk(4, 1 << 20, 1 << 20, &[zstd_rle(400 << 20, 400 << 20)]);
    s.file(
        "chunk-zstd-400MB-in-a-1MB-block.b2frame",
        &bytes_of(&schunk(vec![Chunk::Stored(over)], 1 << 20)),
        &[(CAT, Expect::Fails)],
    );
    let zlie = codec_chunk(3, 1 << 20, 1 << 20, std::slice::from_ref(&z));
    s.file(
        "chunk-zlib-64MB-in-a-1MB-block.b2frame",
        &bytes_of(&schunk(vec![Chunk::Stored(zlie)], 1 << 20)),
        &[(CAT, Expect::Fails)],
    );
    // Many small chunks: the listing is bounded, the data exact.
    let small: Vec<Chunk> = (0..20_000)
        .map(|i| Chunk::Stored(chunk::memcpy(&[i as u8; 8], 1, 0, &Default::default()).unwrap()))
        .collect();
    s.file(
        "schunk-20000-chunks.b2frame",
        &bytes_of(&schunk(small, 8)),
        &[
            (INSPECT, Expect::Succeeds),
            (JSON, Expect::Succeeds),
            (&["inspect", "--json", "--all-chunks"], Expect::Succeeds),
            (CAT, Expect::Bytes(160_000)),
        ],
    );

    // -- array geometry --
    let one = nd(&[1], &[1], &[1], 8, Fill::Zeros);
    s.file(
        "nd-1-item-chunkshape-2^31.b2nd",
        &with_b2nd(&one, &[1], &[i32::MAX], &[i32::MAX], "<f8"),
        &[(INSPECT, Expect::Succeeds), (CAT, Expect::Fails)],
    );
    let one2 = nd(&[1, 1], &[1, 1], &[1, 1], 8, Fill::Zeros);
    s.file(
        "nd-1-item-chunkshape-2^31x2^31.b2nd",
        &with_b2nd(&one2, &[1, 1], &[i32::MAX, i32::MAX], &[i32::MAX, i32::MAX], "<f8"),
        &[(INSPECT, Expect::Succeeds), (CAT, Expect::Fails)],
    );
    s.file(
        "nd-1-item-blockshape-1-chunkshape-2^31.b2nd",
        &with_b2nd(&one2, &[1, 1], &[i32::MAX, i32::MAX], &[1, 1], "<f8"),
        &[(CAT, Expect::Fails)],
    );
    let ones16 = nd(&[1; 16], &[1; 16], &[1; 16], 8, Fill::Zeros);
    s.file(
        "nd-16-dims-chunks-2^31.b2nd",
        &with_b2nd(&ones16, &[1; 16], &[i32::MAX; 16], &[i32::MAX; 16], "<f8"),
        &[(INSPECT, Expect::Succeeds), (CAT, Expect::Fails)],
    );
    s.file(
        "nd-16-dims-shape-2^62.b2nd",
        &with_b2nd(&ones16, &[1 << 62; 16], &[1; 16], &[1; 16], "<f8"),
        &[(INSPECT, Expect::Clean), (CAT, Expect::Fails)],
    );
    s.file("nd-16-dims-of-1.b2nd", &ones16, &[(INSPECT, Expect::Succeeds), (CAT, Expect::Bytes(8))]);
    let mut seventeen = ones16.clone();
    let b2nd_at = FrameView::from_slice(&ones16).unwrap().header.metalayers.iter().next().unwrap().1 as usize;
    seventeen[b2nd_at + 5 + 2] = 17; // ndim, after the fixarray marker and the version
    s.file("nd-17-dims.b2nd", &seventeen, &[(INSPECT, Expect::Clean), (CAT, Expect::Fails)]);
    // Zero chunks standing for 1.8 GB (a 221-byte file): streamed, exactly 1.8 GB in bounded
    // memory, or refused by a lower output limit.
    let zeros18 = nd(&[225_000_000], &[1 << 20], &[1 << 17], 8, Fill::Zeros);
    s.file(
        "nd-zeros-1.8GB.b2nd",
        &zeros18,
        &[
            (INSPECT, Expect::Succeeds),
            (CAT, Expect::Bytes(1_800_000_000)),
            (&["cat", "--max-output", "1G"], Expect::Fails),
        ],
    );
    let zeros_one_chunk = nd(&[225_000_000], &[225_000_000], &[1 << 17], 8, Fill::Zeros);
    s.file(
        "nd-zeros-1.8GB-one-chunk.b2nd",
        &zeros_one_chunk,
        // Zeros with no stored bytes: streamed, whatever the chunk's size (never held whole).
        &[(INSPECT, Expect::Succeeds), (CAT, Expect::Bytes(1_800_000_000))],
    );
    // 4 Mi chunks of one item each (the most chunks the default budget reads): each read by the
    // band that needs it, never all held, never scanned for every band (an earlier reader held
    // them all and scanned them for each band, 2^44 steps).
    let many = nd(&[1 << 22], &[1], &[1], 8, Fill::Zeros);
    s.file(
        "nd-4Mi-chunks-of-one-item.b2nd",
        &many,
        &[(CAT, Expect::Bytes(8 << 22)), (&["cat", "--slice", "5:4000000"], Expect::Bytes(8 * 3_999_995))],
    );
    let zeros200 = nd(&[5000, 5000], &[1000, 5000], &[100, 1000], 8, Fill::Zeros);
    s.file("nd-zeros-200MB.b2nd", &zeros200, &[(CAT, Expect::Bytes(200_000_000))]);
    let nan_big = nd(&[100, 100, 100], &[10, 100, 100], &[10, 10, 100], 8, Fill::Nan);
    s.file("nd-nan-8MB.b2nd", &nan_big, &[(CAT, Expect::Bytes(8_000_000))]);
    // The chunk grid does not match the index (a lying shape).
    s.file(
        "nd-shape-lies.b2nd",
        &with_b2nd(&zeros200, &[50_000, 5000], &[1000, 5000], &[100, 1000], "<f8"),
        &[(INSPECT, Expect::Clean), (CAT, Expect::Fails)],
    );
    // A layer of chunks (the whole first dimension in one chunk) larger than --max-decompressed:
    // streamed in pieces of block rows, never held whole; refused by a lower output limit.
    let wide = nd(&[4, 10_000_000], &[4, 1_000_000], &[4, 100_000], 8, Fill::Zeros);
    s.file(
        "nd-layer-320MB.b2nd",
        &wide,
        &[(CAT, Expect::Bytes(320_000_000)), (&["cat", "--max-output", "100M"], Expect::Fails)],
    );

    // -- sizes that reach past the file: sparse (holey) files --
    let holey = |name: &str, frame: &[u8], len: u64| -> PathBuf {
        let v = FrameView::from_slice(frame).unwrap();
        let t = v.trailer_offset as usize;
        let mut head = frame[..t].to_vec();
        set_i64(&mut head, &FrameHeader::FRAME_LEN, len as i64);
        let path = dir.join(name);
        let f = File::create(&path).unwrap();
        use std::io::{Seek, SeekFrom, Write};
        let mut f = f;
        f.write_all(&head).unwrap();
        f.set_len(len).unwrap();
        f.seek(SeekFrom::Start(len - (frame.len() - t) as u64)).unwrap();
        f.write_all(&frame[t..]).unwrap();
        path
    };
    let small = bytes_of(&schunk(
        vec![Chunk::Stored(chunk::memcpy(&[5; 64], 1, 0, &Default::default()).unwrap())],
        64,
    ));
    let p = holey("holey-3GiB-gap-before-trailer.b2frame", &small, 3 << 30);
    s.input(
        "holey-3GiB-gap-before-trailer.b2frame",
        p,
        &[(INSPECT, Expect::Fails), (JSON, Expect::Fails), (CAT, Expect::Fails), (VERIFY, Expect::Verdict)],
    );
    // The header claims a 2 GiB header and a 2 GiB trailer inside a 3 GiB hole.
    let p = holey("holey-3GiB-header_len-2GiB.b2frame", &small, 3 << 30);
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::OpenOptions::new().read(true).write(true).open(&p).unwrap();
        let at = FrameHeader::HEADER_LEN.layout().value_offset.unwrap();
        f.seek(SeekFrom::Start(at as u64)).unwrap();
        f.write_all(&(i32::MAX - 1).to_be_bytes()).unwrap();
    }
    s.input("holey-3GiB-header_len-2GiB.b2frame", p, &[(INSPECT, Expect::Fails), (DUMP, Expect::Clean)]);
    // A sparse frame whose chunk file is a hole of 3 GiB claiming 2 GB.
    let sp = sparse(
        &dir,
        "sparse-holey-chunk.b2frame",
        &schunk(vec![Chunk::Stored(chunk::memcpy(&[5; 64], 1, 0, &Default::default()).unwrap())], 64),
    );
    {
        let c = sp.join("00000000.chunk");
        let mut bytes = std::fs::read(&c).unwrap();
        bytes[4..8].copy_from_slice(&(i32::MAX - 32).to_le_bytes());
        bytes[12..16].copy_from_slice(&i32::MAX.to_le_bytes());
        std::fs::write(&c, &bytes).unwrap();
        File::options().write(true).open(&c).unwrap().set_len(3 << 30).unwrap();
    }
    s.input("sparse-holey-chunk", sp, &[(INSPECT, Expect::Fails), (CAT, Expect::Fails)]);

    // -- not regular files --
    let fifo = dir.join("fifo.b2frame");
    mkfifo(&fifo);
    s.input(
        "fifo-as-path",
        fifo.clone(),
        &[(INSPECT, Expect::Fails), (CAT, Expect::Fails), (DUMP, Expect::Fails), (VERIFY, Expect::Fails)],
    );
    let fifo_dir = dir.join("fifo-index.sframe");
    std::fs::create_dir(&fifo_dir).unwrap();
    mkfifo(&fifo_dir.join("chunks.b2frame"));
    s.input("fifo-as-chunks.b2frame", fifo_dir, &[(INSPECT, Expect::Fails), (CAT, Expect::Fails)]);
    let sp = sparse(
        &dir,
        "fifo-chunk.sframe",
        &schunk(vec![Chunk::Stored(chunk::memcpy(&[5; 64], 1, 0, &Default::default()).unwrap())], 64),
    );
    std::fs::remove_file(sp.join("00000000.chunk")).unwrap();
    mkfifo(&sp.join("00000000.chunk"));
    s.input("fifo-as-chunk-file", sp.clone(), &[(INSPECT, Expect::Fails), (CAT, Expect::Fails)]);
    let scan = dir.join("scan");
    std::fs::create_dir(&scan).unwrap();
    mkfifo(&scan.join("a-fifo.b2frame"));
    std::fs::write(scan.join("b-good.b2frame"), &small).unwrap();
    std::os::unix::fs::symlink(&sp, scan.join("c-sparse-with-fifo-chunk")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", scan.join("d-dev-zero")).unwrap();
    s.input("scan-with-fifos", scan, &[(JSON, Expect::Fails)]);
    s.input("dev-zero", PathBuf::from("/dev/zero"), &[(INSPECT, Expect::Fails), (CAT, Expect::Fails)]);

    // -- sparse frames with missing chunk files --
    let thousands: Vec<Chunk> = (0..5000)
        .map(|i| Chunk::Stored(chunk::memcpy(&[i as u8; 8], 1, 0, &Default::default()).unwrap()))
        .collect();
    let sp = sparse(&dir, "sparse-5000-missing.sframe", &schunk(thousands, 8));
    for entry in std::fs::read_dir(&sp).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "chunk") {
            std::fs::remove_file(p).unwrap();
        }
    }
    s.input(
        "sparse-5000-missing",
        sp,
        &[(INSPECT, Expect::Fails), (JSON, Expect::Fails), (CAT, Expect::Fails)],
    );
    let last_missing: Vec<Chunk> = (0..3)
        .map(|i| Chunk::Stored(chunk::memcpy(&[i as u8; 8], 1, 0, &Default::default()).unwrap()))
        .collect();
    let sp = sparse(&dir, "sparse-last-missing.sframe", &schunk(last_missing, 8));
    std::fs::remove_file(sp.join("00000002.chunk")).unwrap();
    s.input("sparse-last-missing", sp, &[(INSPECT, Expect::Fails), (CAT, Expect::Fails)]);
    // Only a chunk past the listed ones (the first --max-items) is missing: noticed all the same.
    let many: Vec<Chunk> = (0..1500)
        .map(|i| Chunk::Stored(chunk::memcpy(&[i as u8; 8], 1, 0, &Default::default()).unwrap()))
        .collect();
    let sp = sparse(&dir, "sparse-unlisted-missing.sframe", &schunk(many, 8));
    std::fs::remove_file(sp.join(format!("{:08X}.chunk", 1400))).unwrap();
    s.input(
        "sparse-unlisted-missing",
        sp,
        &[(INSPECT, Expect::Fails), (JSON, Expect::Fails), (CAT, Expect::Fails)],
    );

    // -- metalayers --
    // Metalayer offsets pointing at each other (a cycle) and past the header.
    let meta = bytes_of(&{
        let mut f = schunk(vec![], -1);
        f.metalayers = vec![("a".into(), vec![0x90]), ("b".into(), vec![0x90])];
        f
    });
    let v = FrameView::from_slice(&meta).unwrap();
    let offs: Vec<i32> = v.header.metalayers.iter().map(|(_, o, _)| o).collect();
    let int32 = |o: i32| [&[0xd2][..], &o.to_be_bytes()].concat();
    let mut cyc = meta.clone();
    let places: Vec<usize> = offs.iter().map(|&o| find(&meta, &int32(o)).unwrap()).collect();
    for (i, &at) in places.iter().enumerate() {
        let other = offs[(i + 1) % offs.len()];
        cyc[at + 1..at + 5].copy_from_slice(&other.to_be_bytes());
    }
    s.file("metalayer-offsets-cycle.b2frame", &cyc, all);
    let mut past = meta.clone();
    let at = places[0];
    past[at + 1..at + 5].copy_from_slice(&i32::MAX.to_be_bytes());
    s.file("metalayer-offset-past-header.b2frame", &past, all);
    // A 4 MB metalayer: the dump and the report stay bounded.
    let big_meta = b2schema_tests::with_metalayers(&small, &[("big", &vec![0xc0; 4 << 20])]);
    s.file(
        "metalayer-4MB.b2frame",
        &big_meta,
        &[(INSPECT, Expect::Succeeds), (JSON, Expect::Succeeds), (DUMP, Expect::Succeeds)],
    );
    // A frame_len larger than the file, and header fields at their extremes.
    let mut f = small.clone();
    set_i64(&mut f, &FrameHeader::FRAME_LEN, i64::MAX);
    s.file("frame_len-i64-max.b2frame", &f, all);
    let mut f = small.clone();
    set_i64(&mut f, &FrameHeader::CBYTES, i64::MAX);
    s.file("cbytes-i64-max.b2frame", &f, all);
    let mut f = small.clone();
    set_i64(&mut f, &FrameHeader::NBYTES, i64::MAX);
    s.file("nbytes-i64-max.b2frame", &f, all);
    let mut f = small.clone();
    set_i32(&mut f, &FrameHeader::CHUNKSIZE, 1);
    s.file("chunksize-1-for-64-bytes.b2frame", &f, all);
    let mut f = small.clone();
    set_i32(&mut f, &FrameHeader::TYPESIZE, i32::MAX);
    s.file("typesize-i32-max.b2frame", &f, all);

    // ---- run ----
    let start = Instant::now();
    let failures: Vec<String> = s
        .cases
        .iter()
        .filter_map(|c| {
            run(c, &dir).err().map(|e| {
                format!("{} ({} {}): {e}", c.name, c.args[..c.args.len() - 1].join(" "), c.path.display())
            })
        })
        .collect();
    eprintln!(
        "{} crafted inputs, {} runs under {} MiB, {CPU} s of CPU and {:?} each, in {:?}",
        s.files,
        s.cases.len(),
        MEMORY >> 20,
        WALL,
        start.elapsed()
    );
    assert!(s.files >= 60, "the suite has {} crafted inputs", s.files);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} of {} runs failed:\n{}",
        failures.len(),
        s.cases.len(),
        failures.join("\n")
    );
}
