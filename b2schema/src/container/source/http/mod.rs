//! Frames on a web server, read by ranged GETs (`Range: bytes=a-b`, answered `206 Partial
//! Content`) through a small HTTP/1.1 client over `std::net::TcpStream`: keep-alive connections
//! shared by the reading threads, timeouts on every connect, read and write, a bounded number of
//! attempts on transient failures (a reset or dropped connection, a short body, a 5xx), and every
//! request and byte counted against [`Limits::max_requests`] and [`Limits::max_fetched`].
//! Answers are checked: a `Content-Range` other than the range asked, a `Content-Length` other
//! than its length, a body framed otherwise, 416, a redirect, a server that ignores `Range`
//! (a `200` with the whole body, refused unless the whole file fits the budget when opening)
//! are errors that name the URL and the range. Opening follows redirects (at most
//! [`MAX_REDIRECTS`]; from `http://` to `http://` or `https://`, from `https://` to `https://`
//! only); a range asked later that is answered by a redirect is an error. `https://` (feature
//! `https`) is the same client over TLS (rustls with graviola's cryptography, [`tls`]): the
//! handshake is part of connecting, within the same timeouts, deadline, attempts and budget.

pub mod proxy;
mod readahead;
mod response;
mod stream;
mod tcp;
#[cfg(feature = "https")]
#[cfg_attr(docsrs, doc(cfg(feature = "https")))]
pub mod tls;
mod url;

use std::io::{BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use alloc::string::String;
use alloc::vec::Vec;

pub use url::{Url, is_url};

use self::response::{Head, HeadError, read_head};
use self::tcp::Tcp;
use super::{Fetched, ReadAt};
use crate::container::error::{Error, Result};
use crate::container::limits::{Limit, Limits, try_zeros};

/// How requests are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpOptions {
    /// The longest wait to connect, and for each read or write on a connection. Default 10 s.
    pub timeout: Duration,
    /// Attempts per range after the first, on transient failures. Default 3.
    pub retries: u32,
    /// The wait before the first retry, doubled for each next one. Default 50 ms.
    pub backoff: Duration,
    /// Bytes asked for by the first request, which learns the file's length and holds the frame's
    /// header (and often all its metadata). Default 64 KiB.
    pub prefix: u64,
    /// The most idle connections kept for reuse. Default 8.
    pub max_idle: usize,
    /// Whether the environment's `http_proxy` (`https_proxy` or `HTTPS_PROXY` for `https://`;
    /// and `no_proxy` / `NO_PROXY`) choose a proxy for the requests, as curl reads them
    /// ([`proxy::from_env`]). Default true.
    pub proxy_from_env: bool,
    /// A PEM file of root certificates trusted for `https://` besides Mozilla's (a company's or a
    /// test's CA); `None`: the file the environment's `SSL_CERT_FILE` names, if any (feature
    /// `https`). Default `None`.
    pub ca_file: Option<PathBuf>,
    /// The memory of the read-ahead of a whole read (`ReadAt::will_read`, which a whole array
    /// read announces): one ranged GET to the end of what is announced, on a connection of its
    /// own, its body read by a thread in the background while the reads consume it, at most
    /// half this ahead of the furthest read and half behind it (the thread stops reading while
    /// it is that far ahead; the server waits). Each part of the body (at most 1 MiB) within the
    /// timeout plus a second per 64 KiB; bytes received count against the budget as any. A
    /// stream that fails on a transient fault (a cut body, a part late) leaves its reads to
    /// ranged requests; after two, no more streams. A final fault (an answer other than the
    /// range asked, the budget spent) is the error of the read waiting for it, or of the next.
    /// At most four streams at once (threads of one read that are far apart). 0: no
    /// read-ahead. Default 64 MiB.
    pub readahead: u64,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            timeout: Duration::from_secs(10),
            retries: 3,
            backoff: Duration::from_millis(50),
            prefix: 64 << 10,
            max_idle: 8,
            proxy_from_env: true,
            ca_file: None,
            readahead: 64 << 20,
        }
    }
}

/// The most redirects followed when opening a URL.
pub const MAX_REDIRECTS: usize = 5;

/// A file on a web server, read by ranged GETs.
#[derive(Debug)]
pub struct HttpSource {
    url: Url,
    len: u64,
    options: HttpOptions,
    limits: Limits,
    /// The proxy the requests go through (from the environment), if any.
    proxy: Option<Url>,
    /// Ranges fetched when opening (the prefix, the suffix), served from memory afterwards.
    kept: Vec<(u64, Vec<u8>)>,
    session: Session,
    /// The runs of reads through the file and their read-ahead streams
    /// ([`HttpOptions::readahead`]).
    ahead: readahead::Ahead,
}

/// What the sources that read one frame (a sparse frame's index and its chunk files) share:
/// the requests made and bytes received, which [`Limits::max_requests`] and
/// [`Limits::max_fetched`] bound in sum, and the idle keep-alive connections (at most
/// [`HttpOptions::max_idle`], each reused only for its own host and port).
#[derive(Clone, Debug, Default)]
pub struct Session(Arc<Shared>);

#[derive(Debug, Default)]
struct Shared {
    requests: AtomicU64,
    bytes: AtomicU64,
    /// Idle connections, each with the origin it is to (`scheme://host:port`, of the proxy for
    /// plain requests through one).
    idle: Mutex<Vec<(String, BufReader<Conn>)>>,
    /// The TLS configuration, made for the first `https://` connection.
    #[cfg(feature = "https")]
    tls: Mutex<Option<Arc<rustls::ClientConfig>>>,
}

impl Session {
    /// What was fetched to this point.
    pub fn fetched(&self) -> Fetched {
        Fetched {
            requests: self.0.requests.load(Ordering::Relaxed),
            bytes: self.0.bytes.load(Ordering::Relaxed),
        }
    }
}

/// What the first request found.
#[derive(Debug)]
pub enum Opened {
    /// A server that answers ranges: the source, holding the first and (for
    /// [`Ends::HeadAndTail`]) the last [`HttpOptions::prefix`] bytes of the file.
    Ranged(alloc::boxed::Box<HttpSource>),
    /// The whole file in the first answer (a file shorter than [`HttpOptions::prefix`], or a
    /// server that ignored `Range` and sent the whole file, which fitted the budget): its bytes,
    /// and the session that fetched them.
    Whole(Vec<u8>, Session),
    /// A redirect from the URL to the same URL with a `/` added (how web servers answer for a
    /// directory): the directory's URL, ending in `/`. Nothing of it was read.
    Directory(String),
}

/// Which ends of a file opening fetches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ends {
    /// The first and the last [`HttpOptions::prefix`] bytes (a frame: its header, then its
    /// trailer and offsets index).
    HeadAndTail,
    /// The first [`HttpOptions::prefix`] bytes only (a sparse frame's chunk file: its header and
    /// block table).
    Head,
}

/// One attempt's failure.
enum Failure {
    /// Worth another attempt.
    Transient(String),
    /// Final.
    Fatal(Error),
}

impl HttpSource {
    /// Asks `url` for its first and last [`HttpOptions::prefix`] bytes, learning its length,
    /// in a session of its own.
    pub fn open(url: &str, limits: Limits, options: HttpOptions) -> Result<Opened> {
        Self::open_in(url, limits, &options, &Session::default(), Ends::HeadAndTail)
    }

    /// [`HttpSource::open`] within `session` (its counts, budget and idle connections shared
    /// with the other sources of a frame), fetching
    /// `ends` of the file. Redirects are followed, at most [`MAX_REDIRECTS`], each counted as a
    /// request; one from `url` to `url/` is answered [`Opened::Directory`].
    pub fn open_in(
        url: &str,
        limits: Limits,
        options: &HttpOptions,
        session: &Session,
        ends: Ends,
    ) -> Result<Opened> {
        let mut url = Url::parse(url)?;
        let mut hops = 0;
        loop {
            let proxy = if options.proxy_from_env { proxy::from_env(&url)? } else { None };
            let src = HttpSource {
                url,
                proxy,
                len: u64::MAX,
                options: options.clone(),
                limits,
                kept: Vec::new(),
                session: session.clone(),
                ahead: readahead::Ahead::default(),
            };
            let want = options.prefix.max(1);
            return match src.get(0, want, true)? {
                Got::Redirect(location) => {
                    let next = src.url.join(&location)?;
                    if src.url.tls && !next.tls {
                        return Err(src.err(
                            0,
                            want,
                            "a redirect from https:// to",
                            "an https:// URL",
                            alloc::format!("{:?} (refused: it would drop TLS)", next.text),
                        ));
                    }
                    if next.text.len() == src.url.text.len() + 1
                        && next.text.starts_with(&src.url.text)
                        && next.text.ends_with('/')
                    {
                        return Ok(Opened::Directory(next.text));
                    }
                    hops += 1;
                    if hops > MAX_REDIRECTS {
                        return Err(src.err(
                            0,
                            want,
                            "redirects, at most",
                            MAX_REDIRECTS,
                            alloc::format!("more, the last to {:?}", next.text),
                        ));
                    }
                    url = next;
                    continue;
                }
                Got::Part(bytes, total) if bytes.len() as u64 != total => {
                    src.ranged(bytes, total, want, ends).map(Opened::Ranged)
                }
                Got::Part(bytes, _) | Got::Whole(bytes) => Ok(Opened::Whole(bytes, src.session.clone())),
            };
        }
    }

    /// The source, once the first answer gave the first `bytes` of a file of `total` bytes
    /// (fewer than `total`); with the last `want` bytes too for [`Ends::HeadAndTail`].
    fn ranged(
        mut self,
        bytes: Vec<u8>,
        total: u64,
        want: u64,
        ends: Ends,
    ) -> Result<alloc::boxed::Box<Self>> {
        self.len = total;
        self.kept.push((0, bytes));
        if ends == Ends::HeadAndTail {
            // The end of the file: the trailer, and usually the offsets index.
            let got = self.kept[0].1.len() as u64;
            let from = total.saturating_sub(want).max(got);
            let mut tail = try_zeros((total - from) as usize, "the end of the file", from as usize)?;
            self.read_at(from, &mut tail)?;
            self.kept.push((from, tail));
        }
        Ok(alloc::boxed::Box::new(self))
    }

    /// The URL.
    pub fn url(&self) -> &str {
        &self.url.text
    }

    /// `want` bytes at `at` (fewer only when `first` and the file is shorter), with retries.
    fn get(&self, at: u64, want: u64, first: bool) -> Result<Got> {
        self.retried(at, want, |last| self.attempt(at, last, first))
    }

    /// `attempt` (given the range's last byte), counted as a request, and again on transient
    /// failures, at most [`HttpOptions::retries`] more times.
    fn retried<T>(
        &self,
        at: u64,
        want: u64,
        mut once: impl FnMut(u64) -> core::result::Result<T, Failure>,
    ) -> Result<T> {
        let last = at
            .checked_add(want.saturating_sub(1))
            .ok_or_else(|| self.err(at, want, "a range", "inside 64 bits", "past it"))?;
        let mut why = String::new();
        for attempt in 0..=self.options.retries {
            if attempt > 0 {
                std::thread::sleep(self.options.backoff.saturating_mul(1 << (attempt - 1).min(16)));
            }
            let n = self.session.0.requests.fetch_add(1, Ordering::Relaxed) + 1;
            Limits::check("HTTP requests", n, Limit::Requests, self.limits.max_requests(), at as usize)
                .map_err(|e| e.in_file(self.range_text(at, last)))?;
            match once(last) {
                Ok(got) => return Ok(got),
                Err(Failure::Fatal(e)) => return Err(e),
                Err(Failure::Transient(w)) => why = w,
            }
        }
        Err(self.err(
            at,
            want,
            "an answer within",
            alloc::format!("{} attempts", self.options.retries + 1),
            alloc::format!("none; the last failed with: {why}"),
        ))
    }

    fn attempt(&self, at: u64, last: u64, first: bool) -> core::result::Result<Got, Failure> {
        let (mut conn, key, head) = self.request(at, last)?;
        let (len, total) = match self.answer(&head, at, last, first)? {
            Answer::Part(len, total) => (len, total),
            Answer::Whole(len) => return Ok(Got::Whole(self.body(&mut conn, at, len)?)),
            Answer::Redirect(location) => return Ok(Got::Redirect(location)),
        };
        let body = self.body(&mut conn, at, len)?;
        self.keep(key, conn, &head);
        Ok(Got::Part(body, total))
    }

    /// Keeps `conn` (to `key`) for reuse, when its answer `head` allows it and there is room.
    fn keep(&self, key: String, conn: BufReader<Conn>, head: &Head) {
        if head.http11
            && !head.close
            && let Ok(mut idle) = self.session.0.idle.lock()
            && idle.len() < self.options.max_idle
        {
            idle.push((key, conn));
        }
    }

    /// Sends a GET of `at..=last` on a kept connection or a new one: the connection, its key
    /// (for [`HttpSource::keep`]) and the answer's head, read within the timeout.
    fn request(&self, at: u64, last: u64) -> core::result::Result<(BufReader<Conn>, String, Head), Failure> {
        // Plain connections are to the proxy when there is one, else to the URL's host; a TLS
        // connection is to the URL's host (through a proxy's tunnel).
        let key = match &self.proxy {
            Some(p) if !self.url.tls => p.origin(),
            _ => self.url.origin(),
        };
        let reused = self.session.0.idle.lock().ok().and_then(|mut idle| {
            let i = idle.iter().rposition(|(k, _)| *k == key)?;
            Some(idle.swap_remove(i).1)
        });
        let mut conn = match reused {
            Some(c) => c,
            None => self.connect(at, last)?,
        };
        let request = alloc::format!(
            "GET {} HTTP/1.1\r\nHost: {}\r\nRange: bytes={at}-{last}\r\nAccept-Encoding: identity\r\nUser-Agent: b2schema/{}\r\n\r\n",
            // Through a proxy, the absolute form (RFC 9112, 3.2.2); through a tunnel, the origin's.
            match self.proxy {
                Some(_) if !self.url.tls =>
                    alloc::format!("http://{}{}", self.url.host_header(), self.url.target),
                _ => self.url.target.clone(),
            },
            self.url.host_header(),
            env!("CARGO_PKG_VERSION"),
        );
        // One deadline for the whole head, however slowly it comes.
        conn.get_mut().tcp().deadline = Some(Instant::now() + self.options.timeout);
        let sent = conn.get_mut().write_all(request.as_bytes()).and_then(|()| conn.get_mut().flush());
        sent.map_err(|e| self.io_failure(at, last, "sending the request", &e))?;
        let head = match read_head(&mut conn) {
            Ok(h) => h,
            Err(HeadError::Io(e)) => return Err(self.io_failure(at, last, "reading the answer", &e)),
            Err(HeadError::Malformed(m)) => {
                return Err(Failure::Fatal(self.err(
                    at,
                    last - at + 1,
                    "an HTTP/1.x response,",
                    "a status line and headers",
                    m,
                )));
            }
        };
        Ok((conn, key, head))
    }

    /// What the answer `head` to a GET of `at..=last` is: a part (checked against the range),
    /// the whole file (only to the first request, within the budget), a redirect (only to the
    /// first request); anything else an error, final or transient.
    fn answer(&self, head: &Head, at: u64, last: u64, first: bool) -> core::result::Result<Answer, Failure> {
        let want = last - at + 1;
        match head.status {
            206 => self
                .check_partial(head, at, last, first)
                .map(|(len, total)| Answer::Part(len, total))
                .map_err(Failure::Fatal),
            200 => {
                let len = head.content_length.ok_or_else(|| {
                    Failure::Fatal(self.not_partial(at, want, "200 without a Content-Length"))
                })?;
                // The server ignores `Range`. Only the first request may take the whole file,
                // and only within the budget.
                let fits = len <= self.limits.max_decompressed() && len <= self.limits.max_fetched();
                if !(first && fits) || head.transfer_encoding {
                    return Err(Failure::Fatal(self.not_partial(
                        at,
                        want,
                        alloc::format!(
                            "200 with the whole file, {len} bytes: the server ignores Range (refused)"
                        ),
                    )));
                }
                Ok(Answer::Whole(len))
            }
            416 => {
                let total = head.content_range.as_deref().and_then(response::unsatisfied_total);
                Err(Failure::Fatal(self.not_partial(
                    at,
                    want,
                    alloc::format!(
                        "416 Range Not Satisfiable (the file's length: {})",
                        total.map_or_else(|| "not given".into(), |t| alloc::format!("{t} bytes"))
                    ),
                )))
            }
            s @ 500..=599 => Err(Failure::Transient(alloc::format!("HTTP {s}"))),
            301 | 302 | 303 | 307 | 308 if first && head.location.is_some() => {
                Ok(Answer::Redirect(head.location.clone().unwrap_or_default()))
            }
            s @ 300..=399 => Err(Failure::Fatal(self.err(
                at,
                want,
                "an answer to a range (redirects are followed only when opening),",
                "206 Partial Content",
                alloc::format!("HTTP {s} to {:?}", head.location.as_deref().unwrap_or("nowhere")),
            ))),
            s => Err(Failure::Fatal(self.not_partial(at, want, alloc::format!("HTTP {s}")))),
        }
    }

    /// The length of a 206's body and the file's length, checked against the range asked.
    fn check_partial(&self, head: &Head, at: u64, last: u64, first: bool) -> Result<(u64, u64)> {
        let want = last - at + 1;
        if head.transfer_encoding {
            return Err(self.err(
                at,
                want,
                "a 206 body framed by",
                "its Content-Length",
                "a Transfer-Encoding",
            ));
        }
        let cr = head.content_range.as_deref().unwrap_or("none");
        let (a, b, total) = response::parse_content_range(cr).ok_or_else(|| {
            self.err(at, want, "a Content-Range", "bytes a-b/total", alloc::format!("{cr:?}"))
        })?;
        let total = total.ok_or_else(|| {
            self.err(at, want, "a Content-Range with", "the file's length", alloc::format!("{cr:?}"))
        })?;
        // Fewer bytes than asked only for the first request, and only when the file ends there.
        let end_ok = b == last || (first && b < last && b + 1 == total);
        if a != at || !end_ok || (!first && total != self.len) {
            return Err(self.err(
                at,
                want,
                "a Content-Range of the range asked,",
                alloc::format!(
                    "bytes {at}-{last}/{}",
                    if first { "*".into() } else { alloc::format!("{}", self.len) }
                ),
                alloc::format!("{cr:?}"),
            ));
        }
        let len = b - a + 1;
        if head.content_length.is_some_and(|n| n != len) {
            return Err(self.err(
                at,
                want,
                "a Content-Length equal to the Content-Range's length,",
                len,
                alloc::format!("{} for {cr:?}", head.content_length.unwrap_or(0)),
            ));
        }
        Ok((len, total))
    }

    /// Reads a body of `len` bytes, counted against [`Limits::max_fetched`].
    fn body(&self, conn: &mut BufReader<Conn>, at: u64, len: u64) -> core::result::Result<Vec<u8>, Failure> {
        self.count_bytes(at, len)?;
        let mut buf =
            try_zeros(len as usize, "an HTTP response body", at as usize).map_err(Failure::Fatal)?;
        self.fill(conn, at, &mut buf, 0, len)?;
        Ok(buf)
    }

    /// Reads the bytes of a body of `len` bytes (starting at `at` of the file) from `before` on
    /// into `buf`: within the timeout plus a second per 64 KiB of `buf`, so that a server that
    /// trickles it cannot hold the read for longer.
    fn fill(
        &self,
        conn: &mut BufReader<Conn>,
        at: u64,
        buf: &mut [u8],
        before: u64,
        len: u64,
    ) -> core::result::Result<(), Failure> {
        let allowed = self.options.timeout.saturating_add(Duration::from_secs(buf.len() as u64 >> 16));
        conn.get_mut().tcp().deadline = Some(Instant::now() + allowed);
        let mut got = 0;
        while got < buf.len() {
            match conn.read(&mut buf[got..]) {
                Ok(0) => {
                    let got = before + got as u64;
                    return Err(Failure::Transient(alloc::format!("a short body: {got} of {len} bytes")));
                }
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let what =
                        alloc::format!("reading the body after {} of {len} bytes", before + got as u64);
                    return Err(self.io_failure(at, at + len.max(1) - 1, &what, &e));
                }
            }
        }
        Ok(())
    }

    /// Counts `len` bytes received at `at` against [`Limits::max_fetched`].
    fn count_bytes(&self, at: u64, len: u64) -> core::result::Result<(), Failure> {
        let spent = self.session.0.bytes.fetch_add(len, Ordering::Relaxed).saturating_add(len);
        Limits::check(
            "bytes fetched over HTTP",
            spent,
            Limit::Fetched,
            self.limits.max_fetched(),
            at as usize,
        )
        .map_err(|e| Failure::Fatal(e.in_file(self.range_text(at, at + len.max(1) - 1))))
    }

    /// A failure of I/O on a connection while `what`: final when TLS said the peer broke the
    /// protocol (a bad certificate, a forged or cut record, a fatal alert), worth another
    /// attempt otherwise.
    fn io_failure(&self, at: u64, last: u64, what: &str, e: &std::io::Error) -> Failure {
        #[cfg(feature = "https")]
        if let Some(tls) = e.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>()) {
            return Failure::Fatal(self.err(
                at,
                last - at + 1,
                "a TLS connection,",
                "a peer that keeps TLS's rules",
                alloc::format!("{what}: {tls}"),
            ));
        }
        let _ = (at, last);
        Failure::Transient(alloc::format!("{what}: {e}"))
    }

    /// A new connection (for `https://`, its handshake done), within the timeout: the connect,
    /// a proxy's tunnel and the handshake end by one deadline, however slowly the peer answers.
    fn connect(&self, at: u64, last: u64) -> core::result::Result<BufReader<Conn>, Failure> {
        let t = self.options.timeout;
        let tcp = self.connect_tcp().map_err(|e| self.io_failure(at, last, "connecting", &e))?;
        let mut tcp = Tcp { stream: tcp, deadline: Some(Instant::now() + t) };
        if self.url.tls && self.proxy.is_some() {
            self.tunnel(&mut tcp, at, last)?;
        }
        let conn = if self.url.tls { self.handshake(tcp, at, last)? } else { Conn::Plain(tcp) };
        Ok(BufReader::with_capacity(64 << 10, conn))
    }

    /// A TCP connection to the proxy, or to the URL's host.
    fn connect_tcp(&self) -> std::io::Result<TcpStream> {
        let t = self.options.timeout;
        let mut last = None;
        let to = self.proxy.as_ref().unwrap_or(&self.url);
        for addr in (to.connect_host(), to.port).to_socket_addrs()?.take(8) {
            match TcpStream::connect_timeout(&addr, t) {
                Ok(s) => {
                    s.set_read_timeout(Some(t))?;
                    s.set_write_timeout(Some(t))?;
                    s.set_nodelay(true)?;
                    return Ok(s);
                }
                Err(e) => last = Some(e),
            }
        }
        Err(last
            .unwrap_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no address for the host")))
    }

    /// Asks the proxy on `tcp` for a tunnel to the URL's host (`CONNECT host:port`): a `2xx`
    /// with nothing after its head, else a final error naming the proxy's answer.
    fn tunnel(&self, tcp: &mut Tcp, at: u64, last: u64) -> core::result::Result<(), Failure> {
        let authority = alloc::format!("{}:{}", self.url.host, self.url.port);
        let request = alloc::format!(
            "CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\nUser-Agent: b2schema/{}\r\n\r\n",
            env!("CARGO_PKG_VERSION")
        );
        tcp.stream
            .write_all(request.as_bytes())
            .map_err(|e| self.io_failure(at, last, "asking the proxy for a tunnel", &e))?;
        let mut r = BufReader::with_capacity(4 << 10, &mut *tcp);
        let refused = |found: String| {
            Failure::Fatal(self.err(
                at,
                last - at + 1,
                "a proxy's tunnel (CONNECT),",
                "HTTP 200 and nothing more",
                found,
            ))
        };
        let head = match read_head(&mut r) {
            Ok(h) => h,
            Err(HeadError::Io(e)) => {
                return Err(self.io_failure(at, last, "asking the proxy for a tunnel", &e));
            }
            Err(HeadError::Malformed(m)) => return Err(refused(m)),
        };
        if !(200..300).contains(&head.status) {
            return Err(refused(alloc::format!("HTTP {}", head.status)));
        }
        if !r.buffer().is_empty() {
            return Err(refused("bytes after the head, before the handshake".into()));
        }
        Ok(())
    }

    /// The TLS handshake on `tcp` with the URL's host, checked against the roots.
    #[cfg(feature = "https")]
    fn handshake(&self, mut tcp: Tcp, at: u64, last: u64) -> core::result::Result<Conn, Failure> {
        let refused = |found: String| {
            Failure::Fatal(self.err(
                at,
                last - at + 1,
                "a TLS connection,",
                "a handshake with the host",
                found,
            ))
        };
        let config = self.tls_config().map_err(refused)?;
        let name = rustls::pki_types::ServerName::try_from(self.url.connect_host().to_string())
            .map_err(|e| refused(alloc::format!("a host name TLS cannot check: {e}")))?;
        let mut c =
            rustls::ClientConnection::new(config, name).map_err(|e| refused(alloc::format!("{e}")))?;
        // Each step reads or writes within the deadline set when connecting; a step that can do
        // neither is an error, so the loop ends.
        while c.is_handshaking() {
            c.complete_io(&mut tcp).map_err(|e| self.io_failure(at, last, "the TLS handshake", &e))?;
        }
        Ok(Conn::Tls(alloc::boxed::Box::new(rustls::StreamOwned::new(c, tcp))))
    }

    #[cfg(not(feature = "https"))]
    fn handshake(&self, _tcp: Tcp, at: u64, last: u64) -> core::result::Result<Conn, Failure> {
        Err(Failure::Fatal(self.err(
            at,
            last - at + 1,
            "a URL",
            "http://",
            "https:// in a build without TLS",
        )))
    }

    /// The session's TLS configuration, made once.
    #[cfg(feature = "https")]
    fn tls_config(&self) -> core::result::Result<Arc<rustls::ClientConfig>, String> {
        let mut kept = self.session.0.tls.lock().map_err(|_| String::from("a poisoned lock"))?;
        if let Some(c) = kept.as_ref() {
            return Ok(Arc::clone(c));
        }
        let c = tls::config(self.options.ca_file.as_deref())?;
        *kept = Some(Arc::clone(&c));
        Ok(c)
    }

    fn range_text(&self, at: u64, last: u64) -> String {
        alloc::format!("{} (Range: bytes={at}-{last})", self.url.text)
    }

    /// An error about the range of `want` bytes at `at`, naming the URL and the range.
    /// An answer other than the `206 Partial Content` a range asks for, `found` saying what it was.
    fn not_partial(&self, at: u64, want: u64, found: impl core::fmt::Display) -> Error {
        self.err(at, want, "an answer to a range,", "206 Partial Content", found)
    }

    fn err(
        &self,
        at: u64,
        want: u64,
        what: &'static str,
        expected: impl core::fmt::Display,
        found: impl core::fmt::Display,
    ) -> Error {
        Error::invalid(what, expected, found, at as usize)
            .in_file(self.range_text(at, at.saturating_add(want.max(1) - 1)))
    }
}

/// A connection: plain, or TLS over a [`Tcp`] (whose deadline then bounds the TLS reads too).
#[derive(Debug)]
enum Conn {
    Plain(Tcp),
    #[cfg(feature = "https")]
    Tls(alloc::boxed::Box<rustls::StreamOwned<rustls::ClientConnection, Tcp>>),
}

impl Conn {
    /// The TCP connection under it.
    fn tcp(&mut self) -> &mut Tcp {
        match self {
            Conn::Plain(t) => t,
            #[cfg(feature = "https")]
            Conn::Tls(s) => &mut s.sock,
        }
    }
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Conn::Plain(t) => t.read(buf),
            #[cfg(feature = "https")]
            Conn::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Conn::Plain(t) => t.stream.write(buf),
            #[cfg(feature = "https")]
            Conn::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Conn::Plain(t) => t.stream.flush(),
            #[cfg(feature = "https")]
            Conn::Tls(s) => s.flush(),
        }
    }
}

/// What the head of an answer says.
enum Answer {
    /// A 206 of this many bytes, of a file of this many.
    Part(u64, u64),
    /// A 200 with the whole file, this many bytes.
    Whole(u64),
    /// A redirect (to the first request only): its `Location`.
    Redirect(String),
}

/// What one GET gave.
enum Got {
    /// A 206: the bytes, and the file's length.
    Part(Vec<u8>, u64),
    /// A 200 with the whole file.
    Whole(Vec<u8>),
    /// A redirect (to the first request only): its `Location`.
    Redirect(String),
}

impl ReadAt for HttpSource {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        if buf.is_empty() {
            return Ok(());
        }
        let want = buf.len() as u64;
        if offset.checked_add(want).is_none_or(|end| end > self.len) {
            return Err(self.err(
                offset,
                want,
                "a range inside the file of",
                alloc::format!("{} bytes", self.len),
                alloc::format!("{} bytes at {offset}", want),
            ));
        }
        for (start, bytes) in &self.kept {
            let from = offset.checked_sub(*start).map(|f| f as usize);
            if let Some(part) = from.and_then(|f| bytes.get(f..f.checked_add(buf.len())?)) {
                buf.copy_from_slice(part);
                return Ok(());
            }
        }
        if self.ahead.serve(self, offset, buf)? {
            return Ok(());
        }
        self.fetch(offset, buf)
    }

    /// Neighbouring ranges (no gap between them) are asked for in one request.
    fn read_ranges(&self, ranges: &mut [(u64, &mut [u8])]) -> Result<()> {
        read_ranges_joined(self, ranges)
    }

    /// A chunk's header and block table in one request (4 KiB hold the table of 1000 blocks).
    fn min_read(&self) -> u64 {
        4 << 10
    }

    fn ahead(&self) -> u64 {
        self.options.prefix
    }

    fn fetched(&self) -> Option<Fetched> {
        Some(self.session.fetched())
    }

    /// Reads from `range` are read ahead from its start, by a stream started here (see
    /// [`HttpOptions::readahead`]).
    fn will_read(&self, range: core::ops::Range<u64>) {
        self.ahead.plan(self, range.start..range.end.min(self.len));
    }
}

impl Drop for HttpSource {
    /// Stops the read-ahead streams (their threads end, their connections closed).
    fn drop(&mut self) {
        self.ahead.stop_all();
    }
}

impl HttpSource {
    /// The bytes at `offset` by a ranged GET (checked inside the file).
    fn fetch(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        let want = buf.len() as u64;
        match self.get(offset, want, false)? {
            Got::Part(bytes, _) if bytes.len() == buf.len() => {
                buf.copy_from_slice(&bytes);
                Ok(())
            }
            Got::Part(bytes, _) => Err(self.err(offset, want, "a body of", want, bytes.len())),
            Got::Whole(_) => Err(self.not_partial(offset, want, "200")),
            Got::Redirect(_) => Err(self.not_partial(offset, want, "a redirect")),
        }
    }
}

/// Reads `ranges` of `src`, neighbouring ones (no gap between them) by one read.
fn read_ranges_joined(src: &HttpSource, ranges: &mut [(u64, &mut [u8])]) -> Result<()> {
    ranges.sort_by_key(|(at, _)| *at);
    let mut i = 0;
    while i < ranges.len() {
        let start = ranges[i].0;
        let mut end = start + ranges[i].1.len() as u64;
        let mut j = i + 1;
        while j < ranges.len() && ranges[j].0 == end {
            end += ranges[j].1.len() as u64;
            j += 1;
        }
        let mut joined = try_zeros((end - start) as usize, "joined ranges", start as usize)?;
        src.read_at(start, &mut joined)?;
        for (at, buf) in ranges[i..j].iter_mut() {
            let from = (*at - start) as usize;
            buf.copy_from_slice(&joined[from..from + buf.len()]);
        }
        i = j;
    }
    Ok(())
}
