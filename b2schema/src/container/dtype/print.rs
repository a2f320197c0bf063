//! Printing (NumPy's numpy/_core/_dtype.py).

use alloc::string::String;
use core::fmt::{self, Write as _};

use super::printable::is_printable;
use super::types::{ByteOrder, DType, DateTimeUnit, Field, Kind, Scalar, round_up};

impl DType {
    /// The string python-blosc2 writes for this dtype: `dtype.str` for scalars (`<f8`, `|S7`), the
    /// NumPy name for [`ByteOrder::Native`] numbers and datetimes (`float64`), and `str(dtype)` for
    /// structs (list form when packed, else dict form) and subarrays. For every string NumPy and
    /// python-blosc2 write, `DType::parse(s)?.to_numpy_str() == s`; other accepted spellings come
    /// out in this canonical form.
    pub fn to_numpy_str(&self) -> String {
        let mut out = String::new();
        write_top(&mut out, self);
        out
    }
}

impl fmt::Display for DType {
    /// Writes [`DType::to_numpy_str`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_numpy_str())
    }
}

/// The top-level string: `dtype.str` for scalars, `str(dtype)` otherwise.
fn write_top(out: &mut String, dtype: &DType) {
    match dtype {
        DType::Scalar(s) => write_scalar(out, s, true),
        DType::Subarray { base, shape } => write_subarray(out, base, shape),
        DType::Struct { fields, itemsize, aligned, record } => {
            write_struct(out, fields, *itemsize, *aligned, *record, true)
        }
    }
}

/// NumPy's `_construction_repr(dtype, short=True)`: the form of a field's format.
fn write_expr(out: &mut String, dtype: &DType) {
    match dtype {
        DType::Scalar(s) => {
            let mut code = String::new();
            write_scalar(&mut code, s, false);
            write_py_str(out, &code);
        }
        DType::Subarray { base, shape } => write_subarray(out, base, shape),
        DType::Struct { fields, itemsize, aligned, record } => {
            write_struct(out, fields, *itemsize, *aligned, *record, false)
        }
    }
}

fn write_subarray(out: &mut String, base: &DType, shape: &[usize]) {
    out.push('(');
    write_expr(out, base);
    out.push_str(", ");
    write_shape(out, shape);
    out.push(')');
}

/// A Python tuple: `()`, `(3,)`, `(2, 3)`.
fn write_shape(out: &mut String, shape: &[usize]) {
    out.push('(');
    for (i, d) in shape.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{d}");
    }
    if shape.len() == 1 {
        out.push(',');
    }
    out.push(')');
}

/// A scalar type: `dtype.str` (`top`) or the short field form (`'u1'`, `'?'`, `'S'` for `S0`),
/// or the NumPy name for native numbers and datetimes.
fn write_scalar(out: &mut String, s: &Scalar, top: bool) {
    let meta = |out: &mut String, unit: DateTimeUnit, count: u32| match (unit, count) {
        (DateTimeUnit::Generic, _) => {}
        (_, 1) => {
            let _ = write!(out, "[{}]", unit.as_str());
        }
        _ => {
            let _ = write!(out, "[{count}{}]", unit.as_str());
        }
    };
    if s.order == ByteOrder::Native {
        let bits = s.size.saturating_mul(8);
        let _ = match s.kind {
            Kind::Bool => write!(out, "bool"),
            Kind::Int => write!(out, "int{bits}"),
            Kind::UInt => write!(out, "uint{bits}"),
            Kind::Float => write!(out, "float{bits}"),
            Kind::Complex => write!(out, "complex{bits}"),
            Kind::Object => write!(out, "object"),
            Kind::DateTime { unit, count } => {
                out.push_str("datetime64");
                meta(out, unit, count);
                Ok(())
            }
            Kind::TimeDelta { unit, count } => {
                out.push_str("timedelta64");
                meta(out, unit, count);
                Ok(())
            }
            Kind::Bytes | Kind::Unicode | Kind::Void => Ok(()),
        };
        if !matches!(s.kind, Kind::Bytes | Kind::Unicode | Kind::Void) {
            return;
        }
    }
    // NumPy's short form writes no byte order for bytes, void and object.
    let short_order =
        s.order != ByteOrder::NotApplicable && !matches!(s.kind, Kind::Bytes | Kind::Void | Kind::Object);
    if top || short_order {
        out.push(s.order.as_char());
    }
    match s.kind {
        Kind::Bool if !top && s.order == ByteOrder::NotApplicable => out.push('?'),
        Kind::Object => out.push('O'),
        Kind::Bytes | Kind::Void | Kind::Unicode => {
            out.push(s.kind.code());
            let n = if s.kind == Kind::Unicode { s.size / 4 } else { s.size };
            if top || n != 0 {
                let _ = write!(out, "{n}");
            }
        }
        Kind::DateTime { unit, count } | Kind::TimeDelta { unit, count } => {
            out.push(s.kind.code());
            out.push('8');
            meta(out, unit, count);
        }
        _ => {
            let _ = write!(out, "{}{}", s.kind.code(), s.size);
        }
    }
}

/// NumPy's `_is_packed`: fields in order, back to back (with C alignment padding when `aligned`),
/// filling the itemsize exactly.
fn is_packed(fields: &[Field], itemsize: usize, aligned: bool) -> bool {
    let mut total = 0usize;
    let mut max_align = 1;
    for field in fields {
        if aligned {
            let a = field.dtype.alignment();
            max_align = max_align.max(a);
            total = round_up(total, a);
        }
        if field.offset != total {
            return false;
        }
        total = total.saturating_add(field.dtype.itemsize());
    }
    if aligned {
        total = round_up(total, max_align);
    }
    total == itemsize
}

/// NumPy's `_struct_str`: the list form when packed (and not aligned at the top), else the dict form.
fn write_struct(out: &mut String, fields: &[Field], itemsize: usize, aligned: bool, record: bool, top: bool) {
    if record {
        out.push_str("(numpy.record, ");
    }
    let with_aligned = top && aligned;
    if !with_aligned && is_packed(fields, itemsize, aligned) {
        out.push('[');
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push('(');
            if let Some(title) = &field.title {
                out.push('(');
                write_py_str(out, title);
                out.push_str(", ");
                write_py_str(out, &field.name);
                out.push(')');
            } else {
                write_py_str(out, &field.name);
            }
            out.push_str(", ");
            match &field.dtype {
                DType::Subarray { base, shape } => {
                    write_expr(out, base);
                    out.push_str(", ");
                    write_shape(out, shape);
                }
                dtype => write_expr(out, dtype),
            }
            out.push(')');
        }
        out.push(']');
    } else {
        out.push_str("{'names': [");
        join(out, fields, |out, f| write_py_str(out, &f.name));
        out.push_str("], 'formats': [");
        join(out, fields, |out, f| write_expr(out, &f.dtype));
        out.push_str("], 'offsets': [");
        join(out, fields, |out, f| {
            let _ = write!(out, "{}", f.offset);
        });
        if fields.iter().any(|f| f.title.is_some()) {
            out.push_str("], 'titles': [");
            join(out, fields, |out, f| match &f.title {
                Some(title) => write_py_str(out, title),
                None => out.push_str("None"),
            });
        }
        let _ = write!(out, "], 'itemsize': {itemsize}");
        out.push_str(if with_aligned { ", 'aligned': True}" } else { "}" });
    }
    if record {
        out.push(')');
    }
}

fn join(out: &mut String, fields: &[Field], mut item: impl FnMut(&mut String, &Field)) {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        item(out, field);
    }
}

/// Python's `repr` of a `str`.
fn write_py_str(out: &mut String, s: &str) {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !is_printable(c) => {
                let _ = match c as u32 {
                    n @ 0..=0xff => write!(out, "\\x{n:02x}"),
                    n @ 0x100..=0xffff => write!(out, "\\u{n:04x}"),
                    n => write!(out, "\\U{n:08x}"),
                };
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}
