//! Whole reads over `http://` and `https://` streamed (`HttpOptions::readahead`): a whole array
//! read comes in one ranged GET read in the background, equal to the local read; the stream
//! holds at most its budget however far the body runs ahead of the reads; and a server that
//! cuts the streamed body, trickles it or answers another range gives the reads to ranged
//! requests or a clean error, within the budget.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use b2schema::frame::FrameFile;
use b2schema::source::http::{HttpOptions, HttpSource, Opened};
use b2schema::source::{Fetched, ReadAt};
use b2schema::{Container, ErrorKind, Limit, Limits};
use b2schema_tests::http_server::{BodyFault, Misbehave, Server};
use b2schema_tests::tls_server::{Pki, TlsServer};

use super::remote::big_array;

/// Quick options: short timeouts and backoff, no proxy.
fn quick() -> HttpOptions {
    HttpOptions {
        timeout: Duration::from_millis(500),
        backoff: Duration::from_millis(5),
        proxy_from_env: false,
        ..HttpOptions::default()
    }
}

/// `url`'s whole read (on a thread of its own, ended after a minute: a hang is a failure), and
/// what it fetched.
fn whole_read(url: &str, limits: Limits, options: HttpOptions) -> (b2schema::Result<Vec<u8>>, Fetched) {
    let (tx, rx) = mpsc::channel();
    let url = url.to_string();
    std::thread::spawn(move || {
        let r = FrameFile::open_url_with(&url, limits, options).and_then(|f| {
            let c = Container::from_frame(f)?;
            let r = c.read_all();
            Ok((r, c.frame().fetched().unwrap_or_default()))
        });
        let _ = tx.send(r);
    });
    let got = rx.recv_timeout(Duration::from_secs(60)).expect("the read ends within a minute");
    got.expect("the file opens")
}

fn local() -> Vec<u8> {
    Container::from_bytes(big_array().clone()).unwrap().read_all().unwrap()
}

#[test]
fn a_whole_read_over_http_comes_in_one_stream_equal_to_the_local_read() {
    let big = big_array();
    let server = Server::start(vec![("big.b2nd".into(), big.clone())]);
    let url = server.url("big.b2nd");
    let local = local();
    // Without read-ahead, a request per chunk's table and one per chunk's blocks (25 chunks).
    let (r, ranged) = whole_read(&url, Limits::default(), HttpOptions { readahead: 0, ..quick() });
    assert_eq!(r.unwrap(), local);
    assert!(ranged.requests > 25, "{ranged:?}");
    server.reset_counts();
    // With it: the two ends when opening, then one GET for every chunk.
    let (r, streamed) = whole_read(&url, Limits::default(), quick());
    assert_eq!(r.unwrap(), local);
    assert_eq!(streamed.requests, 3, "{streamed:?}: {:?}", server.ranges());
    assert!(streamed.bytes <= big.len() as u64 + (128 << 10), "{streamed:?}");
    assert_eq!((server.requests(), server.bytes_sent()), (streamed.requests, streamed.bytes));
}

#[test]
fn a_whole_read_over_https_comes_in_one_stream_equal_to_the_local_read() {
    let server = TlsServer::start(vec![("big.b2nd".into(), big_array().clone())]);
    let options = HttpOptions { ca_file: Some(Pki::get().ca()), ..quick() };
    let (r, streamed) = whole_read(&server.url("big.b2nd"), Limits::default(), options);
    assert_eq!(r.unwrap(), local());
    assert_eq!(streamed.requests, 3, "{streamed:?}: {:?}", server.backend().ranges());
    let b = server.backend();
    assert_eq!((b.requests(), b.bytes_sent()), (streamed.requests, streamed.bytes));
}

#[test]
fn a_stream_holds_at_most_its_budget_ahead_of_the_reads() {
    let big = big_array();
    let server = Server::start(vec![("big.b2nd".into(), big.clone())]);
    let budget = 1u64 << 20;
    let options = HttpOptions { readahead: budget, ..quick() };
    let Opened::Ranged(src) = HttpSource::open(&server.url("big.b2nd"), Limits::default(), options).unwrap()
    else {
        panic!("a ranged source")
    };
    let opened = src.fetched().unwrap();
    src.will_read(0..src.len());
    let mut buf = vec![0u8; 64 << 10];
    src.read_at(100_000, &mut buf).unwrap();
    assert_eq!(buf, big[100_000..100_000 + buf.len()]);
    let reads = src.fetched().unwrap().requests;
    // The stream reads on while it is less than half the budget ahead of the read (in parts of
    // at most half of it), then waits: 17 MB are there to read.
    let most = 100_000 + buf.len() as u64 + budget;
    let until = Instant::now() + Duration::from_millis(500);
    while Instant::now() < until {
        let ahead = src.fetched().unwrap().bytes - opened.bytes;
        assert!(ahead <= most, "{ahead} bytes fetched, at most {most}");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The reads on: served by the stream, which moves on with them.
    for at in (100_000 + buf.len()..4_000_000).step_by(buf.len()) {
        src.read_at(at as u64, &mut buf).unwrap();
        assert_eq!(buf, big[at..at + buf.len()], "{at}");
    }
    assert_eq!(src.fetched().unwrap().requests, reads);
}

#[test]
fn a_stream_cut_short_or_trickling_leaves_its_reads_to_ranged_requests() {
    let server = Server::start(vec![("big.b2nd".into(), big_array().clone())]);
    let url = server.url("big.b2nd");
    let local = local();
    // Bodies over 4 MiB (the streams) cut at their half: two streams, then ranged requests.
    server.misbehave(Misbehave::Over(4 << 20, BodyFault::Cut));
    let (r, f) = whole_read(&url, Limits::default(), quick());
    assert_eq!(r.unwrap(), local);
    let long = server.ranges().iter().filter(|(a, b)| b - a >= 4 << 20).count();
    assert!((1..=2).contains(&long), "{long} streams: {:?}", server.ranges());
    assert!(f.requests <= 2 + 2 + 3 * 25, "{f:?}: {:?}", server.ranges());
    // Bodies that trickle: each part (64 KiB here) late after the timeout and a second.
    server.misbehave(Misbehave::Over(4 << 20, BodyFault::Trickle));
    server.reset_counts();
    let started = Instant::now();
    let (r, f) = whole_read(&url, Limits::default(), HttpOptions { readahead: 128 << 10, ..quick() });
    assert_eq!(r.unwrap(), local);
    // The two ends, at most four streams, and per chunk its table (at times twice) and blocks.
    assert!(f.requests <= 2 + 4 + 3 * 25, "{f:?}: {:?}", server.ranges());
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
}

#[test]
fn a_stream_answered_with_another_range_or_past_the_budget_is_an_error() {
    let server = Server::start(vec![("big.b2nd".into(), big_array().clone())]);
    let url = server.url("big.b2nd");
    server.misbehave(Misbehave::Over(4 << 20, BodyFault::Shifted));
    let (r, f) = whole_read(&url, Limits::default(), quick());
    let e = r.unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Invalid(_)), "{e}");
    assert!(e.to_string().contains("a Content-Range of the range asked"), "{e}");
    assert!(f.requests <= 2 + 4 + 3 * 25, "{f:?}");
    // The stream's bytes count against the budget as they come: the read stops at it.
    server.misbehave(Misbehave::Not);
    let (r, f) = whole_read(&url, Limits::default().with_max_fetched(4 << 20), quick());
    let e = r.unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::BudgetExceeded { limit: Limit::Fetched, .. }), "{e}");
    assert!(f.bytes <= (4 << 20) + (1 << 20), "{f:?}");
}
