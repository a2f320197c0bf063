//! The host's bytes: a source the module reads through its one import, `b2schema.read`, which
//! the host answers synchronously (a Web Worker: `FileReaderSync` over a `File`, a synchronous
//! `XMLHttpRequest` with `Range` for a URL; node: `fs.readSync`).

use b2schema::source::ReadAt;
use b2schema::{Error, Result};

#[link(wasm_import_module = "b2schema")]
// The module's one import, declared: the host writes exactly `len` bytes at `ptr`, the address
// of the `&mut [u8]` the module lends it for the call, and nothing else.
#[allow(unsafe_code)]
unsafe extern "C" {
    /// Fills the `len` bytes at address `ptr` with the bytes at `offset` of the host's source
    /// `source`: 0 when it did, anything else when it could not (then the bytes are not used).
    safe fn read(source: u32, offset: f64, len: u32, ptr: u32) -> u32;
}

/// The bytes of the host's source `id`, `len` long (as the host said when it opened it).
#[derive(Debug)]
pub struct HostSource {
    id: u32,
    len: u64,
    /// What a remote source gains by reading at once ([`ReadAt::min_read`], [`ReadAt::ahead`]):
    /// 0 for a local file.
    ahead: u64,
}

impl HostSource {
    /// The host's source `id`, `len` bytes long; `ahead`: the bytes worth one read (0 for a
    /// local file, some KiB for a URL, where each read is a request).
    pub fn new(id: u32, len: u64, ahead: u64) -> Self {
        HostSource { id, len, ahead }
    }
}

impl ReadAt for HostSource {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        let end = offset.checked_add(buf.len() as u64).filter(|&e| e <= self.len);
        let (Some(_), Ok(n)) = (end, u32::try_from(buf.len())) else {
            return Err(Error::invalid(
                "bytes inside the source of",
                self.len,
                offset.saturating_add(buf.len() as u64),
                offset as usize,
            ));
        };
        if n == 0 {
            return Ok(());
        }
        let ptr = u32::try_from(buf.as_mut_ptr().expose_provenance()).unwrap_or(0);
        // Offsets are below 2^53 (a source's length is a JS number), exact as f64.
        match read(self.id, offset as f64, n, ptr) {
            0 => Ok(()),
            _ => {
                let why = format!("the host could not read {n} bytes at offset {offset}");
                Err(Error::from(std::io::Error::other(why)).with_offset(offset as usize))
            }
        }
    }

    fn min_read(&self) -> u64 {
        self.ahead / 4
    }

    fn ahead(&self) -> u64 {
        self.ahead
    }
}
