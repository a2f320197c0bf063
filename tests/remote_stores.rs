//! Stores read over HTTP (`Store::open_url`) from the Range-capable server on 127.0.0.1
//! (`b2schema_tests::http_server`): python-blosc2's `.b2z` and `.b2e` fixtures read remotely
//! equal their local reads (members, descriptions, every array's values; a CTable's rows); a
//! store's opening fetches its ZIP's tail and its embed store's metadata, a member's read that
//! member's bytes only, all within one budget; and hostile servers and ZIPs (truncated, lying
//! central directories, a server ignoring Range) are errors, as the same bytes are locally.

use std::sync::OnceLock;

use b2schema::Limits;
use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::source::http::HttpOptions;
use b2schema::store::{Flavour, Place, Store, StoreWriter};
use b2schema::table::CTable;
use b2schema::writer::{Fill, NdArray};
use b2schema_tests::http_server::{Misbehave, Server};
use proptest::prelude::*;

use b2schema_tests::stored_zip::dir_as_zip;

/// The store files python-blosc2 wrote (the `.b2d` is a directory, refused by URL).
const STORES: [&str; 5] = ["dict.b2z", "tree.b2z", "kinds.b2z", "small.b2z", "embed.b2e"];

fn stores_dir() -> std::path::PathBuf {
    b2schema_tests::data_root().join("stores")
}

fn store_server() -> &'static Server {
    static S: OnceLock<Server> = OnceLock::new();
    S.get_or_init(|| {
        let mut files: Vec<(String, Vec<u8>)> =
            STORES.iter().map(|n| (n.to_string(), std::fs::read(stores_dir().join(n)).unwrap())).collect();
        files.push(("table.b2z".into(), table_zip()));
        Server::start(files)
    })
}

/// The first request (256 bytes) holds less than a fixture: the tail and every member come by
/// ranged reads.
fn small_prefix() -> HttpOptions {
    HttpOptions { prefix: 256, ..HttpOptions::default() }
}

/// What a store holds, read whole: each member's key and place, and for each frame its
/// metadata bytes and (for an NDArray) its items; errors as text.
fn contents(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    for m in store.members() {
        out.push(format!("{} {:?}", m.key, m.place));
        out.push(match store.describe(&m.key) {
            Ok(d) => format!("{d:?}"),
            Err(e) => format!("error {e}"),
        });
        let f = match store.open_member(&m.key) {
            Ok(f) => f,
            Err(e) => {
                out.push(format!("error {e}"));
                continue;
            }
        };
        out.push(format!("{:?} {:?} {:?}", f.header_bytes(), f.index_bytes(), f.trailer_bytes()));
        if let Ok(r) = ArrayReader::new(&f) {
            let read = r.read(&Selection::all(r.shape()), &ReadOptions::one_thread(1 << 24));
            out.push(match read {
                Ok((bytes, _)) => format!("{bytes:?}"),
                Err(e) => format!("error {e}"),
            });
        }
    }
    out
}

#[test]
fn store_fixtures_read_over_http_equal_their_local_reads() {
    let server = store_server();
    for options in [HttpOptions::default(), small_prefix()] {
        for name in STORES {
            let local = Store::open(stores_dir().join(name)).unwrap();
            let url = server.url(name);
            let remote = Store::open_url_with(&url, Limits::default(), options.clone()).unwrap();
            assert_eq!(remote.path().to_str(), Some(url.as_str()));
            assert_eq!(remote.form(), local.form(), "{name}");
            let (l, r) = (contents(&local), contents(&remote));
            assert!(l.len() > 2, "{name}: {l:?}");
            // The same bytes, hence the same errors, apart from the name of the file.
            let local_path = stores_dir().join(name).display().to_string();
            let r: Vec<String> = r.iter().map(|s| s.replace(&url, &local_path)).collect();
            assert_eq!(l, r, "{name} with prefix {}", options.prefix);
            let fetched = remote.fetched().unwrap();
            assert!(fetched.requests >= 1, "{name}");
        }
    }
}

/// A DictStore of two 2.6 MB arrays (ZIP members) and two small ones (in its embed store).
fn big_store() -> &'static Vec<u8> {
    static B: OnceLock<Vec<u8>> = OnceLock::new();
    B.get_or_init(|| {
        let n = 1600usize;
        let mut w = StoreWriter::new(Flavour::Dict).with_threshold(4096);
        for (key, seed) in [("/a", 3usize), ("/g/b", 5)] {
            let items: Vec<u8> = (0..n * n).map(|i| ((i / n) * seed + (i % n) * 13 % 251) as u8).collect();
            let mut a =
                NdArray::new(&[n as i64, n as i64], &[400, 400], &[50, 50], "|u1", 1, Fill::Data(&items));
            a.cparams.codec = b2schema::frame::Codec::Lz4;
            a.cparams.clevel = 1;
            w.insert(key, a.to_frame().unwrap().to_vec().unwrap()).unwrap();
        }
        for key in ["/s", "/g/t"] {
            let seven = 7i32.to_le_bytes();
            let small = NdArray::new(&[10], &[10], &[5], "<i4", 4, Fill::Value(&seven));
            w.insert(key, small.to_frame().unwrap().to_vec().unwrap()).unwrap();
        }
        w.to_zip().unwrap()
    })
}

#[test]
fn opening_a_store_fetches_its_tail_and_embed_metadata_and_a_slice_only_its_member() {
    let big = big_store();
    let server = Server::start(vec![("big.b2z".into(), big.clone())]);
    let url = server.url("big.b2z");
    let store = Store::open_url(&url).unwrap();
    let opened = store.fetched().unwrap();
    assert_eq!((server.requests(), server.bytes_sent()), (opened.requests, opened.bytes));
    // The first and last 64 KiB (the central directory, and embed.b2e whole, which lies last):
    // far below the file's 3.7 MB.
    assert_eq!(opened.requests, 2, "{opened:?}: {:?}", server.ranges());
    assert_eq!(opened.bytes, 2 * (64 << 10), "{opened:?} of {}", big.len());
    let keys: Vec<&str> = store.members().iter().map(|m| m.key.as_str()).collect();
    assert_eq!(keys, ["/a", "/g/b", "/g/t", "/s"]);

    // The embedded members come from what was fetched, or from embed.b2e's chunks.
    let local_dir = std::env::temp_dir().join(format!("b2schema-remote-stores-{}", std::process::id()));
    std::fs::create_dir_all(&local_dir).unwrap();
    let local_path = local_dir.join("big.b2z");
    std::fs::write(&local_path, big).unwrap();
    let local = Store::open(&local_path).unwrap();
    for key in ["/s", "/g/t"] {
        let (l, r) = (local.open_member(key).unwrap(), store.open_member(key).unwrap());
        let all = |f: &b2schema::frame::FrameFile| {
            let r = ArrayReader::new(f).unwrap();
            r.read(&Selection::all(r.shape()), &ReadOptions::default()).unwrap().0
        };
        assert_eq!(all(&l), all(&r), "{key}");
    }

    // One item of /g/b: its local header and frame metadata (its first and last 64 KiB), then
    // one chunk's table and one block, every byte inside the member.
    let Place::Zip { local_offset, limit, .. } = store.member("/g/b").unwrap().place.clone() else {
        panic!("/g/b is a ZIP member")
    };
    server.reset_counts();
    let before = store.fetched().unwrap();
    let f = store.open_member("/g/b").unwrap();
    let r = ArrayReader::new(&f).unwrap();
    let sel = Selection::parse("1234, 567", r.shape()).unwrap();
    let (item, _) = r.read(&sel, &ReadOptions { nthreads: 1, ..ReadOptions::default() }).unwrap();
    let lf = local.open_member("/g/b").unwrap();
    let lr = ArrayReader::new(&lf).unwrap();
    assert_eq!(item, lr.read(&sel, &ReadOptions::default()).unwrap().0);
    assert_eq!(f.offset(), lf.offset());
    let after = store.fetched().unwrap();
    let (requests, bytes) = (after.requests - before.requests, after.bytes - before.bytes);
    // The member's first 64 KiB (its local header and frame header; its end came with the
    // file's tail), a chunk's table, a block.
    assert!(requests <= 3, "{requests} requests: {:?}", server.ranges());
    assert!(bytes <= 2 * (64 << 10) + 2 * 4096, "{bytes} bytes");
    for (first, last) in server.ranges() {
        assert!(first >= local_offset && last < limit, "{first}-{last} outside {local_offset}..{limit}");
    }
    assert_eq!(server.requests(), requests);
    std::fs::remove_dir_all(&local_dir).unwrap();
}

#[test]
fn one_budget_bounds_a_store_and_its_members() {
    let big = big_store();
    let server = Server::start(vec![("big.b2z".into(), big.clone())]);
    let url = server.url("big.b2z");
    // Enough to open, not to read a member whole: the store's budget, not the member's.
    let limits = Limits::default().with_max_fetched(400 << 10);
    let store = Store::open_url_with(&url, limits, HttpOptions::default()).unwrap();
    let f = store.open_member("/a").unwrap();
    let r = ArrayReader::new(&f).unwrap();
    let e = r.read(&Selection::all(r.shape()), &ReadOptions::default()).unwrap_err().to_string();
    assert!(e.contains("max_fetched") && e.contains(&url), "{e}");
    let limits = Limits::default().with_max_requests(3);
    let e = Store::open_url_with(&url, limits, HttpOptions::default())
        .and_then(|s| s.open_member("/a"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("max_requests"), "{e}");
}

#[test]
fn a_ctable_in_a_b2z_reads_by_url_as_locally() {
    let server = store_server();
    let dir = std::env::temp_dir().join(format!("b2schema-remote-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("table.b2z"), table_zip()).unwrap();
    let local = CTable::open(dir.join("table.b2z")).unwrap();
    let remote = CTable::new(Store::open_url(&server.url("table.b2z")).unwrap()).unwrap();
    assert_eq!(local.columns(), remote.columns());
    let rows = local.rows().unwrap();
    assert!(!rows.is_empty());
    assert_eq!(rows, remote.rows().unwrap());
    // The same as python-blosc2's directory.
    let b2d = CTable::open(b2schema_tests::data_root().join("tables/table.b2d")).unwrap();
    assert_eq!(rows, b2d.rows().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// python-blosc2's CTable directory `tables/table.b2d` as a stored ZIP (as `.b2z` holds it).
fn table_zip() -> Vec<u8> {
    dir_as_zip(&b2schema_tests::data_root().join("tables/table.b2d"))
}

#[test]
fn a_directory_store_by_url_is_refused_saying_how_to_read_its_members() {
    let server = Server::start(vec![]);
    for url in [server.url("dict.b2d"), server.url("dict.b2d/")] {
        let e = Store::open_url(&url).unwrap_err();
        assert!(matches!(e.kind(), b2schema::ErrorKind::Unsupported(_)), "{e}");
        assert_eq!(e.file(), Some(url.as_str()), "{e}");
        let e = e.to_string();
        assert!(e.contains("cannot be listed over HTTP") && e.contains("as a frame"), "{e}");
    }
    assert_eq!(server.requests(), 0, "no request asked for a .b2d");
    // A URL the server answers as a directory (a redirect to the URL with a `/`).
    let s = Server::start(vec![(
        "d/x.b2nd".into(),
        std::fs::read(stores_dir().join("dict.b2d/x.b2nd")).unwrap(),
    )]);
    let e = Store::open_url(&s.url("d")).unwrap_err();
    assert!(matches!(e.kind(), b2schema::ErrorKind::Unsupported(_)), "{e}");
}

#[test]
fn hostile_servers_and_zips_are_errors_within_the_budget() {
    let dict = std::fs::read(stores_dir().join("dict.b2z")).unwrap();
    let eocd = dict.len() - 22;
    let mut past_end = dict.clone();
    // The central directory said to start past the end of the file.
    past_end[eocd + 16..eocd + 20].copy_from_slice(&(dict.len() as u32 + 100).to_le_bytes());
    let mut many = dict.clone();
    // More entries than the central directory holds.
    many[eocd + 8..eocd + 12].copy_from_slice(&[0xfe, 0xff, 0xfe, 0xff]);
    let server = Server::start(vec![
        ("truncated.b2z".into(), dict[..dict.len() / 2].to_vec()),
        ("past-end.b2z".into(), past_end),
        ("many.b2z".into(), many),
        ("big.b2z".into(), big_store().clone()),
    ]);
    for (name, needle) in [
        ("truncated.b2z", "end-of-central-directory"),
        ("past-end.b2z", "central directory"),
        ("many.b2z", "entry count"),
    ] {
        for options in [HttpOptions::default(), small_prefix()] {
            let e =
                Store::open_url_with(&server.url(name), Limits::default(), options).unwrap_err().to_string();
            assert!(e.contains(needle) && e.contains(&server.url(name)), "{name}: {e}");
        }
    }
    // A server that ignores Range, on a file larger than the budget: refused at the first
    // answer, its body unread.
    server.misbehave(Misbehave::IgnoreRange);
    server.reset_counts();
    let limits = Limits::default().with_max_fetched(1 << 20);
    let e =
        Store::open_url_with(&server.url("big.b2z"), limits, HttpOptions::default()).unwrap_err().to_string();
    assert!(e.contains("the server ignores Range (refused)"), "{e}");
    assert_eq!(server.requests(), 1);
    // Within the budget, the whole file is taken once and its members read from memory.
    server.reset_counts();
    let store = Store::open_url(&server.url("big.b2z")).unwrap();
    let f = store.open_member("/g/b").unwrap();
    let r = ArrayReader::new(&f).unwrap();
    r.read(&Selection::parse("7, 9", r.shape()).unwrap(), &ReadOptions::default()).unwrap();
    assert_eq!(server.requests(), 1);
}

/// A fixture with bytes changed or cut: as the local file of the same bytes reads, so reads the
/// URL (both open with the same members and values, or both fail).
fn mutated() -> impl Strategy<Value = (usize, Vec<(usize, u8)>, usize)> {
    (0..STORES.len(), prop::collection::vec((any::<usize>(), any::<u8>()), 0..4), any::<usize>())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn a_mutated_store_reads_by_url_as_its_bytes_read_locally((which, flips, cut) in mutated()) {
        let name = STORES[which];
        let mut bytes = std::fs::read(stores_dir().join(name)).unwrap();
        for (at, v) in flips {
            let i = at % bytes.len();
            bytes[i] = v;
        }
        // Cut now and then (a truncated upload).
        if cut % 4 == 0 {
            bytes.truncate(cut % bytes.len());
        }
        let dir = std::env::temp_dir().join(format!("b2schema-mutated-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, &bytes).unwrap();
        let server = Server::start(vec![(name.to_string(), bytes)]);
        let url = server.url(name);
        let local = Store::open(&path).map(|s| contents(&s)).map_err(|e| e.to_string());
        let remote = Store::open_url_with(&url, Limits::default(), small_prefix())
            .map(|s| contents(&s))
            .map_err(|e| e.to_string());
        std::fs::remove_file(&path).unwrap();
        match (local, remote) {
            (Ok(l), Ok(r)) => {
                let p = path.display().to_string();
                let r: Vec<String> = r.iter().map(|s| s.replace(&url, &p)).collect();
                // The errors of a member may differ in how the source said them (a short
                // read locally, a range outside the file by URL): the values may not.
                let values = |v: &[String]| v.iter().filter(|s| !s.starts_with("error ")).cloned().collect::<Vec<_>>();
                prop_assert_eq!(values(&l), values(&r));
            }
            (Err(_), Err(r)) => prop_assert!(r.contains(&url), "{}", r),
            (l, r) => prop_assert!(false, "local {:?} remote {:?}", l, r),
        }
    }
}
