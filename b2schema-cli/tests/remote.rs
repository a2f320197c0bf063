//! `b2schema inspect|verify|dump|ls|du URL` and `cat URL [--slice ...] --stats` against a
//! Range-capable server on 127.0.0.1 (`b2schema_tests::http_server`), for contiguous frames and
//! sparse frames' directories: the same output as for the local file, only the blocks a slice
//! needs fetched, and the server's misbehaviour a clean failure.

use std::process::{Command, Output};

use b2schema::writer::{Fill, NdArray};
use b2schema_tests::fixture_file;
use b2schema_tests::http_server::{Misbehave, Server};

fn b2schema(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_b2schema")).args(args).output().unwrap()
}

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A 4160 x 4160 `|u1` array of 1024 x 1024 chunks of 64 x 64 blocks (also served over https by
/// `remote_tls`).
pub(crate) fn big() -> Vec<u8> {
    let n = 4160usize;
    let items: Vec<u8> = (0..n * n).map(|i| ((i / n) * 3 + (i % n) * 5) as u8).collect();
    let mut a = NdArray::new(&[n as i64, n as i64], &[1024, 1024], &[64, 64], "|u1", 1, Fill::Data(&items));
    a.cparams.codec = b2schema::frame::Codec::Lz4;
    a.cparams.clevel = 1;
    a.to_frame().unwrap().to_vec().unwrap()
}

#[test]
fn cat_of_one_item_over_http_fetches_the_metadata_and_one_block() {
    let server = Server::start(vec![("big.b2nd".into(), big())]);
    let out = b2schema(&["cat", &server.url("big.b2nd"), "--slice", "2049:2050,4097:4098", "--stats"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(out.stdout, [((2049 * 3 + 4097 * 5) % 256) as u8]);
    let stats = text(&out.stderr);
    let want = format!("fetched: {} requests, {} bytes in ", server.requests(), server.bytes_sent());
    assert!(stats.starts_with(&want) && stats.ends_with(" s\n"), "{stats}");
    // Opening: the first and last 64 KiB; the item: its chunk's table, then its block.
    assert_eq!(server.requests(), 4, "{:?}", server.ranges());
    assert!(server.bytes_sent() <= (128 << 10) + 8192, "{}", server.bytes_sent());
}

#[test]
fn inspect_and_cat_of_a_url_say_what_they_say_of_the_file() {
    let names = ["nd-3d-f8-zstd.b2nd", "schunk-meta-values.b2frame", "special-nans-f8.b2nd"];
    let files = names.iter().map(|n| (n.to_string(), std::fs::read(fixture_file(n)).unwrap())).collect();
    let server = Server::start(files);
    for name in names {
        let local = fixture_file(name);
        let local = local.to_str().unwrap();
        let url = server.url(name);
        for args in
            [&["inspect"][..], &["inspect", "--json"], &["cat"], &["verify"], &["ls"], &["du"], &["dump"]]
        {
            let l = b2schema(&[args, &[local]].concat());
            let r = b2schema(&[args, &[url.as_str()]].concat());
            assert_eq!(l.status.code(), r.status.code(), "{args:?} {name}: {}", text(&r.stderr));
            let (l, r) = (text(&l.stdout), text(&r.stdout));
            assert_eq!(l.replace(local, "FILE"), r.replace(&url, "FILE"), "{args:?} {name}");
        }
    }
}

#[test]
fn a_misbehaving_server_is_a_failure_naming_the_url_and_the_range() {
    let server =
        Server::start(vec![("a.b2nd".into(), std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap())]);
    let url = server.url("a.b2nd");
    server.misbehave(Misbehave::Unsatisfiable);
    let out = b2schema(&["cat", &url]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let e = text(&out.stderr);
    assert!(e.starts_with(&format!("b2schema: {url}: Range: bytes=0-65535")) && e.contains("416"), "{e}");
    server.misbehave(Misbehave::Not);
    let out = b2schema(&["cat", &url, "--max-requests", "0"]);
    let e = text(&out.stderr);
    assert!(e.contains("--max-requests"), "{e}");
    // An https:// URL where nothing listens: the same failure, over TLS (the CLI has `https`).
    let out = b2schema(&["cat", "https://127.0.0.1:1/x.b2nd"]);
    let e = text(&out.stderr);
    assert!(
        e.starts_with("b2schema: https://127.0.0.1:1/x.b2nd: Range: bytes=0-65535")
            && e.contains("connecting"),
        "{e}"
    );
}

#[test]
fn inspect_and_cat_of_a_sparse_frame_by_url_say_what_they_say_of_its_directory() {
    let names = ["sparse-2d-i4.b2nd", "sparse-schunk.b2frame", "sparse-special-2d-f8.b2nd"];
    let mut files = Vec::new();
    for name in names {
        for e in std::fs::read_dir(fixture_file(name)).unwrap() {
            let p = e.unwrap().path();
            let file = p.file_name().unwrap().to_str().unwrap().to_string();
            files.push((format!("{name}/{file}"), std::fs::read(&p).unwrap()));
        }
    }
    let server = Server::start(files);
    for name in names {
        let local = fixture_file(name);
        let local = local.to_str().unwrap();
        // The directory's URL with its `/`, and without it (the server redirects).
        for url in [server.url(&format!("{name}/")), server.url(name)] {
            for args in
                [&["inspect"][..], &["inspect", "--json"], &["cat"], &["verify"], &["ls"], &["du"], &["dump"]]
            {
                let l = b2schema(&[args, &[local]].concat());
                let r = b2schema(&[args, &[url.as_str()]].concat());
                assert_eq!(l.status.code(), r.status.code(), "{args:?} {url}: {}", text(&r.stderr));
                assert!(l.status.success(), "{args:?} {name}: {}", text(&l.stderr));
                let (l, r) = (text(&l.stdout), text(&r.stdout));
                assert_eq!(l.replace(local, "FILE"), r.replace(&url, "FILE"), "{args:?} {url}");
            }
        }
    }
}

#[test]
fn http_proxy_from_the_environment_carries_the_requests_and_no_proxy_bypasses_it() {
    let name = "nd-3d-f8-zstd.b2nd";
    // The test server stands for the proxy; the origin's name does not resolve, so only the
    // proxy can answer.
    let proxy = Server::start(vec![(name.into(), std::fs::read(fixture_file(name)).unwrap())]);
    let origin = format!("http://b2schema-origin.invalid/{name}");
    let run = |env: &[(&str, String)]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_b2schema"));
        c.args(["cat", &origin]);
        for v in ["http_proxy", "HTTP_PROXY", "no_proxy", "NO_PROXY"] {
            c.env_remove(v);
        }
        c.envs(env.iter().map(|(k, v)| (k, v.as_str())));
        c.output().unwrap()
    };
    let local = b2schema(&["cat", fixture_file(name).to_str().unwrap()]);
    let via = proxy.url("");
    for p in [via.clone(), via.trim_start_matches("http://").to_string()] {
        proxy.reset_counts();
        let out = run(&[("http_proxy", p.clone())]);
        assert!(out.status.success(), "{p}: {}", text(&out.stderr));
        assert!(out.stdout == local.stdout, "{p}: the data differ");
        assert!(proxy.proxied() >= 1 && proxy.proxied() == proxy.requests(), "{p}: {}", proxy.proxied());
    }
    // no_proxy naming the origin's domain: straight to the origin, which does not resolve.
    proxy.reset_counts();
    let out = run(&[("http_proxy", via.clone()), ("no_proxy", "localhost, .invalid".into())]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(&origin), "{}", text(&out.stderr));
    assert_eq!(proxy.requests(), 0);
    // HTTP_PROXY alone is not read (curl's rule), nor is an https proxy taken.
    let out = run(&[("HTTP_PROXY", via.clone())]);
    assert_eq!((out.status.code(), proxy.requests()), (Some(2), 0));
    let out = run(&[("http_proxy", "https://127.0.0.1:1".into())]);
    assert!(text(&out.stderr).contains("a proxy in http_proxy"), "{}", text(&out.stderr));
}

/// `inspect`, `inspect --json`, `cat --key` (whole, a slice) of python-blosc2's `.b2z` and
/// `.b2e` stores, and `inspect` / `cat` / `cat --csv` / `cat --key COLUMN` of a CTable in a
/// `.b2z`, by URL: the same output, byte for byte, as of the local file (its path said as the
/// URL), the same exit code.
#[test]
fn store_commands_on_a_url_say_what_they_say_of_the_file() {
    let dir = std::env::temp_dir().join(format!("b2schema-cli-remote-stores-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = b2schema_tests::stored_zip::dir_as_zip(&b2schema_tests::data_root().join("tables/table.b2d"));
    std::fs::write(dir.join("table.b2z"), &table).unwrap();
    let stores = b2schema_tests::data_root().join("stores");
    let mut files = vec![("table.b2z".to_string(), table)];
    for name in ["dict.b2z", "tree.b2z", "kinds.b2z", "small.b2z", "embed.b2e"] {
        let bytes = std::fs::read(stores.join(name)).unwrap();
        std::fs::write(dir.join(name), &bytes).unwrap();
        files.push((name.to_string(), bytes));
    }
    let server = Server::start(files.clone());
    let mut compared = 0;
    for (name, _) in &files {
        let local = dir.join(name);
        let local = local.to_str().unwrap();
        let url = server.url(name);
        let runs: Vec<Vec<&str>> = if name == "table.b2z" {
            vec![
                vec!["inspect"],
                vec!["inspect", "--json"],
                vec!["cat"],
                vec!["cat", "--csv"],
                vec!["cat", "--key", "name"],
                vec!["cat", "--key", "/_cols/id"],
            ]
        } else {
            vec![
                vec!["inspect"],
                vec!["inspect", "--json"],
                vec!["cat", "--key", "/g/x"],
                vec!["cat", "--key", "/big", "--slice", "1,2:5"],
                vec!["cat", "--key", "/nope"],
            ]
        };
        for args in runs {
            let l = b2schema(&[&args[..1], &[local], &args[1..]].concat());
            let r = b2schema(&[&args[..1], &[url.as_str()], &args[1..]].concat());
            assert_eq!(l.status.code(), r.status.code(), "{args:?} {name}: {}", text(&r.stderr));
            assert_eq!(text(&l.stderr).replace(local, "FILE"), text(&r.stderr).replace(&url, "FILE"));
            let (l, r) = (text(&l.stdout), text(&r.stdout));
            assert_eq!(l.replace(local, "FILE"), r.replace(&url, "FILE"), "{args:?} {name}");
            compared += usize::from(!l.is_empty());
        }
    }
    assert!(compared >= 20, "{compared} outputs compared");
    // A directory store by URL: refused, saying why and what opens instead.
    let out = b2schema(&["inspect", &server.url("dict.b2d")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot be listed over HTTP"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}
