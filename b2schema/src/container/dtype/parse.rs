//! The Python literal forms: list, dict and tuple forms, Python string literals, and the layout NumPy computes.

use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::str::FromStr;

use super::error::DTypeError;
use super::scalar::{parse_scalar, read_digits};
use super::types::{DType, Field, Kind, MAX_DEPTH, MAX_ITEMSIZE, MAX_SUBARRAY_DIMS, round_up};

impl DType {
    /// Parses a dtype string as the `b2nd` metalayer stores it; the whole string must be one dtype.
    ///
    /// The forms accepted and the layout computed are described in the [module docs](crate::dtype).
    ///
    /// ```
    /// # use b2schema::dtype::DType;
    /// let dt = DType::parse("[('a', '<i4'), ('b', '<f8', (2,))]").unwrap();
    /// assert_eq!(dt.itemsize(), 20);
    /// assert_eq!(dt.fields()[1].offset, 4);
    /// assert_eq!(dt.to_numpy_str(), "[('a', '<i4'), ('b', '<f8', (2,))]");
    /// let err = DType::parse("<f3").unwrap_err();
    /// assert_eq!(err.to_string(), "expected an itemsize of 2, 4, 8 or 16 at offset 2 of the dtype string, found '3'");
    /// ```
    pub fn parse(s: &str) -> Result<DType, DTypeError> {
        let mut p = Parser { src: s, pos: 0, depth: 0 };
        let dtype = match s.as_bytes().first() {
            Some(b'[' | b'{' | b'(' | b'\'' | b'"') => p.expr(false)?,
            _ => {
                let scalar = parse_scalar(s).map_err(|(off, expected)| DTypeError::at(s, off, expected))?;
                p.pos = s.len();
                DType::Scalar(scalar)
            }
        };
        if p.pos != s.len() {
            return Err(p.err(p.pos, "the end of the dtype string"));
        }
        Ok(dtype)
    }
}

impl FromStr for DType {
    type Err = DTypeError;

    /// Same as [`DType::parse`].
    fn from_str(s: &str) -> Result<DType, DTypeError> {
        DType::parse(s)
    }
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
}

type PResult<T> = Result<T, DTypeError>;

impl<'a> Parser<'a> {
    fn err(&self, pos: usize, expected: &'static str) -> DTypeError {
        DTypeError::at(self.src, pos, expected)
    }

    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    /// Skips the whitespace Python allows between the tokens of a bracketed expression.
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, b: u8, expected: &'static str) -> PResult<()> {
        if self.eat(b) { Ok(()) } else { Err(self.err(self.pos, expected)) }
    }

    /// Enters a nested dtype (a list form, dict form or tuple), at its opening bracket, which it
    /// consumes. The parser recurses only through these, so `depth` bounds its stack.
    fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err(self.pos, "at most 32 levels of nested dtypes"));
        }
        self.depth += 1;
        self.open();
        Ok(())
    }

    /// Consumes an opening bracket and the whitespace after it.
    fn open(&mut self) {
        self.pos += 1;
        self.ws();
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// After an element of a bracketed sequence: `,` (then maybe the closing bracket, Python's
    /// trailing comma) or the closing bracket. Returns true when the sequence is closed.
    fn next_or_close(&mut self, close: u8, expected: &'static str) -> PResult<bool> {
        self.ws();
        if self.eat(b',') {
            self.ws();
            Ok(self.eat(close))
        } else if self.eat(close) {
            Ok(true)
        } else {
            Err(self.err(self.pos, expected))
        }
    }

    /// A list or tuple of items read by `item`.
    fn seq<T>(&mut self, mut item: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        let close = match self.peek() {
            Some(b'[') => b']',
            Some(b'(') => b')',
            _ => return Err(self.err(self.pos, "a list")),
        };
        self.open();
        let mut items = Vec::new();
        if !self.eat(close) {
            loop {
                items.push(item(self)?);
                if self.next_or_close(close, "',' or the end of the list")? {
                    break;
                }
            }
        }
        Ok(items)
    }

    /// A dtype in a Python literal: a quoted type, a list form, a dict form, or a tuple.
    fn expr(&mut self, align: bool) -> PResult<DType> {
        match self.peek() {
            Some(b'\'' | b'"') => {
                let (text, start, escaped) = self.string()?;
                let scalar = parse_scalar(&text).map_err(|(off, expected)| {
                    self.err(if escaped { start } else { start + off }, expected)
                })?;
                Ok(DType::Scalar(scalar))
            }
            Some(b'[') => self.list_struct(align),
            Some(b'{') => self.dict_struct(align),
            Some(b'(') => self.tuple(align),
            _ => Err(self.err(self.pos, "a quoted type code, a list, a dict or a tuple")),
        }
    }

    /// `(base, shape)` or `(numpy.record, struct)`.
    fn tuple(&mut self, align: bool) -> PResult<DType> {
        self.enter()?;
        let dtype = if self.rest().starts_with("numpy.record") {
            self.pos += "numpy.record".len();
            self.ws();
            self.expect(b',', "',' after numpy.record")?;
            self.ws();
            let at = self.pos;
            match self.expr(align)? {
                DType::Struct { fields, itemsize, aligned, .. } => {
                    DType::Struct { fields, itemsize, aligned, record: true }
                }
                _ => return Err(self.err(at, "a structured dtype after numpy.record")),
            }
        } else {
            let base = self.expr(align)?;
            self.ws();
            self.expect(b',', "',' and a subarray shape")?;
            self.ws();
            let at = self.pos;
            let shape = self.shape()?;
            subarray(base, shape).ok_or_else(|| self.err(at, "a subarray of at most 2147483647 bytes"))?
        };
        if !self.next_or_close(b')', "')' closing the tuple")? {
            return Err(self.err(self.pos, "')' closing the tuple"));
        }
        self.leave();
        Ok(dtype)
    }

    /// A subarray shape: an integer, or a tuple or list of integers.
    fn shape(&mut self) -> PResult<Vec<usize>> {
        let close = match self.peek() {
            Some(b'0'..=b'9') => return Ok(alloc::vec![self.int()?]),
            Some(b'(') => b')',
            Some(b'[') => b']',
            _ => return Err(self.err(self.pos, "a shape: an integer or a tuple of integers")),
        };
        let open = self.pos;
        self.open();
        let mut dims = Vec::new();
        if !self.eat(close) {
            loop {
                dims.push(self.int()?);
                if self.next_or_close(close, "',' or the end of the shape")? {
                    break;
                }
            }
        }
        if dims.len() > MAX_SUBARRAY_DIMS {
            return Err(self.err(open, "a shape of at most 64 dimensions"));
        }
        Ok(dims)
    }

    /// A Python decimal integer literal, at most [`MAX_ITEMSIZE`].
    fn int(&mut self) -> PResult<usize> {
        let at = self.pos;
        let b = self.src.as_bytes();
        let mut end = at;
        match read_digits(b, &mut end) {
            None => Err(self.err(at, "a non-negative integer")),
            Some(_) if b[at] == b'0' && end > at + 1 => Err(self.err(at, "an integer without leading zeros")),
            Some(n) if n > MAX_ITEMSIZE => Err(self.err(at, "an integer of at most 2147483647")),
            Some(n) => {
                self.pos = end;
                Ok(n)
            }
        }
    }

    /// `True` or `False`.
    fn boolean(&mut self) -> PResult<bool> {
        for (word, value) in [("True", true), ("False", false)] {
            if self.rest().starts_with(word) {
                self.pos += word.len();
                return Ok(value);
            }
        }
        Err(self.err(self.pos, "True or False"))
    }

    /// A Python string literal. Returns the decoded text, the byte offset of its first character
    /// in the source, and whether it contained escapes (so offsets in the text are not offsets in
    /// the source).
    fn string(&mut self) -> PResult<(String, usize, bool)> {
        let quote = match self.peek() {
            Some(q @ (b'\'' | b'"')) => q,
            _ => return Err(self.err(self.pos, "a quoted string")),
        };
        self.pos += 1;
        let start = self.pos;
        let mut text = String::new();
        let mut escaped = false;
        loop {
            let rest = self.rest();
            let plain = rest.find(|c| c == char::from(quote) || c == '\\' || c == '\n' || c == '\r');
            let Some(n) = plain else { return Err(self.err(self.src.len(), "a closing quote")) };
            text.push_str(&rest[..n]);
            self.pos += n;
            match self.peek() {
                Some(b'\\') => {
                    escaped = true;
                    self.pos += 1;
                    self.escape(&mut text)?;
                }
                Some(b'\n' | b'\r') => return Err(self.err(self.pos, "a closing quote on the same line")),
                _ => {
                    self.pos += 1;
                    return Ok((text, start, escaped));
                }
            }
        }
    }

    /// The escape after a backslash in a string literal.
    fn escape(&mut self, text: &mut String) -> PResult<()> {
        let at = self.pos;
        let Some(c) = self.rest().chars().next() else { return Err(self.err(at, "an escape sequence")) };
        self.pos += c.len_utf8();
        let simple = match c {
            '\n' => return Ok(()),
            '\r' => {
                self.eat(b'\n');
                return Ok(());
            }
            '\\' | '\'' | '"' => c,
            'a' => '\x07',
            'b' => '\x08',
            'f' => '\x0c',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\x0b',
            '0'..='7' => {
                let mut value = c as u32 - '0' as u32;
                for _ in 0..2 {
                    match self.peek() {
                        Some(d @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(d - b'0');
                            self.pos += 1;
                        }
                        _ => break,
                    }
                }
                char::from_u32(value).ok_or_else(|| self.err(at, "a valid octal escape"))?
            }
            'x' | 'u' | 'U' => {
                let len = match c {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex = self.rest().get(..len).filter(|h| h.bytes().all(|d| d.is_ascii_hexdigit()));
                let Some(hex) = hex else {
                    return Err(self.err(self.pos, "hexadecimal digits of the escape"));
                };
                self.pos += len;
                let value = u32::from_str_radix(hex, 16).unwrap_or(u32::MAX);
                char::from_u32(value).ok_or_else(|| self.err(at, "an escape of a Unicode scalar value"))?
            }
            'N' => return Err(self.err(at, "an escape other than \\N{...}")),
            _ => {
                // Python keeps unknown escapes as they are.
                text.push('\\');
                c
            }
        };
        text.push(simple);
        Ok(())
    }

    /// `[('name', format), (('title', 'name'), format, shape), ...]`
    fn list_struct(&mut self, align: bool) -> PResult<DType> {
        self.enter()?;
        let mut fields = Vec::new();
        let mut at = Vec::new();
        if !self.eat(b']') {
            loop {
                let item_at = self.pos;
                if self.peek() != Some(b'(') {
                    return Err(self.err(self.pos, "a field tuple ('name', format)"));
                }
                self.open();
                let name_at = self.pos;
                let (name, title) = if self.peek() == Some(b'(') {
                    self.open();
                    let (title, _, _) = self.string()?;
                    self.ws();
                    self.expect(b',', "',' and the field name after the title")?;
                    self.ws();
                    let (name, _, _) = self.string()?;
                    if !self.next_or_close(b')', "')' after the field name")? {
                        return Err(self.err(self.pos, "')' after the field name"));
                    }
                    (name, Some(title))
                } else {
                    (self.string()?.0, None)
                };
                self.ws();
                self.expect(b',', "',' and the field format")?;
                self.ws();
                let mut dtype = self.expr(align)?;
                if !self.next_or_close(b')', "',' or ')' after the field format")? {
                    let shape_at = self.pos;
                    let shape = self.shape()?;
                    dtype = subarray(dtype, shape)
                        .ok_or_else(|| self.err(shape_at, "a subarray of at most 2147483647 bytes"))?;
                    if !self.next_or_close(b')', "')' after the field shape")? {
                        return Err(self.err(self.pos, "')' after the field shape"));
                    }
                }
                let name = match (name.is_empty(), &title) {
                    (false, _) => name,
                    (true, None) => format!("f{}", fields.len()),
                    // NumPy names the field after its title, which then clashes with the name.
                    (true, Some(_)) => {
                        return Err(self.err(name_at, "a field name (it may be empty only without a title)"));
                    }
                };
                fields.push(Field { name, title, dtype, offset: 0 });
                at.push((item_at, name_at));
                if self.next_or_close(b']', "',' or ']' after the field")? {
                    break;
                }
            }
        }
        self.leave();
        let itemsize = self.sequential_layout(&mut fields, align, &at)?;
        self.check_names(&fields, &at)?;
        Ok(DType::Struct { fields, itemsize, aligned: align, record: false })
    }

    /// Places the fields one after the other (aligned when `align`); returns the itemsize.
    fn sequential_layout(&self, fields: &mut [Field], align: bool, at: &[(usize, usize)]) -> PResult<usize> {
        let mut total = 0usize;
        let mut max_align = 1;
        for (field, &(item_at, _)) in fields.iter_mut().zip(at) {
            if align {
                let a = field.dtype.alignment();
                max_align = max_align.max(a);
                total = round_up(total, a);
            }
            field.offset = total;
            total = total
                .checked_add(field.dtype.itemsize())
                .filter(|&n| n <= MAX_ITEMSIZE)
                .ok_or_else(|| self.err(item_at, "fields that fit in 2147483647 bytes"))?;
        }
        if align {
            total = round_up(total, max_align);
            if total > MAX_ITEMSIZE {
                return Err(
                    self.err(at.last().map_or(self.pos, |a| a.0), "fields that fit in 2147483647 bytes")
                );
            }
        }
        Ok(total)
    }

    /// NumPy's rule: a name or title is used at most once among all names and titles.
    fn check_names(&self, fields: &[Field], at: &[(usize, usize)]) -> PResult<()> {
        let mut seen = BTreeSet::new();
        for (field, &(_, name_at)) in fields.iter().zip(at) {
            if !seen.insert(field.name.as_str()) {
                return Err(self.err(name_at, "a field name not used before as a name or title"));
            }
            if let Some(title) = &field.title
                && !seen.insert(title.as_str())
            {
                return Err(self.err(name_at, "a title not used before as a name or title"));
            }
        }
        Ok(())
    }

    /// NumPy's rule: a field that holds Python objects overlaps no other field (fields `a` and `b`
    /// overlap when `a.start < b.end && b.start < a.end`). O(n log n).
    fn check_object_overlap(&self, fields: &[Field], at: &[(usize, usize)]) -> PResult<()> {
        if !fields.iter().any(|f| has_object(&f.dtype)) {
            return Ok(());
        }
        let span = |i: usize| (fields[i].offset, fields[i].offset.saturating_add(fields[i].dtype.itemsize()));
        let mut order: Vec<usize> = (0..fields.len()).collect();
        order.sort_unstable_by_key(|&i| fields[i].offset);
        // top[k]: the two largest (end, field) among the first k fields in offset order.
        let mut top = Vec::with_capacity(order.len() + 1);
        let mut best = [(0usize, usize::MAX); 2];
        top.push(best);
        for &i in &order {
            let end = span(i).1;
            if end > best[0].0 {
                best = [(end, i), best[0]];
            } else if end > best[1].0 {
                best[1] = (end, i);
            }
            top.push(best);
        }
        for (i, field) in fields.iter().enumerate() {
            if !has_object(&field.dtype) {
                continue;
            }
            let (start, end) = span(i);
            let before = order.partition_point(|&j| fields[j].offset < end);
            let other = top[before].iter().find(|&&(_, j)| j != i).map_or(0, |&(e, _)| e);
            if other > start {
                return Err(self.err(at[i].0, "object fields that overlap no other field"));
            }
        }
        Ok(())
    }

    /// `{'names': [...], 'formats': [...], 'offsets': [...], 'titles': [...], 'itemsize': n, 'aligned': True}`
    fn dict_struct(&mut self, align: bool) -> PResult<DType> {
        let open = self.pos;
        self.enter()?;
        let mut names: Option<Vec<(String, usize)>> = None;
        let mut formats: Option<(Vec<DType>, usize)> = None;
        let mut offsets: Option<(Vec<(usize, usize)>, usize)> = None;
        let mut titles: Option<(Vec<Option<String>>, usize)> = None;
        let mut itemsize: Option<(usize, usize)> = None;
        let mut aligned: Option<bool> = None;
        if !self.eat(b'}') {
            loop {
                let key_at = self.pos;
                let (key, _, _) = self.string()?;
                self.ws();
                self.expect(b':', "':' after the key")?;
                self.ws();
                let value_at = self.pos;
                let seen = match key.as_str() {
                    "names" => {
                        let value = self.seq(|p| {
                            let at = p.pos;
                            Ok((p.string()?.0, at))
                        })?;
                        names.replace(value).is_some()
                    }
                    "formats" => {
                        let value = self.seq(|p| p.expr(align))?;
                        formats.replace((value, value_at)).is_some()
                    }
                    "offsets" => {
                        let value = self.seq(|p| Ok((p.pos, p.int()?)))?;
                        offsets.replace((value, value_at)).is_some()
                    }
                    "titles" => {
                        let value = self.seq(|p| {
                            if p.rest().starts_with("None") {
                                p.pos += 4;
                                Ok(None)
                            } else {
                                Ok(Some(p.string()?.0))
                            }
                        })?;
                        titles.replace((value, value_at)).is_some()
                    }
                    "itemsize" => {
                        let value = self.int()?;
                        itemsize.replace((value, value_at)).is_some()
                    }
                    "aligned" => {
                        let value = self.boolean()?;
                        aligned.replace(value).is_some()
                    }
                    _ => {
                        return Err(self.err(
                            key_at,
                            "one of the keys 'names', 'formats', 'offsets', 'titles', 'itemsize', 'aligned'",
                        ));
                    }
                };
                if seen {
                    return Err(self.err(key_at, "a key not given before"));
                }
                if self.next_or_close(b'}', "',' or '}' after the value")? {
                    break;
                }
            }
        }
        let end = self.pos;
        // NumPy reads the formats with the struct's alignment, which the key 'aligned' (written
        // after 'formats') decides: read them again if it turns alignment on.
        if let Some((list, formats_at)) = &mut formats
            && !align
            && aligned == Some(true)
        {
            self.pos = *formats_at;
            *list = self.seq(|p| p.expr(true))?;
            self.pos = end;
        }
        let align = align || aligned == Some(true);
        self.leave();

        let Some(names) = names else { return Err(self.err(open, "a dict with the key 'names'")) };
        let Some((formats, formats_at)) = formats else {
            return Err(self.err(open, "a dict with the key 'formats'"));
        };
        if formats.len() != names.len() {
            return Err(self.err(formats_at, "as many formats as names"));
        }
        if let Some((offsets, offsets_at)) = &offsets
            && offsets.len() != names.len()
        {
            return Err(self.err(*offsets_at, "as many offsets as names"));
        }
        let titles = match titles {
            None => alloc::vec![None; names.len()],
            Some((titles, titles_at)) if titles.len() != names.len() => {
                return Err(self.err(titles_at, "as many titles as names"));
            }
            Some((titles, _)) => titles,
        };
        let at: Vec<(usize, usize)> = names.iter().map(|&(_, name_at)| (name_at, name_at)).collect();
        let mut fields: Vec<Field> = names
            .into_iter()
            .zip(formats)
            .zip(titles)
            .map(|(((name, _), dtype), title)| Field { name, title, dtype, offset: 0 })
            .collect();
        let max_align = if align { fields.iter().map(|f| f.dtype.alignment()).max().unwrap_or(1) } else { 1 };
        let needed = match &offsets {
            Some((offsets, _)) => {
                let mut needed = 0;
                for (field, &(offset_at, offset)) in fields.iter_mut().zip(offsets) {
                    if align && offset % field.dtype.alignment() != 0 {
                        return Err(
                            self.err(offset_at, "an offset that is a multiple of the field's alignment")
                        );
                    }
                    field.offset = offset;
                    let field_end = offset
                        .checked_add(field.dtype.itemsize())
                        .filter(|&n| n <= MAX_ITEMSIZE)
                        .ok_or_else(|| {
                            self.err(offset_at, "an offset that keeps the field within 2147483647 bytes")
                        })?;
                    needed = needed.max(field_end);
                }
                if align { round_up(needed, max_align) } else { needed }
            }
            None => self.sequential_layout(&mut fields, align, &at)?,
        };
        let itemsize = match itemsize {
            None if needed > MAX_ITEMSIZE => {
                return Err(self.err(open, "fields that fit in 2147483647 bytes"));
            }
            None => needed,
            Some((n, n_at)) if n < needed => {
                return Err(self.err(n_at, "an itemsize large enough for the fields"));
            }
            Some((n, n_at)) if n % max_align != 0 => {
                return Err(self.err(n_at, "an itemsize that is a multiple of the alignment"));
            }
            Some((n, _)) => n,
        };
        self.check_names(&fields, &at)?;
        if offsets.is_some() {
            self.check_object_overlap(&fields, &at)?;
        }
        Ok(DType::Struct { fields, itemsize, aligned: align, record: false })
    }
}

impl DType {
    /// Whether the dtype holds Python objects (`|O`) anywhere: pointers in the process that wrote
    /// them, no data in a file.
    pub fn has_objects(&self) -> bool {
        has_object(self)
    }
}

/// Whether the dtype holds Python objects anywhere.
fn has_object(dtype: &DType) -> bool {
    match dtype {
        DType::Scalar(s) => s.kind == Kind::Object,
        DType::Subarray { base, .. } => has_object(base),
        DType::Struct { fields, .. } => fields.iter().any(|f| has_object(&f.dtype)),
    }
}

/// `base` as a subarray of `shape` (just `base` when `shape` is empty); `None` when it exceeds
/// [`MAX_ITEMSIZE`].
fn subarray(base: DType, shape: Vec<usize>) -> Option<DType> {
    if shape.is_empty() {
        return Some(base);
    }
    let size = shape.iter().try_fold(base.itemsize(), |n, &d| n.checked_mul(d))?;
    (size <= MAX_ITEMSIZE).then(|| DType::Subarray { base: Box::new(base), shape })
}
