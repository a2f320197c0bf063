//! The central directory of a ZIP file (APPNOTE 6.3.x), as much as a `.b2z` store needs: each
//! entry's name, method, flags, sizes and where its local header starts; zip64 records are
//! read. Every offset and count is checked against the file and the budget before it is used,
//! and members may not overlap.

use alloc::string::String;
use alloc::vec::Vec;

use crate::container::error::{Error, Result, Segment};
use crate::container::limits::{Limit, Limits, try_reserve, try_zeros};
use crate::container::source::ReadAt;

pub(super) const EOCD_SIG: u32 = 0x0605_4b50;
const EOCD_LEN: u64 = 22;
const ZIP64_LOCATOR_SIG: u32 = 0x0706_4b50;
const ZIP64_LOCATOR_LEN: u64 = 20;
const ZIP64_EOCD_SIG: u32 = 0x0606_4b50;
const ZIP64_EOCD_LEN: u64 = 56;
pub(super) const CENTRAL_SIG: u32 = 0x0201_4b50;
const CENTRAL_LEN: usize = 46;
pub(super) const LOCAL_SIG: u32 = 0x0403_4b50;
/// The fixed part of a local file header.
pub const LOCAL_LEN: u64 = 30;
/// The longest comment, hence how far from the end the end-of-central-directory record can be.
const MAX_COMMENT: u64 = 0xffff;

/// Method 0: the member's bytes are stored as they are.
pub const STORED: u16 = 0;

/// One entry of the central directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its name (UTF-8, `/`-separated).
    pub name: String,
    /// The compression method (0 stored, 8 deflate, ...).
    pub method: u16,
    /// The general-purpose flags (bit 0: encrypted).
    pub flags: u16,
    /// Bytes stored in the archive.
    pub compressed_size: u64,
    /// Bytes once decompressed.
    pub size: u64,
    /// Where its local file header starts.
    pub local_offset: u64,
    /// Where the next member (or the central directory) starts: its bytes must end by then.
    pub limit: u64,
    /// Where its central-directory entry starts (for messages).
    pub central_offset: u64,
    /// Its CRC-32, as the central directory gives it.
    pub crc: u32,
}

impl Entry {
    /// The stored member `name` whose local header is at `local_offset`, `len` bytes, ending by
    /// `limit` (a [`Place::Zip`](super::Place::Zip), to open again).
    pub fn stored(name: &str, local_offset: u64, len: u64, limit: u64) -> Entry {
        Entry {
            name: name.into(),
            method: STORED,
            flags: 0,
            compressed_size: len,
            size: len,
            local_offset,
            limit,
            central_offset: 0,
            crc: 0,
        }
    }
}

/// A ZIP file's central directory.
#[derive(Debug)]
pub struct CentralDirectory {
    /// The entries, in the order of their local headers in the file.
    pub entries: Vec<Entry>,
    /// The bytes read to find them.
    pub bytes_read: u64,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut v = [0u8; 8];
    v.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(v)
}

fn read_exact_at(f: &dyn ReadAt, at: u64, buf: &mut [u8], counter: &mut u64) -> Result<()> {
    f.read_at(at, buf)?;
    *counter += buf.len() as u64;
    Ok(())
}

/// Reads the central directory of the ZIP in `f` (a local file, or a remote one whose tail was
/// fetched when it was opened).
pub fn read_from(f: &dyn ReadAt, limits: &Limits) -> Result<CentralDirectory> {
    let len = f.len();
    let mut bytes_read = 0;
    if len < EOCD_LEN {
        return Err(Error::invalid(
            "a ZIP file of at least",
            "22 bytes",
            crate::format::error::bytes(len),
            0,
        )
        .in_field("end_of_central_directory"));
    }
    // Most ZIPs have no comment: their end record is the last 22 bytes, read first; only
    // otherwise is the last 64 KiB searched.
    let mut last = [0u8; EOCD_LEN as usize];
    read_exact_at(f, len - EOCD_LEN, &mut last, &mut bytes_read)?;
    let plain = u32_at(&last, 0) == EOCD_SIG && u16_at(&last, 20) == 0;
    let tail_len = if plain { EOCD_LEN } else { len.min(EOCD_LEN + MAX_COMMENT) };
    let tail_start = len - tail_len;
    let tail = if plain {
        last.to_vec()
    } else {
        let mut tail = try_zeros(tail_len as usize, "the end of a ZIP file", tail_start as usize)?;
        read_exact_at(f, tail_start, &mut tail, &mut bytes_read)?;
        tail
    };
    // The last record signature whose comment ends the file; failing that, the last signature.
    let candidates = (0..=tail.len() - EOCD_LEN as usize).rev().filter(|&i| u32_at(&tail, i) == EOCD_SIG);
    let mut found = None;
    for i in candidates {
        let comment = u16_at(&tail, i + 20) as usize;
        if i + EOCD_LEN as usize + comment == tail.len() {
            found = Some(i);
            break;
        }
        found.get_or_insert(i);
    }
    let Some(i) = found else {
        return Err(Error::invalid(
            "a ZIP end-of-central-directory record (PK\\x05\\x06) in the last bytes",
            "its signature",
            "none",
            tail_start as usize,
        )
        .in_field("end_of_central_directory"));
    };
    let eocd_at = tail_start + i as u64;
    let e = &tail[i..i + EOCD_LEN as usize];
    let field =
        |name: &'static str| move |err: Error| err.in_field(name).in_field("end_of_central_directory");
    let (disk, cd_disk) = (u16_at(e, 4), u16_at(e, 6));
    let (n_disk, n_total) = (u16_at(e, 8), u16_at(e, 10));
    let (mut cd_size, mut cd_offset) = (u32_at(e, 12) as u64, u32_at(e, 16) as u64);
    let mut count = n_total as u64;
    let mut cd_end = eocd_at;
    if disk != 0 || cd_disk != 0 || n_disk != n_total {
        return Err(Error::invalid(
            "a ZIP on one disk (disk numbers 0, as many entries on this disk as in all)",
            alloc::format!("0, 0, {n_total}"),
            alloc::format!("{disk}, {cd_disk}, {n_disk}"),
            eocd_at as usize + 4,
        ))
        .map_err(field("disk"));
    }
    let zip64 = n_total == 0xffff || cd_size == 0xffff_ffff || cd_offset == 0xffff_ffff;
    if eocd_at >= ZIP64_LOCATOR_LEN {
        let at = eocd_at - ZIP64_LOCATOR_LEN;
        let mut loc = [0u8; ZIP64_LOCATOR_LEN as usize];
        read_exact_at(f, at, &mut loc, &mut bytes_read)?;
        if u32_at(&loc, 0) == ZIP64_LOCATOR_SIG {
            let rec_at = u64_at(&loc, 8);
            if u32_at(&loc, 4) != 0 || u32_at(&loc, 16) > 1 {
                return Err(Error::invalid(
                    "a zip64 locator of one disk",
                    0,
                    u32_at(&loc, 4),
                    at as usize + 4,
                ))
                .map_err(field("zip64_locator"));
            }
            if rec_at.checked_add(ZIP64_EOCD_LEN).is_none_or(|end| end > at) {
                return Err(Error::invalid(
                    "a zip64 end-of-central-directory record before its locator, ending by",
                    at,
                    rec_at.saturating_add(ZIP64_EOCD_LEN),
                    at as usize + 8,
                ))
                .map_err(field("zip64_locator"));
            }
            let mut rec = [0u8; ZIP64_EOCD_LEN as usize];
            read_exact_at(f, rec_at, &mut rec, &mut bytes_read)?;
            if u32_at(&rec, 0) != ZIP64_EOCD_SIG {
                return Err(Error::invalid(
                    "a zip64 end-of-central-directory signature",
                    "PK\\x06\\x06",
                    alloc::format!("{:#010x}", u32_at(&rec, 0)),
                    rec_at as usize,
                ))
                .map_err(field("zip64_record"));
            }
            let (n_disk64, n_total64) = (u64_at(&rec, 24), u64_at(&rec, 32));
            if u32_at(&rec, 16) != 0 || u32_at(&rec, 20) != 0 || n_disk64 != n_total64 {
                return Err(Error::invalid(
                    "a zip64 ZIP on one disk, entries on this disk",
                    n_total64,
                    n_disk64,
                    rec_at as usize + 24,
                ))
                .map_err(field("zip64_record"));
            }
            count = n_total64;
            cd_size = u64_at(&rec, 40);
            cd_offset = u64_at(&rec, 48);
            cd_end = rec_at;
        } else if zip64 {
            return Err(Error::invalid(
                "a zip64 locator (PK\\x06\\x07) before a record with 0xffff... fields",
                "its signature",
                alloc::format!("{:#010x}", u32_at(&loc, 0)),
                at as usize,
            ))
            .map_err(field("zip64_locator"));
        }
    } else if zip64 {
        return Err(Error::invalid(
            "room for a zip64 locator before the record at",
            20,
            eocd_at,
            eocd_at as usize,
        ))
        .map_err(field("zip64_locator"));
    }
    if cd_offset.checked_add(cd_size).is_none_or(|end| end > cd_end) {
        return Err(Error::invalid(
            "a central directory (offset + size) ending by the end record at",
            cd_end,
            alloc::format!("{cd_offset} + {cd_size}"),
            eocd_at as usize + 16,
        ))
        .map_err(field("central_directory_offset"));
    }
    // Each entry takes at least 46 bytes: a count the directory cannot hold is a lie.
    if count > cd_size / CENTRAL_LEN as u64 {
        return Err(Error::invalid(
            "an entry count the central directory can hold (46 bytes each), at most",
            cd_size / CENTRAL_LEN as u64,
            count,
            eocd_at as usize + 10,
        ))
        .map_err(field("total_entries"));
    }
    limits.require(
        "a ZIP central directory (its size)",
        cd_size,
        Limit::Decompressed,
        eocd_at as usize + 12,
    )?;
    limits.require(
        "a ZIP's entries (members count as chunks)",
        count,
        Limit::Chunks,
        eocd_at as usize + 10,
    )?;
    let mut cd = try_zeros(cd_size as usize, "a ZIP central directory", cd_offset as usize)?;
    read_exact_at(f, cd_offset, &mut cd, &mut bytes_read)?;
    let mut entries = Vec::new();
    try_reserve(&mut entries, count as usize, "the entries of a ZIP central directory", cd_offset as usize)?;
    let mut at = 0usize;
    for index in 0..count as usize {
        let e = entry(&cd, &mut at, cd_offset)
            .map_err(|e| e.in_segment(Segment::Index(index)).in_field("central_directory"))?;
        entries.push(e);
    }
    check_layout(&mut entries, cd_offset)?;
    Ok(CentralDirectory { entries, bytes_read })
}

/// One central-directory entry at `*at` of `cd` (which starts at `base` in the file).
fn entry(cd: &[u8], at: &mut usize, base: u64) -> Result<Entry> {
    let start = *at;
    let off = |i: usize| (base as usize).saturating_add(start + i);
    let fixed = cd.get(start..start + CENTRAL_LEN).ok_or_else(|| {
        Error::invalid("a 46-byte central-directory entry, bytes left", CENTRAL_LEN, cd.len() - start, off(0))
    })?;
    if u32_at(fixed, 0) != CENTRAL_SIG {
        return Err(Error::invalid(
            "a central-directory signature",
            "PK\\x01\\x02",
            alloc::format!("{:#010x}", u32_at(fixed, 0)),
            off(0),
        )
        .in_field("signature"));
    }
    let flags = u16_at(fixed, 8);
    let method = u16_at(fixed, 10);
    let mut compressed_size = u32_at(fixed, 20) as u64;
    let mut size = u32_at(fixed, 24) as u64;
    let (name_len, extra_len, comment_len) =
        (u16_at(fixed, 28) as usize, u16_at(fixed, 30) as usize, u16_at(fixed, 32) as usize);
    let disk = u16_at(fixed, 34);
    let mut local_offset = u32_at(fixed, 42) as u64;
    let end = start + CENTRAL_LEN + name_len + extra_len + comment_len;
    if end > cd.len() {
        return Err(Error::invalid(
            "name, extra field and comment inside the central directory, ending by",
            base + cd.len() as u64,
            base + end as u64,
            off(28),
        )
        .in_field("name_length"));
    }
    let name_bytes = &cd[start + CENTRAL_LEN..start + CENTRAL_LEN + name_len];
    let name = core::str::from_utf8(name_bytes)
        .map_err(|e| Error::invalid("a UTF-8 member name", "UTF-8", e, off(CENTRAL_LEN)).in_field("name"))?;
    let mut extra = &cd[start + CENTRAL_LEN + name_len..start + CENTRAL_LEN + name_len + extra_len];
    let mut extra_at = off(CENTRAL_LEN + name_len);
    let mut disk64 = disk as u64;
    while extra.len() >= 4 {
        let (id, n) = (u16_at(extra, 0), u16_at(extra, 2) as usize);
        let data = extra.get(4..4 + n).ok_or_else(|| {
            Error::invalid("an extra field inside its entry, bytes left", extra.len() - 4, n, extra_at + 2)
                .in_field("extra")
        })?;
        if id == 1 {
            // zip64: the 64-bit values of the fields that hold 0xffffffff, in this order.
            let mut d = data;
            let mut next = |what: &'static str| -> Result<u64> {
                if d.len() < 8 {
                    return Err(Error::invalid(
                        "an 8-byte zip64 value, bytes left",
                        8,
                        d.len(),
                        extra_at + 4,
                    )
                    .in_field(what)
                    .in_field("zip64_extra"));
                }
                let v = u64_at(d, 0);
                d = &d[8..];
                Ok(v)
            };
            if size == 0xffff_ffff {
                size = next("size")?;
            }
            if compressed_size == 0xffff_ffff {
                compressed_size = next("compressed_size")?;
            }
            if local_offset == 0xffff_ffff {
                local_offset = next("local_header_offset")?;
            }
            if disk == 0xffff {
                if d.len() < 4 {
                    return Err(Error::invalid(
                        "a 4-byte zip64 disk number, bytes left",
                        4,
                        d.len(),
                        extra_at + 4,
                    )
                    .in_field("zip64_extra"));
                }
                disk64 = u32_at(d, 0) as u64;
            }
        }
        extra = &extra[4 + n..];
        extra_at += 4 + n;
    }
    if disk64 != 0 {
        return Err(Error::invalid("a member on disk", 0, disk64, off(34)).in_field("disk_start"));
    }
    *at = end;
    let mut owned = String::new();
    owned
        .try_reserve_exact(name.len())
        .map_err(|_| Error::no_memory("a member's name", name.len() as u64, off(46)))?;
    owned.push_str(name);
    Ok(Entry {
        name: owned,
        method,
        flags,
        compressed_size,
        size,
        local_offset,
        limit: 0,
        central_offset: base + start as u64,
        crc: u32_at(fixed, 16),
    })
}

/// Sorts the entries by where they lie, and checks that each (its local header, name and stored
/// bytes at the least) ends before the next one starts and the last before the central
/// directory; records each one's limit.
fn check_layout(entries: &mut [Entry], cd_offset: u64) -> Result<()> {
    entries.sort_by_key(|e| e.local_offset);
    for i in 0..entries.len() {
        let limit = entries.get(i + 1).map_or(cd_offset, |n| n.local_offset);
        let e = &mut entries[i];
        let least = e
            .local_offset
            .checked_add(LOCAL_LEN + e.name.len() as u64)
            .and_then(|v| v.checked_add(e.compressed_size));
        if least.is_none_or(|end| end > limit) {
            let next = entries.get(i + 1).map_or("the central directory", |n| n.name.as_str());
            return Err(Error::invalid(
                "members that do not overlap: a member ending by the start of the next, at",
                alloc::format!("{limit} ({next})"),
                alloc::format!(
                    "{} + {} + {}",
                    entries[i].local_offset,
                    LOCAL_LEN + entries[i].name.len() as u64,
                    entries[i].compressed_size
                ),
                entries[i].central_offset as usize + 42,
            )
            .in_segment(Segment::Key(entries[i].name.clone()))
            .in_field("central_directory"));
        }
        e.limit = limit;
    }
    Ok(())
}

/// Where the stored bytes of `e` start: after its local header, which is read (30 bytes, then
/// the name and extra lengths it gives) and checked against the central directory.
pub fn data_offset(f: &dyn ReadAt, e: &Entry, counter: &mut u64) -> Result<u64> {
    let mut h = [0u8; LOCAL_LEN as usize];
    read_exact_at(f, e.local_offset, &mut h, counter)?;
    let at = e.local_offset as usize;
    if u32_at(&h, 0) != LOCAL_SIG {
        return Err(Error::invalid(
            "a local file header signature",
            "PK\\x03\\x04",
            alloc::format!("{:#010x}", u32_at(&h, 0)),
            at,
        )
        .in_field("local_header"));
    }
    let (n, x) = (u16_at(&h, 26) as u64, u16_at(&h, 28) as u64);
    if n != e.name.len() as u64 {
        return Err(Error::invalid(
            "a local name as long as the central directory's",
            e.name.len(),
            n,
            at + 26,
        )
        .in_field("local_header"));
    }
    let data = e.local_offset + LOCAL_LEN + n + x;
    if data.checked_add(e.compressed_size).is_none_or(|end| end > e.limit) {
        return Err(Error::invalid(
            "a member's bytes ending before the next member, by",
            e.limit,
            alloc::format!("{data} + {}", e.compressed_size),
            at + 28,
        )
        .in_field("local_header"));
    }
    Ok(data)
}
