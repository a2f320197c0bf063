//! The module's buffers (this file is `tests/wasm`'s too, included by `#[path]`): a table of `Vec<u8>` behind 1-based handles, 0
//! meaning none. The host asks for a buffer of a given length, writes its bytes at the address
//! the module gives, and reads results the same way.

use std::cell::RefCell;

/// A buffer and whether it holds a result (1) or an error's message (0).
pub(crate) struct Slot {
    pub(crate) bytes: Vec<u8>,
    pub(crate) ok: bool,
}

thread_local! {
    static SLOTS: RefCell<Vec<Option<Slot>>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `bytes` and returns its handle.
pub(crate) fn put(bytes: Vec<u8>, ok: bool) -> u32 {
    SLOTS.with_borrow_mut(|slots| {
        let slot = Some(Slot { bytes, ok });
        let index = match slots.iter().position(Option::is_none) {
            Some(i) => {
                slots[i] = slot;
                i
            }
            None => {
                slots.push(slot);
                slots.len() - 1
            }
        };
        u32::try_from(index + 1).unwrap_or(0)
    })
}

/// What `f` makes of the buffer `handle` (`None` for no such buffer).
pub(crate) fn with<T>(handle: u32, f: impl FnOnce(&Slot) -> T) -> Option<T> {
    let index = usize::try_from(handle).ok()?.checked_sub(1)?;
    SLOTS.with_borrow(|slots| slots.get(index)?.as_ref().map(f))
}

/// The buffer's bytes as UTF-8 text (`None` for no such buffer or bytes that are not UTF-8).
pub(crate) fn text(handle: u32) -> Option<String> {
    with(handle, |s| String::from_utf8(s.bytes.clone()).ok()).flatten()
}

/// A new zeroed buffer of `len` bytes (0 when it cannot be allocated).
pub(crate) fn new(len: u32) -> u32 {
    let Ok(len) = usize::try_from(len) else { return 0 };
    let mut bytes = Vec::new();
    if bytes.try_reserve_exact(len).is_err() {
        return 0;
    }
    bytes.resize(len, 0);
    put(bytes, true)
}

/// The address of the buffer's first byte in linear memory (0 for no such buffer).
pub(crate) fn ptr(handle: u32) -> u32 {
    with(handle, |s| u32::try_from(s.bytes.as_ptr().expose_provenance()).unwrap_or(0)).unwrap_or(0)
}

/// The buffer's length in bytes (0 for no such buffer).
pub(crate) fn len(handle: u32) -> u32 {
    with(handle, |s| u32::try_from(s.bytes.len()).unwrap_or(u32::MAX)).unwrap_or(0)
}

/// 1 when the buffer holds a result (or the host's bytes), 0 when an error's message.
pub(crate) fn ok(handle: u32) -> u32 {
    with(handle, |s| u32::from(s.ok)).unwrap_or(0)
}

/// Frees the buffer (nothing for no such buffer).
pub(crate) fn free(handle: u32) {
    let Some(index) = usize::try_from(handle).ok().and_then(|h| h.checked_sub(1)) else { return };
    SLOTS.with_borrow_mut(|slots| {
        if let Some(slot) = slots.get_mut(index) {
            *slot = None;
        }
    });
}

/// The bytes of buffer `handle`, taken out of it (the handle freed): how a source takes the
/// host's bytes without a copy.
pub(crate) fn take(handle: u32) -> Option<Vec<u8>> {
    let index = usize::try_from(handle).ok()?.checked_sub(1)?;
    SLOTS.with_borrow_mut(|slots| slots.get_mut(index)?.take().map(|s| s.bytes))
}
