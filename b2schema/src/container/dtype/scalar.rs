//! Scalar type codes and names: `<f8`, `|S7`, `<M8[5s]`, `float64`, `datetime64[ms]`.

use super::types::{ByteOrder, DateTimeUnit, Kind, MAX_ITEMSIZE, Scalar};

pub(super) type ScalarResult = Result<Scalar, (usize, &'static str)>;

/// Reads a whole scalar type: `<f8`, `|S7`, `<M8[5s]`, `?`, `float64`, `datetime64[ms]`, ...
/// Errors carry the offset in `s`.
pub(super) fn parse_scalar(s: &str) -> ScalarResult {
    let b = s.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_lowercase() && b[1].is_ascii_lowercase() {
        return parse_name(s);
    }
    let explicit = match b.first() {
        Some(b'<') => Some(ByteOrder::Little),
        Some(b'>') => Some(ByteOrder::Big),
        Some(b'|') => Some(ByteOrder::NotApplicable),
        Some(b'=') => Some(ByteOrder::Native),
        _ => None,
    };
    let mut i = usize::from(explicit.is_some());
    let Some(&code) = b.get(i) else { return Err((i, "a type code")) };
    i += 1;
    let digits_at = i;
    let digits = read_digits(b, &mut i);
    let no_digits = |what| if digits.is_some() { Err((digits_at, what)) } else { Ok(()) };
    let (kind, size) = match code {
        b'?' => {
            no_digits("the end of the type code")?;
            (Kind::Bool, 1)
        }
        b'b' => match digits {
            Some(1) => (Kind::Bool, 1),
            _ => return Err((digits_at, "the itemsize 1 after 'b'")),
        },
        b'i' | b'u' => match digits {
            Some(n @ (1 | 2 | 4 | 8)) => (if code == b'i' { Kind::Int } else { Kind::UInt }, n),
            _ => return Err((digits_at, "an itemsize of 1, 2, 4 or 8")),
        },
        b'f' => match digits {
            Some(n @ (2 | 4 | 8 | 16)) => (Kind::Float, n),
            _ => return Err((digits_at, "an itemsize of 2, 4, 8 or 16")),
        },
        b'c' => match digits {
            Some(n @ (8 | 16 | 32)) => (Kind::Complex, n),
            _ => return Err((digits_at, "an itemsize of 8, 16 or 32")),
        },
        b'S' | b'V' => match digits.unwrap_or(0) {
            n if n <= MAX_ITEMSIZE => (if code == b'S' { Kind::Bytes } else { Kind::Void }, n),
            _ => return Err((digits_at, "an itemsize of at most 2147483647")),
        },
        b'U' => match digits.unwrap_or(0) {
            n if n <= MAX_ITEMSIZE / 4 => (Kind::Unicode, n * 4),
            _ => return Err((digits_at, "a length of at most 536870911 characters")),
        },
        b'M' | b'm' => {
            let bracket = b.get(i) == Some(&b'[');
            // NumPy reads `M08` but wants exactly `M8[` before a unit.
            if !matches!(digits, None | Some(8)) || (bracket && i != digits_at + 1) {
                return Err((digits_at, "the itemsize 8"));
            }
            let (unit, count) = if bracket { parse_unit(s, &mut i)? } else { (DateTimeUnit::Generic, 1) };
            (if code == b'M' { Kind::DateTime { unit, count } } else { Kind::TimeDelta { unit, count } }, 8)
        }
        b'O' => match digits {
            None | Some(4 | 8) => (Kind::Object, 8),
            _ => return Err((digits_at, "no itemsize, or 4 or 8")),
        },
        _ => return Err((digits_at - 1, "a type code")),
    };
    if i != b.len() {
        return Err((i, "the end of the type code"));
    }
    let order = match (kind, size) {
        (Kind::Bool | Kind::Bytes | Kind::Void | Kind::Object, _) | (Kind::Int | Kind::UInt, 1) => {
            ByteOrder::NotApplicable
        }
        _ => match explicit {
            Some(ByteOrder::Little) => ByteOrder::Little,
            Some(ByteOrder::Big) => ByteOrder::Big,
            _ => ByteOrder::Native,
        },
    };
    Ok(Scalar { order, kind, size })
}

/// Reads the decimal digits at `b[*i..]` (leading zeros allowed, as NumPy allows them in type
/// codes). Values above [`MAX_ITEMSIZE`] come out as `usize::MAX`.
pub(super) fn read_digits(b: &[u8], i: &mut usize) -> Option<usize> {
    let start = *i;
    let mut value = 0u64;
    while let Some(d) = b.get(*i).filter(|d| d.is_ascii_digit()) {
        value = (value * 10 + u64::from(d - b'0')).min(1 << 40);
        *i += 1;
    }
    if *i == start {
        None
    } else if value > MAX_ITEMSIZE as u64 {
        Some(usize::MAX)
    } else {
        Some(value as usize)
    }
}

/// Reads `[unit]` or `[countunit]` at `s[*i..]` (which starts with `[`).
fn parse_unit(s: &str, i: &mut usize) -> Result<(DateTimeUnit, u32), (usize, &'static str)> {
    let b = s.as_bytes();
    *i += 1;
    let count_at = *i;
    let count = read_digits(b, i);
    let unit_at = *i;
    let Some(close) = s[unit_at..].find(']').map(|n| unit_at + n) else {
        return Err((unit_at, "a datetime unit and ']'"));
    };
    let unit = DateTimeUnit::from_name(&s[unit_at..close]).ok_or((unit_at, "a datetime unit"))?;
    let count = match count {
        None => 1,
        Some(n) if n > MAX_ITEMSIZE => return Err((count_at, "a unit count of at most 2147483647")),
        Some(_) if unit == DateTimeUnit::Generic => return Err((count_at, "a datetime unit")),
        Some(n) => n as u32,
    };
    *i = close + 1;
    Ok((unit, count))
}

/// Reads a NumPy type name: `bool`, `int8` ... `uint64`, `float16` ... `float128`, `complex64` ...
/// `complex256`, `object`, `datetime64[unit]`, `timedelta64[unit]`.
fn parse_name(s: &str) -> ScalarResult {
    let end = s.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(s.len());
    let word = &s[..end];
    let (kind, size) = match word {
        "bool" => (Kind::Bool, 1),
        "object" => (Kind::Object, 8),
        "int8" => (Kind::Int, 1),
        "int16" => (Kind::Int, 2),
        "int32" => (Kind::Int, 4),
        "int64" => (Kind::Int, 8),
        "uint8" => (Kind::UInt, 1),
        "uint16" => (Kind::UInt, 2),
        "uint32" => (Kind::UInt, 4),
        "uint64" => (Kind::UInt, 8),
        "float16" => (Kind::Float, 2),
        "float32" => (Kind::Float, 4),
        "float64" => (Kind::Float, 8),
        "float128" => (Kind::Float, 16),
        "complex64" => (Kind::Complex, 8),
        "complex128" => (Kind::Complex, 16),
        "complex256" => (Kind::Complex, 32),
        "datetime64" | "timedelta64" => {
            let mut i = end;
            let (unit, count) = if s.as_bytes().get(i) == Some(&b'[') {
                parse_unit(s, &mut i)?
            } else {
                (DateTimeUnit::Generic, 1)
            };
            if i != s.len() {
                return Err((i, "the end of the type name"));
            }
            let kind = if word == "datetime64" {
                Kind::DateTime { unit, count }
            } else {
                Kind::TimeDelta { unit, count }
            };
            return Ok(Scalar { order: ByteOrder::Native, kind, size: 8 });
        }
        _ => return Err((0, "a type code or a NumPy type name")),
    };
    if end != s.len() {
        return Err((end, "the end of the type name"));
    }
    Ok(Scalar { order: ByteOrder::Native, kind, size })
}
