//! `b2schema cat|inspect|ls|verify URL` over `https://` against a TLS server on 127.0.0.1
//! (`b2schema_tests::tls_server`, a test CA given by `--cacert`): the item and what was fetched,
//! the same output as for the local file, a `.b2z`'s member by `--key`, and a certificate the
//! roots do not vouch for a failure that says so.

use std::process::{Command, Output};

use super::remote::{big, text};
use b2schema_tests::tls_server::{Cert, ConnectProxy, Pki, TlsServer};
use b2schema_tests::{data_root, fixture_file};

fn b2schema(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_b2schema")).args(args).env_remove("SSL_CERT_FILE").output().unwrap()
}

#[test]
fn cat_of_one_item_over_https_prints_it_and_what_was_fetched() {
    let server = TlsServer::start(vec![("big.b2nd".into(), big())]);
    let ca = Pki::get().ca();
    let url = server.url("big.b2nd");
    let out = b2schema(&[
        "cat",
        &url,
        "--cacert",
        ca.to_str().unwrap(),
        "--slice",
        "2049:2050,4097:4098",
        "--stats",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(out.stdout, [((2049 * 3 + 4097 * 5) % 256) as u8]);
    let b = server.backend();
    let stats = text(&out.stderr);
    assert!(
        stats.starts_with(&format!("fetched: {} requests, {} bytes in ", b.requests(), b.bytes_sent())),
        "{stats}"
    );
    // As over http://: the first and last 64 KiB, the chunk's table, the block.
    assert_eq!(b.requests(), 4, "{:?}", b.ranges());
    assert!(b.bytes_sent() <= (128 << 10) + 8192, "{}", b.bytes_sent());
    // Without the test CA: refused, saying why; SSL_CERT_FILE gives it as --cacert does.
    let out = b2schema(&["cat", &url, "--slice", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("invalid peer certificate: UnknownIssuer"), "{}", text(&out.stderr));
    let out = Command::new(env!("CARGO_BIN_EXE_b2schema"))
        .args(["cat", &url, "--slice", "0,0:3", "--text"])
        .env("SSL_CERT_FILE", &ca)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A certificate for another name: refused.
    server.cert(Cert::WrongName);
    let out = b2schema(&["inspect", &url, "--cacert", ca.to_str().unwrap()]);
    assert!(text(&out.stderr).contains("not valid for name"), "{}", text(&out.stderr));
}

#[test]
fn inspect_ls_verify_and_cat_key_of_https_urls_say_what_they_say_of_the_files() {
    let store = data_root().join("stores/tree.b2z");
    let files = vec![
        ("a.b2nd".to_string(), std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap()),
        ("s.b2z".to_string(), std::fs::read(&store).unwrap()),
    ];
    let server = TlsServer::start(files);
    let ca = Pki::get().ca();
    let ca = ca.to_str().unwrap();
    let frame = fixture_file("nd-3d-f8-zstd.b2nd");
    let key = first_array_key(&store);
    for (local, url, args) in [
        (frame.to_str().unwrap(), server.url("a.b2nd"), &["inspect"][..]),
        (frame.to_str().unwrap(), server.url("a.b2nd"), &["ls"]),
        (frame.to_str().unwrap(), server.url("a.b2nd"), &["verify"]),
        (frame.to_str().unwrap(), server.url("a.b2nd"), &["cat", "--text"]),
        (store.to_str().unwrap(), server.url("s.b2z"), &["inspect"]),
        (store.to_str().unwrap(), server.url("s.b2z"), &["cat", "--text", "--key", &key]),
    ] {
        let l = b2schema(&[args, &[local]].concat());
        let r = b2schema(&[args, &[url.as_str(), "--cacert", ca]].concat());
        assert_eq!(l.status.code(), r.status.code(), "{args:?} {url}: {}", text(&r.stderr));
        assert!(r.status.success(), "{args:?} {url}: {}", text(&r.stderr));
        let (l, r) = (text(&l.stdout), text(&r.stdout));
        assert_eq!(l.replace(local, "FILE"), r.replace(&url, "FILE"), "{args:?} {url}");
    }
}

#[test]
fn https_proxy_from_the_environment_tunnels_the_requests_and_no_proxy_bypasses_it() {
    let name = "nd-3d-f8-zstd.b2nd";
    let server = TlsServer::start(vec![(name.into(), std::fs::read(fixture_file(name)).unwrap())]);
    let proxy = ConnectProxy::start(format!("127.0.0.1:{}", server.port()).parse().unwrap());
    // The origin's name does not resolve: only the proxy's tunnel reaches the server.
    let origin = format!("https://b2schema-origin.invalid:{}/{name}", server.port());
    let ca = Pki::get().ca();
    let run = |env: &[(&str, &str)]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_b2schema"));
        c.args(["cat", &origin, "--text", "--cacert", ca.to_str().unwrap()]);
        for v in ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"] {
            c.env_remove(v);
        }
        c.envs(env.iter().copied());
        c.output().unwrap()
    };
    let local = b2schema(&["cat", "--text", fixture_file(name).to_str().unwrap()]);
    let via = proxy.url();
    for var in ["https_proxy", "HTTPS_PROXY"] {
        let before = proxy.asked().len();
        let out = run(&[(var, &via)]);
        assert!(out.status.success(), "{var}: {}", text(&out.stderr));
        assert!(out.stdout == local.stdout, "{var}: the data differ");
        let asked = proxy.asked();
        assert!(asked.len() > before, "{var}: no tunnel");
        let want = format!("CONNECT b2schema-origin.invalid:{} HTTP/1.1", server.port());
        assert!(asked[before..].iter().all(|a| *a == want), "{asked:?}");
    }
    // no_proxy naming the origin's domain, or only http_proxy set: straight to the origin, which
    // does not resolve.
    let before = proxy.asked().len();
    for env in
        [&[("https_proxy", via.as_str()), ("no_proxy", ".invalid")][..], &[("http_proxy", via.as_str())]]
    {
        let out = run(env);
        assert_eq!(out.status.code(), Some(2), "{env:?}");
        assert!(text(&out.stderr).contains(&origin), "{}", text(&out.stderr));
    }
    assert_eq!(proxy.asked().len(), before);
}

/// A CPU without the features graviola needs: a refusal that says so (exit 2), where graviola
/// itself would assert (a panic, exit 101). graviola's debug builds (as the tests build it) turn a
/// feature off with `GRAVIOLA_CPU_DISABLE_<feature>`.
#[cfg(all(target_arch = "x86_64", debug_assertions))]
#[test]
fn a_cpu_without_what_graviola_needs_is_refused_with_a_message_not_a_panic() {
    let server =
        TlsServer::start(vec![("a.b2nd".into(), std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap())]);
    let ca = Pki::get().ca();
    let out = Command::new(env!("CARGO_BIN_EXE_b2schema"))
        .args(["inspect", &server.url("a.b2nd"), "--cacert", ca.to_str().unwrap()])
        .env("GRAVIOLA_CPU_DISABLE_aes", "1")
        .output()
        .unwrap();
    let e = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{e}");
    assert!(e.contains("https:// needs a CPU with what graviola's cryptography uses"), "{e}");
    assert_eq!(server.backend().requests(), 0);
}

/// The first NDArray member's key of a local store.
fn first_array_key(path: &std::path::Path) -> String {
    let s = b2schema::store::Store::open(path).unwrap();
    s.members()
        .iter()
        .find(|m| s.describe(&m.key).is_ok_and(|d| d.kind == b2schema::store::Kind::NdArray))
        .map(|m| m.key.clone())
        .expect("an NDArray member")
}
