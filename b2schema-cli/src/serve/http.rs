//! A minimal, strict HTTP/1.1 server side: one `GET` (or `HEAD`) request per connection, every
//! size bounded, then a response with `Connection: close`.
//!
//! Why not a server crate: the viewer answers a handful of `GET`s from one local browser, so
//! std::net and this parser (about a hundred lines) are enough; they add no dependency to build
//! on a small machine and every limit below is visible in one place.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::time::Duration;

/// The longest request head (request line and headers) accepted.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most header lines accepted.
pub const MAX_HEADERS: usize = 64;
/// How long a client may take to send its whole request head (from its connection's accept),
/// and to read a response.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// A parsed request: method, path and query (still percent-encoded), and its `Host`.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    /// `GET` or `HEAD`.
    pub method: String,
    /// The path of the target, before `?`.
    pub path: String,
    /// The query of the target, after `?` (empty when there is none).
    pub query: String,
    /// The `Host` header's value.
    pub host: String,
}

/// Why a request is refused before routing: the status and a short reason.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal(pub u16, pub String);

fn refuse(status: u16, why: impl Into<String>) -> Refusal {
    Refusal(status, why.into())
}

/// Reads one request head from `r`: at most [`MAX_HEAD`] bytes and [`MAX_HEADERS`] lines;
/// `GET` or `HEAD` only, an origin-form target, `HTTP/1.1` (or `1.0`), exactly one `Host`,
/// no body.
pub fn read_request(r: impl Read) -> Result<Request, Refusal> {
    let mut r = BufReader::new(r.take(MAX_HEAD as u64));
    let mut line = String::new();
    let mut next_line = |line: &mut String| -> Result<(), Refusal> {
        line.clear();
        match r.read_line(line) {
            Ok(0) => Err(refuse(400, "the request ended early")),
            Ok(_) if !line.ends_with("\r\n") => Err(refuse(431, "a request head over 16 KiB or cut short")),
            Ok(_) => {
                line.truncate(line.len() - 2);
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                Err(refuse(400, "a request that is not UTF-8"))
            }
            Err(e) => Err(refuse(408, format!("reading the request: {e}"))),
        }
    };
    next_line(&mut line)?;
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(refuse(400, "a request line that is not METHOD TARGET VERSION"));
    };
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(refuse(505, format!("HTTP/1.1 expected, found {version:?}")));
    }
    if method != "GET" && method != "HEAD" {
        return Err(refuse(405, format!("GET or HEAD expected (the viewer is read-only), found {method:?}")));
    }
    if !target.starts_with('/') || target.bytes().any(|b| !(0x21..0x7f).contains(&b)) {
        return Err(refuse(400, "a target that is not an absolute path of visible ASCII"));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let (method, path, query) = (method.to_owned(), path.to_owned(), query.to_owned());
    let mut host = None;
    for _ in 0..=MAX_HEADERS {
        next_line(&mut line)?;
        if line.is_empty() {
            let host = host.ok_or_else(|| refuse(400, "no Host header"))?;
            return Ok(Request { method, path, query, host });
        }
        let (name, value) = line.split_once(':').ok_or_else(|| refuse(400, "a header line without ':'"))?;
        if name.is_empty() || name.bytes().any(|b| b.is_ascii_whitespace()) {
            return Err(refuse(400, "a header name with spaces"));
        }
        let value = value.trim_matches([' ', '\t']);
        if name.eq_ignore_ascii_case("host") {
            if host.replace(value.to_owned()).is_some() {
                return Err(refuse(400, "two Host headers"));
            }
        } else if (name.eq_ignore_ascii_case("content-length") && value != "0")
            || name.eq_ignore_ascii_case("transfer-encoding")
        {
            return Err(refuse(400, "a request with a body"));
        }
    }
    Err(refuse(431, "more than 64 header lines"))
}

/// Whether `host` names this server by its loopback address and port: `127.0.0.1:PORT` or
/// `localhost:PORT`, nothing else (a web page on another name that resolves to 127.0.0.1, DNS
/// rebinding, is refused).
pub fn host_allowed(host: &str, port: u16) -> bool {
    let port = port.to_string();
    match host.rsplit_once(':') {
        Some((name, p)) => p == port && (name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost")),
        None => false,
    }
}

/// A response: status, content type and body; security headers are added on writing.
#[derive(Debug)]
pub struct Response {
    /// The HTTP status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// More headers (name, value); values are written as given, so they must be plain text.
    pub headers: Vec<(&'static str, String)>,
}

impl Response {
    /// A 200 response.
    pub fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Self {
        Response { status: 200, content_type, body: body.into(), headers: Vec::new() }
    }

    /// An error response whose body is the reason, as plain text.
    pub fn error(status: u16, why: impl core::fmt::Display) -> Self {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: format!("{status} {why}\n").into_bytes(),
            headers: Vec::new(),
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        421 => "Misdirected Request",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    }
}

/// Writes `resp` (without its body for `HEAD`) and closes the exchange. The page may load only
/// its own scripts, styles and images: no outside resource, no framing by another site.
pub fn write_response(mut w: impl Write, resp: &Response, head_only: bool) -> io::Result<()> {
    let mut extra = String::new();
    for (name, value) in &resp.headers {
        extra.push_str(&format!("{name}: {}\r\n", value.replace(['\r', '\n'], " ")));
    }
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n\
         Content-Security-Policy: default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'none'\r\n\
         Referrer-Policy: no-referrer\r\n{extra}\r\n",
        resp.status,
        reason(resp.status),
        resp.content_type,
        resp.body.len()
    );
    w.write_all(head.as_bytes())?;
    if !head_only {
        w.write_all(&resp.body)?;
    }
    w.flush()
}

/// The value of `key` in a query string, percent-decoded (`+` is a space); `None` when absent
/// or not valid UTF-8 once decoded.
pub fn query_param(query: &str, key: &str) -> Option<String> {
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (percent_decode(k)? == key).then(|| percent_decode(v)).flatten()
    })
}

/// `%XX` and `+` decoded; `None` for a bad escape or bytes that are not UTF-8.
pub fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Request, Refusal> {
        read_request(s.as_bytes())
    }

    #[test]
    fn strict_requests() {
        let r =
            parse("GET /api/file?root=0&path=a%20b HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nAccept: */*\r\n\r\n")
                .unwrap();
        assert_eq!(r.path, "/api/file");
        assert_eq!(query_param(&r.query, "path").as_deref(), Some("a b"));
        assert_eq!(r.host, "127.0.0.1:8000");
        for (bad, status) in [
            ("POST / HTTP/1.1\r\nHost: x\r\n\r\n", 405),
            ("GET / HTTP/2\r\nHost: x\r\n\r\n", 505),
            ("GET http://a/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a\r\n", 400),
            ("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ] {
            assert_eq!(parse(bad).unwrap_err().0, status, "{bad:?}");
        }
        let long = format!("GET /{} HTTP/1.1\r\nHost: a\r\n\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(parse(&long).unwrap_err().0, 431);
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "X: y\r\n".repeat(MAX_HEADERS + 1));
        assert_eq!(parse(&many).unwrap_err().0, 431);
    }

    #[test]
    fn hosts() {
        assert!(host_allowed("127.0.0.1:8000", 8000));
        assert!(host_allowed("localhost:8000", 8000));
        assert!(!host_allowed("127.0.0.1:8001", 8000));
        assert!(!host_allowed("evil.example:8000", 8000));
        assert!(!host_allowed("127.0.0.1", 8000));
        assert!(!host_allowed("[::1]:8000", 8000));
    }
}
