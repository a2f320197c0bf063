//! [`Elements`]: the items of a read in memory chosen for its size, what
//! [`ArrayReader::read_elements`](super::ArrayReader::read_elements) returns.
//!
//! A large result is memory of its own advised for 2 MiB pages, as numpy's arrays are (Linux,
//! feature `std`; `container::pages` says why); a small one a plain `Vec`.

use alloc::vec::Vec;
use core::fmt;
use core::ops::{Deref, DerefMut};

use super::element::Element;
use crate::container::error::Result;
pub use crate::container::pages::HUGE_PAGES_FROM;
#[cfg(all(feature = "std", target_os = "linux"))]
use crate::container::pages::HugePages;

/// Items read from an array, in a `Vec` when small and, from [`HUGE_PAGES_FROM`] bytes on Linux,
/// in memory the kernel is asked to back with 2 MiB pages as numpy's arrays are: a slice of `T`
/// either way (`Deref<Target = [T]>`), compared with slices, arrays and `Vec`s by value.
///
/// ```
/// # use b2schema::writer::Array;
/// # let dir = std::env::temp_dir().join(format!("b2schema-doc-elements-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let path = dir.join("grid.b2nd");
/// # Array::from_slice(&[4, 3], &(0..12).map(f64::from).collect::<Vec<_>>())?.write_file(&path)?;
/// let array = b2schema::open(&path)?;
/// let all = array.read_elements::<f64>("")?; // every item, as arr[()]
/// assert_eq!(all.len(), 12);
/// assert_eq!(all[..3], [0.0, 1.0, 2.0]);
/// let total: f64 = all.iter().sum();
/// assert_eq!(total, 66.0);
/// let owned: Vec<f64> = all.into_vec(); // a copy when the items were in their own map
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Elements<T> {
    store: Store<T>,
}

enum Store<T> {
    Vec(Vec<T>),
    #[cfg(all(feature = "std", target_os = "linux"))]
    Map(Map<T>),
}

/// An anonymous map holding `len` items of `T` from its start (page-aligned, so aligned for any
/// number type): only made for a type whose memory is its little-endian bytes
/// ([`Element::le_items`]), which is checked when it is made.
#[cfg(all(feature = "std", target_os = "linux"))]
struct Map<T> {
    map: HugePages,
    len: usize,
    items: core::marker::PhantomData<T>,
}

#[cfg(all(feature = "std", target_os = "linux"))]
impl<T: Element> Map<T> {
    /// `n` zero items (a new anonymous map reads as zeros) advised for huge pages; `None` when
    /// `T` is not a little-endian number type, an error when the system refuses the memory.
    fn zeros(n: usize) -> Result<Option<Self>> {
        let bytes = n.checked_mul(core::mem::size_of::<T>());
        let bytes =
            bytes.ok_or_else(|| crate::container::error::Error::no_memory("the result", u64::MAX, 0))?;
        let mut map = HugePages::zeros(bytes, "the result")?;
        if T::le_items_mut(&mut map[..]).is_none_or(|items| items.len() != n) {
            return Ok(None);
        }
        Ok(Some(Map { map, len: n, items: core::marker::PhantomData }))
    }

    fn items(&self) -> &[T] {
        // The map's length and alignment were checked to hold `len` items when it was made.
        T::le_items(&self.map[..]).map_or(&[], |items| &items[..self.len])
    }

    fn items_mut(&mut self) -> &mut [T] {
        let len = self.len;
        T::le_items_mut(&mut self.map[..]).map_or(&mut [], |items| &mut items[..len])
    }
}

impl<T: Element> Elements<T> {
    /// `n` zero items to decode into, their memory chosen for their size; `None` for a type
    /// that is not a little-endian number (those are converted from the bytes read instead).
    pub(super) fn zeros(n: usize) -> Result<Option<Self>> {
        #[cfg(all(feature = "std", target_os = "linux"))]
        if n.saturating_mul(core::mem::size_of::<T>()) >= HUGE_PAGES_FROM {
            return Ok(Map::zeros(n)?.map(|m| Elements { store: Store::Map(m) }));
        }
        Ok(T::zeros_le(n).map(|v| Elements { store: Store::Vec(v) }))
    }

    /// Whether the items are in a map of their own advised for huge pages (not a `Vec`).
    pub fn is_mapped(&self) -> bool {
        !matches!(self.store, Store::Vec(_))
    }

    /// The items as a `Vec`: moved when they are one, copied from their map otherwise.
    pub fn into_vec(self) -> Vec<T>
    where
        T: Clone,
    {
        match self.store {
            Store::Vec(v) => v,
            #[cfg(all(feature = "std", target_os = "linux"))]
            Store::Map(m) => m.items().to_vec(),
        }
    }
}

impl<T> From<Vec<T>> for Elements<T> {
    fn from(v: Vec<T>) -> Self {
        Elements { store: Store::Vec(v) }
    }
}

impl<T: Element + Clone> From<Elements<T>> for Vec<T> {
    fn from(e: Elements<T>) -> Self {
        e.into_vec()
    }
}

impl<T: Element> Deref for Elements<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match &self.store {
            Store::Vec(v) => v,
            #[cfg(all(feature = "std", target_os = "linux"))]
            Store::Map(m) => m.items(),
        }
    }
}

impl<T: Element> DerefMut for Elements<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.store {
            Store::Vec(v) => v,
            #[cfg(all(feature = "std", target_os = "linux"))]
            Store::Map(m) => m.items_mut(),
        }
    }
}

impl<T: Element> AsRef<[T]> for Elements<T> {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl<T: Element + fmt::Debug> fmt::Debug for Elements<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl<T: Element + PartialEq> PartialEq for Elements<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Element + PartialEq> PartialEq<[T]> for Elements<T> {
    fn eq(&self, other: &[T]) -> bool {
        **self == *other
    }
}

impl<T: Element + PartialEq> PartialEq<&[T]> for Elements<T> {
    fn eq(&self, other: &&[T]) -> bool {
        **self == **other
    }
}

impl<T: Element + PartialEq, const N: usize> PartialEq<[T; N]> for Elements<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        **self == other[..]
    }
}

impl<T: Element + PartialEq> PartialEq<Vec<T>> for Elements<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        **self == other[..]
    }
}

impl<T: Element + PartialEq> PartialEq<Elements<T>> for Vec<T> {
    fn eq(&self, other: &Elements<T>) -> bool {
        self[..] == **other
    }
}

impl<'a, T: Element> IntoIterator for &'a Elements<T> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
