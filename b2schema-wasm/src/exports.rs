//! The module's interface to its host, over linear memory, in safe Rust: buffers
//! ([`crate::slots`]), sources (bytes the host put in a buffer, or the host's own, read through
//! the import `b2schema.read`), and the operations on them. The module exports one function,
//! [`viewer`], which takes an operation's number ([`Op`]) and up to three arguments;
//! `viewer/worker.js` and `tests/wasm/readers.mjs` name them.

use std::cell::RefCell;
use std::sync::Arc;

use b2schema::source::{Memory, Source};

use crate::slots;

/// An open source and the frames opened in it.
struct Open {
    source: Source,
    opened: crate::Opened,
}

thread_local! {
    static SOURCES: RefCell<Vec<Option<Open>>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `source` and returns its handle (1-based; 0 for none).
fn add(source: Source) -> u32 {
    SOURCES.with_borrow_mut(|s| {
        s.push(Some(Open { source, opened: crate::Opened::default() }));
        u32::try_from(s.len()).unwrap_or(0)
    })
}

/// What `f` makes of the source `handle`.
fn with_source<T>(handle: u32, f: impl FnOnce(&mut Open) -> T) -> Option<T> {
    let index = usize::try_from(handle).ok()?.checked_sub(1)?;
    // The source is taken out while `f` runs, so that `f` may reach the table again.
    let mut open = SOURCES.with_borrow_mut(|s| s.get_mut(index)?.take())?;
    let out = f(&mut open);
    SOURCES.with_borrow_mut(|s| {
        if let Some(slot) = s.get_mut(index) {
            *slot = Some(open);
        }
    });
    Some(out)
}

/// The operations of [`viewer`], by number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Op {
    /// `(len)`: a new zeroed buffer, its handle.
    BufNew = 1,
    /// `(handle)`: its first byte's address.
    BufPtr = 2,
    /// `(handle)`: its length.
    BufLen = 3,
    /// `(handle)`: 1 for a result, 0 for an error's message.
    BufOk = 4,
    /// `(handle)`: frees it (returns 0).
    BufFree = 5,
    /// `(buffer)`: a source of the buffer's bytes (the buffer is taken), its handle.
    SourceMemory = 6,
    /// `(host id, len_lo, len_hi)`: a source of the host's bytes, read through the import
    /// `b2schema.read` (0 where there is no host: natively).
    SourceHost = 7,
    /// `(host id, len_lo, len_hi)`: a source of the host's bytes, of a URL: read
    /// [`REMOTE_AHEAD`] at once where its length is not yet known (each read is a request).
    SourceRemote = 8,
    /// `(source)`: forgets it and its frames (returns 0).
    SourceFree = 9,
    /// `(source, name, url)`: serve's answer to `url` (`/api/...`) for the file `name`
    /// ([`crate::answer`]): a buffer of the head's length (4 bytes, little-endian), the head
    /// (JSON: `status`, `type`, `headers`) and the body.
    Answer = 10,
    /// `(source, name)`: [`crate::decode`]'s text.
    Decode = 11,
}

impl Op {
    const ALL: [Op; 11] = [
        Op::BufNew,
        Op::BufPtr,
        Op::BufLen,
        Op::BufOk,
        Op::BufFree,
        Op::SourceMemory,
        Op::SourceHost,
        Op::SourceRemote,
        Op::SourceFree,
        Op::Answer,
        Op::Decode,
    ];
}

/// Bytes worth one read of a URL (where each read is a request), as `HttpOptions::prefix`.
pub const REMOTE_AHEAD: u64 = 64 << 10;

/// A source of the host's bytes, read `ahead` at once (0 natively, where there is no host).
fn source_host(id: u32, len_lo: u32, len_hi: u32, ahead: u64) -> u32 {
    let len = u64::from(len_lo) | (u64::from(len_hi) << 32);
    #[cfg(target_family = "wasm")]
    return add(Arc::new(crate::host::HostSource::new(id, len, ahead)));
    #[cfg(not(target_family = "wasm"))]
    {
        let _ = (id, len, ahead);
        0
    }
}

/// Serve's answer, as one buffer (see [`Op::Answer`]).
fn answer(source: u32, name: u32, url: u32) -> u32 {
    let (Some(name), Some(url)) = (slots::text(name), slots::text(url)) else {
        return slots::put(b"name and url: UTF-8 buffers expected".to_vec(), false);
    };
    let Some(r) = with_source(source, |open| crate::answer(&open.source, &name, &url, &mut open.opened))
    else {
        return slots::put(format!("no source {source}").into_bytes(), false);
    };
    let headers: serde_json::Map<String, serde_json::Value> =
        r.headers.iter().map(|(k, v)| ((*k).to_string(), serde_json::Value::from(v.as_str()))).collect();
    let head =
        serde_json::json!({ "status": r.status, "type": r.content_type, "headers": headers }).to_string();
    let mut out = Vec::with_capacity(4 + head.len() + r.body.len());
    out.extend_from_slice(&u32::try_from(head.len()).unwrap_or(0).to_le_bytes());
    out.extend_from_slice(head.as_bytes());
    out.extend_from_slice(&r.body);
    slots::put(out, true)
}

fn decode(source: u32, name: u32) -> u32 {
    let Some(name) = slots::text(name) else { return slots::put(b"name: UTF-8 expected".to_vec(), false) };
    match with_source(source, |open| crate::decode(&open.source, &name)) {
        Some(text) => slots::put(text.into_bytes(), true),
        None => slots::put(format!("no source {source}").into_bytes(), false),
    }
}

/// The module's one export: operation `op` ([`Op`]) with arguments `a`, `b`, `c` (those it does
/// not take are ignored); `u32::MAX` for an operation that does not exist.
#[allow(unsafe_code)] // `no_mangle`: wasm exports a function only under an unmangled name.
#[unsafe(no_mangle)]
pub extern "C" fn viewer(op: u32, a: u32, b: u32, c: u32) -> u32 {
    match Op::ALL.into_iter().find(|o| *o as u32 == op) {
        Some(Op::BufNew) => slots::new(a),
        Some(Op::BufPtr) => slots::ptr(a),
        Some(Op::BufLen) => slots::len(a),
        Some(Op::BufOk) => slots::ok(a),
        Some(Op::BufFree) => {
            slots::free(a);
            0
        }
        Some(Op::SourceMemory) => slots::take(a).map_or(0, |bytes| add(Arc::new(Memory::new(bytes)))),
        Some(Op::SourceHost) => source_host(a, b, c, 0),
        Some(Op::SourceRemote) => source_host(a, b, c, REMOTE_AHEAD),
        Some(Op::SourceFree) => {
            if let Some(index) = usize::try_from(a).ok().and_then(|i| i.checked_sub(1)) {
                SOURCES.with_borrow_mut(|s| s.get_mut(index).map(|slot| *slot = None));
            }
            0
        }
        Some(Op::Answer) => answer(a, b, c),
        Some(Op::Decode) => decode(a, b),
        None => u32::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_in_a_buffer_is_answered_and_forgotten() {
        let put = |b: &[u8]| slots::put(b.to_vec(), true);
        let src = viewer(Op::SourceMemory as u32, put(&[7u8; 100]), 0, 0);
        assert_ne!(src, 0);
        let r = viewer(Op::Answer as u32, src, put(b"x.b2nd"), put(b"/api/file"));
        let bytes = slots::with(r, |s| s.bytes.clone()).unwrap();
        let n = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
        let head: serde_json::Value = serde_json::from_slice(&bytes[4..4 + n]).unwrap();
        assert_eq!(head["status"], 422);
        let d = viewer(Op::Decode as u32, src, put(b"x.b2nd"), 0);
        assert!(slots::text(d).unwrap().starts_with("error: "));
        assert_eq!(viewer(Op::SourceFree as u32, src, 0, 0), 0);
        assert_eq!(slots::ok(viewer(Op::Decode as u32, src, put(b"x"), 0)), 0);
        assert_eq!(viewer(Op::SourceHost as u32, 1, 10, 0), 0, "no host natively");
        assert_eq!(viewer(0, 0, 0, 0), u32::MAX);
        assert_eq!(viewer(Op::SourceMemory as u32, 0, 0, 0), 0);
    }
}
