//! The `http://` and (feature `https`) `https://` URLs a remote frame is read from: host, port
//! and the request target, checked so that nothing of the URL can end a request line or add a
//! header.

use alloc::string::{String, ToString};

use crate::container::error::{Error, Result};

/// A parsed `http://host[:port]/path` (or `https://`) URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    /// `https://`: the connection is TLS.
    pub tls: bool,
    /// The host as written (a name, an IPv4 address or a bracketed IPv6 address).
    pub host: String,
    /// The port (80, or 443 for `https://`, unless given).
    pub port: u16,
    /// The request target: the path and query (`/` when empty); the fragment dropped.
    pub target: String,
    /// The URL as given.
    pub text: String,
}

/// Whether `s` names a remote file (`http://` or `https://`) rather than a path.
pub fn is_url(s: &str) -> bool {
    let lower = s.get(..8).map(str::to_ascii_lowercase).unwrap_or_default();
    lower.starts_with("http://") || lower == "https://"
}

impl Url {
    /// Parses `text`; `https://` is refused without the feature `https` (no TLS in the build), as
    /// are user names, spaces and control characters.
    pub fn parse(text: &str) -> Result<Url> {
        let bad = |why: &str| {
            Error::invalid(
                "an http:// or https:// URL",
                "http[s]://host[:port]/path",
                alloc::format!("{text:?} ({why})"),
                0,
            )
        };
        let lower = text.get(..8).map(str::to_ascii_lowercase).unwrap_or_default();
        let tls = lower == "https://";
        if tls && !cfg!(feature = "https") {
            return Err(bad(
                "https is not supported: this build has no TLS (the feature `https`); use http://",
            ));
        }
        if !tls && !lower.starts_with("http://") {
            return Err(bad("not an http:// or https:// URL"));
        }
        if !text.bytes().all(|b| (0x21..0x7f).contains(&b)) {
            return Err(bad("spaces, control or non-ASCII characters"));
        }
        let rest = &text[if tls { 8 } else { 7 }..];
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(end);
        if authority.contains('@') {
            return Err(bad("user names and passwords are not supported"));
        }
        let (host, port) = match authority.rfind(':') {
            Some(i) if !authority[i..].contains(']') => {
                let port = authority[i + 1..].parse::<u16>().map_err(|_| bad("the port is not a number"))?;
                (&authority[..i], port)
            }
            _ => (authority, if tls { 443 } else { 80 }),
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        let tail = tail.split('#').next().unwrap_or("");
        let target = if tail.starts_with('/') { tail.to_string() } else { alloc::format!("/{tail}") };
        Ok(Url { tls, host: host.to_string(), port, target, text: text.to_string() })
    }

    /// The URL a `Location` header's value `location` points to from this one: an `http://` or
    /// `https://` URL, one without a scheme (`//host/path`, this URL's scheme), a path from the root (`/path`) or from this
    /// URL's directory (`name`, `../name`: the dot segments of a path resolved as RFC 3986 says);
    /// each checked as [`Url::parse`] checks a URL.
    pub fn join(&self, location: &str) -> Result<Url> {
        let scheme_len = self.text.find("://").map_or(0, |i| i + 3);
        let origin_end =
            self.text[scheme_len..].find(['/', '?', '#']).map_or(self.text.len(), |i| scheme_len + i);
        let origin = &self.text[..origin_end];
        let joined = if location.contains("://") {
            location.to_string()
        } else if let Some(rest) = location.strip_prefix("//") {
            alloc::format!("{}//{rest}", self.scheme())
        } else if location.starts_with('/') {
            alloc::format!("{origin}{}", without_dot_segments(location))
        } else {
            let path = self.target.split(['?', '#']).next().unwrap_or("/");
            let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
            alloc::format!("{origin}{}", without_dot_segments(&alloc::format!("{dir}{location}")))
        };
        Url::parse(&joined)
    }

    /// `http:` or `https:`.
    pub fn scheme(&self) -> &'static str {
        if self.tls { "https:" } else { "http:" }
    }

    /// The `Host` header's value (the port left out when it is the scheme's).
    pub fn host_header(&self) -> String {
        if self.port == if self.tls { 443 } else { 80 } {
            self.host.clone()
        } else {
            alloc::format!("{}:{}", self.host, self.port)
        }
    }

    /// `scheme://host:port`: the origin, which keeps connections apart (a plain and a TLS
    /// connection to one host and port are not the same).
    pub fn origin(&self) -> String {
        alloc::format!("{}//{}:{}", self.scheme(), self.host, self.port)
    }

    /// The host without IPv6 brackets, for name resolution.
    pub fn connect_host(&self) -> &str {
        self.host.trim_start_matches('[').trim_end_matches(']')
    }
}

/// `path` (from the root, with its query) without its `.` and `..` segments (RFC 3986,
/// `remove_dot_segments`; `..` at the root stays at the root).
fn without_dot_segments(path: &str) -> String {
    let (path, query) = path.split_at(path.find('?').unwrap_or(path.len()));
    let mut kept: alloc::vec::Vec<&str> = alloc::vec::Vec::new();
    let segments: alloc::vec::Vec<&str> = path.split('/').skip(1).collect();
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *seg {
            "." | ".." => {
                if *seg == ".." {
                    kept.pop();
                }
                if last {
                    kept.push("");
                }
            }
            s => kept.push(s),
        }
    }
    alloc::format!("/{}{query}", kept.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts() {
        let u = Url::parse("http://127.0.0.1:8080/a/b.b2nd?x=1#frag").unwrap();
        assert_eq!((u.host.as_str(), u.port, u.target.as_str()), ("127.0.0.1", 8080, "/a/b.b2nd?x=1"));
        let u = Url::parse("HTTP://[::1]/x").unwrap();
        assert_eq!((u.connect_host(), u.port, u.target.as_str()), ("::1", 80, "/x"));
        assert_eq!(Url::parse("http://h").unwrap().target, "/");
        #[cfg(feature = "https")]
        {
            let u = Url::parse("HTTPS://h/x").unwrap();
            assert_eq!(
                (u.tls, u.port, u.host_header(), u.origin()),
                (true, 443, "h".into(), "https://h:443".into())
            );
            assert_eq!(u.join("//g:9/y").unwrap().text, "https://g:9/y");
            assert_eq!(Url::parse("https://h:8443/").unwrap().host_header(), "h:8443");
        }
        #[cfg(not(feature = "https"))]
        assert!(Url::parse("https://h/x").unwrap_err().to_string().contains("feature `https`"));
        for bad in
            ["ftp://h", "http://h/a b", "http://h/a\r\nX: y", "http://u@h/", "http://:80/", "http://h:99999/"]
        {
            assert!(Url::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn locations() {
        let u = Url::parse("http://h:8/a/b.b2nd?q=1").unwrap();
        for (loc, want) in [
            ("http://g/x", "http://g/x"),
            ("//g:9/x", "http://g:9/x"),
            ("/x/y", "http://h:8/x/y"),
            ("c.b2nd", "http://h:8/a/c.b2nd"),
            ("b.b2nd/", "http://h:8/a/b.b2nd/"),
            ("../x", "http://h:8/x"),
            ("./x/../../../y?z=../1", "http://h:8/y?z=../1"),
            ("/a/./b/../", "http://h:8/a/"),
            ("..", "http://h:8/"),
        ] {
            assert_eq!(u.join(loc).unwrap().text, want, "{loc}");
        }
        let root = Url::parse("http://h").unwrap();
        assert_eq!(root.join("x").unwrap().text, "http://h/x");
        for bad in ["ftp://g/", "/a\r\nX: y", "//u@g/"] {
            assert!(u.join(bad).is_err(), "{bad}");
        }
    }
}
