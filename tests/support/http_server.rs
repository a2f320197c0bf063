//! A small HTTP/1.1 server on 127.0.0.1 for the remote-reading tests (std only, a thread per
//! connection): it serves files from memory, answers `Range: bytes=a-b` with `206 Partial
//! Content`, keeps connections alive, counts the requests and the body bytes it sends (as it starts sending them), and
//! misbehaves on demand ([`Misbehave`]). Like common web servers, it answers a directory's URL
//! without its `/` (a prefix of served names, `dir/...`) with `301` to the URL with the `/`, and
//! redirects the paths given to [`Server::redirect`]. It also answers as a proxy would: a request
//! for `http://any-host/path` is served as `/path` (and counted, [`Server::proxied`]).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// How the server answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misbehave {
    /// As it should.
    Not,
    /// Closes every connection without an answer.
    Drop,
    /// Closes the connection without an answer for the next `n` requests, then behaves.
    DropNext(u64),
    /// `500 Internal Server Error` to every request.
    Error500,
    /// `503` for the next `n` requests, then behaves.
    Error503Next(u64),
    /// `416 Range Not Satisfiable` to every request.
    Unsatisfiable,
    /// Sends half the body it announces, then closes.
    ShortBody,
    /// Ignores `Range`: `200` with the whole file.
    IgnoreRange,
    /// A `Content-Range` that ends a byte before the range asked (the body as asked).
    WrongRange,
    /// An endless head (header lines without end).
    EndlessHead,
    /// A head sent a byte every 50 ms.
    Trickle,
    /// The `Content-Range` asked, but a `Content-Length` and a body twice its length.
    LongBody,
    /// Bodies of at most this many bytes as it should; a longer one (a whole read's stream) with
    /// the fault.
    Over(u64, BodyFault),
}

/// How a long body goes wrong ([`Misbehave::Over`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyFault {
    /// Half of it sent, then the connection closed.
    Cut,
    /// The range a byte later than the one asked, said so in its `Content-Range`.
    Shifted,
    /// The head, then the body a byte every 50 ms.
    Trickle,
}

struct Shared {
    files: HashMap<String, Arc<Vec<u8>>>,
    mode: Mutex<Misbehave>,
    requests: AtomicU64,
    proxied: AtomicU64,
    connections: AtomicU64,
    bytes: AtomicU64,
    ranges: Mutex<Vec<(u64, u64)>>,
    raw: Mutex<Option<Arc<Vec<u8>>>>,
    redirects: Mutex<HashMap<String, String>>,
    stop: AtomicBool,
}

/// A running server; stopped when dropped.
pub struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Server {
    /// Serves `files` (name, bytes) at `/name`.
    pub fn start(files: Vec<(String, Vec<u8>)>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port on 127.0.0.1");
        let addr = listener.local_addr().expect("the port");
        let shared = Arc::new(Shared {
            files: files.into_iter().map(|(n, b)| (n, Arc::new(b))).collect(),
            mode: Mutex::new(Misbehave::Not),
            requests: AtomicU64::new(0),
            proxied: AtomicU64::new(0),
            connections: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            ranges: Mutex::new(Vec::new()),
            raw: Mutex::new(None),
            redirects: Mutex::new(HashMap::new()),
            stop: AtomicBool::new(false),
        });
        let s = Arc::clone(&shared);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if s.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                s.connections.fetch_add(1, Ordering::SeqCst);
                let s = Arc::clone(&s);
                std::thread::spawn(move || {
                    let _ = serve(conn, &s);
                });
            }
        });
        Server { addr, shared }
    }

    /// The URL of file `name`.
    pub fn url(&self, name: &str) -> String {
        format!("http://{}/{name}", self.addr)
    }

    /// Changes how it answers from now on.
    pub fn misbehave(&self, m: Misbehave) {
        *self.shared.mode.lock().unwrap() = m;
    }

    /// Answers every request with `bytes` (anything: a crafted head and body), then closes the
    /// connection; `None` to answer properly again.
    pub fn answer_raw(&self, bytes: Option<Vec<u8>>) {
        *self.shared.raw.lock().unwrap() = bytes.map(Arc::new);
    }

    /// Answers requests for `/from` with `302 Found` and `Location: location` from now on.
    pub fn redirect(&self, from: &str, location: &str) {
        self.shared.redirects.lock().unwrap().insert(from.to_string(), location.to_string());
    }

    /// Requests received (answered or not).
    pub fn requests(&self) -> u64 {
        self.shared.requests.load(Ordering::SeqCst)
    }

    /// Requests received in the absolute form (`GET http://host/path`), as a proxy receives them.
    pub fn proxied(&self) -> u64 {
        self.shared.proxied.load(Ordering::SeqCst)
    }

    /// Connections accepted.
    pub fn connections(&self) -> u64 {
        self.shared.connections.load(Ordering::SeqCst)
    }

    /// Body bytes sent.
    pub fn bytes_sent(&self) -> u64 {
        self.shared.bytes.load(Ordering::SeqCst)
    }

    /// The ranges asked for (`first, last`, as in `Range: bytes=first-last`), in the order
    /// received.
    pub fn ranges(&self) -> Vec<(u64, u64)> {
        self.shared.ranges.lock().unwrap().clone()
    }

    /// Sets the counts to zero and forgets the ranges.
    pub fn reset_counts(&self) {
        self.shared.ranges.lock().unwrap().clear();
        self.shared.requests.store(0, Ordering::SeqCst);
        self.shared.connections.store(0, Ordering::SeqCst);
        self.shared.proxied.store(0, Ordering::SeqCst);
        self.shared.bytes.store(0, Ordering::SeqCst);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

/// One connection: requests answered until the client closes it (or a misbehaviour does).
fn serve(conn: TcpStream, s: &Shared) -> std::io::Result<()> {
    // Heads and bodies go out as they are written (no Nagle delay waiting for the client's ACK).
    conn.set_nodelay(true)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, conn.try_clone()?);
    let mut r = BufReader::new(conn);
    loop {
        out.flush()?;
        let mut line = String::new();
        if r.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let target = line.split(' ').nth(1).unwrap_or("/");
        // A request through a proxy names the whole URL (the absolute form): served as its path.
        let target = match target.strip_prefix("http://") {
            Some(rest) => {
                s.proxied.fetch_add(1, Ordering::SeqCst);
                rest.find('/').map_or("/", |i| &rest[i..])
            }
            None => target,
        };
        let path = target.trim_start_matches('/').to_string();
        let mut range = None;
        loop {
            let mut h = String::new();
            if r.read_line(&mut h)? == 0 {
                return Ok(());
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((name, value)) = h.split_once(':')
                && name.eq_ignore_ascii_case("range")
            {
                range = parse_range(value.trim());
            }
        }
        s.requests.fetch_add(1, Ordering::SeqCst);
        if let Some(r) = range {
            s.ranges.lock().unwrap().push(r);
        }
        let mode = {
            let mut m = s.mode.lock().unwrap();
            let now = *m;
            match now {
                Misbehave::DropNext(n) => {
                    *m = if n > 1 { Misbehave::DropNext(n - 1) } else { Misbehave::Not }
                }
                Misbehave::Error503Next(n) => {
                    *m = if n > 1 { Misbehave::Error503Next(n - 1) } else { Misbehave::Not }
                }
                _ => {}
            }
            now
        };
        let raw = s.raw.lock().unwrap().clone();
        if let Some(raw) = raw {
            out.write_all(&raw)?;
            return Ok(());
        }
        let location = s.redirects.lock().unwrap().get(&path).cloned();
        if let Some(location) = location {
            write!(out, "HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n")?;
            continue;
        }
        let Some(file) = s.files.get(&path) else {
            let dir = format!("{path}/");
            if !path.is_empty() && s.files.keys().any(|n| n.starts_with(&dir)) {
                write!(
                    out,
                    "HTTP/1.1 301 Moved Permanently\r\nLocation: /{dir}\r\nContent-Length: 0\r\n\r\n"
                )?;
            } else {
                out.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")?;
            }
            continue;
        };
        let len = file.len() as u64;
        match mode {
            Misbehave::Drop | Misbehave::DropNext(_) => return Ok(()),
            Misbehave::Error500 => {
                out.write_all(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")?;
                continue;
            }
            Misbehave::Error503Next(_) => {
                out.write_all(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")?;
                continue;
            }
            Misbehave::Unsatisfiable => {
                write!(
                    out,
                    "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{len}\r\nContent-Length: 0\r\n\r\n"
                )?;
                continue;
            }
            Misbehave::EndlessHead => {
                out.write_all(b"HTTP/1.1 206 Partial Content\r\n")?;
                for i in 0.. {
                    if write!(out, "X-Filler-{i}: {}\r\n", "x".repeat(64)).is_err() {
                        return Ok(());
                    }
                }
            }
            Misbehave::Trickle => {
                for b in b"HTTP/1.1 206 Partial Content\r\nContent-Length: 1\r\n".iter().cycle() {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    out.write_all(&[*b])?;
                    out.flush()?;
                }
            }
            Misbehave::IgnoreRange => {
                write!(out, "HTTP/1.1 200 OK\r\nContent-Length: {len}\r\n\r\n")?;
                s.bytes.fetch_add(len, Ordering::SeqCst);
                out.write_all(file)?;
                continue;
            }
            _ => {}
        }
        let (a, b) = match range {
            Some((a, b)) if a < len => (a, b.min(len - 1)),
            _ => {
                write!(
                    out,
                    "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{len}\r\nContent-Length: 0\r\n\r\n"
                )?;
                continue;
            }
        };
        if let Misbehave::Over(n, fault) = mode
            && b - a + 1 > n
        {
            let (a, b) = if fault == BodyFault::Shifted { (a + 1, (b + 1).min(len - 1)) } else { (a, b) };
            let body = &file[a as usize..=b as usize];
            write!(
                out,
                "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {a}-{b}/{len}\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )?;
            match fault {
                BodyFault::Cut => {
                    s.bytes.fetch_add(body.len() as u64 / 2, Ordering::SeqCst);
                    out.write_all(&body[..body.len() / 2])?;
                    return Ok(());
                }
                BodyFault::Shifted => {
                    s.bytes.fetch_add(body.len() as u64, Ordering::SeqCst);
                    out.write_all(body)?;
                    continue;
                }
                BodyFault::Trickle => {
                    for b in body {
                        out.flush()?;
                        std::thread::sleep(std::time::Duration::from_millis(50));
                        s.bytes.fetch_add(1, Ordering::SeqCst);
                        out.write_all(&[*b])?;
                    }
                    continue;
                }
            }
        }
        let body = &file[a as usize..=b as usize];
        let shown = if mode == Misbehave::WrongRange { (a, b.saturating_sub(1)) } else { (a, b) };
        if mode == Misbehave::LongBody {
            let twice: Vec<u8> = body.iter().chain(body).copied().collect();
            write!(
                out,
                "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {a}-{b}/{len}\r\nContent-Length: {}\r\n\r\n",
                twice.len()
            )?;
            s.bytes.fetch_add(twice.len() as u64, Ordering::SeqCst);
            out.write_all(&twice)?;
            continue;
        }
        write!(
            out,
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {}-{}/{len}\r\nContent-Length: {}\r\n\r\n",
            shown.0,
            shown.1,
            body.len()
        )?;
        if mode == Misbehave::ShortBody {
            s.bytes.fetch_add(body.len() as u64 / 2, Ordering::SeqCst);
            out.write_all(&body[..body.len() / 2])?;
            return Ok(());
        }
        // Counted before it is sent, so that a client that has it sees it counted.
        s.bytes.fetch_add(body.len() as u64, Ordering::SeqCst);
        out.write_all(body)?;
    }
}

/// `bytes=a-b` (one range; `a-` to the end).
fn parse_range(v: &str) -> Option<(u64, u64)> {
    let (a, b) = v.strip_prefix("bytes=")?.split_once('-')?;
    let a = a.parse().ok()?;
    let b = if b.is_empty() { u64::MAX } else { b.parse().ok()? };
    (a <= b).then_some((a, b))
}
