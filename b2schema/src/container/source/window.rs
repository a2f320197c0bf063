//! A window of a source: its bytes from `start` to `end` (a member of a ZIP store), read at the
//! source's own offsets; a read that reaches outside the window is an error, whatever the
//! bytes read from inside it claim. Over a remote source the window's ends are fetched ahead
//! ([`ReadAt::ahead`] bytes each) and kept, so that a frame's metadata comes in one or two
//! requests rather than one per field.

// Used by the frames, which come with the `derive` feature.
#![cfg_attr(not(feature = "derive"), allow(dead_code))]

use alloc::vec::Vec;

use super::{Fetched, ReadAt, Source};
use crate::container::error::{Error, Result};
use crate::container::limits::try_zeros;

/// The bytes `start..end` of a source.
#[derive(Debug)]
pub(crate) struct Window {
    src: Source,
    start: u64,
    end: u64,
    /// Bytes fetched ahead (at their offsets), inside the window.
    kept: Vec<(u64, Vec<u8>)>,
}

impl Window {
    /// The bytes `start..end` of `src`, the end cut at the source's length (a window that
    /// starts past its end holds nothing).
    pub(crate) fn new(src: Source, start: u64, end: u64) -> Self {
        let end = end.min(src.len());
        Window { src, start, end, kept: Vec::new() }
    }

    /// Fetches and keeps the first [`ReadAt::ahead`] bytes of the window (nothing for a source
    /// that reads ahead of nothing, a local file).
    pub(crate) fn fetch_head(&mut self) -> Result<()> {
        let n = self.src.ahead().min(self.end.saturating_sub(self.start));
        self.keep(self.start, n)
    }

    /// Fetches and keeps the last [`ReadAt::ahead`] bytes of the window, except those kept
    /// already.
    pub(crate) fn fetch_tail(&mut self) -> Result<()> {
        let ahead = self.src.ahead();
        if ahead == 0 {
            return Ok(());
        }
        let kept_to = self.kept.iter().map(|(at, b)| at + b.len() as u64).max().unwrap_or(self.start);
        let from = self.end.saturating_sub(ahead).max(self.start).max(kept_to);
        self.keep(from, self.end.saturating_sub(from))
    }

    fn keep(&mut self, at: u64, n: u64) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let mut bytes = try_zeros(n as usize, "the ends of a window", at as usize)?;
        self.src.read_at(at, &mut bytes)?;
        self.kept.push((at, bytes));
        Ok(())
    }

    /// The window `start..end` inside this one (checked), with the bytes kept that lie in it.
    pub(crate) fn narrow(&self, start: u64, end: u64) -> Result<Window> {
        self.check(start, end.saturating_sub(start))?;
        let mut kept = Vec::new();
        for (at, bytes) in &self.kept {
            let (from, to) = ((*at).max(start), (at + bytes.len() as u64).min(end));
            if from < to {
                kept.push((from, bytes[(from - at) as usize..(to - at) as usize].to_vec()));
            }
        }
        Ok(Window { src: self.src.clone(), start, end, kept })
    }

    /// Whether the `len` bytes at `offset` lie inside the window.
    fn check(&self, offset: u64, len: u64) -> Result<()> {
        let end = offset.checked_add(len);
        if offset < self.start || end.is_none_or(|e| e > self.end) {
            return Err(Error::invalid(
                "a read inside the member's bytes, from",
                alloc::format!("{}..{}", self.start, self.end),
                alloc::format!("{len} bytes at {offset}"),
                offset as usize,
            ));
        }
        Ok(())
    }

    fn read_kept(&self, offset: u64, buf: &mut [u8]) -> bool {
        for (at, bytes) in &self.kept {
            let from = offset.checked_sub(*at).and_then(|f| usize::try_from(f).ok());
            if let Some(part) = from.and_then(|f| bytes.get(f..f.checked_add(buf.len())?)) {
                buf.copy_from_slice(part);
                return true;
            }
        }
        false
    }
}

impl ReadAt for Window {
    /// The end of the window (offsets are the source's).
    fn len(&self) -> u64 {
        self.end
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        self.check(offset, buf.len() as u64)?;
        if !self.read_kept(offset, buf) {
            self.src.read_at(offset, buf)?;
        }
        Ok(())
    }

    fn read_ranges(&self, ranges: &mut [(u64, &mut [u8])]) -> Result<()> {
        for (at, buf) in ranges.iter() {
            self.check(*at, buf.len() as u64)?;
        }
        if ranges.iter_mut().all(|(at, buf)| self.read_kept(*at, buf)) {
            return Ok(());
        }
        self.src.read_ranges(ranges)
    }

    fn min_read(&self) -> u64 {
        self.src.min_read()
    }

    fn ahead(&self) -> u64 {
        self.src.ahead()
    }

    fn fetched(&self) -> Option<Fetched> {
        self.src.fetched()
    }

    fn will_read(&self, range: core::ops::Range<u64>) {
        self.src.will_read(range.start..range.end.min(self.end));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::container::source::Memory;

    #[test]
    fn reads_outside_the_window_are_refused() {
        let src: Source = Arc::new(Memory::new((0u8..100).collect::<Vec<u8>>()));
        let w = Window::new(src, 10, 20);
        let mut b = [0u8; 5];
        w.read_at(15, &mut b).unwrap();
        assert_eq!(b, [15, 16, 17, 18, 19]);
        for at in [0, 9, 16, 20, u64::MAX - 2] {
            assert!(w.read_at(at, &mut b).is_err(), "{at}");
        }
        let inner = w.narrow(12, 18).unwrap();
        assert!(inner.read_at(10, &mut b).is_err());
        assert!(w.narrow(5, 12).is_err());
        assert!(w.narrow(15, 25).is_err());
    }
}
