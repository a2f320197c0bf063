//! Where the serializer writes: a `Vec`, a caller's slice, a byte counter or an `io::Write`.

use alloc::vec::Vec;

use crate::format::error::{Error, ErrorKind, Result};

/// A sink for encoded bytes that knows how many it has taken (the offset reported in errors).
pub trait Output {
    /// Appends `bytes`.
    fn write_all(&mut self, bytes: &[u8]) -> Result<()>;

    /// Bytes written so far (for a `Vec`, its length).
    fn position(&self) -> usize;

    /// Whether `n` more bytes can be written (a caller's slice may be too short; growing and
    /// streaming outputs say yes). The direct encoder asks before writing a packed struct in
    /// one piece, so that a short slice fails exactly where the serde path would.
    #[inline]
    fn fits(&self, n: usize) -> bool {
        let _ = n;
        true
    }

    /// Appends a marker and a fixed-width value (one bounds check, no reload of the bytes).
    #[inline]
    fn write_tagged<const N: usize>(&mut self, tag: u8, value: [u8; N]) -> Result<()> {
        self.write_all(&[tag])?;
        self.write_all(&value)
    }
}

impl Output for Vec<u8> {
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn write_tagged<const N: usize>(&mut self, tag: u8, value: [u8; N]) -> Result<()> {
        // One capacity check and one copy of a constant length (at most 9 bytes: a marker and
        // a 64-bit value), assembled in registers.
        if N <= 8 {
            let mut buf = [0u8; 9];
            buf[0] = tag;
            buf[1..=N].copy_from_slice(&value);
            self.extend_from_slice(&buf[..=N]);
        } else {
            self.push(tag);
            self.extend_from_slice(&value);
        }
        Ok(())
    }

    #[inline]
    fn position(&self) -> usize {
        self.len()
    }
}

impl<O: Output + ?Sized> Output for &mut O {
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        (**self).write_all(bytes)
    }

    #[inline]
    fn fits(&self, n: usize) -> bool {
        (**self).fits(n)
    }

    #[inline]
    fn write_tagged<const N: usize>(&mut self, tag: u8, value: [u8; N]) -> Result<()> {
        (**self).write_tagged(tag, value)
    }

    #[inline]
    fn position(&self) -> usize {
        (**self).position()
    }
}

/// Writes into a caller's slice; never allocates. A write past its end is
/// [`ErrorKind::BufferFull`].
#[derive(Debug)]
pub struct SliceOutput<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceOutput<'a> {
    /// Writes from the start of `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceOutput { buf, len: 0 }
    }

    /// The bytes written so far.
    pub fn written(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Output for SliceOutput<'_> {
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        let available = self.buf.len() - self.len;
        match self.buf.get_mut(self.len..self.len + bytes.len()) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                self.len += bytes.len();
                Ok(())
            }
            None => Err(Error::at(ErrorKind::BufferFull { needed: bytes.len(), available }, self.len)),
        }
    }

    #[inline]
    fn position(&self) -> usize {
        self.len
    }

    #[inline]
    fn fits(&self, n: usize) -> bool {
        n <= self.buf.len() - self.len
    }

    #[inline]
    fn write_tagged<const N: usize>(&mut self, tag: u8, value: [u8; N]) -> Result<()> {
        match self.buf.get_mut(self.len..self.len + 1 + N) {
            Some(dst) => {
                dst[0] = tag;
                dst[1..].copy_from_slice(&value);
                self.len += 1 + N;
                Ok(())
            }
            None => {
                let available = self.buf.len() - self.len;
                Err(Error::at(ErrorKind::BufferFull { needed: 1 + N, available }, self.len))
            }
        }
    }
}

/// Counts bytes without storing them: the encoded length of a value.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counter {
    len: usize,
}

impl Counter {
    /// A counter at zero.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Output for Counter {
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        self.len += bytes.len();
        Ok(())
    }

    #[inline]
    fn position(&self) -> usize {
        self.len
    }
}

/// Writes to an [`std::io::Write`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
#[derive(Debug)]
pub struct IoOutput<W> {
    inner: W,
    written: usize,
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl<W: std::io::Write> IoOutput<W> {
    /// Wraps `writer`.
    pub fn new(inner: W) -> Self {
        IoOutput { inner, written: 0 }
    }

    /// The writer.
    pub fn into_inner(self) -> W {
        self.inner
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl<W: std::io::Write> Output for IoOutput<W> {
    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        self.inner.write_all(bytes).map_err(|e| Error::from(e).with_offset(self.written))?;
        self.written += bytes.len();
        Ok(())
    }

    #[inline]
    fn position(&self) -> usize {
        self.written
    }
}
