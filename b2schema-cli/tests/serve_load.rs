//! The viewer under load (issue 32), with clients of an attacker's making, on loopback, each
//! bounded in count and time: 50 idle connections and 8 trickling one header byte every 500 ms
//! do not keep a legitimate request from being answered within 2 s; a client trickling its head
//! is cut off with 408 once the whole head took over 10 s (the limit is per request, not per
//! read); 300 silent connections, more than the heads read at once, delay a request by about a
//! second; 500 requests at once each get a whole HTTP answer (200 or 503), never a reset; requests
//! written by hand (a body, a 64 KiB head, bytes not UTF-8, a foreign Host, pipelining, POST, a
//! head cut short) are each answered or closed, never reset.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start() -> (Kill, u16, PathBuf) {
    use std::io::BufRead;
    let dir = std::env::temp_dir().join(format!("b2schema-serve-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let frame = b2schema::writer::NdArray::new(&[10], &[10], &[5], "<i4", 4, b2schema::writer::Fill::Zeros);
    frame.to_frame().unwrap().write_file(dir.join("a.b2nd")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_b2schema"))
        .args(["serve", dir.to_str().unwrap(), "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port = line
        .trim()
        .trim_start_matches("b2schema serve: http://127.0.0.1:")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    (Kill(child), port, dir)
}

/// One GET of `/`: the status, or the error the client met.
fn get(port: u16) -> Result<u16, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").as_bytes())
        .map_err(|e| format!("write: {e}"))?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).map_err(|e| format!("read: {e} after {} bytes", out.len()))?;
    let text = String::from_utf8_lossy(&out);
    let status =
        text.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or(format!("no status in {text:?}"))?;
    // The whole answer: its head, and a body of its Content-Length.
    let (head, body) = text.split_once("\r\n\r\n").ok_or("no end of head")?;
    let len: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap_or(0))
        })
        .ok_or("no Content-Length")?;
    if body.len() != len {
        return Err(format!("a body of {} bytes, {len} announced", body.len()));
    }
    Ok(status)
}

#[test]
fn idle_and_trickling_clients_cannot_keep_a_request_from_being_served() {
    let (_server, port, dir) = start();
    let idle: Vec<TcpStream> = (0..50).map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap()).collect();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let tricklers: Vec<_> = (0..8)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
                let head =
                    format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: {}\r\n\r\n", "a".repeat(64));
                for b in head.bytes() {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) || s.write_all(&[b]).is_err() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(500));
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(600));
    for _ in 0..3 {
        let t = Instant::now();
        assert_eq!(get(port), Ok(200));
        assert!(t.elapsed() < Duration::from_secs(2), "served in {:?}", t.elapsed());
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for t in tricklers {
        t.join().unwrap();
    }
    drop(idle);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_head_sent_slowly_is_cut_off_after_ten_seconds_in_all() {
    let (_server, port, dir) = start();
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let t = Instant::now();
    // One byte every 2 s: each read is quick, the whole head never ends.
    let mut answer = Vec::new();
    for b in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: ".iter().cycle().take(20) {
        if s.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_secs(2));
        s.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 512];
        if let Ok(n) = s.read(&mut buf) {
            answer.extend_from_slice(&buf[..n]);
            break;
        }
        s.set_nonblocking(false).unwrap();
    }
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408 "), "{text:?} after {:?}", t.elapsed());
    assert!(t.elapsed() < Duration::from_secs(15), "cut off after {:?}", t.elapsed());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn five_hundred_requests_at_once_each_get_a_whole_answer() {
    let (_server, port, dir) = start();
    let clients: Vec<_> = (0..500)
        .map(|_| std::thread::Builder::new().stack_size(64 << 10).spawn(move || get(port)).unwrap())
        .collect();
    let mut counts = std::collections::BTreeMap::new();
    for c in clients {
        let r = c.join().unwrap();
        assert!(matches!(r, Ok(200 | 503)), "{r:?}");
        *counts.entry(r.unwrap()).or_insert(0) += 1;
    }
    assert!(counts.get(&200).copied().unwrap_or(0) > 0, "{counts:?}");
    eprintln!("500 requests at once: {counts:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Heads read at once by the server (`serve::accept::MAX_PENDING`); the oldest may be pushed
/// out by a new connection once it has been sending its head for 1 s (`EVICT_AGE`). The rule
/// that a head which has come is never pushed out is tested in `serve::accept::tests`, where
/// these bounds are small enough for the listen backlog.
const MAX_PENDING: usize = 256;

/// Connections that send nothing, more than the heads read at once, delay a new request by
/// about a second, not by the 10 s of a head's deadline: once the oldest has been silent for
/// 1 s, each new connection pushes one out (408, a whole answer).
#[test]
fn silent_connections_beyond_the_pending_heads_are_pushed_out_for_a_request() {
    let (_server, port, dir) = start();
    let mut silent: Vec<TcpStream> =
        (0..MAX_PENDING + 44).map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap()).collect();
    let t = Instant::now();
    assert_eq!(get(port), Ok(200));
    assert!(t.elapsed() < Duration::from_secs(5), "served in {:?}", t.elapsed());
    // The oldest silent connection was pushed out with a whole 408.
    let first = &mut silent[0];
    first.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut out = Vec::new();
    first.read_to_end(&mut out).unwrap();
    assert!(out.starts_with(b"HTTP/1.1 408 "), "{:?}", String::from_utf8_lossy(&out));
    drop(silent);
    let _ = std::fs::remove_dir_all(dir);
}

/// `bytes` sent raw on a fresh connection, its sending side then shut: the answer's status, the
/// answer read to its end (a reset is an error).
fn raw(port: u16, bytes: &[u8]) -> Result<u16, String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    s.write_all(bytes).map_err(|e| format!("write: {e}"))?;
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut out = Vec::new();
    s.read_to_end(&mut out).map_err(|e| format!("read after {} bytes: {e}", out.len()))?;
    let head = String::from_utf8_lossy(&out[..out.len().min(64)]).to_string();
    head.split(' ').nth(1).and_then(|c| c.parse().ok()).ok_or_else(|| format!("no status in {head:?}"))
}

/// Requests an attacker writes by hand (first written against another implementation of the
/// viewer): each is answered with a whole HTTP answer, an error status for what is not a plain
/// GET or HEAD of this host, and no connection is reset (what the server did not read is drained
/// before it closes); a connection that ends before its head does gets no answer and no reset.
#[test]
fn requests_written_by_hand_are_each_answered_and_never_reset() {
    let (_server, port, dir) = start();
    let host = format!("Host: 127.0.0.1:{port}\r\n");
    let attacks: Vec<(&str, Vec<u8>, std::ops::RangeInclusive<u16>)> = vec![
        ("a body", format!("GET / HTTP/1.1\r\n{host}Content-Length: 5\r\n\r\nhello").into_bytes(), 200..=499),
        (
            "a 64 KiB head",
            format!("GET /{} HTTP/1.1\r\n{host}\r\n", "a".repeat(64 << 10)).into_bytes(),
            400..=499,
        ),
        ("bytes that are not UTF-8", b"GET /\xff\xfe HTTP/1.1\r\n\r\n".to_vec(), 400..=499),
        ("a foreign Host", b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n".to_vec(), 400..=499),
        (
            "two requests pipelined",
            format!("GET / HTTP/1.1\r\n{host}\r\nGET / HTTP/1.1\r\n{host}\r\n").into_bytes(),
            200..=200,
        ),
        ("POST", format!("POST / HTTP/1.1\r\n{host}\r\n").into_bytes(), 400..=499),
        ("a request line of one word", b"GARBAGE\r\n\r\n".to_vec(), 400..=499),
    ];
    for (what, bytes, want) in &attacks {
        match raw(port, bytes) {
            Ok(status) => assert!(want.contains(&status), "{what}: answered {status}, want {want:?}"),
            Err(e) => panic!("{what}: {e}"),
        }
    }
    // Nothing sent, or a head cut short by the client's end of stream: closed with no answer
    // (or an error status), never reset.
    for (what, bytes) in
        [("nothing", Vec::new()), ("a head cut short", format!("GET / HTTP/1.1\r\n{host}").into_bytes())]
    {
        match raw(port, &bytes) {
            Err(e) if e.starts_with("no status") => {}
            Ok(status) if (400..=499).contains(&status) => {}
            other => panic!("{what}: {other:?}"),
        }
    }
    assert_eq!(get(port), Ok(200), "still serving");
    let _ = std::fs::remove_dir_all(&dir);
}
