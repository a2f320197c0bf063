//! NumPy dtype strings, as stored in the `b2nd` metalayer.
//!
//! The last element of the `b2nd` metalayer is a string that describes the item type in NumPy's
//! own notation. python-blosc2 stores `dtype.str` for ordinary dtypes and `str(dtype)` for void
//! (structured) ones; files from older releases store `str(dtype)` for every dtype. [`DType::parse`]
//! reads all of these forms and [`DType::to_numpy_str`] writes them back byte for byte:
//!
//! | form | examples |
//! |---|---|
//! | type code (`dtype.str`) | `<f8`, `\|u1`, `\|b1`, `<c16`, `>i4`, `<U6`, `\|S7`, `\|V16`, `\|O`, `<M8[ms]`, `<m8[5s]` |
//! | type name (`str(dtype)` of native types) | `uint8`, `float64`, `bool`, `complex128`, `object`, `datetime64[ms]` |
//! | list form (packed structs) | `[('a', '<i4'), ('b', '<f8', (2, 3)), ('c', [('x', 'u1')])]` |
//! | titles | `[(('title', 'name'), '<i4')]` |
//! | dict form (padding, offsets, `align=True`) | `{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'offsets': [0, 8], 'itemsize': 16, 'aligned': True}` |
//! | subarray | `('<f8', (3,))` (inside a dict form, or at the top) |
//! | record structs | `(numpy.record, [('a', '<i4')])` (python-blosc2 writes it for `np.record` dtypes, but cannot read it back) |
//!
//! Field names and titles are Python string literals (either quote, backslash escapes); they are
//! printed the way Python's `repr` prints them, with the code points Python 3.11 (Unicode 14)
//! considers non-printable escaped.
//!
//! # Semantics
//!
//! The parsed [`DType`] is the layout NumPy builds from the string (`np.dtype(s)`, or
//! `np.dtype(ast.literal_eval(s))` for the structured forms, as python-blosc2 reads it back):
//!
//! * byte orders are normalized like NumPy: 1-byte numbers, booleans, bytes, void and object get
//!   [`ByteOrder::NotApplicable`] whatever was written; `=`, `|` or no byte order on a multi-byte
//!   type, and every type name (`float64`, `uint8`, ...), give [`ByteOrder::Native`];
//! * unnamed fields of the list form are named `f0`, `f1`, ... after their position;
//! * `'aligned': True` aligns the nested list and dict forms too (C alignment of x86-64 and
//!   aarch64 Linux: `<f16` and `<c32` align to 16 bytes), and checks offsets and itemsize;
//! * the layout of a list form is packed (or aligned inside an aligned dict form). NumPy itself
//!   prints an aligned struct nested in a packed one as a list form, which it then reads back
//!   packed: the parser follows the read-back, so such a string parses to a smaller itemsize than
//!   the dtype it was printed from had.
//!
//! # Limits and strictness
//!
//! The whole string must be one dtype: no surrounding whitespace, no trailing NUL. Nesting of dtypes
//! (structs in structs, subarrays of subarrays) is limited to [`MAX_DEPTH`] levels; itemsizes,
//! offsets, subarray dimensions and datetime counts to [`MAX_ITEMSIZE`] (NumPy's C `int`);
//! subarrays to [`MAX_SUBARRAY_DIMS`] dimensions. Parsing never panics, recurses at most
//! [`MAX_DEPTH`] levels deep and allocates in proportion to the input.
//!
//! Some spellings NumPy accepts are rejected because NumPy never writes them: one-letter type codes
//! other than `?` (`i`, `d`, `<i`), aliases (`float`, `a5`), comma-separated formats (`i4, f8`,
//! `(3,)<f8`), datetime divisors (`M8[s/2]`), the old `{'name': (format, offset)}` dict form, dict
//! forms with unknown keys or more formats than names, string prefixes (`u'a'`, `b'<f8'`), implicit
//! string concatenation, `\N{...}` escapes, lone surrogates, and structs larger than
//! [`MAX_ITEMSIZE`] (NumPy wraps their itemsize around).

mod error;
mod parse;
mod print;
mod printable;
mod scalar;
mod types;

pub use error::DTypeError;
pub use types::{
    ByteOrder, DType, DateTimeUnit, Field, Kind, MAX_DEPTH, MAX_ITEMSIZE, MAX_SUBARRAY_DIMS, Scalar,
};
