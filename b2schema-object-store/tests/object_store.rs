//! The object-store source against real servers on 127.0.0.1 started by the tests: moto's S3
//! (python-blosc2's files read equal to their local reads, requests and bytes counted, uploads
//! whole or not at all) and the project's lying HTTP server standing for an S3 endpoint (wrong
//! ranges, truncated and overlong bodies, errors, silence: each a clean error naming the URL and
//! the range, within the budget).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::source::ReadAt;
use b2schema::store::Store;
use b2schema::writer::{Fill, NdArray};
use b2schema_object_store::{ObjectOptions, ObjectSource, upload};
use b2schema_tests::http_server::{Misbehave, Server};
use b2schema_tests::s3_server::S3Server;
use b2schema_tests::{fixture_file, repo_root};

mod azure;
mod sparse;
mod whole;

/// One moto server for the tests, with the bucket `data` holding python-blosc2's fixtures
/// (`fixtures/NAME`) and stores (`stores/NAME`).
pub(crate) fn moto() -> &'static S3Server {
    static S: OnceLock<S3Server> = OnceLock::new();
    S.get_or_init(|| {
        let s = S3Server::start();
        s.create_bucket("data");
        for (name, bytes) in fixtures() {
            s.put("data", &format!("fixtures/{name}"), &bytes);
        }
        for name in STORES {
            let bytes = std::fs::read(repo_root().join("tests/data/stores").join(name)).unwrap();
            s.put("data", &format!("stores/{name}"), &bytes);
        }
        s
    })
}

const STORES: [&str; 4] = ["dict.b2z", "tree.b2z", "kinds.b2z", "embed.b2e"];

/// Options pointing at `server` (its variables as settings, not the process's environment).
pub(crate) fn at(server: &S3Server) -> ObjectOptions {
    ObjectOptions { config: server.env(), ..ObjectOptions::default() }
}

/// Every contiguous fixture python-blosc2 wrote (the sparse frames are directories).
pub(crate) fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(fixture_file(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_str().unwrap().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() > 100, "the fixtures are there: {}", out.len());
    out
}

#[test]
fn every_fixture_read_from_s3_equals_its_local_read() {
    let s3 = moto();
    // The whole file in the first 64 KiB; then a first request of 256 bytes, which holds less
    // than the metadata, so that the rest of it and every chunk come by ranged reads.
    for prefix in [64 << 10, 256] {
        every_fixture_equals_its_local_read(ObjectOptions { prefix, ..at(s3) }, "s3://data/fixtures/");
    }
}

/// Each fixture read from `{under}NAME` (by `options`) equals its local read, opened in one
/// request or two.
fn every_fixture_equals_its_local_read(options: ObjectOptions, under: &str) {
    let prefix = options.prefix;
    for (name, bytes) in fixtures() {
        let url = format!("{under}{name}");
        let local = FrameFile::from_bytes(bytes.clone(), &name, Limits::default());
        let src = ObjectSource::open_url(&url, Limits::default(), &options).unwrap();
        assert_eq!(src.len(), bytes.len() as u64, "{name}");
        let opened = src.fetched().unwrap();
        // The first bytes (the length learnt), and the last as many when the object is longer.
        let len = bytes.len() as u64;
        assert_eq!(opened.requests, if len <= prefix { 1 } else { 2 }, "{name}");
        assert_eq!(opened.bytes, len.min(2 * prefix), "{name}");
        let remote = FrameFile::from_source(src, &url, Limits::default());
        let (local, remote) = match (local, remote) {
            (Ok(l), Ok(r)) => (l, r),
            (Err(_), Err(e)) => {
                assert!(e.to_string().contains(&url), "{name}: {e}");
                continue;
            }
            (l, r) => panic!("{name}: local {:?} but remote {:?}", l.err(), r.err()),
        };
        assert_eq!(local.header_bytes(), remote.header_bytes(), "{name}");
        assert_eq!(local.index_bytes(), remote.index_bytes(), "{name}");
        assert_eq!(
            local.chunks().map_err(|e| e.to_string()),
            remote.chunks().map_err(|e| e.to_string()),
            "{name}"
        );
        let (Ok(l), Ok(r)) =
            (b2schema::Container::from_frame(local), b2schema::Container::from_frame(remote))
        else {
            continue;
        };
        match (l.read_all(), r.read_all()) {
            (Ok(l), Ok(r)) => assert!(l == r, "{name}: the data differ"),
            (Err(_), Err(_)) => {}
            (l, r) => panic!("{name}: local {:?} remote {:?}", l.err(), r.err()),
        }
    }
}

#[test]
fn stores_read_from_s3_equal_their_local_reads() {
    let s3 = moto();
    for name in STORES {
        let path = repo_root().join("tests/data/stores").join(name);
        let local = Store::open(&path).unwrap();
        let url = format!("s3://data/stores/{name}");
        let src = ObjectSource::open_url(&url, Limits::default(), &at(s3)).unwrap();
        let remote = Store::from_source(src.clone(), &url, Limits::default()).unwrap();
        let keys: Vec<String> = local.members().iter().map(|m| m.key.clone()).collect();
        assert_eq!(keys, remote.members().iter().map(|m| m.key.clone()).collect::<Vec<_>>(), "{name}");
        for key in &keys {
            let (l, r) = (local.open_member(key), remote.open_member(key));
            let (Ok(l), Ok(r)) = (l, r) else { continue };
            let (Ok(l), Ok(r)) = (b2schema::Container::from_frame(l), b2schema::Container::from_frame(r))
            else {
                continue;
            };
            assert!(l.read_all().unwrap() == r.read_all().unwrap(), "{name} {key}");
        }
        assert!(src.fetched().unwrap().requests >= 1);
    }
}

/// A 4160 x 4160 `|u1` array of 1024 x 1024 chunks of 64 x 64 blocks (17 MB).
pub(crate) fn big() -> Vec<u8> {
    let n = 4160usize;
    let items: Vec<u8> = (0..n * n).map(|i| ((i / n) * 3 + (i % n) * 5) as u8).collect();
    let mut a = NdArray::new(&[n as i64, n as i64], &[1024, 1024], &[64, 64], "|u1", 1, Fill::Data(&items));
    a.cparams.codec = b2schema::frame::Codec::Lz4;
    a.cparams.clevel = 1;
    a.to_frame().unwrap().to_vec().unwrap()
}

#[test]
fn one_item_costs_four_requests_and_a_slice_joins_its_blocks() {
    let s3 = moto();
    s3.put("data", "big.b2nd", &big());
    let url = "s3://data/big.b2nd";
    let src = ObjectSource::open_url(url, Limits::default(), &at(s3)).unwrap();
    let array = b2schema::open_source(src.clone(), url, Limits::default()).unwrap();
    assert_eq!(array.read_as::<u8>("2049:2050,4097:4098").unwrap(), [((2049 * 3 + 4097 * 5) % 256) as u8]);
    let f = src.fetched().unwrap();
    // The first and last 64 KiB, the chunk's table, its block.
    assert_eq!(f.requests, 4, "{f:?}");
    assert!(f.bytes <= (128 << 10) + 8192, "{f:?}");
    // The chunk's table is kept: a neighbouring item of the same block costs nothing more, one
    // of another block of the same chunk one request.
    assert_eq!(array.read_as::<u8>("2050:2051,4097:4098").unwrap(), [((2050 * 3 + 4097 * 5) % 256) as u8]);
    let again = src.fetched().unwrap();
    assert!(again.requests <= f.requests + 1, "{again:?}");
    // 64 rows of one chunk across its width: 16 blocks side by side, one joined request.
    let before = src.fetched().unwrap().requests;
    let rows = array.read_as::<u8>("1024:1088,1024:2048").unwrap();
    assert_eq!(rows[5 * 1024 + 7], (((1024 + 5) * 3 + (1024 + 7) * 5) % 256) as u8);
    let spent = src.fetched().unwrap().requests - before;
    assert!(spent <= 2, "{spent} requests for 16 neighbouring blocks");
}

/// A whole array read chunk after chunk: the reader announces it, and its reads are served by
/// one GET of the rest of the frame, read in the background as they consume it (the threads of
/// the read share it: the frame is within half the read-ahead). Without read-ahead it costs two
/// requests per chunk. The bytes fetched are the object's, none twice.
#[test]
fn a_whole_read_reads_ahead_and_costs_few_requests() {
    let s3 = moto();
    let big = big();
    s3.put("data", "whole.b2nd", &big);
    let url = "s3://data/whole.b2nd";
    let local = b2schema::Container::from_bytes(big.clone()).unwrap().read_as::<u8>("...").unwrap();
    let mut fetched = Vec::new();
    for readahead in [64 << 20, 0] {
        let options = ObjectOptions { readahead, ..at(s3) };
        let src = ObjectSource::open_url(url, Limits::default(), &options).unwrap();
        let array = b2schema::open_source(src.clone(), url, Limits::default()).unwrap();
        assert!(array.read_as::<u8>("...").unwrap() == local, "readahead {readahead}");
        fetched.push(src.fetched().unwrap());
    }
    let (ahead, plain) = (fetched[0], fetched[1]);
    // The two ends, then one GET for the chunks.
    assert_eq!(ahead.requests, 3, "{fetched:?}");
    // Nothing fetched twice: the object's bytes, at most the two ends' 64 KiB more.
    assert!(ahead.bytes <= big.len() as u64 + (128 << 10), "{ahead:?} of {}", big.len());
    // 25 chunks: a table and a band of blocks a chunk (a table's read of 4 KiB may take the
    // first blocks' bytes again).
    assert!(plain.requests >= 50, "{fetched:?}");
    assert!(plain.bytes <= big.len() as u64 + (2 << 20), "{plain:?} of {}", big.len());
}

/// `FrameFile::write_ndarray` over an object (what `b2schema cat URL` runs): the chunks'
/// headers are not read one request each before the first byte, so the items come by the
/// streamed whole read, 3 requests, equal to the local file's. A chunk whose header says another
/// size stops the output there with the error (a local file is refused before any byte).
#[test]
fn a_streamed_write_of_an_array_costs_three_requests_and_a_wrong_chunk_stops_it() {
    let s3 = moto();
    let mut big = big();
    let local = FrameFile::from_bytes(big.clone(), "big.b2nd", Limits::default()).unwrap();
    let mut want = Vec::new();
    local.write_ndarray(&mut want).unwrap();
    s3.put("data", "streamed.b2nd", &big);
    let url = "s3://data/streamed.b2nd";
    let src = ObjectSource::open_url(url, Limits::default(), &at(s3)).unwrap();
    let file = FrameFile::from_source(src.clone(), url, Limits::default()).unwrap();
    let mut got = Vec::new();
    file.write_ndarray(&mut got).unwrap();
    assert!(got == want);
    let f = src.fetched().unwrap();
    assert_eq!(f.requests, 3, "{f:?}");
    assert!(f.bytes <= big.len() as u64 + (128 << 10), "{f:?} of {}", big.len());
    // Chunk 12 says it holds 4 KiB fewer bytes.
    let b2schema::frame::ChunkLocation::Offset(o) = local.chunks().unwrap()[12].location else {
        panic!("a stored chunk")
    };
    let at_nbytes = local.header_bytes().len() + o as usize + 4;
    let nbytes = i32::from_le_bytes(big[at_nbytes..at_nbytes + 4].try_into().unwrap());
    big[at_nbytes..at_nbytes + 4].copy_from_slice(&(nbytes - 4096).to_le_bytes());
    let mut none = Vec::new();
    let wrong = FrameFile::from_bytes(big.clone(), "wrong.b2nd", Limits::default()).unwrap();
    assert!(wrong.write_ndarray(&mut none).is_err() && none.is_empty());
    s3.put("data", "wrong.b2nd", &big);
    let url = "s3://data/wrong.b2nd";
    let src = ObjectSource::open_url(url, Limits::default(), &at(s3)).unwrap();
    let file = FrameFile::from_source(src, url, Limits::default()).unwrap();
    let mut part = Vec::new();
    let e = file.write_ndarray(&mut part).unwrap_err();
    assert!(matches!(e.kind(), b2schema::ErrorKind::Invalid(_) | b2schema::ErrorKind::Chunk(_)), "{e}");
    assert!(part.len() < want.len() && want.starts_with(&part), "{} of {}", part.len(), want.len());
}

/// A server that fails while a whole read streams the frame (its body cut halfway, 500, a
/// dropped connection, a trickled head): the read ends with the error of what the server did,
/// naming the URL and the range, within the deadline; never a hang, never wrong bytes.
#[test]
fn a_server_failing_during_a_streamed_whole_read_is_a_clean_error() {
    let big = big();
    let server = Server::start(vec![("b/big.b2nd".into(), big)]);
    let url = "s3://b/big.b2nd";
    for (mode, says) in [
        (Misbehave::ShortBody, "body"),
        (Misbehave::Error500, "answer"),
        (Misbehave::Drop, "answer"),
        (Misbehave::Trickle, "answer"),
    ] {
        server.misbehave(Misbehave::Not);
        let src = ObjectSource::open_url(url, Limits::default(), &quick(&server)).unwrap();
        let array = b2schema::open_source(src.clone(), url, Limits::default()).unwrap();
        let before = src.fetched().unwrap();
        server.misbehave(mode);
        let started = Instant::now();
        let e = array.read_as::<u8>("...").expect_err(&format!("{mode:?} is refused"));
        assert!(matches!(e.kind(), b2schema::ErrorKind::Invalid(_)), "{mode:?}: {e}");
        let text = e.to_string();
        assert!(text.contains("s3://b/big.b2nd (Range: bytes=") && text.contains(says), "{mode:?}: {text}");
        assert!(started.elapsed() < Duration::from_secs(30), "{mode:?}: {:?}", started.elapsed());
        // The stream's request (and object_store's retry), and the reads that found no stream:
        // each refused within its deadline, all within the budget.
        let f = src.fetched().unwrap();
        assert!(f.requests > before.requests && f.requests <= before.requests + 40, "{mode:?}: {f:?}");
        drop((array, src));
        assert!(started.elapsed() < Duration::from_secs(30), "{mode:?}: the drop waited");
    }
}

#[test]
fn budgets_bound_requests_and_bytes() {
    let s3 = moto();
    let url = "s3://data/fixtures/chunks-200.b2nd";
    let few = Limits::default().with_max_requests(3);
    let small = ObjectOptions { prefix: 256, ..at(s3) };
    let e = ObjectSource::open_url(url, few, &small)
        .and_then(|src| b2schema::open_source(src, url, few)?.read_all())
        .unwrap_err()
        .to_string();
    assert!(e.contains("requests") && e.contains(url), "{e}");
    let little = Limits::default().with_max_fetched(1000);
    let e = ObjectSource::open_url(url, little, &at(s3)).unwrap_err().to_string();
    assert!(e.contains("bytes fetched") && e.contains(url), "{e}");
}

#[test]
fn uploads_are_whole_or_nothing() {
    let s3 = moto();
    let small = std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap();
    let up = upload("s3://data/up/small.b2nd", &mut &small[..], small.len() as u64, &at(s3)).unwrap();
    assert_eq!((up.parts, up.bytes), (0, small.len() as u64));
    assert_eq!(s3.download("data", "up/small.b2nd").unwrap(), small);
    // 12 MiB in parts of 5 MiB: three parts, the object there once the upload completes.
    let large: Vec<u8> = (0..12u32 << 20).map(|i| (i % 251) as u8).collect();
    let parts = ObjectOptions { part_size: 5 << 20, ..at(s3) };
    let up = upload("s3://data/up/large.bin", &mut &large[..], large.len() as u64, &parts).unwrap();
    assert_eq!(up.parts, 3);
    assert!(s3.download("data", "up/large.bin").unwrap() == large);
    // A source that ends early, or says more than announced: an error, and nothing stored.
    for (len, key) in [(large.len() as u64 + 1, "up/short.bin"), (large.len() as u64 - 1, "up/long.bin")] {
        let e = upload(&format!("s3://data/{key}"), &mut &large[..], len, &parts).unwrap_err().to_string();
        assert!(e.contains("bytes to upload"), "{e}");
        assert!(s3.download("data", key).is_none(), "{key} is visible after a failed upload");
    }
    let e = upload("s3://data/up/tiny.bin", &mut &small[..10], 11, &at(s3)).unwrap_err().to_string();
    assert!(e.contains("bytes to upload"), "{e}");
    assert!(s3.download("data", "up/tiny.bin").is_none());
}

/// Options for the lying server: short deadlines, one retry.
pub(crate) fn quick(server: &Server) -> ObjectOptions {
    let endpoint = server.url("");
    let config = [
        ("AWS_ENDPOINT_URL", endpoint.trim_end_matches('/')),
        ("AWS_ACCESS_KEY_ID", "test"),
        ("AWS_SECRET_ACCESS_KEY", "test"),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ALLOW_HTTP", "true"),
    ];
    ObjectOptions {
        timeout: Duration::from_secs(1),
        retries: 1,
        config: config.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        ..ObjectOptions::default()
    }
}

#[test]
fn the_requests_counted_are_the_servers() {
    let server = Server::start(vec![("b/big.b2nd".into(), big())]);
    let src = ObjectSource::open_url("s3://b/big.b2nd", Limits::default(), &quick(&server)).unwrap();
    let array = b2schema::open_source(src.clone(), "s3://b/big.b2nd", Limits::default()).unwrap();
    array.read_as::<u8>("0:100,0:4160").unwrap();
    let f = src.fetched().unwrap();
    assert_eq!((f.requests, f.bytes), (server.requests(), server.bytes_sent()), "{:?}", server.ranges());
}

/// The test server's lies, and a word the error says of each.
pub(crate) const LIES: [(Misbehave, &str); 9] = [
    (Misbehave::WrongRange, "range"),
    (Misbehave::ShortBody, "body"),
    (Misbehave::LongBody, "more"),
    (Misbehave::IgnoreRange, "answer"),
    (Misbehave::Error500, "answer"),
    (Misbehave::Unsatisfiable, "answer"),
    (Misbehave::Drop, "answer"),
    (Misbehave::Trickle, "answer"),
    (Misbehave::EndlessHead, "answer"),
];

#[test]
fn a_lying_server_is_a_clean_error_within_the_budget() {
    let bytes = std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap();
    let server = Server::start(vec![("b/a.b2nd".into(), bytes)]);
    let url = "s3://b/a.b2nd";
    for (mode, says) in LIES {
        server.misbehave(mode);
        let started = Instant::now();
        let got = ObjectSource::open_url(url, Limits::default(), &quick(&server))
            .and_then(|src| b2schema::open_source(src, url, Limits::default())?.read_all());
        let e = got.expect_err(&format!("{mode:?} is refused")).to_string();
        assert!(e.contains("s3://b/a.b2nd (Range: bytes=0-65535)") && e.contains(says), "{mode:?}: {e}");
        // One retry of 1 s at most, each with a deadline: far within 30 s.
        assert!(started.elapsed() < Duration::from_secs(30), "{mode:?}: {:?}", started.elapsed());
    }
    server.misbehave(Misbehave::Not);
    // Where nothing listens: the same failure.
    // (The credentials stay set: without them object_store would ask the instance metadata
    // address, which is not on this machine.)
    let mut nobody = quick(&server);
    nobody.config.push(("AWS_ENDPOINT_URL".into(), "http://127.0.0.1:1".into()));
    let e = ObjectSource::open_url(url, Limits::default(), &nobody).unwrap_err().to_string();
    assert!(e.contains("s3://b/a.b2nd (Range: bytes=0-65535)"), "{e}");
}

#[test]
fn urls_are_checked_before_anything_is_sent() {
    let options = ObjectOptions::default();
    for (url, says) in [
        ("s3://bucket", "a key after the bucket"),
        ("ftp://host/x", "one of the schemes"),
        ("s3://", "scheme://bucket/key"),
    ] {
        let e = ObjectSource::open_url(url, Limits::default(), &options).unwrap_err().to_string();
        assert!(e.contains(says), "{url}: {e}");
    }
    let bad = ObjectOptions { config: vec![("no_such_setting".into(), "1".into())], ..options };
    let e = ObjectSource::open_url("s3://b/k", Limits::default(), &bad).unwrap_err().to_string();
    assert!(e.contains("no_such_setting"), "{e}");
    assert!(b2schema_object_store::is_object_url("abfs://c@acct.dfs.core.windows.net/k"));
    assert!(!b2schema_object_store::is_object_url("https://x/y"));
}
