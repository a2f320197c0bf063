//! The module's interface to its host, over linear memory, in safe Rust: the module keeps every
//! buffer (a table of `Vec<u8>` behind handles), the host asks for one of a given length, writes
//! its bytes at the address [`Op::BufPtr`] gives, calls an operation with handles, and reads the
//! result the same way. Handles are 1-based; 0 means no buffer (an allocation failed).
//!
//! The module exports one function, [`b2`], which takes an operation's number ([`Op`]) and up to
//! three arguments: it is the only item that needs an unmangled name, whatever the number of
//! operations. `tests/wasm/module.mjs` gives the host the operations by name.
//!
//! ```js
//! const h = b2.bufNew(chunk.length);
//! new Uint8Array(b2.memory.buffer, b2.bufPtr(h), chunk.length).set(chunk);
//! const r = b2.decompress(h, limit); // b2.bufOk(r): 1 the output, 0 the error's message
//! ```

// The table of buffers, the static viewer's module's own (b2schema-wasm): one file for both
// modules, included here so that this module stays b2schema-chunk's alone.
#[allow(dead_code)] // `text` and `take` serve the viewer's sources only.
#[path = "../../../b2schema-wasm/src/slots.rs"]
mod slots;

use slots::{free as b2_buf_free, len as b2_buf_len, new as b2_buf_new, ok as b2_buf_ok, ptr as b2_buf_ptr};
use slots::{put, with};

/// The result of an operation on the buffers `inputs`, kept as a buffer.
fn run(inputs: &[u32], op: impl FnOnce(&[&[u8]]) -> Result<Vec<u8>, String>) -> u32 {
    let owned: Option<Vec<Vec<u8>>> = inputs.iter().map(|&h| with(h, |s| s.bytes.clone())).collect();
    let result = match owned {
        Some(bufs) => op(&bufs.iter().map(Vec::as_slice).collect::<Vec<_>>()),
        None => Err(format!("no buffer among the handles {inputs:?}")),
    };
    match result {
        Ok(bytes) => put(bytes, true),
        Err(message) => put(message.into_bytes(), false),
    }
}

/// The chunk in buffer `chunk` decompressed, at most `limit` bytes, as a new buffer
/// ([`crate::decompress`]).
fn b2_decompress(chunk: u32, limit: u32) -> u32 {
    run(&[chunk], |b| crate::decompress(b[0], usize::try_from(limit).unwrap_or(usize::MAX)))
}

/// The chunk in buffer `chunk` decompressed with the shapes of the spec in buffer `spec`, at most
/// `limit` bytes, as a new buffer ([`crate::decompress_as`]).
fn b2_decompress_as(chunk: u32, spec: u32, limit: u32) -> u32 {
    run(&[chunk, spec], |b| {
        crate::decompress_as(b[0], utf8(b[1])?, usize::try_from(limit).unwrap_or(usize::MAX))
    })
}

/// The chunk in buffer `chunk` decoded block by block, at most `limit` bytes, as a new buffer
/// ([`crate::decompress_blocks`]).
fn b2_decompress_blocks(chunk: u32, limit: u32) -> u32 {
    run(&[chunk], |b| crate::decompress_blocks(b[0], usize::try_from(limit).unwrap_or(usize::MAX)))
}

/// The bytes in buffer `data` compressed as the spec in buffer `spec` (UTF-8) says, as a new
/// buffer ([`crate::compress`]).
fn b2_compress(data: u32, spec: u32) -> u32 {
    run(&[data, spec], |b| crate::compress(b[0], utf8(b[1])?))
}

/// The operations of [`b2`], by number (`tests/wasm/module.mjs` names them for the host).
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
    /// `(chunk, limit)`: [`crate::decompress`].
    Decompress = 6,
    /// `(chunk, spec, limit)`: [`crate::decompress_as`].
    DecompressAs = 7,
    /// `(chunk, limit)`: [`crate::decompress_blocks`].
    DecompressBlocks = 8,
    /// `(data, spec)`: [`crate::compress`].
    Compress = 9,
}

impl Op {
    const ALL: [Op; 9] = [
        Op::BufNew,
        Op::BufPtr,
        Op::BufLen,
        Op::BufOk,
        Op::BufFree,
        Op::Decompress,
        Op::DecompressAs,
        Op::DecompressBlocks,
        Op::Compress,
    ];
}

/// The module's one export: operation `op` ([`Op`]) with arguments `a`, `b`, `c` (those it does
/// not take are ignored); `u32::MAX` for an operation that does not exist.
#[allow(unsafe_code)] // `no_mangle`: wasm exports a function only under an unmangled name.
#[unsafe(no_mangle)]
pub extern "C" fn b2(op: u32, a: u32, b: u32, c: u32) -> u32 {
    match Op::ALL.into_iter().find(|o| *o as u32 == op) {
        Some(Op::BufNew) => b2_buf_new(a),
        Some(Op::BufPtr) => b2_buf_ptr(a),
        Some(Op::BufLen) => b2_buf_len(a),
        Some(Op::BufOk) => b2_buf_ok(a),
        Some(Op::BufFree) => {
            b2_buf_free(a);
            0
        }
        Some(Op::Decompress) => b2_decompress(a, b),
        Some(Op::DecompressAs) => b2_decompress_as(a, b, c),
        Some(Op::DecompressBlocks) => b2_decompress_blocks(a, b),
        Some(Op::Compress) => b2_compress(a, b),
        None => u32::MAX,
    }
}

/// A spec's text.
fn utf8(bytes: &[u8]) -> Result<&str, String> {
    core::str::from_utf8(bytes).map_err(|e| format!("spec is not UTF-8: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_hold_results_errors_and_free_slots_are_reused() {
        let data = b2_buf_new(4000);
        assert_eq!((b2_buf_len(data), b2_buf_ok(data)), (4000, 1));
        let spec = put(b"codec=lz4 typesize=4".to_vec(), true);
        let chunk = b2_compress(data, spec);
        assert_eq!(b2_buf_ok(chunk), 1);
        let back = b2_decompress(chunk, 4000);
        assert_eq!(with(back, |s| s.bytes.clone()), Some(vec![0; 4000]));
        assert_eq!(b2_buf_ok(b2_decompress(chunk, 3999)), 0);
        let bad = b2_decompress(spec, u32::MAX);
        assert_eq!(b2_buf_ok(bad), 0);
        assert!(with(bad, |s| String::from_utf8(s.bytes.clone()).unwrap()).unwrap().contains("offset"));
        assert_eq!(b2_buf_ok(b2_decompress(0, u32::MAX)), 0);
        b2_buf_free(spec);
        assert_eq!(b2_buf_len(spec), 0);
        assert_eq!(put(Vec::new(), true), spec);
        b2_buf_free(0);
        b2_buf_free(u32::MAX);
    }

    #[test]
    fn the_one_export_runs_each_operation_by_its_number() {
        let data = b2(Op::BufNew as u32, 4000, 0, 0);
        assert_eq!((b2(Op::BufLen as u32, data, 0, 0), b2(Op::BufOk as u32, data, 0, 0)), (4000, 1));
        let spec = put(b"codec=lz4 typesize=4".to_vec(), true);
        let chunk = b2(Op::Compress as u32, data, spec, 0);
        assert_eq!(b2(Op::BufOk as u32, chunk, 0, 0), 1);
        for op in [Op::Decompress, Op::DecompressBlocks] {
            let back = b2(op as u32, chunk, 4000, 0);
            assert_eq!(with(back, |s| s.bytes.clone()), Some(vec![0; 4000]), "{op:?}");
        }
        let back = b2(Op::DecompressAs as u32, chunk, spec, 3999);
        assert_eq!(b2(Op::BufOk as u32, back, 0, 0), 0);
        assert_eq!(b2(Op::BufFree as u32, spec, 0, 0), 0);
        assert_eq!(b2(Op::BufLen as u32, spec, 0, 0), 0);
        assert_eq!(b2(0, 0, 0, 0), u32::MAX);
        assert_eq!(b2(10, 0, 0, 0), u32::MAX);
    }
}
