//! A ZIP of *stored* members, as python's `zipfile.ZipFile(path, "w", ZIP_STORED)` writes one
//! for python-blosc2's `DictStore.to_b2z`: for each member a local header (no extra field, no
//! data descriptor) and its bytes unchanged, then the central directory and its end record.
//! Times are 1980-01-01 00:00 (the DOS epoch), so the bytes depend on the members only.
//! No zip64: a member or an archive past 4 GiB, or more than 65,534 members, is refused.
//! [`ZipOut`] writes one as its members come, copied from readers, in bounded memory.

use alloc::vec::Vec;

use super::zip::{CENTRAL_SIG, EOCD_SIG, LOCAL_SIG, STORED};
use crate::container::error::{Error, Result};

/// ZIP 2.0 (what `zipfile` writes for stored members), made on Unix (`3 << 8`).
const VERSION_NEEDED: u16 = 20;
const VERSION_MADE_BY: u16 = (3 << 8) | 20;
/// General-purpose flag bit 11: the name is UTF-8.
const FLAG_UTF8: u16 = 0x0800;
/// The DOS date of 1980-01-01 (day 1, month 1, year 0); time 00:00:00 is 0.
const DOS_DATE: u16 = (1 << 5) | 1;
/// A regular file, mode 0644, in the high half of the external attributes.
const EXTERNAL_ATTR: u32 = 0o100644 << 16;

/// CRC-32 (IEEE 802.3, reflected, as ZIP uses it), bytewise from a table built at compile time:
/// written here as a dozen lines of safe Rust (`crc32fast`'s SIMD paths are not safe Rust, for a
/// speed a store writer does not need).
#[cfg(test)]
pub fn crc32(bytes: &[u8]) -> u32 {
    !crc32_update(!0, bytes)
}

/// The CRC-32 register after `bytes`, from `crc` (start from `!0`, finish with `!`).
fn crc32_update(crc: u32, bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };
    bytes.iter().fold(crc, |c, &b| TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8))
}

fn u32_of(n: u64, what: &'static str) -> Result<u32> {
    u32::try_from(n).ok().filter(|&v| v != u32::MAX).ok_or_else(|| {
        Error::invalid("a ZIP without zip64: below 4 GiB", "< 4294967295", alloc::format!("{n} ({what})"), 0)
    })
}

/// The ZIP of `members` (name, bytes), in that order.
pub fn zip(members: &[(&str, &[u8])]) -> Result<Vec<u8>> {
    let total: usize = members.iter().map(|(n, b)| 30 + 46 + 2 * n.len() + b.len()).sum::<usize>() + 22;
    u32_of(total as u64, "the archive")?;
    let mut out = Vec::new();
    crate::container::limits::try_reserve(&mut out, total, "a ZIP archive", 0)?;
    let mut z = ZipOut::new(std::io::Cursor::new(out));
    for (name, bytes) in members {
        z.add(name, bytes.len() as u64, &mut &bytes[..])?;
    }
    Ok(z.finish()?.into_inner())
}

/// A ZIP of stored members written as they come (to a file, or a buffer): each member's local
/// header, its bytes copied from a reader (its CRC-32 computed on the way and written into its
/// header once known), then [`ZipOut::finish`] writes the central directory. Memory is the
/// central directory and one 64 KiB buffer, whatever the members' sizes.
pub struct ZipOut<W> {
    out: W,
    at: u64,
    central: Vec<u8>,
    count: usize,
}

impl<W: std::io::Write + std::io::Seek> ZipOut<W> {
    /// A ZIP written to `out` from its current position, taken as the ZIP's start.
    pub fn new(out: W) -> Self {
        ZipOut { out, at: 0, central: Vec::new(), count: 0 }
    }

    /// Adds the stored member `name` of `len` bytes read from `data` (which must give that many);
    /// returns its CRC-32.
    pub fn add(&mut self, name: &str, len: u64, data: &mut dyn std::io::Read) -> Result<u32> {
        let io = |e: std::io::Error| Error::from(e).in_field("path");
        if self.count >= u16::MAX as usize - 1 {
            return Err(Error::invalid("a ZIP without zip64: fewer members than", 65535, self.count + 1, 0));
        }
        let offset = u32_of(self.at, "a local header's offset")?;
        let size = u32_of(len, "a member")?;
        let name_len = u16::try_from(name.len())
            .map_err(|_| Error::invalid("a member name of at most", 65535, name.len(), 0))?;
        u32_of(self.at + 30 + name.len() as u64 + len, "the archive")?;
        let flags = if name.is_ascii() { 0 } else { FLAG_UTF8 };
        // Local header: signature, version, flags, method, time, date, crc (patched), sizes,
        // name, extra.
        let mut head = Vec::with_capacity(30 + name.len());
        head.extend_from_slice(&LOCAL_SIG.to_le_bytes());
        for v in [VERSION_NEEDED, flags, STORED, 0, DOS_DATE] {
            head.extend_from_slice(&v.to_le_bytes());
        }
        for v in [0, size, size] {
            head.extend_from_slice(&v.to_le_bytes());
        }
        head.extend_from_slice(&name_len.to_le_bytes());
        head.extend_from_slice(&0u16.to_le_bytes());
        head.extend_from_slice(name.as_bytes());
        self.out.write_all(&head).map_err(io)?;
        let mut crc = !0u32;
        let mut left = len;
        let mut buf = alloc::vec![0u8; (64 * 1024).min(len as usize)];
        while left > 0 {
            let n = (buf.len() as u64).min(left) as usize;
            data.read_exact(&mut buf[..n]).map_err(|e| {
                Error::invalid("a member's bytes, as many as", len, alloc::format!("fewer ({e})"), 0)
                    .in_segment(crate::container::error::Segment::Key(name.into()))
            })?;
            crc = crc32_update(crc, &buf[..n]);
            self.out.write_all(&buf[..n]).map_err(io)?;
            left -= n as u64;
        }
        let crc = !crc;
        let end = self.at + head.len() as u64 + len;
        // The crc field is 14 bytes into the local header.
        let back = len + head.len() as u64 - 14;
        self.out.seek(std::io::SeekFrom::Current(-(back as i64))).map_err(io)?;
        self.out.write_all(&crc.to_le_bytes()).map_err(io)?;
        self.out.seek(std::io::SeekFrom::Current(back as i64 - 4)).map_err(io)?;
        self.at = end;
        // Its central entry.
        let c = &mut self.central;
        c.extend_from_slice(&CENTRAL_SIG.to_le_bytes());
        for v in [VERSION_MADE_BY, VERSION_NEEDED, flags, STORED, 0, DOS_DATE] {
            c.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, size, size] {
            c.extend_from_slice(&v.to_le_bytes());
        }
        // name, extra and comment lengths, disk number, internal attributes.
        for v in [name_len, 0, 0, 0, 0] {
            c.extend_from_slice(&v.to_le_bytes());
        }
        c.extend_from_slice(&EXTERNAL_ATTR.to_le_bytes());
        c.extend_from_slice(&offset.to_le_bytes());
        c.extend_from_slice(name.as_bytes());
        self.count += 1;
        Ok(crc)
    }

    /// Writes the central directory and its end record; returns the writer.
    pub fn finish(mut self) -> Result<W> {
        let io = |e: std::io::Error| Error::from(e).in_field("path");
        let count = self.count as u16;
        let cd_offset = u32_of(self.at, "the central directory's offset")?;
        let cd_len = u32_of(self.central.len() as u64, "the central directory")?;
        u32_of(self.at + self.central.len() as u64 + 22, "the archive")?;
        let mut tail = core::mem::take(&mut self.central);
        tail.extend_from_slice(&EOCD_SIG.to_le_bytes());
        for v in [0u16, 0, count, count] {
            tail.extend_from_slice(&v.to_le_bytes());
        }
        tail.extend_from_slice(&cd_len.to_le_bytes());
        tail.extend_from_slice(&cd_offset.to_le_bytes());
        tail.extend_from_slice(&0u16.to_le_bytes());
        self.out.write_all(&tail).map_err(io)?;
        self.out.flush().map_err(io)?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_of_the_check_string() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32(b""), 0);
    }
}
