//! `b2schema` on object-store URLs (`s3://bucket/key`) against moto's S3 on 127.0.0.1, started
//! by the test (`b2schema_tests::s3_server`), configured by the variables object_store reads:
//! `inspect`, `ls`, `verify`, `cat` (`--slice`, `--stats`, `--key` of a `.b2z`) say what they
//! say of the local file; `pack`, `cat -o` and `unpack` upload their output whole.

use std::process::{Command, Output};
use std::sync::OnceLock;

use b2schema::writer::{Fill, NdArray};
use b2schema_tests::s3_server::S3Server;
use b2schema_tests::{data_root, fixture_file};

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// moto, with the bucket `data`.
pub(crate) fn moto() -> &'static S3Server {
    static S: OnceLock<S3Server> = OnceLock::new();
    S.get_or_init(|| {
        let s = S3Server::start();
        s.create_bucket("data");
        s
    })
}

/// `b2schema ARGS` with object_store's variables pointing at moto.
pub(crate) fn b2schema(args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_b2schema"));
    c.args(args).envs(moto().env());
    c.output().unwrap()
}

#[test]
fn commands_on_an_s3_url_say_what_they_say_of_the_file() {
    let s3 = moto();
    let names = ["nd-3d-f8-zstd.b2nd", "schunk-meta-values.b2frame", "special-nans-f8.b2nd"];
    for name in names {
        let local = fixture_file(name);
        s3.put("data", &format!("f/{name}"), &std::fs::read(&local).unwrap());
        let local = local.to_str().unwrap();
        let url = format!("s3://data/f/{name}");
        for args in [
            &["inspect"][..],
            &["inspect", "--json"],
            &["ls"],
            &["verify"],
            &["cat"],
            &["cat", "--slice", "1"],
        ] {
            let l = b2schema(&[args, &[local]].concat());
            let r = b2schema(&[args, &[url.as_str()]].concat());
            assert_eq!(l.status.code(), r.status.code(), "{args:?} {url}: {}", text(&r.stderr));
            let (lo, ro) = (text(&l.stdout), text(&r.stdout));
            assert_eq!(lo.replace(local, "FILE"), ro.replace(&url, "FILE"), "{args:?} {url}");
        }
    }
    // A store: cat --key of a .b2z member, whole and a slice.
    let store = data_root().join("stores/dict.b2z");
    s3.put("data", "s/dict.b2z", &std::fs::read(&store).unwrap());
    let store = store.to_str().unwrap();
    for args in [&["inspect"][..], &["cat", "--key", "/g/x"], &["cat", "--key", "/big", "--slice", "1,2:5"]] {
        let l = b2schema(&[args, &[store]].concat());
        let r = b2schema(&[args, &["s3://data/s/dict.b2z"]].concat());
        assert_eq!(l.status.code(), r.status.code(), "{args:?}: {}", text(&r.stderr));
        assert_eq!(
            text(&l.stdout).replace(store, "FILE"),
            text(&r.stdout).replace("s3://data/s/dict.b2z", "FILE")
        );
    }
    // No such object, no such bucket: failures that name the URL.
    for url in ["s3://data/nope.b2nd", "s3://nobucket/x.b2nd"] {
        let out = b2schema(&["cat", url]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(text(&out.stderr).starts_with(&format!("b2schema: {url}")), "{}", text(&out.stderr));
    }
}

/// A 4160 x 4160 array of u8 in chunks of 1024 x 1024 (LZ4): its items and its frame.
fn big() -> (Vec<u8>, Vec<u8>) {
    let n = 4160usize;
    let items: Vec<u8> = (0..n * n).map(|i| ((i / n) * 3 + (i % n) * 5) as u8).collect();
    let mut a = NdArray::new(&[n as i64, n as i64], &[1024, 1024], &[64, 64], "|u1", 1, Fill::Data(&items));
    a.cparams.codec = b2schema::frame::Codec::Lz4;
    let frame = a.to_frame().unwrap().to_vec().unwrap();
    (items, frame)
}

/// The requests and bytes `--stats` says (`fetched: R requests, B bytes in T s`).
fn fetched(stats: &str) -> (u64, u64) {
    stats
        .strip_prefix("fetched: ")
        .and_then(|s| s.split_once(" requests, "))
        .and_then(|(r, s)| Some((r.parse::<u64>().ok()?, s.split_once(" bytes in ")?.0.parse::<u64>().ok()?)))
        .unwrap_or_else(|| panic!("{stats}"))
}

#[test]
fn cat_of_one_item_by_s3_fetches_the_metadata_and_one_block() {
    moto().put("data", "big.b2nd", &big().1);
    let out = b2schema(&["cat", "s3://data/big.b2nd", "--slice", "2049:2050,4097:4098", "--stats"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(out.stdout, [((2049 * 3 + 4097 * 5) % 256) as u8]);
    let stats = text(&out.stderr);
    let (requests, bytes) = fetched(&stats);
    assert!(stats.ends_with(" s\n"), "{stats}");
    // The first and last 64 KiB, the chunk's table, its block.
    assert_eq!(requests, 4, "{stats}");
    assert!(bytes <= (128 << 10) + 8192, "{stats}");
}

/// `cat` without `--slice` reads the array whole: the object's bytes stream from the open on,
/// the end fetched while they come; 2 requests, the object's bytes once, as the local file.
#[test]
fn cat_of_a_whole_array_by_s3_costs_two_requests() {
    let (items, bytes) = big();
    moto().put("data", "whole.b2nd", &bytes);
    let out = b2schema(&["cat", "s3://data/whole.b2nd", "--stats"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout == items);
    let stats = text(&out.stderr);
    let (requests, got) = fetched(&stats);
    assert_eq!(requests, 2, "{stats}");
    assert!(got <= bytes.len() as u64 + (64 << 10), "{stats}");
}

#[test]
fn pack_cat_and_unpack_upload_their_output_whole() {
    let s3 = moto();
    let dir = std::env::temp_dir().join(format!("b2schema-cli-objects-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = "nd-3d-f8-zstd.b2nd";
    let local = fixture_file(name);
    let local = local.to_str().unwrap();
    // cat -o to S3: the object holds what cat -o writes to a file.
    let file = dir.join("a.bin");
    assert!(b2schema(&["cat", local, "-o", file.to_str().unwrap()]).status.success());
    let out = b2schema(&["cat", local, "-o", "s3://data/out/a.bin"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(s3.download("data", "out/a.bin").unwrap(), std::fs::read(&file).unwrap());
    // unpack to S3 (a .npy), pack of that .npy back to S3, read back by URL.
    let out = b2schema(&["unpack", local, "s3://data/out/a.npy"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let npy = dir.join("a.npy");
    std::fs::write(&npy, s3.download("data", "out/a.npy").unwrap()).unwrap();
    let out = b2schema(&["pack", npy.to_str().unwrap(), "s3://data/out/a.b2nd"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let l = b2schema(&["cat", local, "--text"]);
    let r = b2schema(&["cat", "s3://data/out/a.b2nd", "--text"]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(text(&l.stdout), text(&r.stdout));
    // A failed write (an input that is not a frame) leaves nothing behind.
    let out = b2schema(&["cat", "Cargo.toml", "-o", "s3://data/out/none.bin"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(s3.download("data", "out/none.bin").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn python_blosc2_reads_what_b2schema_wrote_to_s3() {
    let s3 = moto();
    let name = "nd-3d-f8-zstd.b2nd";
    let local = fixture_file(name);
    // Frames packed from a .npy (one PUT; a multipart upload of parts of 5 MiB is the library's,
    // tests/object_store.rs): downloaded by boto3, opened by python-blosc2 and compared with the
    // local file's items.
    let npy = std::env::temp_dir().join(format!("b2schema-cli-py-s3-{}.npy", std::process::id()));
    assert!(b2schema(&["unpack", local.to_str().unwrap(), npy.to_str().unwrap()]).status.success());
    for (args, key) in [
        (vec!["pack", npy.to_str().unwrap(), "s3://data/py/packed.b2nd"], "py/packed.b2nd"),
        (vec!["pack", npy.to_str().unwrap(), "s3://data/py/lz4.b2nd", "--codec", "lz4"], "py/lz4.b2nd"),
    ] {
        let out = b2schema(&args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let script = "import sys, tempfile, os, boto3, blosc2, numpy as np\n\
            e, b, k, local = sys.argv[1:]\n\
            c = boto3.client('s3', endpoint_url=e, aws_access_key_id='test', aws_secret_access_key='test', region_name='us-east-1')\n\
            d = tempfile.mkdtemp()\n\
            path = os.path.join(d, 'x.b2nd')\n\
            c.download_file(b, k, path)\n\
            got, want = blosc2.open(path)[:], blosc2.open(local)[:]\n\
            assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)\n\
            assert np.array_equal(got, want, equal_nan=True)\n\
            print('equal', got.shape)\n";
        let run = Command::new(b2schema_tests::python())
            .args(["-c", script, &s3.endpoint(), "data", key, local.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(run.status.success(), "{key}: {}", text(&run.stderr));
        assert!(text(&run.stdout).starts_with("equal"), "{key}: {}", text(&run.stdout));
    }
    let _ = std::fs::remove_file(&npy);
}
