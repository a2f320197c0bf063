//! A ZIP of *stored* members, as python's `zipfile.ZipFile(path, "w", ZIP_STORED)` writes one
//! for python-blosc2's `DictStore.to_b2z`: for each member a local header (no extra field, no
//! data descriptor) and its bytes unchanged, then the central directory and its end record.
//! Times are 1980-01-01 00:00 (the DOS epoch), so the bytes depend on the members only.
//! No zip64: a member or an archive past 4 GiB, or more than 65,535 members, is refused.

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
pub fn crc32(bytes: &[u8]) -> u32 {
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
    !bytes.iter().fold(!0u32, |c, &b| TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8))
}

fn u32_of(n: usize, what: &'static str) -> Result<u32> {
    u32::try_from(n).ok().filter(|&v| v != u32::MAX).ok_or_else(|| {
        Error::invalid("a ZIP without zip64: below 4 GiB", "< 4294967295", alloc::format!("{n} ({what})"), 0)
    })
}

/// The ZIP of `members` (name, bytes), in that order.
pub fn zip(members: &[(&str, &[u8])]) -> Result<Vec<u8>> {
    let count = u16::try_from(members.len())
        .ok()
        .filter(|&n| n != u16::MAX)
        .ok_or_else(|| Error::invalid("a ZIP without zip64: fewer members than", 65535, members.len(), 0))?;
    let total: usize = members.iter().map(|(n, b)| 30 + 46 + 2 * n.len() + b.len()).sum::<usize>() + 22;
    u32_of(total, "the archive")?;
    let mut out = Vec::new();
    out.try_reserve_exact(total).map_err(|_| Error::invalid("memory for a ZIP of", total, "none", 0))?;
    let mut central = Vec::new();
    for (name, bytes) in members {
        let offset = u32_of(out.len(), "a local header's offset")?;
        let size = u32_of(bytes.len(), "a member")?;
        let name_len = u16::try_from(name.len())
            .map_err(|_| Error::invalid("a member name of at most", 65535, name.len(), 0))?;
        let flags = if name.is_ascii() { 0 } else { FLAG_UTF8 };
        let crc = crc32(bytes);
        // Local header: signature, version, flags, method, time, date, crc, sizes, name, extra.
        out.extend_from_slice(&LOCAL_SIG.to_le_bytes());
        for v in [VERSION_NEEDED, flags, STORED, 0, DOS_DATE] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, size, size] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&name_len.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(bytes);
        // Its central entry.
        central.extend_from_slice(&CENTRAL_SIG.to_le_bytes());
        for v in [VERSION_MADE_BY, VERSION_NEEDED, flags, STORED, 0, DOS_DATE] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, size, size] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        // name, extra and comment lengths, disk number, internal attributes.
        for v in [name_len, 0, 0, 0, 0] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        central.extend_from_slice(&EXTERNAL_ATTR.to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let cd_offset = u32_of(out.len(), "the central directory's offset")?;
    let cd_len = u32_of(central.len(), "the central directory")?;
    out.extend_from_slice(&central);
    out.extend_from_slice(&EOCD_SIG.to_le_bytes());
    for v in [0u16, 0, count, count] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&cd_len.to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    Ok(out)
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
