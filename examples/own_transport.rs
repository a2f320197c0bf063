//! Reading Blosc2 through your own transport: `b2schema::source::ReadAt` implemented over a
//! client of your own (here a stand-in for an object store's SDK: objects by key, read by byte
//! range, each call counted), then `b2schema::open_source` reads an array's slice through it,
//! fetching only the metadata and the blocks the slice needs.
//!
//! `cargo run --example own_transport`

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use b2schema::source::ReadAt;
use b2schema::writer::{Fill, NdArray};

/// Your client: objects by key, read by range (an S3, GCS or Azure SDK, a cache, a database).
#[derive(Debug, Default)]
struct Client {
    objects: HashMap<String, Vec<u8>>,
    calls: AtomicU64,
    bytes: AtomicU64,
}

impl Client {
    /// The bytes `start..end` of the object `key`, as a ranged GET would give them.
    fn get_range(&self, key: &str, start: u64, end: u64) -> Option<&[u8]> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let part = self.objects.get(key)?.get(usize::try_from(start).ok()?..usize::try_from(end).ok()?)?;
        self.bytes.fetch_add(part.len() as u64, Ordering::Relaxed);
        Some(part)
    }
}

/// One object of the client, as b2schema reads it.
#[derive(Debug)]
struct Object {
    client: Arc<Client>,
    key: String,
    len: u64,
}

impl ReadAt for Object {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> b2schema::Result<()> {
        let end = offset.saturating_add(buf.len() as u64);
        let part = self.client.get_range(&self.key, offset, end).ok_or_else(|| {
            b2schema::Error::invalid("a range of the object", self.len, end, offset as usize)
        })?;
        buf.copy_from_slice(part);
        Ok(())
    }

    /// A round trip costs more than a few KiB: a chunk's header and block table in one call.
    fn min_read(&self) -> u64 {
        4 << 10
    }
}

fn main() -> b2schema::Result<()> {
    run()
}

/// Puts an array into the client as an object and reads a slice of it through the client.
pub fn run() -> b2schema::Result<()> {
    // An array of 1000 x 1000 float64 in chunks of 100 x 100 and blocks of 20 x 20, as an object.
    let items: Vec<u8> = (0..1_000_000).flat_map(|i| f64::from(i).to_le_bytes()).collect();
    let frame = NdArray::new(&[1000, 1000], &[100, 100], &[20, 20], "<f8", 8, Fill::Data(&items))
        .to_frame()?
        .to_vec()?;
    let mut client = Client::default();
    client.objects.insert("data/grid.b2nd".into(), frame);
    let client = Arc::new(client);

    let len = client.objects["data/grid.b2nd"].len() as u64;
    let object = Arc::new(Object { client: Arc::clone(&client), key: "data/grid.b2nd".into(), len });
    let array = b2schema::open_source(object, "data/grid.b2nd", b2schema::Limits::default())?;
    let opened = (client.calls.load(Ordering::Relaxed), client.bytes.load(Ordering::Relaxed));
    let values = array.read_as::<f64>("500, 250:253")?;
    let read = (client.calls.load(Ordering::Relaxed), client.bytes.load(Ordering::Relaxed));
    println!("shape {:?}, [500, 250:253] = {values:?}", array.shape());
    println!(
        "opening: {} calls, {} bytes; the slice: {} calls, {} bytes (of {len})",
        opened.0,
        opened.1,
        read.0 - opened.0,
        read.1 - opened.1
    );
    assert_eq!(values, [500_250.0, 500_251.0, 500_252.0]);
    // Only the slice's chunk table and one block were read, not the 8 MB.
    assert!(read.1 - opened.1 < 64 << 10);
    Ok(())
}
