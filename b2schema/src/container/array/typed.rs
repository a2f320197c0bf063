//! Typed reads of an NDArray: items as [`Element`]s (into a new `Vec` or a caller's buffer), as
//! any `Deserialize` type one item at a time, or as an `ndarray` array.

use alloc::vec::Vec;

use super::element::{Element, is_big};
use super::elements::Elements;
use super::reader::{ArrayReader, ReadOptions, ReadStats, invalid};
use super::selection::Selection;
use crate::container::dtype::DType;
use crate::container::error::Result;

/// The bytes decoded at a time before they are converted to typed values: small enough to stay
/// in the cache between the two (measured: 1 MiB reads 256 MB of float64 faster than 16 MiB).
const TYPED_PIECE_BYTES: usize = 1 << 20;

impl ArrayReader<'_> {
    /// The parsed dtype; an error for a legacy layout (no dtype) or a dtype that does not parse.
    fn parsed_dtype(&self) -> Result<DType> {
        match self.meta().parsed_dtype() {
            Some(Ok(d)) => Ok(d),
            Some(Err(e)) => Err(invalid("a NumPy dtype", "a dtype string", e)),
            None => Err(invalid("an array with a dtype", "a dtype", "none (a legacy layout)")),
        }
    }

    /// The dtype, checked to read as `T` and to be the items' size.
    fn dtype_for<T: Element>(&self) -> Result<DType> {
        let dtype = self.parsed_dtype()?;
        T::check(&dtype).map_err(|e| invalid("a dtype that reads as the type asked for", "", e))?;
        if dtype.itemsize() != self.typesize() {
            return Err(
                invalid("items of the dtype's size:", dtype.itemsize(), self.typesize()).in_field("typesize")
            );
        }
        Ok(dtype)
    }

    /// The items of `sel` as `T`, checked against the array's dtype ([`Element::check`]: kind
    /// and size), byte order handled.
    pub fn read_as<T: Element>(&self, sel: &Selection, opts: &ReadOptions) -> Result<Vec<T>> {
        let dtype = self.dtype_for::<T>()?;
        let ts = self.typesize();
        let n = self.result_len(sel, opts)? / ts;
        // Little-endian numbers read as the host's (little-endian) numbers: decoded straight into
        // the result by every thread, with no piece converted after.
        if !is_big(&dtype)
            && let Some(mut out) = T::zeros_le(n)
        {
            let bytes = T::le_bytes_mut(&mut out).ok_or_else(|| invalid("a typed buffer", "", "none"))?;
            self.read_into(sel, bytes, opts)?;
            return Ok(out);
        }
        let mut out = Vec::new();
        crate::container::limits::try_reserve(&mut out, n, "the result", 0)?;
        self.read_to(sel, opts, TYPED_PIECE_BYTES, |piece| {
            T::decode_extend(piece, &dtype, &mut out);
            Ok(())
        })?;
        Ok(out)
    }

    /// The items of `sel` as `T`, as [`ArrayReader::read_as`] reads them, in memory chosen for
    /// their size ([`Elements`]): from [`HUGE_PAGES_FROM`](super::HUGE_PAGES_FROM) bytes on
    /// (Linux), a map the kernel is asked to back with 2 MiB pages as numpy's arrays are, which
    /// spares a large read most of the page faults of a new `Vec` (a 313 MB whole read at one
    /// thread: BENCHMARKS.md).
    pub fn read_elements<T: Element>(&self, sel: &Selection, opts: &ReadOptions) -> Result<Elements<T>> {
        let dtype = self.dtype_for::<T>()?;
        let n = self.result_len(sel, opts)? / self.typesize();
        if !is_big(&dtype)
            && let Some(mut out) = Elements::<T>::zeros(n)?
            && let Some(bytes) = T::le_bytes_mut(&mut out)
        {
            self.read_into(sel, bytes, opts)?;
            return Ok(out);
        }
        self.read_as(sel, opts).map(Elements::from)
    }

    /// The items of `sel` as `T` into `out` (exactly the selection's number of items), checked
    /// as [`ArrayReader::read_as`] checks them: no result is allocated.
    pub fn read_as_into<T: Element>(
        &self,
        sel: &Selection,
        out: &mut [T],
        opts: &ReadOptions,
    ) -> Result<ReadStats> {
        let dtype = self.dtype_for::<T>()?;
        self.read_into_typed(sel, &dtype, out, opts)
    }

    /// Reads `sel` into `out` as `T`, in pieces of a bounded size decoded in turn.
    fn read_into_typed<T: Element>(
        &self,
        sel: &Selection,
        dtype: &DType,
        out: &mut [T],
        opts: &ReadOptions,
    ) -> Result<ReadStats> {
        let n = self.result_len(sel, &ReadOptions { max_bytes: u64::MAX, ..*opts })? / self.typesize();
        if out.len() != n {
            return Err(invalid("an output of the selection's items:", n, out.len()));
        }
        if !is_big(dtype)
            && let Some(bytes) = T::le_bytes_mut(out)
        {
            return self.read_into(sel, bytes, opts);
        }
        let mut at = 0;
        let ts = self.typesize();
        let stats = self.read_to(sel, opts, TYPED_PIECE_BYTES, |piece| {
            let k = piece.len() / ts;
            T::decode_into(piece, dtype, &mut out[at..at + k]);
            at += k;
            Ok(())
        })?;
        Ok(stats)
    }

    /// The items of `sel` as any `Deserialize` type, one item at a time: a structured dtype's
    /// item as your struct (fields by name) or tuple (fields in order), strings (`<U` as
    /// `String`, `|S` as bytes, trailing NULs removed as NumPy does), numbers, complex numbers as
    /// `(re, im)`, datetimes as their `i64` count, subarrays as sequences.
    pub fn read_items<T: serde_core::de::DeserializeOwned>(
        &self,
        sel: &Selection,
        opts: &ReadOptions,
    ) -> Result<Vec<T>> {
        let dtype = self.parsed_dtype()?;
        if dtype.itemsize() != self.typesize() {
            return Err(
                invalid("items of the dtype's size:", dtype.itemsize(), self.typesize()).in_field("typesize")
            );
        }
        let n = self.result_len(sel, opts)? / self.typesize();
        let mut out = Vec::new();
        crate::container::limits::try_reserve(&mut out, n, "the result", 0)?;
        let ts = self.typesize();
        self.read_to(sel, opts, TYPED_PIECE_BYTES, |piece| {
            for item in piece.chunks_exact(ts) {
                let index = out.len();
                out.push(
                    super::item_de::from_item(item, &dtype)
                        .map_err(|e| e.in_segment(crate::format::error::Segment::Index(index)))?,
                );
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// The items of `sel` as an `ndarray::ArrayD<T>` of the shape NumPy gives `arr[sel]`
    /// ([`Selection::numpy_shape`]: a dimension selected by a single index is dropped, so `"7"`
    /// of a (100, 37) array is a 1-D array of 37 items, `"7, 3"` a 0-d array), with the `ndarray`
    /// feature; checked against the dtype as [`ArrayReader::read_as`] checks them.
    #[cfg(feature = "ndarray")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ndarray")))]
    pub fn read_ndarray<T: Element>(
        &self,
        sel: &Selection,
        opts: &ReadOptions,
    ) -> Result<ndarray::ArrayD<T>> {
        let values = self.read_as::<T>(sel, opts)?;
        let shape: Vec<usize> = sel.numpy_shape().iter().map(|&n| n as usize).collect();
        ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&shape), values)
            .map_err(|e| invalid("values of the selection's shape", alloc::format!("{shape:?}"), e))
    }
}
