//! Frames and stores read over `https://` (feature `https`) from a TLS server on 127.0.0.1
//! (`b2schema_tests::tls_server`: rustls with graviola before the plain test server), with a
//! test CA made when the tests start: python-blosc2's fixtures read equal to their local reads,
//! what a read fetches counted the same as over `http://`, and every fault of the TLS layer
//! (a cut record, an alert mid-body, a certificate for another name, expired or from a CA not
//! trusted, a handshake that trickles in, a redirect to `http://`) a clean error within the
//! budget, that names the URL.

use std::time::{Duration, Instant};

use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::source::http::HttpOptions;
use b2schema::store::Store;
use b2schema_tests::fixture_file;
use b2schema_tests::tls_server::{Cert, Pki, TlsFault, TlsServer};

/// The test CA trusted, quick retries, a first request of 256 bytes (less than a fixture's
/// metadata, so that the rest and every chunk come by ranged reads).
fn trusting() -> HttpOptions {
    HttpOptions {
        ca_file: Some(Pki::get().ca()),
        prefix: 256,
        timeout: Duration::from_secs(2),
        backoff: Duration::from_millis(5),
        proxy_from_env: false,
        ..HttpOptions::default()
    }
}

/// Fixtures python-blosc2 wrote (an NDArray of 3 dimensions, one of 2 over many chunks), and a
/// `.b2z` store.
fn files() -> Vec<(String, Vec<u8>)> {
    ["nd-3d-f8-zstd.b2nd", "chunks-2d-60.b2nd"]
        .iter()
        .map(|n| (n.to_string(), std::fs::read(fixture_file(n)).unwrap()))
        .chain([(
            "s.b2z".to_string(),
            std::fs::read(b2schema_tests::data_root().join("stores/tree.b2z")).unwrap(),
        )])
        .collect()
}

#[test]
fn fixtures_read_over_https_equal_their_local_reads_fetching_what_http_fetches() {
    let server = TlsServer::start(files());
    for name in ["nd-3d-f8-zstd.b2nd", "chunks-2d-60.b2nd"] {
        let local = b2schema::open(fixture_file(name)).unwrap();
        server.backend().reset_counts();
        let remote = FrameFile::open_url_with(&server.url(name), Limits::default(), trusting()).unwrap();
        let remote = b2schema::Container::from_frame(remote).unwrap();
        assert_eq!(remote.shape(), local.shape(), "{name}");
        assert_eq!(remote.read_all().unwrap(), local.read_all().unwrap(), "{name}");
        // One item: what the client counts is what the server sent, request for request.
        let sel = local.shape().iter().map(|n| (n / 2).to_string()).collect::<Vec<_>>().join(",");
        assert_eq!(remote.read(sel.as_str()).unwrap(), local.read(sel.as_str()).unwrap(), "{name}");
        let f = remote.frame().fetched().unwrap();
        assert_eq!(
            (f.requests, f.bytes),
            (server.backend().requests(), server.backend().bytes_sent()),
            "{name}"
        );
    }
    // Connections are kept and reused: fewer connections than requests.
    let b = server.backend();
    assert!(b.connections() < b.requests(), "{} connections for {} requests", b.connections(), b.requests());
    // A store: its members by key, equal to the local store's.
    let store = Store::open_url_with(&server.url("s.b2z"), Limits::default(), trusting()).unwrap();
    let local = Store::open(b2schema_tests::data_root().join("stores/tree.b2z")).unwrap();
    assert_eq!(store.members().len(), local.members().len());
    for m in local.members() {
        let (l, r) = (local.open_member(&m.key), store.open_member(&m.key));
        match (l, r) {
            (Ok(l), Ok(r)) => assert_eq!(l.header_bytes(), r.header_bytes(), "{}", m.key),
            (l, r) => assert_eq!(l.is_ok(), r.is_ok(), "{}", m.key),
        }
    }
}

#[test]
fn a_store_and_a_frame_open_through_a_users_own_source_as_from_their_files() {
    use b2schema::source::Memory;
    use std::sync::Arc;
    let path = b2schema_tests::data_root().join("stores/tree.b2z");
    let (file, mine) = (
        Store::open(&path).unwrap(),
        Store::from_source(
            Arc::new(Memory::new(std::fs::read(&path).unwrap())),
            "mine.b2z",
            Limits::default(),
        )
        .unwrap(),
    );
    let keys = |s: &Store| s.members().iter().map(|m| m.key.clone()).collect::<Vec<_>>();
    assert_eq!(keys(&file), keys(&mine));
    for m in file.members() {
        let (a, b) = (file.open_member(&m.key), mine.open_member(&m.key));
        assert_eq!(
            a.map(|f| f.header_bytes().to_vec()).ok(),
            b.map(|f| f.header_bytes().to_vec()).ok(),
            "{}",
            m.key
        );
    }
    let frame = fixture_file("nd-3d-f8-zstd.b2nd");
    let source = Arc::new(Memory::new(std::fs::read(&frame).unwrap()));
    let mine = b2schema::open_source(source, "mine.b2nd", Limits::default()).unwrap();
    assert_eq!(mine.read_all().unwrap(), b2schema::open(&frame).unwrap().read_all().unwrap());
    // A source cut short: an error naming it.
    let cut = Arc::new(Memory::new(std::fs::read(&frame).unwrap()[..100].to_vec()));
    let e = b2schema::open_source(cut, "cut.b2nd", Limits::default()).unwrap_err().to_string();
    assert!(e.starts_with("cut.b2nd"), "{e}");
}

/// `url`'s open and whole read with `options`, as an error text, within `within`.
fn failure(url: &str, options: HttpOptions, within: Duration) -> String {
    let started = Instant::now();
    let r = FrameFile::open_url_with(url, Limits::default(), options)
        .and_then(|f| b2schema::Container::from_frame(f)?.read_all().map(|_| ()));
    assert!(started.elapsed() < within, "{url}: {:?}", started.elapsed());
    let e = r.expect_err("the server misbehaves").to_string();
    assert!(e.contains(url), "{e}");
    e
}

#[test]
fn certificates_for_another_name_expired_or_untrusted_are_refused_at_the_first_request() {
    let server = TlsServer::start(files());
    let url = server.url("nd-3d-f8-zstd.b2nd");
    for (cert, says) in [
        (Cert::WrongName, "not valid for name"),
        (Cert::Expired, "Expired"),
        (Cert::Untrusted, "UnknownIssuer"),
    ] {
        server.cert(cert);
        server.backend().reset_counts();
        let e = failure(&url, trusting(), Duration::from_secs(5));
        assert!(e.contains("invalid peer certificate") && e.contains(says), "{cert:?}: {e}");
        // Final at once (no retry), and no request reached the server.
        assert_eq!(server.backend().requests(), 0, "{cert:?}");
    }
    // Without the test CA among the roots, the good certificate is untrusted too.
    server.cert(Cert::Good);
    let plain = HttpOptions { ca_file: None, ..trusting() };
    let e = failure(&url, plain, Duration::from_secs(5));
    assert!(e.contains("UnknownIssuer"), "{e}");
    // And with it, the file opens.
    assert!(FrameFile::open_url_with(&url, Limits::default(), trusting()).is_ok());
}

#[test]
fn records_cut_short_and_alerts_mid_body_are_errors_within_the_attempts() {
    let server = TlsServer::start(files());
    let url = server.url("nd-3d-f8-zstd.b2nd");
    for (fault, says) in
        [(TlsFault::TruncatedRecord, "reading the body after"), (TlsFault::AlertMidBody, "a short body")]
    {
        server.fault(fault);
        server.backend().reset_counts();
        let e = failure(&url, trusting(), Duration::from_secs(10));
        assert!(e.contains("(Range: bytes=0-255)") && e.contains(says), "{fault:?}: {e}");
        assert!(server.backend().requests() <= 4, "{fault:?}: {} requests", server.backend().requests());
    }
}

#[test]
fn a_handshake_that_trickles_in_ends_at_the_deadline() {
    let server = TlsServer::start(files());
    server.fault(TlsFault::TrickleHandshake);
    let url = server.url("nd-3d-f8-zstd.b2nd");
    // 300 ms a connection, 4 attempts: well under 3 s, where the server would trickle for 30 s.
    let options = HttpOptions { timeout: Duration::from_millis(300), ..trusting() };
    let e = failure(&url, options, Duration::from_secs(3));
    assert!(e.contains("the TLS handshake") && e.contains("took longer than allowed"), "{e}");
}

#[test]
fn a_redirect_from_https_to_http_is_refused_and_one_to_https_followed() {
    let server = TlsServer::start(files());
    let http = server.backend().url("nd-3d-f8-zstd.b2nd");
    server.backend().redirect("down.b2nd", &http);
    let e = failure(&server.url("down.b2nd"), trusting(), Duration::from_secs(5));
    assert!(e.contains("a redirect from https:// to") && e.contains("refused: it would drop TLS"), "{e}");
    // Up: from http:// to https://, followed.
    server.backend().redirect("up.b2nd", &server.url("nd-3d-f8-zstd.b2nd"));
    let f =
        FrameFile::open_url_with(&server.backend().url("up.b2nd"), Limits::default(), trusting()).unwrap();
    assert_eq!(f.path().to_str().unwrap(), server.backend().url("up.b2nd"));
}

#[test]
fn the_budget_bounds_https_as_it_bounds_http() {
    let server = TlsServer::start(files());
    let url = server.url("chunks-2d-60.b2nd");
    let e = FrameFile::open_url_with(&url, Limits::default().with_max_requests(1), trusting())
        .and_then(|f| b2schema::Container::from_frame(f)?.read_all().map(|_| ()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("max_requests"), "{e}");
}
