//! From `accept` to an answer, under load: idle and slow clients cannot hold the workers, every
//! request head has one deadline, and every connection gets an answer (never a reset).
//!
//! One thread accepts and reads request heads, without blocking, from up to [`MAX_PENDING`]
//! connections at once; a head must be complete within [`http::TIMEOUT`] of its connection's
//! accept (one deadline for the whole head, however slowly its bytes come: 408 after it). When
//! [`MAX_PENDING`] heads are coming, a new connection pushes out the oldest one only if that one
//! has been sending its head for [`EVICT_AGE`] (408; a head that has come by then is handed on,
//! not pushed out); until then new connections wait in the kernel's backlog. A
//! complete head goes to [`MAX_CONNECTIONS`] workers through a queue of [`QUEUE`]: the
//! workers only ever see whole requests, so no client can hold one by being slow. When the queue
//! is full the head reader answers 503 itself. Every connection is closed after its response by
//! shutting down its sending side and draining what the client sent, so that the kernel never
//! answers unread bytes with a reset.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::http::{self, Refusal, Request, Response};
use super::{MAX_CONNECTIONS, paths, routes};

/// Connections whose request head is being read at once.
pub const MAX_PENDING: usize = 256;
/// Whole requests waiting for a worker.
pub const QUEUE: usize = 64;
/// How long a connection may send its head, while [`MAX_PENDING`] others are too, before a
/// new connection pushes it out: long enough that a client which writes its request as soon as
/// it connects is never pushed out however loaded the machine, short enough that connections
/// which send nothing delay a new one by at most about this.
pub const EVICT_AGE: Duration = Duration::from_secs(1);
/// How long the head reader sleeps when nothing moved.
const IDLE_POLL: Duration = Duration::from_millis(2);

/// The bounds of the head reader: [`Limits::DEFAULT`] when serving, smaller in tests.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections whose request head is being read at once.
    pub max_pending: usize,
    /// How long the oldest of them may send its head before a new connection pushes it out.
    pub evict_age: Duration,
}

impl Limits {
    /// [`MAX_PENDING`] and [`EVICT_AGE`].
    pub const DEFAULT: Limits = Limits { max_pending: MAX_PENDING, evict_age: EVICT_AGE };
}

/// A connection with its whole request head, parsed, on its way to a worker.
type Job = (TcpStream, Result<Request, Refusal>);

/// A connection whose request head is still coming.
struct Pending {
    stream: TcpStream,
    head: Vec<u8>,
    since: Instant,
}

/// What one read of a pending connection gave.
enum Progress {
    /// The head is complete (or over [`http::MAX_HEAD`]: the parser refuses it).
    Head,
    /// Nothing yet.
    Waiting,
    /// More bytes, not yet the end of the head.
    More,
    /// The client closed or failed.
    Gone,
}

fn read_some(p: &mut Pending) -> Progress {
    let mut buf = [0u8; 4096];
    match p.stream.read(&mut buf) {
        Ok(0) => Progress::Gone,
        Ok(n) => {
            p.head.extend_from_slice(&buf[..n]);
            if p.head.windows(4).any(|w| w == b"\r\n\r\n") || p.head.len() > http::MAX_HEAD {
                Progress::Head
            } else {
                Progress::More
            }
        }
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => Progress::Waiting,
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Progress::Waiting,
        Err(_) => Progress::Gone,
    }
}

/// Answers `resp` on `stream` and closes it without a reset: the sending side shut down, what
/// the client sent and nobody read drained.
pub fn answer(stream: TcpStream, resp: &Response, head_only: bool) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_write_timeout(Some(http::TIMEOUT));
    let _ = http::write_response(&stream, resp, head_only);
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_nonblocking(true);
    let mut sink = [0u8; 4096];
    let mut drained = 0usize;
    while drained < 1 << 20 {
        match (&stream).read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// A worker: whole requests from the queue, answered one at a time.
fn worker(jobs: Arc<Mutex<Receiver<Job>>>, roots: Arc<paths::Roots>, port: u16) {
    loop {
        let job = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok((stream, parsed)) = job else { return };
        let (resp, head_only) = match parsed {
            Err(Refusal(status, why)) => (Response::error(status, why), false),
            Ok(req) if !http::host_allowed(&req.host, port) => (
                Response::error(
                    421,
                    format!("Host {:?} is not 127.0.0.1:{port} or localhost:{port}", req.host),
                ),
                req.method == "HEAD",
            ),
            Ok(req) => (routes::route(&roots, &req), req.method == "HEAD"),
        };
        answer(stream, &resp, head_only);
    }
}

/// Hands a complete head to the workers, or answers 503 when they are all busy and the queue
/// is full.
fn dispatch(p: Pending, jobs: &SyncSender<Job>) {
    let parsed = http::read_request(&p.head[..]);
    if p.stream.set_nonblocking(false).is_err() {
        return;
    }
    match jobs.try_send((p.stream, parsed)) {
        Ok(()) => {}
        Err(TrySendError::Full((stream, _)) | TrySendError::Disconnected((stream, _))) => {
            answer(stream, &Response::error(503, "busy, try again"), false);
        }
    }
}

/// Frees one place among the pending heads for a new connection, if the oldest has been
/// sending its head for `evict_age`: read once more, it is handed on if its head has come,
/// dropped if its client is gone, and otherwise answered 408. False when the oldest is younger:
/// nobody is pushed out.
fn make_room(pending: &mut VecDeque<Pending>, jobs: &SyncSender<Job>, evict_age: Duration) -> bool {
    if pending.front().is_none_or(|p| p.since.elapsed() < evict_age) {
        return false;
    }
    let Some(mut oldest) = pending.pop_front() else { return false };
    match read_some(&mut oldest) {
        Progress::Head => dispatch(oldest, jobs),
        Progress::Gone => {}
        Progress::More | Progress::Waiting => {
            answer(oldest.stream, &Response::error(408, "the request took too long"), false);
        }
    }
    true
}

/// Serves forever on `listener`.
pub fn serve(listener: TcpListener, roots: Arc<paths::Roots>, port: u16) -> io::Result<()> {
    serve_with(listener, roots, port, Limits::DEFAULT)
}

/// Serves forever on `listener`, within `limits`.
fn serve_with(listener: TcpListener, roots: Arc<paths::Roots>, port: u16, limits: Limits) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let (tx, rx) = sync_channel(QUEUE);
    let rx = Arc::new(Mutex::new(rx));
    for _ in 0..MAX_CONNECTIONS {
        let (rx, roots) = (Arc::clone(&rx), Arc::clone(&roots));
        std::thread::Builder::new().name("serve".into()).spawn(move || worker(rx, roots, port))?;
    }
    let mut pending: VecDeque<Pending> = VecDeque::new();
    loop {
        let mut moved = false;
        // New connections, as many as are waiting and there is room for.
        loop {
            if pending.len() >= limits.max_pending && !make_room(&mut pending, &tx, limits.evict_age) {
                // Full of heads still young: the rest wait in the kernel's backlog.
                break;
            }
            match listener.accept() {
                Ok((stream, _)) => {
                    moved = true;
                    if stream.set_nonblocking(true).is_err() {
                        continue;
                    }
                    pending.push_back(Pending { stream, head: Vec::new(), since: Instant::now() });
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                // A connection that failed before it was accepted (reset by its client, or out
                // of descriptors for a moment): the next one.
                Err(_) => break,
            }
        }
        // Heads: read what came, hand on the complete ones, end the late ones.
        let mut i = 0;
        while i < pending.len() {
            match read_some(&mut pending[i]) {
                Progress::Head => {
                    moved = true;
                    if let Some(p) = pending.remove(i) {
                        dispatch(p, &tx);
                    }
                }
                Progress::Gone => {
                    moved = true;
                    pending.remove(i);
                }
                Progress::More | Progress::Waiting if pending[i].since.elapsed() > http::TIMEOUT => {
                    moved = true;
                    if let Some(p) = pending.remove(i) {
                        answer(p.stream, &Response::error(408, "the request head took over 10 s"), false);
                    }
                }
                Progress::More => {
                    moved = true;
                    i += 1;
                }
                Progress::Waiting => i += 1,
            }
        }
        if !moved {
            std::thread::sleep(IDLE_POLL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::Ipv4Addr;

    /// The status of the answer on `s`, read to its end.
    fn status(mut s: TcpStream) -> Result<u16, String> {
        s.set_read_timeout(Some(Duration::from_secs(30))).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        s.read_to_end(&mut out).map_err(|e| format!("read: {e} after {} bytes", out.len()))?;
        let head = String::from_utf8_lossy(&out[..out.len().min(64)]).to_string();
        head.split(' ').nth(1).and_then(|c| c.parse().ok()).ok_or(format!("no status in {head:?}"))
    }

    /// More requests than heads read at once, in the listen backlog when the server starts: half
    /// of them whole already, half sent 200 ms later (clients slow to write after connecting, as
    /// on a loaded machine). Every one is answered 200 or 503: none is pushed out with a 408,
    /// neither for a head that had come nor for one that comes within the eviction age. The old
    /// rule (a new connection pushes out the oldest at once) answered 408 to most of them here,
    /// and to some of 500 requests at once on a loaded machine in CI.
    #[test]
    fn requests_beyond_the_pending_limit_are_answered_not_pushed_out() {
        let dir = std::env::temp_dir().join(format!("b2schema-serve-accept-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let roots = Arc::new(paths::Roots::new(std::slice::from_ref(&dir)).unwrap());
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let head = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
        let mut clients: Vec<TcpStream> =
            (0..24).map(|_| TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap()).collect();
        for s in &mut clients[..12] {
            s.write_all(head.as_bytes()).unwrap();
        }
        // An age far above the 200 ms, so that a slow machine cannot make the late heads old.
        let limits = Limits { max_pending: 4, evict_age: Duration::from_secs(5) };
        std::thread::spawn(move || serve_with(listener, roots, port, limits));
        std::thread::sleep(Duration::from_millis(200));
        for s in &mut clients[12..] {
            s.write_all(head.as_bytes()).unwrap();
        }
        let statuses: Vec<_> = clients.into_iter().map(status).collect();
        assert!(statuses.iter().all(|s| matches!(s, Ok(200 | 503))), "{statuses:?}");
        assert!(statuses.contains(&Ok(200)), "{statuses:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
