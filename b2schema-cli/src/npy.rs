//! The NumPy `.npy` format (versions 1.0 to 3.0): a magic string, a header that is a Python
//! dict literal (`descr`, `fortran_order`, `shape`), then the items. Small enough to read and
//! write here; only the dict literals NumPy itself writes are accepted.

/// `\x93NUMPY`.
const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// A `.npy` file's contents: items always in C order.
pub struct Npy {
    /// The dtype as NumPy writes it (`'<f8'` unquoted, or a structured dtype's list literal).
    pub descr: String,
    /// The shape (empty for a scalar).
    pub shape: Vec<u64>,
    /// The items, C order.
    pub data: Vec<u8>,
}

fn bad(what: impl std::fmt::Display) -> String {
    format!("not a .npy file NumPy writes: {what}")
}

/// The length of the Python literal `rest` starts with (a quoted string with its escapes, a
/// bracketed list, a parenthesised tuple, or a bare word up to `,` or `}`).
fn literal_len(rest: &str) -> Option<usize> {
    match rest.chars().next() {
        Some(q @ ('\'' | '"')) => {
            // A Python string literal: a backslash escapes the next character.
            let mut escaped = false;
            rest.char_indices().skip(1).find_map(|(i, c)| match (escaped, c) {
                (true, _) => {
                    escaped = false;
                    None
                }
                (false, '\\') => {
                    escaped = true;
                    None
                }
                (false, c) if c == q => Some(i + 1),
                _ => None,
            })
        }
        Some(open @ ('[' | '(')) => {
            let close = if open == '[' { ']' } else { ')' };
            let mut depth = 0i32;
            let mut quote: Option<char> = None;
            let mut escaped = false;
            let mut end = None;
            for (i, c) in rest.char_indices() {
                match (quote, c) {
                    (Some(_), _) if escaped => escaped = false,
                    (Some(_), '\\') => escaped = true,
                    (Some(q), c) if c == q => quote = None,
                    (Some(_), _) => {}
                    (None, '\'' | '"') => quote = Some(c),
                    (None, c) if c == open => depth += 1,
                    (None, c) if c == close => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(i + 1);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            end
        }
        _ => rest.find([',', '}']),
    }
}

/// The dict NumPy writes, read in order: `{'descr': D, 'fortran_order': F, 'shape': S, }` (the
/// last comma optional), and nothing else: a key more, a key twice or text between them is a
/// header NumPy itself refuses. Returns the three literals.
fn dict(header: &str) -> Result<(&str, &str, &str), String> {
    let h = header.trim_end_matches([' ', '\n', '\0']);
    let mut rest = h;
    let mut values = [""; 3];
    for (i, key) in ["{'descr': ", ", 'fortran_order': ", ", 'shape': "].iter().enumerate() {
        rest = rest.strip_prefix(key).ok_or_else(|| {
            bad(format!(
                "a header other than NumPy's dict of descr, fortran_order and shape: {}",
                crate::text::escape(h)
            ))
        })?;
        let n = literal_len(rest)
            .ok_or_else(|| bad(format!("an unterminated value in {}", crate::text::escape(h))))?;
        values[i] = rest[..n].trim();
        rest = &rest[n..];
    }
    if rest != ", }" && rest != "}" {
        return Err(bad(format!(
            "a header other than NumPy's dict of descr, fortran_order and shape: {}",
            crate::text::escape(h)
        )));
    }
    Ok((values[0], values[1], values[2]))
}

/// The longest `descr` written into a header: NumPy's `np.load` refuses headers over 10 000
/// bytes unless told to trust the file (`max_header_size`).
const MAX_DESCR: usize = 8_000;

/// The `descr` of a `.npy` file for items of the stored dtype string `stored` (a b2nd
/// metalayer's, which is file content): parsed and written back by b2schema's dtype parser,
/// never copied, so that no text of the file can change the header's dict; refused when NumPy
/// could not load it (objects, items of no bytes, a size other than the array's `typesize`, a
/// dict-form structured dtype, a descr NumPy would not read back) with what to do instead.
pub fn descr_for(stored: &str, typesize: usize) -> Result<String, String> {
    let dtype = b2schema::dtype::DType::parse(stored).map_err(|e| {
        format!("the array's dtype does not parse ({e}): write the raw items instead (no --npy)")
    })?;
    check_items(&dtype)?;
    if dtype.itemsize() != typesize {
        return Err(format!(
            "the array's dtype {} has {}-byte items, its frame {typesize}-byte items: write the raw items instead",
            crate::text::escape(&dtype.to_numpy_str()),
            dtype.itemsize()
        ));
    }
    let descr = dtype.to_numpy_str();
    if descr.starts_with('{') || descr.starts_with('(') || descr.len() > MAX_DESCR {
        return Err(format!(
            "a .npy descr cannot hold the array's dtype ({} bytes, {}): write the raw items instead",
            descr.len(),
            if descr.len() > MAX_DESCR {
                "too long for NumPy's header limit"
            } else {
                "offsets or a subarray"
            }
        ));
    }
    Ok(descr)
}

/// Refuses dtypes with no data of their own: objects, and items of no bytes.
fn check_items(dtype: &b2schema::dtype::DType) -> Result<(), String> {
    if dtype.has_objects() {
        return Err("a dtype of Python objects (|O): pointers of the process that wrote them, no data".into());
    }
    if dtype.itemsize() == 0 {
        return Err(format!(
            "a dtype of 0-byte items ({}): nothing to store",
            crate::text::escape(&dtype.to_numpy_str())
        ));
    }
    Ok(())
}

/// The header of a `.npy` file: its length, the `descr` (as [`Npy::descr`]), the shape, the
/// Fortran flag and the items' size, from the file's first bytes (`prefix`, up to 1 MiB is
/// plenty); the data follow at the returned offset.
pub struct Header {
    /// Where the items start.
    pub data_at: usize,
    /// The dtype (unquoted).
    pub descr: String,
    /// The shape.
    pub shape: Vec<u64>,
    /// Items in Fortran order.
    pub fortran: bool,
    /// Bytes per item.
    pub itemsize: usize,
    /// Bytes of items the shape needs.
    pub data_len: usize,
}

/// Parses a `.npy` file, turning Fortran-order items into C order.
pub fn read(bytes: &[u8]) -> Result<Npy, String> {
    let h = read_header(bytes)?;
    let body = &bytes[h.data_at..];
    let data = body.get(..h.data_len).ok_or_else(|| {
        format!("the .npy file holds {} data bytes, its shape needs {}", body.len(), h.data_len)
    })?;
    let data =
        if h.fortran && h.shape.len() > 1 { fortran_to_c(data, &h.shape, h.itemsize) } else { data.to_vec() };
    Ok(Npy { descr: h.descr, shape: h.shape, data })
}

/// Parses the header of a `.npy` file from its first bytes.
pub fn read_header(bytes: &[u8]) -> Result<Header, String> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err(bad("no \\x93NUMPY magic"));
    }
    let (hlen, start): (usize, usize) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 => {
            let b = bytes.get(8..12).ok_or_else(|| bad("truncated header length"))?;
            (u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize, 12)
        }
        v => return Err(bad(format!("format version {v}"))),
    };
    let header = bytes.get(start..start.saturating_add(hlen)).ok_or_else(|| bad("truncated header"))?;
    let header = std::str::from_utf8(header).map_err(|_| bad("a header that is not text"))?;
    let (descr_lit, fortran_lit, shape_lit) = dict(header)?;
    let descr = match descr_lit.as_bytes().first() {
        Some(b'\'' | b'"') => descr_lit[1..descr_lit.len() - 1].to_string(),
        _ => descr_lit.to_string(),
    };
    let fortran = match fortran_lit {
        "True" => true,
        "False" => false,
        other => return Err(bad(format!("fortran_order {}", crate::text::escape(other)))),
    };
    let shape: Vec<u64> = shape_lit
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse::<u64>().map_err(|_| bad(format!("shape {shape_lit}"))))
        .collect::<Result<_, _>>()?;
    if shape.len() > 16 {
        return Err(format!("{} dimensions: Blosc2 arrays have at most 16", shape.len()));
    }
    let dtype = b2schema::dtype::DType::parse(&descr)
        .map_err(|e| format!("dtype {}: {e}", crate::text::escape(&descr)))?;
    check_items(&dtype)?;
    let itemsize = dtype.itemsize();
    let nitems =
        shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d)).ok_or_else(|| bad("a shape that overflows"))?;
    let data_len = usize::try_from(nitems)
        .ok()
        .and_then(|n| n.checked_mul(itemsize))
        .ok_or_else(|| bad("a shape that overflows"))?;
    Ok(Header { data_at: start + hlen, descr, shape, fortran, itemsize, data_len })
}

/// Reorders Fortran-order items into C order.
pub fn fortran_to_c(data: &[u8], shape: &[u64], itemsize: usize) -> Vec<u8> {
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let mut fstride = vec![1usize; dims.len()];
    for k in 1..dims.len() {
        fstride[k] = fstride[k - 1] * dims[k - 1];
    }
    let mut out = Vec::with_capacity(data.len());
    let mut idx = vec![0usize; dims.len()];
    let n: usize = dims.iter().product();
    for _ in 0..n {
        let f: usize = idx.iter().zip(&fstride).map(|(i, s)| i * s).sum();
        out.extend_from_slice(&data[f * itemsize..(f + 1) * itemsize]);
        for k in (0..dims.len()).rev() {
            idx[k] += 1;
            if idx[k] < dims[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    out
}

/// A `.npy` file (version 1.0, or 2.0 for headers over 64 KiB) of C-order items.
pub fn write(descr: &str, shape: &[u64], data: &[u8]) -> Vec<u8> {
    let mut out = header(descr, shape, data.len());
    out.extend_from_slice(data);
    out
}

/// The `.npy` header (magic, version, header length, dict) of [`write`], in a vector with room
/// for `data_len` more bytes.
pub fn header(descr: &str, shape: &[u64], data_len: usize) -> Vec<u8> {
    let descr_lit = if descr.starts_with('[') { descr.to_string() } else { format!("'{descr}'") };
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    let shape_lit = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let dict = format!("{{'descr': {descr_lit}, 'fortran_order': False, 'shape': {shape_lit}, }}");
    let (version, prefix) = if dict.len() + 11 < 65_536 { (1u8, 10) } else { (2, 12) };
    let total = (prefix + dict.len() + 1).div_ceil(64) * 64;
    let hlen = total - prefix;
    let mut header = dict.into_bytes();
    header.resize(hlen - 1, b' ');
    header.push(b'\n');
    let mut out = Vec::with_capacity(total + data_len.min(1 << 20));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(hlen as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(hlen as u32).to_le_bytes());
    }
    out.extend_from_slice(&header);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_as_numpy_writes_them() {
        let h = |shape: &[u64]| {
            let b = write("<f8", shape, &[]);
            String::from_utf8(b[10..].to_vec()).unwrap().trim_end().to_string()
        };
        assert_eq!(h(&[]), "{'descr': '<f8', 'fortran_order': False, 'shape': (), }");
        assert_eq!(h(&[3]), "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }");
        assert_eq!(h(&[3, 4]), "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }");
        assert_eq!(write("<f8", &[3, 4], &[]).len() % 64, 0);
    }

    /// Field names with quotes, backslashes, NULs, key-like text: the header written reads back
    /// to the same descr (a fuzzed name with `\\'` once did not: the reader did not know escapes).
    #[test]
    fn headers_of_awkward_field_names_read_back() {
        for name in ["a'b", "a\\b", "a\"b", "'shape': (9,)", "XX\\'\u{0}\u{0}\"", "é, }", "x\ny"] {
            let stored = format!("[({}, '<i4'), ('b', '<f8')]", py_repr(name));
            let descr = descr_for(&stored, 12).unwrap_or_else(|e| panic!("{name:?}: {e}"));
            let mut file = header(&descr, &[2, 3], 0);
            file.resize(file.len() + 72, 0);
            let back = read(&file).unwrap_or_else(|e| panic!("{name:?}: {e}"));
            assert_eq!((back.descr, back.shape), (descr, vec![2, 3]), "{name:?}");
        }
    }

    /// Python's `repr` of a str, as the dtype printer writes names.
    fn py_repr(s: &str) -> String {
        b2schema::dtype::DType::parse(&format!("[({:?}, '<i4')]", s))
            .map(|d| d.to_numpy_str())
            .ok()
            .and_then(|t| {
                t.strip_prefix('[')
                    .and_then(|t| t.strip_prefix('('))
                    .map(|t| t[..t.rfind(", '<i4')").unwrap()].to_string())
            })
            .unwrap_or_else(|| format!("{s:?}"))
    }

    #[test]
    fn fortran_order_becomes_c_order() {
        // 2 x 3, Fortran: columns first.
        let f = [0u8, 3, 1, 4, 2, 5];
        assert_eq!(fortran_to_c(&f, &[2, 3], 1), [0, 1, 2, 3, 4, 5]);
        let back = read(&write("|u1", &[2, 3], &[0, 1, 2, 3, 4, 5])).unwrap();
        assert_eq!((back.descr.as_str(), back.shape, back.data), ("|u1", vec![2, 3], vec![0, 1, 2, 3, 4, 5]));
    }
}
