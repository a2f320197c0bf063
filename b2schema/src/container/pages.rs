//! Large byte buffers the kernel is asked to back with 2 MiB pages (std, Linux).
//!
//! A new `Vec` of hundreds of MB is memory the kernel maps 4 KiB at a time as it is first
//! written: 32,768 page faults for 128 MiB, about a fifth of a whole read's time at one thread
//! and a third of `pack`'s system time on one 128 MiB chunk (BENCHMARKS.md). numpy asks for
//! 2 MiB pages (`madvise(MADV_HUGEPAGE)`) for every array of 4 MiB and more, which
//! python-blosc2's `np.load` and `arr[()]` get. A `Vec` cannot be given such memory (it must be
//! freed by the global allocator), so a large buffer here is an anonymous map of its own,
//! advised the same way: the items of a whole read ([`Elements`](super::array::Elements)) and
//! the `.npy` slabs `pack` reads.

#[cfg(target_os = "linux")]
use core::ops::{Deref, DerefMut};

#[cfg(target_os = "linux")]
use crate::container::error::{Error, Result};

/// Buffers of at least this many bytes are mapped for huge pages on Linux (numpy's threshold,
/// its `HUGEPAGE_THRESHOLD`).
pub const HUGE_PAGES_FROM: usize = 4 << 20;

/// `len` bytes (zeros when new) at the start of an anonymous map advised for huge pages; the
/// map may be longer (a buffer reused for fewer bytes than it was made for).
#[cfg(target_os = "linux")]
pub(crate) struct HugePages {
    map: memmap2::MmapMut,
    len: usize,
}

#[cfg(target_os = "linux")]
impl HugePages {
    /// `len` zero bytes in a new map; an error naming `what` when the system refuses the memory.
    pub(crate) fn zeros(len: usize, what: &'static str) -> Result<Self> {
        let map = memmap2::MmapOptions::new()
            .len(len)
            .map_anon()
            .map_err(|_| Error::no_memory(what, len as u64, 0))?;
        // A kernel without transparent huge pages refuses the advice: the map works as it is.
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(HugePages { map, len })
    }

    /// The bytes the map has room for.
    pub(crate) fn capacity(&self) -> usize {
        self.map.len()
    }

    /// Makes the buffer `len` bytes long (at most its capacity; the bytes are what the map
    /// holds: zeros or those of an earlier use).
    pub(crate) fn set_len(&mut self, len: usize) {
        self.len = len.min(self.map.len());
    }
}

#[cfg(target_os = "linux")]
impl Deref for HugePages {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map[..self.len]
    }
}

#[cfg(target_os = "linux")]
impl DerefMut for HugePages {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len]
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::HugePages;

    #[test]
    fn a_buffer_is_its_length_of_zeros_and_keeps_its_room() {
        let mut b = HugePages::zeros(5 << 20, "a test buffer").unwrap();
        assert_eq!(b.len(), 5 << 20);
        assert!(b.iter().all(|&x| x == 0));
        b[7] = 9;
        b.set_len(10);
        assert_eq!(&b[..], &[0, 0, 0, 0, 0, 0, 0, 9, 0, 0]);
        b.set_len(usize::MAX);
        assert_eq!((b.len(), b.capacity()), (5 << 20, 5 << 20));
    }
}
