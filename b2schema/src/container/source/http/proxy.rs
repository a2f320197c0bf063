//! The proxy a request goes through, chosen as curl chooses it: for `http://`, `http_proxy`
//! (lower case only, as curl: a CGI program's environment may hold a client's `Proxy:` header as
//! `HTTP_PROXY`); for `https://`, `https_proxy` or `HTTPS_PROXY` (both, as curl: CGI makes
//! `HTTP_*` names of a client's headers, so no header becomes `HTTPS_PROXY`); unless `no_proxy`
//! (or `NO_PROXY`) names the host; never for `localhost` and loopback addresses (as Go's
//! `net/http`: a proxy's loopback is not the caller's). The proxy is itself an `http://` URL
//! (`http://host:port`, or `host:port`), checked as any URL given; plain requests go to it in the
//! absolute form, `https://` ones through a tunnel it opens (`CONNECT host:port`), TLS end to end.

use alloc::string::String;

use super::url::Url;
use crate::container::error::{Error, Result};

/// The proxy for `url` that the environment names, if any.
pub fn from_env(url: &Url) -> Result<Option<Url>> {
    let proxy = if url.tls {
        std::env::var("https_proxy").or_else(|_| std::env::var("HTTPS_PROXY")).unwrap_or_default()
    } else {
        std::env::var("http_proxy").unwrap_or_default()
    };
    let no_proxy = std::env::var("no_proxy").or_else(|_| std::env::var("NO_PROXY")).unwrap_or_default();
    choose(url, &proxy, &no_proxy)
}

/// The proxy for `url` given the values of `http_proxy` (or `https_proxy`) and `no_proxy`
/// (empty when unset).
pub fn choose(url: &Url, proxy: &str, no_proxy: &str) -> Result<Option<Url>> {
    let proxy = proxy.trim();
    if proxy.is_empty() || is_loopback(url.connect_host()) || bypasses(url.connect_host(), no_proxy) {
        return Ok(None);
    }
    let text: String = if proxy.contains("://") { proxy.into() } else { alloc::format!("http://{proxy}") };
    let bad = |why: &dyn core::fmt::Display| {
        Error::invalid(
            "a proxy in http_proxy or https_proxy",
            "http://host:port",
            alloc::format!("{proxy:?}: {why}"),
            0,
        )
    };
    let parsed = Url::parse(&text).map_err(|e| bad(&e))?;
    if parsed.tls {
        return Err(bad(&"a proxy reached by https:// is not supported"));
    }
    Ok(Some(parsed))
}

/// Whether `host` is `localhost` or a loopback address.
fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Whether `no_proxy` (comma- or space-separated names; `*` for every host) names `host`: the
/// host itself or a domain it is in (`example.com` and `.example.com` both cover
/// `a.example.com`), compared without case. Addresses match only as written (no ranges).
pub fn bypasses(host: &str, no_proxy: &str) -> bool {
    let host = host.trim_end_matches('.');
    no_proxy.split([',', ' ']).map(str::trim).filter(|e| !e.is_empty()).any(|entry| {
        if entry == "*" {
            return true;
        }
        let entry = entry.trim_start_matches('.').trim_end_matches('.');
        let entry = entry.trim_start_matches('[').trim_end_matches(']');
        !entry.is_empty()
            && (host.eq_ignore_ascii_case(entry)
                || host.len() > entry.len()
                    && host.as_bytes()[host.len() - entry.len() - 1] == b'.'
                    && host[host.len() - entry.len()..].eq_ignore_ascii_case(entry))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chosen_as_curl_chooses() {
        let url = Url::parse("http://data.example.com:8080/a.b2nd").unwrap();
        let p = |proxy: &str, no: &str| choose(&url, proxy, no).unwrap().map(|u| u.host_header());
        assert_eq!(p("", ""), None);
        assert_eq!(p("http://127.0.0.1:3128", ""), Some("127.0.0.1:3128".into()));
        assert_eq!(p("proxy:3128", ""), Some("proxy:3128".into()));
        assert_eq!(p("http://proxy", ""), Some("proxy".into()));
        for bypass in
            ["*", "example.com", ".example.com", "EXAMPLE.com", "x.org, data.example.com", "a b example.com"]
        {
            assert_eq!(p("proxy:1", bypass), None, "{bypass}");
        }
        for kept in ["ample.com", "x.example.com", "data.example.co", ".", ","] {
            assert_eq!(p("proxy:1", kept), Some("proxy:1".into()), "{kept}");
        }
        assert!(choose(&url, "https://proxy:443", "").is_err());
        assert!(choose(&url, "http://proxy:1/\r\nX: y", "").is_err());
        let v6 = Url::parse("http://[fd00::1]:9/x").unwrap();
        assert_eq!(choose(&v6, "proxy:1", "[fd00::1]").unwrap(), None);
        assert_eq!(choose(&v6, "proxy:1", "fd00::1").unwrap(), None);
        assert!(choose(&v6, "proxy:1", "").unwrap().is_some());
        for local in ["http://127.0.0.1:9/x", "http://127.1.2.3/x", "http://[::1]/x", "http://LocalHost/x"] {
            assert_eq!(choose(&Url::parse(local).unwrap(), "proxy:1", "").unwrap(), None, "{local}");
        }
    }
}
