//! The head of an HTTP/1.1 response (status line and the headers a ranged read needs), read
//! within a bound: at most [`MAX_HEAD`] bytes and [`MAX_HEADERS`] lines, whatever the server
//! sends.

use std::io::{BufRead, Read};

use alloc::string::String;
use alloc::vec::Vec;

/// The most bytes of a response head read.
pub const MAX_HEAD: u64 = 64 << 10;
/// The most header lines read.
pub const MAX_HEADERS: usize = 128;

/// What a ranged read needs of a response head.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Head {
    /// The status code.
    pub status: u16,
    /// `HTTP/1.1` (keep-alive by default) rather than `HTTP/1.0`.
    pub http11: bool,
    /// `Content-Length`.
    pub content_length: Option<u64>,
    /// `Content-Range`, as sent.
    pub content_range: Option<String>,
    /// Whether a `Transfer-Encoding` was given (a body framed otherwise than by its length).
    pub transfer_encoding: bool,
    /// `Connection: close`.
    pub close: bool,
    /// `Location` (of a redirect, which is not followed).
    pub location: Option<String>,
}

/// Why a head could not be had.
#[derive(Debug)]
pub enum HeadError {
    /// The connection failed or ended before a head (a reused connection the server closed, a
    /// reset, a timeout): worth another attempt.
    Io(std::io::Error),
    /// Bytes that are not an HTTP/1.x head, or one over the bounds.
    Malformed(String),
}

/// Reads a response head from `r`.
pub fn read_head(r: &mut impl BufRead) -> Result<Head, HeadError> {
    let mut budget = MAX_HEAD;
    let mut line = Vec::new();
    let status_line = next_line(r, &mut budget, &mut line)?;
    if status_line.is_empty() {
        return Err(HeadError::Io(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "the connection closed before a response",
        )));
    }
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or("");
    let code = parts.next().unwrap_or("");
    let http11 = match version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        _ => return Err(HeadError::Malformed(alloc::format!("a status line {status_line:?}"))),
    };
    let status = code
        .parse::<u16>()
        .ok()
        .filter(|c| (100..600).contains(c))
        .ok_or_else(|| HeadError::Malformed(alloc::format!("a status line {status_line:?}")))?;
    let mut head = Head { status, http11, ..Head::default() };
    for _ in 0..=MAX_HEADERS {
        let l = next_line(r, &mut budget, &mut line)?;
        if l.is_empty() {
            return Ok(head);
        }
        let (name, value) =
            l.split_once(':').ok_or_else(|| HeadError::Malformed(alloc::format!("a header line {l:?}")))?;
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                let n = value
                    .parse::<u64>()
                    .map_err(|_| HeadError::Malformed(alloc::format!("Content-Length {value:?}")))?;
                if head.content_length.is_some_and(|m| m != n) {
                    return Err(HeadError::Malformed("two different Content-Length headers".into()));
                }
                head.content_length = Some(n);
            }
            "content-range" => head.content_range = Some(value.into()),
            "transfer-encoding" => head.transfer_encoding = true,
            "connection" => head.close |= value.eq_ignore_ascii_case("close"),
            "location" => head.location = Some(value.into()),
            _ => {}
        }
    }
    Err(HeadError::Malformed(alloc::format!("more than {MAX_HEADERS} header lines")))
}

/// The next line without its CRLF, within what is left of `budget`.
fn next_line(r: &mut impl BufRead, budget: &mut u64, line: &mut Vec<u8>) -> Result<String, HeadError> {
    line.clear();
    let n = r.take(*budget).read_until(b'\n', line).map_err(HeadError::Io)?;
    *budget -= n as u64;
    if n > 0 && line.last() != Some(&b'\n') {
        return Err(if *budget == 0 {
            HeadError::Malformed(alloc::format!("a head longer than {MAX_HEAD} bytes"))
        } else {
            HeadError::Io(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the head was cut short"))
        });
    }
    let text =
        core::str::from_utf8(line).map_err(|_| HeadError::Malformed("a head that is not ASCII".into()))?;
    Ok(text.trim_end_matches(['\r', '\n']).into())
}

/// `bytes FIRST-LAST/TOTAL` of a `Content-Range` (TOTAL may be `*`).
pub fn parse_content_range(v: &str) -> Option<(u64, u64, Option<u64>)> {
    let rest = v.strip_prefix("bytes ")?.trim();
    let (range, total) = rest.split_once('/')?;
    let (a, b) = range.split_once('-')?;
    let (a, b) = (a.parse().ok()?, b.parse().ok()?);
    let total = if total == "*" { None } else { Some(total.parse().ok()?) };
    (a <= b && total.is_none_or(|t| b < t)).then_some((a, b, total))
}

/// The TOTAL of an unsatisfied range's `Content-Range: bytes */TOTAL`.
pub fn unsatisfied_total(v: &str) -> Option<u64> {
    v.strip_prefix("bytes */")?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads() {
        let h = read_head(
            &mut &b"HTTP/1.1 206 Partial\r\nContent-Length: 5\r\ncontent-range: bytes 0-4/10\r\n\r\nbody"[..],
        )
        .unwrap();
        assert_eq!(
            (h.status, h.content_length, h.content_range.as_deref()),
            (206, Some(5), Some("bytes 0-4/10"))
        );
        assert!(matches!(read_head(&mut &b""[..]), Err(HeadError::Io(_))));
        assert!(matches!(read_head(&mut &b"SSH-2.0\r\n\r\n"[..]), Err(HeadError::Malformed(_))));
        let long = alloc::format!("HTTP/1.1 200 OK\r\nX: {}\r\n\r\n", "a".repeat(70_000));
        assert!(matches!(read_head(&mut long.as_bytes()), Err(HeadError::Malformed(_))));
        assert_eq!(parse_content_range("bytes 2-4/10"), Some((2, 4, Some(10))));
        assert_eq!(parse_content_range("bytes 4-2/10"), None);
        assert_eq!(parse_content_range("bytes 2-10/10"), None);
        assert_eq!(unsatisfied_total("bytes */10"), Some(10));
    }
}
