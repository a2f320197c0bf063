//! A read declared whole at the open (`ObjectOptions::whole`, what `b2schema cat URL` without
//! `--slice` asks): the read-ahead stream starts with the open (`Range: bytes=0-`) and the end is
//! fetched while its body comes: 2 requests where the ends-first open takes 3, the object's bytes
//! once. Requests, ranges and bytes are counted by the tests' own server; a server that lies to
//! the open's stream is a clean error within the budget.

use std::time::{Duration, Instant};

use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::source::ReadAt;
use b2schema_object_store::{ObjectOptions, ObjectSource};
use b2schema_tests::fixture_file;
use b2schema_tests::http_server::{Misbehave, Server};

use crate::{LIES, big, quick};

fn whole(server: &Server) -> ObjectOptions {
    ObjectOptions { whole: true, ..quick(server) }
}

/// What `FrameFile::write_ndarray` writes (`cat`'s whole read) of the object, and what it cost.
fn write_whole(server: &Server, url: &str, options: &ObjectOptions) -> (Vec<u8>, u64, u64) {
    server.reset_counts();
    let src = ObjectSource::open_url(url, Limits::default(), options).unwrap();
    let file = FrameFile::from_source(src.clone(), url, Limits::default()).unwrap();
    let mut out = Vec::new();
    file.write_ndarray(&mut out).unwrap();
    let f = src.fetched().unwrap();
    assert_eq!((f.requests, f.bytes), (server.requests(), server.bytes_sent()), "{:?}", server.ranges());
    (out, f.requests, f.bytes)
}

#[test]
fn a_read_declared_whole_costs_two_requests_and_the_bytes_once() {
    let big = big();
    let len = big.len() as u64;
    let local = FrameFile::from_bytes(big.clone(), "big.b2nd", Limits::default()).unwrap();
    let mut want = Vec::new();
    local.write_ndarray(&mut want).unwrap();
    let server = Server::start(vec![("b/big.b2nd".into(), big)]);
    let url = "s3://b/big.b2nd";
    let (got, requests, bytes) = write_whole(&server, url, &whole(&server));
    assert!(got == want);
    // The stream from byte 0 to the end, and the last 64 KiB (asked once the stream's answer
    // said the length).
    assert_eq!(requests, 2, "{:?}", server.ranges());
    assert_eq!(server.ranges(), [(0, u64::MAX), (len - (64 << 10), len - 1)]);
    assert!(bytes <= len + (64 << 10), "{bytes} of {len}");
    // Without the declaration: the two ends, one after the other, then the stream.
    let (got, requests, _) = write_whole(&server, url, &quick(&server));
    assert!(got == want);
    assert_eq!(requests, 3, "{:?}", server.ranges());
}

/// An object shorter than the end's request: the stream brings it all, 1 request; and a read
/// of a part after a whole open fetches what the stream does not hold (the open only starts
/// the stream).
#[test]
fn a_short_object_declared_whole_costs_one_request_and_parts_still_read() {
    let bytes = std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap();
    assert!(bytes.len() < 64 << 10);
    let want = b2schema::Container::from_bytes(bytes.clone()).unwrap().read_all().unwrap();
    let server = Server::start(vec![("b/a.b2nd".into(), bytes.clone())]);
    let url = "s3://b/a.b2nd";
    let src = ObjectSource::open_url(url, Limits::default(), &whole(&server)).unwrap();
    assert_eq!(src.len(), bytes.len() as u64);
    let got = b2schema::open_source(src.clone(), url, Limits::default()).unwrap().read_all().unwrap();
    assert!(got == want);
    assert_eq!(server.requests(), 1, "{:?}", server.ranges());
    let mut tail = [0u8; 16];
    src.read_at(bytes.len() as u64 - 16, &mut tail).unwrap();
    assert_eq!(tail[..], bytes[bytes.len() - 16..]);
}

/// A server that lies to the open's stream (a wrong range, a cut or overlong body, an error,
/// silence: `LIES` but the `200` of the whole object, which is a right answer to `bytes=0-`): the open or the read fails with a typed error naming the URL and the range,
/// within the deadline, and within few requests.
#[test]
fn a_lying_server_at_a_whole_open_is_a_clean_error_within_the_budget() {
    let bytes = std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap();
    let server = Server::start(vec![("b/a.b2nd".into(), bytes)]);
    let url = "s3://b/a.b2nd";
    // A `200` with the whole object is a right answer to `bytes=0-`.
    for (mode, says) in LIES.into_iter().filter(|(m, _)| *m != Misbehave::IgnoreRange) {
        server.misbehave(mode);
        server.reset_counts();
        let started = Instant::now();
        let got = ObjectSource::open_url(url, Limits::default(), &whole(&server))
            .and_then(|src| b2schema::open_source(src, url, Limits::default())?.read_all());
        let e = got.expect_err(&format!("{mode:?} is refused"));
        // A body the connection cut is an I/O error (object_store's), the rest the server's lies.
        let kind = e.kind();
        assert!(
            matches!(kind, b2schema::ErrorKind::Invalid(_) | b2schema::ErrorKind::Io(_)),
            "{mode:?}: {e}"
        );
        // The stream's range (`bytes=0-`), or the range of a read that found the stream ended.
        let text = e.to_string();
        assert!(text.contains("s3://b/a.b2nd (Range: bytes=") && text.contains(says), "{mode:?}: {text}");
        assert!(started.elapsed() < Duration::from_secs(30), "{mode:?}: {:?}", started.elapsed());
        assert!(server.requests() <= 12, "{mode:?}: {:?}", server.ranges());
    }
    server.misbehave(Misbehave::Not);
}
