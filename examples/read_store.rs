//! Read a member of a python-blosc2 store and the store's own vlmeta (python:
//! `ts = blosc2.TreeStore(path); ts["/g/x"][:]; ts.vlmeta["source"]`).
//!
//! `cargo run --example read_store [-- STORE.b2z|.b2d|.b2e KEY]`: with no arguments, it writes a
//! small TreeStore with a vlmeta into a temporary directory first, then reads it.

use std::error::Error;
use std::path::Path;

use b2schema::store::{Flavour, Store, StoreWriter};
use b2schema::writer::Array;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [store, key] = &args[..] {
        return read(Path::new(store), key);
    }
    run()
}

/// Writes a store, then reads it: a member's values and the store's vlmeta.
pub fn run() -> Result<(), Box<dyn Error>> {
    let dir = std::env::temp_dir().join(format!("b2schema-example-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("climate.b2z");
    let mut w = StoreWriter::new(Flavour::Tree);
    w.insert("/g/x", Array::from_slice(&[5], &[0u16, 1, 2, 3, 4])?.to_vec()?)?;
    // python-blosc2 keeps a store's vlmeta in the vlmetalayers of the member `/__vlmeta__`.
    w.insert("/__vlmeta__", Array::from_slice(&[0], &[0u8; 0])?.vlmeta("source", &"station 7")?.to_vec()?)?;
    w.write_zip(&path)?;

    read(&path, "/g/x")?;
    let store = Store::open(&path)?;
    assert_eq!(store.get("/g/x")?.read_as::<u16>("1:4")?, [1, 2, 3]);
    assert_eq!(store.vlmeta_as::<String>("source")?.as_deref(), Some("station 7"));
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}

/// Lists the store at `path`, prints its vlmeta and the member `key`'s values.
pub fn read(path: &Path, key: &str) -> Result<(), Box<dyn Error>> {
    let store = Store::open(path)?; // a .b2z ZIP, a .b2d directory or a .b2e
    for key in store.keys() {
        let d = store.describe(key)?; // kind, shape, dtype, codec, sizes
        println!("{key}: {} {:?} {:?}", d.kind.name(), d.shape, d.dtype);
    }
    for (name, value) in store.vlmeta()? {
        println!("vlmeta {name} = {value:?}");
    }
    let member = store.get(key)?; // reads only this member's bytes
    println!("{key}: shape {:?}, {} bytes of data", member.shape(), member.info()?.nbytes);
    Ok(())
}
