//! The codec's buffers, allocated fallibly (a size that cannot be had is an error, not an
//! abort), and the scratch buffers a thread keeps from block to block and from chunk to chunk,
//! for decoding and for compressing.

use alloc::vec::Vec;

use super::header::found_usize;
use crate::error::{Error, ErrorKind, Expected, Found, num};
use crate::fields;

/// The error for a buffer of `n` bytes that cannot be allocated.
pub(crate) fn alloc_error(n: usize) -> Error {
    Error::new(
        ErrorKind::LimitExceeded,
        fields::NBYTES,
        "nbytes",
        Expected::Text("an allocatable buffer size"),
        Found::Value(num(n)),
    )
}

/// `n` zero bytes.
pub(crate) fn try_zeroed(n: usize) -> Result<Vec<u8>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| alloc_error(n))?;
    v.resize(n, 0);
    Ok(v)
}

/// Scratch buffers at most this large (each) are kept by a thread between calls.
#[cfg(feature = "std")]
const KEPT_SCRATCH: usize = 4 << 20;

#[cfg(feature = "std")]
std::thread_local! {
    /// The calling thread's scratch buffers, kept between whole chunks: a fresh buffer of a
    /// block's size costs its zeroing and, above the allocator's mmap threshold, a page fault
    /// per 4 KiB on every chunk (measured: about 10 % of a 4 MiB chunk's decode).
    static SCRATCH: core::cell::RefCell<Scratch> = core::cell::RefCell::new(Scratch::default());
}

/// Runs `f` with the thread's kept scratch buffers (new ones without `std`, or when they are
/// in use further up the stack); buffers grown above [`KEPT_SCRATCH`] are freed afterwards.
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    #[cfg(feature = "std")]
    {
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => {
                let r = f(&mut scratch);
                if scratch.largest() > KEPT_SCRATCH {
                    *scratch = Scratch::default();
                }
                r
            }
            Err(_) => f(&mut Scratch::default()),
        })
    }
    #[cfg(not(feature = "std"))]
    {
        f(&mut Scratch::default())
    }
}

/// Scratch buffers kept for threads that live for one chunk (the threaded decoder's workers,
/// whose thread-local buffers would be new on every chunk): at most this many.
#[cfg(feature = "std")]
const POOLED_SCRATCH: usize = 4;

#[cfg(feature = "std")]
/// The kept scratch buffers of [`with_pooled_scratch`].
static POOL: std::sync::Mutex<Vec<Scratch>> = std::sync::Mutex::new(Vec::new());

/// Runs `f` with scratch buffers taken from a pool shared by all threads (new ones when it is
/// empty), given back afterwards unless grown above [`KEPT_SCRATCH`] or the pool holds
/// [`POOLED_SCRATCH`]: a thread spawned for one chunk would otherwise allocate, zero and fault
/// in a block's buffers on every chunk.
#[cfg(feature = "std")]
pub(crate) fn with_pooled_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut scratch = POOL.lock().ok().and_then(|mut pool| pool.pop()).unwrap_or_default();
    let r = f(&mut scratch);
    if scratch.largest() <= KEPT_SCRATCH
        && let Ok(mut pool) = POOL.lock()
        && pool.len() < POOLED_SCRATCH
    {
        pool.push(scratch);
    }
    r
}

/// Two block buffers and the bit-(un)shuffle one (empty when not needed).
pub(crate) type ScratchBlocks<'s> = (&'s mut [u8], &'s mut [u8], &'s mut [u8]);

/// Scratch buffers of the filter pipeline and of the codec's output, reused from block to
/// block. They are grown (and zeroed) only when a block needs more than they hold: their
/// users write every byte they read back.
#[derive(Default)]
pub(crate) struct Scratch {
    a: Vec<u8>,
    b: Vec<u8>,
    tmp: Vec<u8>,
    /// The compressor's codec output.
    coded: Vec<u8>,
    /// A block's streams as a compressing thread encodes them before they join the chunk.
    #[cfg(feature = "std")]
    pub(crate) encoded: Vec<u8>,
    /// Zeros only (grown with zeros, never handed out to be written): the plane of a stream
    /// of zeros, read where it lies.
    zeros: Vec<u8>,
}

impl Scratch {
    /// Two buffers of `len` bytes, and a third when `tmp` is asked for (empty otherwise); each
    /// grown fallibly.
    pub(crate) fn blocks(&mut self, len: usize, tmp: bool) -> Result<ScratchBlocks<'_>, Error> {
        Ok(self.blocks_and_coded(len, tmp, 0)?.0)
    }

    /// [`Scratch::blocks`] and the codec's output buffer of `coded` bytes.
    pub(crate) fn blocks_and_coded(
        &mut self,
        len: usize,
        tmp: bool,
        coded: usize,
    ) -> Result<(ScratchBlocks<'_>, &mut [u8]), Error> {
        let tmp_len = if tmp { len } else { 0 };
        let Scratch { a, b, tmp, coded: c, .. } = self;
        Ok(((grow(a, len)?, grow(b, len)?, grow(tmp, tmp_len)?), grow(c, coded)?))
    }

    /// One block buffer of `len` bytes and `zeros` zero bytes.
    pub(crate) fn block_and_zeros(&mut self, len: usize, zeros: usize) -> Result<(&mut [u8], &[u8]), Error> {
        let Scratch { a, zeros: z, .. } = self;
        Ok((grow(a, len)?, grow(z, zeros)?))
    }

    /// The capacity of the largest buffer.
    #[cfg(feature = "std")]
    fn largest(&self) -> usize {
        [&self.a, &self.b, &self.tmp, &self.coded, &self.zeros, &self.encoded]
            .iter()
            .map(|v| v.capacity())
            .max()
            .unwrap_or(0)
    }
}

/// The first `want` bytes of `buf`, grown fallibly (zeroed where new) when it is shorter.
fn grow(buf: &mut Vec<u8>, want: usize) -> Result<&mut [u8], Error> {
    if buf.len() < want {
        buf.try_reserve_exact(want - buf.len()).map_err(|_| {
            Error::new(
                ErrorKind::LimitExceeded,
                fields::BLOCKSIZE,
                "blocksize",
                Expected::Text("an allocatable block size"),
                found_usize(want),
            )
        })?;
        buf.resize(want, 0);
    }
    Ok(&mut buf[..want])
}
