//! Reading a container's items: a selection (NumPy-style text such as `"7, 2:10"`, or a
//! [`Selection`]) as bytes, as typed values ([`Element`]), into a caller's buffer, as any
//! `Deserialize` type per item (strings, structured items), or as an `ndarray` array.

use alloc::string::String;
use alloc::vec::Vec;

use super::Container;
use crate::container::array::{Element, Elements, ReadStats, Selection};
use crate::container::error::{Error, Result};

/// What a read takes as its selection: NumPy-style text (`"7"`, `":, 2:10"`, `"::2"`; see
/// [`Selection::parse`]) or a [`Selection`].
pub trait Select {
    /// The selection in an array of `shape`.
    fn select(&self, shape: &[u64]) -> Result<Selection>;
}

impl Select for &str {
    fn select(&self, shape: &[u64]) -> Result<Selection> {
        Ok(Selection::parse(self, shape)?)
    }
}

impl Select for String {
    fn select(&self, shape: &[u64]) -> Result<Selection> {
        Ok(Selection::parse(self, shape)?)
    }
}

impl Select for &Selection {
    fn select(&self, _: &[u64]) -> Result<Selection> {
        Ok((*self).clone())
    }
}

impl Select for Selection {
    fn select(&self, _: &[u64]) -> Result<Selection> {
        Ok(self.clone())
    }
}

impl Container {
    fn selection(&self, sel: impl Select) -> Result<Selection> {
        sel.select(self.shape()).map_err(|e| self.named(e))
    }

    fn no_array(&self, what: &str) -> Error {
        self.named(Error::invalid(
            "an NDArray (a b2nd metalayer) for",
            what,
            "an SChunk (read its bytes with read or read_all)",
            87,
        ))
    }

    /// The items of `sel` in C order, as bytes (an SChunk's: its items' bytes).
    pub fn read(&self, sel: impl Select) -> Result<Vec<u8>> {
        let sel = self.selection(sel)?;
        match &self.array {
            Some(a) => a.read(&sel, &self.opts).map(|(bytes, _)| bytes).map_err(|e| self.named(e)),
            None => self.read_schunk(&sel).map_err(|e| self.named(e)),
        }
    }

    /// Every item in C order, as bytes (an SChunk's data).
    pub fn read_all(&self) -> Result<Vec<u8>> {
        self.read("")
    }

    /// The items of `sel` as `T` (checked against the dtype: [`Element::check`]).
    pub fn read_as<T: Element>(&self, sel: impl Select) -> Result<Vec<T>> {
        let sel = self.selection(sel)?;
        let a = self.array.as_ref().ok_or_else(|| self.no_array("typed reads"))?;
        a.read_as(&sel, &self.opts).map_err(|e| self.named(e))
    }

    /// The items of `sel` as `T`, as [`Container::read_as`] reads them, in memory chosen for
    /// their size ([`Elements`], a slice of `T`): a large result (4 MiB and more, on Linux) in a
    /// map the kernel is asked to back with 2 MiB pages, as numpy's arrays are, which spares it
    /// most of a new `Vec`'s page faults (a whole read of hundreds of MB, at one thread: 10-20 %
    /// of its time).
    pub fn read_elements<T: Element>(&self, sel: impl Select) -> Result<Elements<T>> {
        let sel = self.selection(sel)?;
        let a = self.array.as_ref().ok_or_else(|| self.no_array("typed reads"))?;
        a.read_elements(&sel, &self.opts).map_err(|e| self.named(e))
    }

    /// The items of `sel` as `T` into `out` (exactly as many as selected): nothing allocated.
    pub fn read_into<T: Element>(&self, sel: impl Select, out: &mut [T]) -> Result<ReadStats> {
        let sel = self.selection(sel)?;
        let a = self.array.as_ref().ok_or_else(|| self.no_array("typed reads"))?;
        a.read_as_into(&sel, out, &self.opts).map_err(|e| self.named(e))
    }

    /// The items of `sel` as any `Deserialize` type, one per item: a structured item as your
    /// struct (its fields by name) or a tuple, a `<U` string as `String`, a `|S` string as bytes,
    /// a complex number as `(re, im)`, a datetime as its `i64` count; see
    /// [`ArrayReader::read_items`](crate::array::ArrayReader::read_items).
    pub fn read_items<T: serde_core::de::DeserializeOwned>(&self, sel: impl Select) -> Result<Vec<T>> {
        let sel = self.selection(sel)?;
        let a = self.array.as_ref().ok_or_else(|| self.no_array("item reads"))?;
        a.read_items(&sel, &self.opts).map_err(|e| self.named(e))
    }

    /// The items of `sel` as an `ndarray::ArrayD<T>` of NumPy's shape for it (`"7"` of a
    /// (100, 37) array has shape (37,)), with the `ndarray` feature.
    #[cfg(feature = "ndarray")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ndarray")))]
    pub fn read_ndarray<T: Element>(&self, sel: impl Select) -> Result<ndarray::ArrayD<T>> {
        let sel = self.selection(sel)?;
        let a = self.array.as_ref().ok_or_else(|| self.no_array("ndarray reads"))?;
        a.read_ndarray(&sel, &self.opts).map_err(|e| self.named(e))
    }

    /// An SChunk's items `sel` (1-D): the chunks it touches, decoded in turn.
    fn read_schunk(&self, sel: &Selection) -> Result<Vec<u8>> {
        let ts = self.typesize().max(1) as u64;
        let r = sel.ranges().first().cloned().unwrap_or(0..0);
        let (start, end) = (r.start * ts, r.end * ts);
        let len = usize::try_from(end - start).unwrap_or(usize::MAX);
        crate::container::limits::Limits::check(
            "the selection's items, bytes",
            len as u64,
            crate::container::limits::Limit::Output,
            self.opts.max_bytes,
            0,
        )?;
        let mut out = Vec::new();
        crate::container::limits::try_reserve(&mut out, len, "the selection's items", 0)?;
        let mut at = 0u64;
        self.file.for_each_chunk(|info| {
            let (lo, hi) = (at, at.saturating_add(info.nbytes));
            at = hi;
            if hi <= start || lo >= end {
                return Ok(());
            }
            let data = self.file.chunk_data(&info, usize::MAX)?;
            let from = (start.max(lo) - lo) as usize;
            let to = (end.min(hi) - lo) as usize;
            let part = data
                .get(from..to)
                .ok_or_else(|| Error::invalid("a chunk of its nbytes,", info.nbytes, data.len(), 0))?;
            out.extend_from_slice(part);
            Ok(())
        })?;
        if out.len() != len {
            return Err(Error::invalid("the SChunk's data, bytes:", len, out.len(), 30).in_field("nbytes"));
        }
        Ok(out)
    }
}
