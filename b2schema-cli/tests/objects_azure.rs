//! `b2schema` on `az://` and `abfs://` URLs against Azure Blob Storage's emulator (Azurite on
//! 127.0.0.1, started by the test), configured by the variables object_store reads for it
//! (`AZURE_STORAGE_USE_EMULATOR`, `AZURITE_BLOB_STORAGE_URL`): `pack` uploads, and `inspect`,
//! `verify`, `cat` say of the blob what they say of the local file.

use std::process::{Command, Output};
use std::sync::OnceLock;

use b2schema_tests::azurite_server::AzuriteServer;
use b2schema_tests::fixture_file;

use crate::objects::text;

fn azurite() -> &'static AzuriteServer {
    static S: OnceLock<AzuriteServer> = OnceLock::new();
    S.get_or_init(|| {
        let s = AzuriteServer::start();
        s.create_container("data");
        s
    })
}

fn b2schema(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_b2schema")).args(args).envs(azurite().env()).output().unwrap()
}

#[test]
fn commands_on_an_azure_url_say_what_they_say_of_the_file() {
    let dir = std::env::temp_dir().join(format!("b2schema-cli-azure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let npy = dir.join("a.npy");
    let fixture = fixture_file("nd-3d-f8-zstd.b2nd");
    assert!(b2schema(&["unpack", fixture.to_str().unwrap(), npy.to_str().unwrap()]).status.success());
    // The same frame packed into a local file and into a blob.
    for name in ["a.b2nd"] {
        let local = dir.join(name);
        let local = local.to_str().unwrap();
        let url = format!("az://data/f/{name}");
        assert!(b2schema(&["pack", npy.to_str().unwrap(), local]).status.success());
        let out = b2schema(&["pack", npy.to_str().unwrap(), &url]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        for url in [url.clone(), format!("abfs://data/f/{name}")] {
            for args in [&["inspect"][..], &["verify"], &["cat"], &["cat", "--slice", "1"]] {
                let l = b2schema(&[args, &[local]].concat());
                let r = b2schema(&[args, &[url.as_str()]].concat());
                assert_eq!(l.status.code(), r.status.code(), "{args:?} {url}: {}", text(&r.stderr));
                assert_eq!(text(&l.stdout).replace(local, "FILE"), text(&r.stdout).replace(&url, "FILE"));
            }
        }
    }
    // One item: the object's two ends, the chunk's table, its block.
    let out = b2schema(&["cat", "az://data/f/a.b2nd", "--slice", "1,2,3", "--stats"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with("fetched: "), "{}", text(&out.stderr));
    // No such blob: a failure that names the URL.
    let out = b2schema(&["cat", "az://data/nope.b2nd"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with("b2schema: az://data/nope.b2nd"), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
