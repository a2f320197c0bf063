//! The same reads and writes against Azure Blob Storage's emulator (Azurite, from npm, on
//! 127.0.0.1, started by the test): `az://container/key` and `abfs://container/key`, the client
//! configured as object_store reads an account's settings (`azure_storage_account_name`,
//! `azure_storage_account_key`, `azure_storage_endpoint`).

use std::sync::OnceLock;

use b2schema::Limits;
use b2schema::source::ReadAt;
use b2schema_object_store::{ObjectOptions, ObjectSource, upload};
use b2schema_tests::azurite_server::AzuriteServer;
use b2schema_tests::fixture_file;

use crate::{big, every_fixture_equals_its_local_read, fixtures};

/// One Azurite for the tests, with the container `data` holding python-blosc2's fixtures
/// (`fixtures/NAME`), uploaded by this crate.
fn azurite() -> &'static AzuriteServer {
    static S: OnceLock<AzuriteServer> = OnceLock::new();
    S.get_or_init(|| {
        let s = AzuriteServer::start();
        s.create_container("data");
        for (name, bytes) in fixtures() {
            let url = format!("az://data/fixtures/{name}");
            upload(&url, &mut &bytes[..], bytes.len() as u64, &at(&s)).unwrap();
        }
        s
    })
}

fn at(server: &AzuriteServer) -> ObjectOptions {
    ObjectOptions { config: server.config(), ..ObjectOptions::default() }
}

#[test]
fn every_fixture_read_from_azure_equals_its_local_read() {
    let az = azurite();
    every_fixture_equals_its_local_read(ObjectOptions { prefix: 256, ..at(az) }, "az://data/fixtures/");
    // abfs://container/key (fsspec's form) names the same objects.
    let name = "nd-3d-f8-zstd.b2nd";
    let src =
        ObjectSource::open_url(&format!("abfs://data/fixtures/{name}"), Limits::default(), &at(az)).unwrap();
    let mut back = vec![0; src.len() as usize];
    src.read_at(0, &mut back).unwrap();
    assert!(back == std::fs::read(fixture_file(name)).unwrap());
}

#[test]
fn one_item_from_azure_costs_four_requests() {
    let az = azurite();
    let bytes = big();
    let url = "az://data/big.b2nd";
    upload(url, &mut &bytes[..], bytes.len() as u64, &at(az)).unwrap();
    let src = ObjectSource::open_url(url, Limits::default(), &at(az)).unwrap();
    let array = b2schema::open_source(src.clone(), url, Limits::default()).unwrap();
    assert_eq!(array.read_as::<u8>("2049:2050,4097:4098").unwrap(), [((2049 * 3 + 4097 * 5) % 256) as u8]);
    let f = src.fetched().unwrap();
    assert_eq!(f.requests, 4, "{f:?}");
    assert!(f.bytes <= (128 << 10) + 8192, "{f:?}");
}

#[test]
fn azure_uploads_are_whole_or_nothing() {
    let az = azurite();
    // 12 MiB in blocks of 5 MiB: three blocks, the blob there once its block list is committed.
    let large: Vec<u8> = (0..12u32 << 20).map(|i| (i % 251) as u8).collect();
    let parts = ObjectOptions { part_size: 5 << 20, ..at(az) };
    let up = upload("az://data/up/large.bin", &mut &large[..], large.len() as u64, &parts).unwrap();
    assert_eq!(up.parts, 3);
    let src = ObjectSource::open_url("az://data/up/large.bin", Limits::default(), &at(az)).unwrap();
    let mut back = vec![0; large.len()];
    src.read_at(0, &mut back).unwrap();
    assert!(back == large);
    // A source that ends early: an error, and no blob.
    let e = upload("az://data/up/short.bin", &mut &large[..], large.len() as u64 + 1, &parts).unwrap_err();
    assert!(e.to_string().contains("bytes to upload"), "{e}");
    let gone = ObjectSource::open_url("az://data/up/short.bin", Limits::default(), &at(az)).unwrap_err();
    assert!(gone.to_string().contains("az://data/up/short.bin"), "{gone}");
    let small = std::fs::read(fixture_file("nd-3d-f8-zstd.b2nd")).unwrap();
    let e = upload("az://data/up/tiny.bin", &mut &small[..10], 11, &at(az)).unwrap_err();
    assert!(e.to_string().contains("bytes to upload"), "{e}");
    assert!(ObjectSource::open_url("az://data/up/tiny.bin", Limits::default(), &at(az)).is_err());
}
