//! Frames read over HTTP (`FrameFile::open_url`, `b2schema::open_url`) from a Range-capable
//! server on 127.0.0.1 (`b2schema_tests::http_server`): python-blosc2's fixtures read remotely
//! equal their local reads (metadata, whole arrays, random slices), a slice fetches only what it
//! needs (counted by the server and by the client), and every misbehaviour of the server is a
//! clean error that names the URL and the range, within the budget.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::source::http::HttpOptions;
use b2schema::writer::{Fill, NdArray};
use b2schema_tests::fixture_file;
use b2schema_tests::http_server::{Misbehave, Server};
use proptest::prelude::*;

/// Every contiguous fixture python-blosc2 wrote (the sparse frames are directories).
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = fixture_file("");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_str().unwrap().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() > 100, "the fixtures are there: {}", out.len());
    out
}

/// One server for the fixtures, shared by the tests that never make it misbehave.
fn fixture_server() -> &'static Server {
    static S: OnceLock<Server> = OnceLock::new();
    S.get_or_init(|| Server::start(fixtures()))
}

/// Quick options for the misbehaviour tests: short timeouts and backoff.
fn quick() -> HttpOptions {
    HttpOptions {
        timeout: Duration::from_secs(2),
        backoff: Duration::from_millis(5),
        ..HttpOptions::default()
    }
}

/// Options whose first request (256 bytes) holds less than a fixture's metadata, so that the
/// rest of it and every chunk come by ranged reads.
fn small_prefix() -> HttpOptions {
    HttpOptions { prefix: 256, ..HttpOptions::default() }
}

#[test]
fn every_fixture_read_over_http_equals_its_local_read() {
    every_fixture_equals_its_local_read(HttpOptions::default());
}

#[test]
fn every_fixture_read_by_ranges_equals_its_local_read() {
    every_fixture_equals_its_local_read(small_prefix());
}

fn every_fixture_equals_its_local_read(options: HttpOptions) {
    let server = fixture_server();
    for (name, bytes) in fixtures() {
        let local = FrameFile::from_bytes(bytes.clone(), &name, Limits::default());
        let remote = FrameFile::open_url_with(&server.url(&name), Limits::default(), options.clone());
        let (local, remote) = match (local, remote) {
            (Ok(l), Ok(r)) => (l, r),
            (Err(_), Err(e)) => {
                assert!(e.to_string().contains(&server.url(&name)), "{name}: {e}");
                continue;
            }
            (l, r) => panic!("{name}: local {:?} but remote {:?}", l.err(), r.err()),
        };
        assert_eq!(local.header_bytes(), remote.header_bytes(), "{name}");
        assert_eq!(local.index_bytes(), remote.index_bytes(), "{name}");
        assert_eq!(local.trailer_bytes(), remote.trailer_bytes(), "{name}");
        let requests = remote.fetched().unwrap().requests;
        if options.prefix >= bytes.len() as u64 {
            // The whole file in the first answer.
            assert_eq!(requests, 1, "{name}");
        } else {
            // The prefix, the suffix, and the header or index when they are longer.
            assert!((2..=4).contains(&requests), "{name}: {requests}");
        }
        assert_eq!(
            local.chunks().map_err(|e| e.to_string()),
            remote.chunks().map_err(|e| e.to_string()),
            "{name}"
        );
        let (local, remote) =
            (b2schema::Container::from_frame(local), b2schema::Container::from_frame(remote));
        let (Ok(local), Ok(remote)) = (local, remote) else { continue };
        let l = local.read_all().map_err(|e| e.to_string());
        let r = remote.read_all().map_err(|e| e.to_string());
        match (&l, &r) {
            (Ok(l), Ok(r)) => assert!(l == r, "{name}: the data differ"),
            (Err(_), Err(_)) => {}
            _ => panic!("{name}: local {:?} remote {:?}", l.as_ref().err(), r.as_ref().err()),
        }
    }
}

/// NDArray fixtures of 1 to 4 dimensions, several chunks each.
const SLICED: [&str; 6] = [
    "chunks-2d-60.b2nd",
    "nd-2d-u2.b2nd",
    "nd-3d-f8-zstd.b2nd",
    "nd-4d-i2.b2nd",
    "nd-arange-2d-i8.b2nd",
    "chunks-200.b2nd",
];

/// A NumPy-style slice of `shape` from the fractions drawn (start, length, step).
fn slice_text(shape: &[u64], picks: &[(f64, f64, u64)]) -> String {
    shape
        .iter()
        .zip(picks)
        .map(|(&n, &(a, l, step))| {
            let start = (a * n as f64) as u64;
            let stop = (start + (l * n as f64) as u64 + 1).min(n);
            if step > 1 { format!("{start}:{stop}:{step}") } else { format!("{start}:{stop}") }
        })
        .collect::<Vec<_>>()
        .join(",")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_slices_over_http_equal_the_local_reads(
        which in 0..SLICED.len(),
        picks in proptest::collection::vec((0.0..1.0f64, 0.0..1.0f64, 1..3u64), 4),
    ) {
        let name = SLICED[which];
        let local = b2schema::open(fixture_file(name)).unwrap();
        let url = fixture_server().url(name);
        let remote = FrameFile::open_url_with(&url, Limits::default(), small_prefix()).unwrap();
        let remote = b2schema::Container::from_frame(remote).unwrap();
        let sel = slice_text(local.shape(), &picks);
        let l = local.read(sel.as_str()).map_err(|e| e.to_string());
        let r = remote.read(sel.as_str()).map_err(|e| e.to_string());
        prop_assert_eq!(l, r, "{} [{}]", name, sel);
    }
}

/// A 4160 x 4160 `|u1` array of 1024 x 1024 chunks of 64 x 64 blocks (17 MB of items).
pub(crate) fn big_array() -> &'static Vec<u8> {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| {
        let n = 4160usize;
        let items: Vec<u8> = (0..n * n).map(|i| ((i / n) * 7 + (i % n) * 13 % 251) as u8).collect();
        let mut a =
            NdArray::new(&[n as i64, n as i64], &[1024, 1024], &[64, 64], "|u1", 1, Fill::Data(&items));
        a.cparams.codec = b2schema::frame::Codec::Lz4;
        a.cparams.clevel = 1;
        a.to_frame().unwrap().to_vec().unwrap()
    })
}

#[test]
fn one_item_of_a_large_array_fetches_its_metadata_and_one_block() {
    let big = big_array();
    let server = Server::start(vec![("big.b2nd".into(), big.clone())]);
    let url = server.url("big.b2nd");
    let array = b2schema::open_url(&url).unwrap();
    let opened = array.frame().fetched().unwrap();
    // The first 64 KiB (header) and the last 64 KiB (trailer and offsets index).
    assert_eq!(opened.requests, 2);
    assert!(opened.bytes <= 128 << 10, "{opened:?}");
    assert_eq!((server.requests(), server.bytes_sent()), (opened.requests, opened.bytes));

    let item = array.read("2049, 4097").unwrap();
    let local = b2schema::Container::from_bytes(big.clone()).unwrap();
    assert_eq!(item, local.read("2049, 4097").unwrap());
    let read = array.frame().fetched().unwrap();
    let (requests, bytes) = (read.requests - opened.requests, read.bytes - opened.bytes);
    // The chunk's header and block table in one request of 4 KiB, then the one block (a 64 x 64
    // block is 4 KiB before compression).
    assert_eq!(requests, 2, "{requests} requests: {:?}", server.ranges());
    assert!(bytes <= 4096 + 4096 + 64, "{bytes} bytes");
    assert_eq!((server.requests(), server.bytes_sent()), (read.requests, read.bytes));
}

#[test]
fn items_read_one_by_one_from_one_chunk_cost_one_request_each() {
    let big = big_array();
    let server = Server::start(vec![("big.b2nd".into(), big.clone())]);
    let array = b2schema::open_url(&server.url("big.b2nd")).unwrap();
    let local = b2schema::Container::from_bytes(big.clone()).unwrap();
    // The first item of a chunk: its table, then its block.
    let mut before = array.frame().fetched().unwrap();
    // Items of chunk (2, 4): rows 2048..3072, columns 4096..4160.
    for (i, &item) in ["2049, 4097", "2100, 4150", "3000, 4100", "2049, 4097"].iter().enumerate() {
        assert_eq!(array.read(item).unwrap(), local.read(item).unwrap(), "{item}");
        let after = array.frame().fetched().unwrap();
        // Then, the chunk's table kept, only the block of each item (the same one again too:
        // blocks are not kept).
        let want = if i == 0 { 2 } else { 1 };
        assert_eq!(after.requests - before.requests, want, "{item}: {:?}", server.ranges());
        before = after;
    }
}

#[test]
fn the_blocks_of_a_chunk_that_a_read_needs_come_in_one_request() {
    let big = big_array();
    let server = Server::start(vec![("big.b2nd".into(), big.clone())]);
    let mut array = b2schema::open_url(&server.url("big.b2nd")).unwrap();
    // One thread: two threads reading one chunk each read its table (a request each).
    array.set_read_options(b2schema::array::ReadOptions { nthreads: 1, ..*array.read_options() });
    let local = b2schema::Container::from_bytes(big.clone()).unwrap();
    for (sel, chunks) in [("0:1024, 0:1024", 1), ("100:900, 1500:2100", 2), ("3000:3100", 10)] {
        let before = array.frame().fetched().unwrap();
        assert_eq!(array.read(sel).unwrap(), local.read(sel).unwrap(), "{sel}");
        let after = array.frame().fetched().unwrap();
        // Per chunk: its header and block table, then its blocks (256 of them in a whole chunk)
        // in one request.
        let requests = after.requests - before.requests;
        assert!(
            requests <= 2 * chunks,
            "{sel}: {requests} requests for {chunks} chunk(s): {:?}",
            server.ranges()
        );
    }
}

/// `url`'s open or whole read, as an error text (panics if it works).
fn failure(url: &str, limits: Limits) -> String {
    let started = Instant::now();
    let r = FrameFile::open_url_with(url, limits, quick())
        .and_then(|f| b2schema::Container::from_frame(f)?.read_all().map(|_| ()));
    assert!(started.elapsed() < Duration::from_secs(10), "{url}: {:?}", started.elapsed());
    r.expect_err("the server misbehaves").to_string()
}

#[test]
fn each_misbehaviour_is_a_clean_error_naming_the_url_and_the_range() {
    let files = vec![("a.b2nd".to_string(), std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap())];
    let server = Server::start(files);
    let url = server.url("a.b2nd");
    let cases = [
        (Misbehave::Drop, "the last failed with: reading the answer: the connection closed"),
        (Misbehave::Error500, "the last failed with: HTTP 500"),
        (Misbehave::Unsatisfiable, "416 Range Not Satisfiable (the file's length:"),
        (Misbehave::ShortBody, "a short body"),
        (Misbehave::WrongRange, "expected a Content-Range"),
        (Misbehave::EndlessHead, "more than 128 header lines"),
    ];
    for (m, says) in cases {
        server.misbehave(m);
        server.reset_counts();
        let e = failure(&url, Limits::default());
        assert!(e.contains(&format!("{url} (Range: bytes=0-65535)")), "{m:?}: {e}");
        assert!(e.contains(says), "{m:?}: {e}");
        // At most the first attempt and its retries.
        assert!(server.requests() <= 4, "{m:?}: {} requests", server.requests());
    }
    // A head that trickles in: cut at the timeout (300 ms here), each attempt.
    server.misbehave(Misbehave::Trickle);
    let started = Instant::now();
    let options = HttpOptions { timeout: Duration::from_millis(300), ..quick() };
    let e = FrameFile::open_url_with(&url, Limits::default(), options).unwrap_err().to_string();
    assert!(e.contains("the answer took longer than allowed") || e.contains("timed out"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    // A missing file.
    server.misbehave(Misbehave::Not);
    let e = failure(&server.url("nothing.b2nd"), Limits::default());
    assert!(e.contains("HTTP 404"), "{e}");
}

#[test]
fn transient_failures_are_retried_within_the_bound() {
    let bytes = std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap();
    let server = Server::start(vec![("a.b2nd".into(), bytes.clone())]);
    let local = b2schema::Container::from_bytes(bytes).unwrap().read_all().unwrap();
    for m in [Misbehave::DropNext(3), Misbehave::Error503Next(3)] {
        server.misbehave(m);
        server.reset_counts();
        let f = FrameFile::open_url_with(&server.url("a.b2nd"), Limits::default(), quick()).unwrap();
        assert_eq!(f.fetched().unwrap().requests, 4, "{m:?}");
        assert_eq!(b2schema::Container::from_frame(f).unwrap().read_all().unwrap(), local);
    }
    server.misbehave(Misbehave::DropNext(4));
    let e = failure(&server.url("a.b2nd"), Limits::default());
    assert!(e.contains("an answer within 4 attempts"), "{e}");
}

#[test]
fn a_server_that_ignores_range_is_refused_past_the_budget() {
    let big = big_array();
    let server = Server::start(vec![("big.b2nd".into(), big.clone())]);
    server.misbehave(Misbehave::IgnoreRange);
    let url = server.url("big.b2nd");
    // The whole file (17 MB) is more than one part may be (1 MiB): refused, its body unread.
    let e = failure(&url, Limits::default().with_max_decompressed(1 << 20));
    assert!(e.contains("the server ignores Range (refused)") && e.contains(&url), "{e}");
    assert_eq!(server.requests(), 1);
    // Within the budget, the whole file is taken once and read from memory.
    server.reset_counts();
    let whole = b2schema::open_url(&url).unwrap();
    assert_eq!(
        whole.read("2049, 4097").unwrap(),
        b2schema::Container::from_bytes(big.clone()).unwrap().read("2049, 4097").unwrap()
    );
    assert_eq!(server.requests(), 1);
    // A server that starts ignoring Range after the opening: each later read refused.
    server.misbehave(Misbehave::Not);
    let array = b2schema::open_url(&url).unwrap();
    server.misbehave(Misbehave::IgnoreRange);
    let e = array.read("2049, 2049").unwrap_err().to_string();
    assert!(e.contains("the server ignores Range (refused)") && e.contains("Range: bytes="), "{e}");
}

#[test]
fn requests_and_bytes_fetched_are_bounded_by_the_budget() {
    let big = big_array();
    let server = Server::start(vec![("big.b2nd".into(), big.clone())]);
    let url = server.url("big.b2nd");
    let e = failure(&url, Limits::default().with_max_requests(1));
    assert!(e.contains("HTTP requests") && e.contains("max_requests"), "{e}");
    let e = failure(&url, Limits::default().with_max_fetched(100 << 10));
    assert!(e.contains("bytes fetched over HTTP") && e.contains("max_fetched"), "{e}");
    // A whole read of 17 MB within 1 MB fetched: refused before it is over.
    let e = failure(&url, Limits::default().with_max_fetched(1 << 20));
    assert!(e.contains("max_fetched"), "{e}");
    // By ranged requests (no read-ahead stream, whose one long body the server begins whole):
    // the server may have sent the bodies of the requests in flight when the budget ran out
    // (one read per reading thread: a block, or the blocks of a band joined, at most 512 KiB
    // here); the client did not read them. A stream's bytes are bounded as they come
    // (remote_stream::a_stream_answered_with_another_range_or_past_the_budget_is_an_error).
    server.reset_counts();
    let options = HttpOptions { readahead: 0, ..quick() };
    let e = FrameFile::open_url_with(&url, Limits::default().with_max_fetched(1 << 20), options)
        .and_then(|f| b2schema::Container::from_frame(f)?.read_all().map(|_| ()))
        .unwrap_err();
    assert!(e.to_string().contains("max_fetched"), "{e}");
    assert!(server.bytes_sent() <= (1 << 20) + 2 * (512 << 10), "{}", server.bytes_sent());
}

/// A crafted answer to the first request (`Range: bytes=0-65535`) of a file of `len` bytes:
/// a status among the likely and the odd, `Content-Range` and `Content-Length` right, off by one,
/// missing, garbage or huge, and a body of any length.
fn crafted(len: usize) -> impl Strategy<Value = (Vec<u8>, bool, bool)> {
    let status = prop_oneof![
        Just("HTTP/1.1 206 Partial Content"),
        Just("HTTP/1.0 206 Partial Content"),
        Just("HTTP/1.1 200 OK"),
        Just("HTTP/1.1 416 Range Not Satisfiable"),
        Just("HTTP/1.1 503 Busy"),
        Just("HTTP/1.1 301 Moved"),
        Just("HTTP/2 206"),
        Just("HTTP/1.1 99999 What"),
        Just(""),
    ];
    let last = len as u64 - 1;
    let range = prop_oneof![
        Just(format!("Content-Range: bytes 0-{last}/{len}")),
        Just(format!("Content-Range: bytes 1-{last}/{len}")),
        Just(format!("Content-Range: bytes 0-{}/{len}", last + 1)),
        Just(format!("Content-Range: bytes 0-{last}/*")),
        Just("Content-Range: bytes 0-18446744073709551615/18446744073709551615".to_string()),
        Just("Content-Range: bytes */5".to_string()),
        Just("Content-Range: lines 0-3/4".to_string()),
        Just(String::new()),
    ];
    let length = prop_oneof![
        Just(format!("Content-Length: {len}")),
        Just(format!("Content-Length: {}", len + 1)),
        Just(format!("Content-Length: {}", len / 2)),
        Just("Content-Length: 18446744073709551615".to_string()),
        Just("Content-Length: -1".to_string()),
        Just("Transfer-Encoding: chunked".to_string()),
        Just(String::new()),
    ];
    let body_len = prop_oneof![Just(len), len..=len + 16, 0..len];
    (status, range, length, body_len, proptest::collection::vec(any::<u8>(), 0..64)).prop_map(
        move |(status, range, length, body_len, junk)| {
            let mut head = format!("{status}\r\n");
            for line in [&range, &length].into_iter().filter(|l| !l.is_empty()) {
                head += &format!("{line}\r\n");
            }
            head += "\r\n";
            let honest = status.ends_with("206 Partial Content")
                && range == format!("Content-Range: bytes 0-{last}/{len}")
                && (length == format!("Content-Length: {len}") || length.is_empty())
                && body_len >= len;
            let whole = status == "HTTP/1.1 200 OK";
            let mut bytes = head.into_bytes();
            let file = std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap();
            bytes.extend(file.iter().chain(junk.iter().cycle()).take(body_len));
            (bytes, honest, whole)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whatever the server answers, the open is an error naming the URL, or (only for an honest
    /// answer, or a 200 whose body holds the frame) the frame itself; within a few requests and
    /// seconds, never a panic.
    #[test]
    fn crafted_answers_are_errors_or_the_frame(
        (answer, honest, whole) in crafted(std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap().len())
    ) {
        let server = fixture_server_raw();
        server.answer_raw(Some(answer));
        server.reset_counts();
        let url = server.url("a.b2nd");
        let started = Instant::now();
        let opened = FrameFile::open_url_with(&url, Limits::default(), quick());
        prop_assert!(started.elapsed() < Duration::from_secs(5));
        prop_assert!(server.requests() <= 4);
        match opened {
            Ok(f) => {
                prop_assert!(honest || whole, "a dishonest answer accepted");
                let local = FrameFile::open(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap();
                prop_assert_eq!(f.header_bytes(), local.header_bytes());
            }
            Err(e) => {
                prop_assert!(!honest, "an honest answer refused: {}", e);
                // Refused by the HTTP client itself, naming the range (a 200's body, taken whole,
                // may be refused by the frame's checks, naming the URL).
                let by_http = format!("{url} (Range: bytes=0-65535)");
                prop_assert!(e.to_string().contains(if whole { &url } else { &by_http }), "{}", e);
            }
        }
    }
}

/// A server of its own for the crafted answers.
fn fixture_server_raw() -> &'static Server {
    static S: OnceLock<Server> = OnceLock::new();
    S.get_or_init(|| {
        Server::start(vec![("a.b2nd".into(), std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap())])
    })
}

/// Files as the test server serves them: name, bytes.
type Files = Vec<(String, Vec<u8>)>;

/// The sparse frames python-blosc2 wrote (directories): each directory's name, and its files as
/// the server serves them (`dir/name`).
fn sparse_fixtures() -> Vec<(String, Files)> {
    let mut dirs: Vec<_> = std::fs::read_dir(fixture_file(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|dir| {
            let name = dir.file_name().unwrap().to_str().unwrap().to_string();
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .map(|p| {
                    (
                        format!("{name}/{}", p.file_name().unwrap().to_str().unwrap()),
                        std::fs::read(&p).unwrap(),
                    )
                })
                .collect();
            files.sort();
            (name, files)
        })
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 4, "the sparse fixtures are there: {}", dirs.len());
    dirs
}

#[test]
fn sparse_frames_read_over_http_equal_their_local_reads() {
    let dirs = sparse_fixtures();
    let server = Server::start(dirs.iter().flat_map(|(_, files)| files.clone()).collect());
    for (name, _) in &dirs {
        let local = FrameFile::open(fixture_file(name)).unwrap();
        let local_data = b2schema::Container::from_frame(local.clone()).unwrap().read_all().unwrap();
        // The directory's URL, the same without its `/` (the server redirects, as web servers
        // do), and its index's URL; with the default first request and with a small one.
        for (url, options) in [
            (server.url(&format!("{name}/")), HttpOptions::default()),
            (server.url(name), small_prefix()),
            (server.url(&format!("{name}/chunks.b2frame")), small_prefix()),
        ] {
            server.reset_counts();
            let remote = FrameFile::open_url_with(&url, Limits::default(), options).unwrap();
            assert!(remote.view().unwrap().is_sparse(), "{url}");
            assert_eq!(local.header_bytes(), remote.header_bytes(), "{url}");
            assert_eq!(local.index_bytes(), remote.index_bytes(), "{url}");
            assert_eq!(local.trailer_bytes(), remote.trailer_bytes(), "{url}");
            assert_eq!(
                local.chunks().map_err(|e| e.to_string()),
                remote.chunks().map_err(|e| e.to_string()),
                "{url}"
            );
            let mut array = b2schema::Container::from_frame(remote.clone()).unwrap();
            array.set_read_options(b2schema::array::ReadOptions { nthreads: 1, ..*array.read_options() });
            let data = array.read_all().unwrap();
            assert!(data == local_data, "{url}: the data differ");
            // One budget for the index and every chunk file, the redirect counted.
            let fetched = remote.fetched().unwrap();
            assert_eq!((server.requests(), server.bytes_sent()), (fetched.requests, fetched.bytes), "{url}");
            // Per chunk file its first bytes, then its blocks in one request; the index's first
            // and last bytes, and the redirect.
            let nchunks = local.chunks().unwrap().len() as u64;
            assert!(fetched.requests <= 3 + 2 * nchunks, "{url}: {fetched:?} for {nchunks} chunks");
            // One connection for the index and the chunk files, read on one thread (and the
            // one the redirect's answer came on).
            let redirected = url == server.url(name);
            assert!(
                server.connections() <= 1 + u64::from(redirected),
                "{url}: {} connections",
                server.connections()
            );
        }
    }
}

#[test]
fn a_slice_of_a_sparse_frame_fetches_only_the_chunk_files_it_needs() {
    let dirs = sparse_fixtures();
    let server = Server::start(dirs.iter().flat_map(|(_, files)| files.clone()).collect());
    let name = "sparse-2d-i4.b2nd";
    let local = b2schema::open(fixture_file(name)).unwrap();
    assert!(local.frame().chunks().unwrap().len() > 1, "several chunk files");
    let array = b2schema::open_url(&server.url(&format!("{name}/"))).unwrap();
    let opened = array.frame().fetched().unwrap();
    let item = vec!["0"; local.shape().len()].join(",");
    assert_eq!(array.read(item.as_str()).unwrap(), local.read(item.as_str()).unwrap());
    let read = array.frame().fetched().unwrap();
    // One chunk file: its first bytes (which hold a small chunk whole), then at most its blocks.
    assert!(read.requests - opened.requests <= 2, "{opened:?} then {read:?}: {:?}", server.ranges());
    // The budget covers the chunk files: a whole read past it is refused.
    let limits = Limits::default().with_max_requests(opened.requests + 1);
    let e = failure(&server.url(&format!("{name}/")), limits);
    assert!(e.contains("max_requests") && e.contains(".chunk"), "{e}");
}

#[test]
fn redirects_are_followed_when_opening_within_a_bound() {
    let name = "chunks-10.b2nd";
    let bytes = std::fs::read(fixture_file(name)).unwrap();
    let server = Server::start(vec![(name.into(), bytes.clone())]);
    let local = b2schema::Container::from_bytes(bytes).unwrap().read_all().unwrap();
    // A path from the root, an absolute URL, a path from the directory.
    server.redirect("r1", &format!("/{name}"));
    server.redirect("r2", &server.url("r1"));
    server.redirect("d/r3", "../r2");
    server.reset_counts();
    let f = FrameFile::open_url_with(&server.url("d/r3"), Limits::default(), small_prefix()).unwrap();
    assert_eq!(b2schema::Container::from_frame(f.clone()).unwrap().read_all().unwrap(), local);
    assert_eq!(f.fetched().unwrap().requests, server.requests());
    // A loop: refused after the bound, within it.
    server.redirect("loop", "/loop");
    server.reset_counts();
    let e = failure(&server.url("loop"), Limits::default());
    assert!(e.contains("redirects, at most 5"), "{e}");
    assert_eq!(server.requests(), 6);
    // Up to https:// (these tests have the feature `https`): followed, to port 443, where
    // nothing listens here.
    server.redirect("tls", "https://127.0.0.1/x");
    let e = failure(&server.url("tls"), Limits::default());
    assert!(e.contains("https://127.0.0.1/x (Range: bytes=0-65535)") && e.contains("connecting"), "{e}");
    // A range answered by a redirect after the opening: an error naming the range.
    let f = FrameFile::open_url_with(&server.url(name), Limits::default(), small_prefix()).unwrap();
    server.redirect(name, "/elsewhere");
    let e = b2schema::Container::from_frame(f).and_then(|c| c.read_all()).unwrap_err().to_string();
    assert!(e.contains("redirects are followed only when opening") && e.contains("Range: bytes="), "{e}");
}
