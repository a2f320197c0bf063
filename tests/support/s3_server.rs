//! An S3 server on 127.0.0.1 for the object-store tests: moto in server mode, from the pinned
//! Python environment (`scripts/pyenv.sh`, `scripts/requirements.txt`), started by the test and
//! stopped when dropped. A test that needs it fails, never skips, when it cannot start.
//!
//! moto keeps its buckets in memory and does not check signatures: [`S3Server::put`] and
//! [`S3Server::get`] are plain HTTP requests (a bucket, an object, a plain download).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running moto server.
pub struct S3Server {
    child: Child,
    port: u16,
    /// moto's stdin, held open while the server is wanted.
    _stdin: Option<std::process::ChildStdin>,
}

impl S3Server {
    /// Starts moto on a free port of 127.0.0.1 and waits (at most 60 s) until it answers.
    pub fn start() -> S3Server {
        let python = crate::python();
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        // moto exits when its stdin ends: when this process ends, however it ends (the server
        // is often kept in a static, which is never dropped).
        let script = "import os, sys, threading\n\
            threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()\n\
            from moto.server import main\n\
            main(sys.argv[1:])\n";
        let mut child = Command::new(python)
            .args(["-c", script, "-H", "127.0.0.1", "-p", &port.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto starts (scripts/requirements.txt pins moto[server])");
        crate::s3_server::wait_listening(&mut child, port, "moto's server");
        let _stdin = child.stdin.take();
        S3Server { child, port, _stdin }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The variables that point object_store's S3 client at this server.
    pub fn env(&self) -> Vec<(String, String)> {
        [
            ("AWS_ENDPOINT_URL", self.endpoint()),
            ("AWS_ACCESS_KEY_ID", "test".into()),
            ("AWS_SECRET_ACCESS_KEY", "test".into()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_ALLOW_HTTP", "true".into()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    /// One plain HTTP request; the status and the body.
    fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
        let mut conn = TcpStream::connect(("127.0.0.1", self.port)).expect("moto's port");
        conn.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.port,
            body.len()
        );
        conn.write_all(head.as_bytes()).and_then(|()| conn.write_all(body)).expect("the request sent");
        let mut r = BufReader::new(conn);
        let mut line = String::new();
        r.read_line(&mut line).expect("a status line");
        let status: u16 = line.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
        let mut len = None;
        let mut chunked = false;
        loop {
            line.clear();
            r.read_line(&mut line).expect("a header");
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let (k, v) = l.split_once(':').unwrap_or((l, ""));
            match k.to_ascii_lowercase().as_str() {
                "content-length" => len = v.trim().parse::<usize>().ok(),
                "transfer-encoding" => chunked = v.to_ascii_lowercase().contains("chunked"),
                _ => {}
            }
        }
        let mut out = Vec::new();
        if chunked {
            loop {
                line.clear();
                r.read_line(&mut line).expect("a chunk size");
                let n = usize::from_str_radix(line.trim(), 16).expect("a chunk size");
                let mut part = vec![0; n + 2];
                r.read_exact(&mut part).expect("a chunk");
                if n == 0 {
                    break;
                }
                out.extend_from_slice(&part[..n]);
            }
        } else if let Some(n) = len {
            out.resize(n, 0);
            r.read_exact(&mut out).expect("the body");
        } else {
            r.read_to_end(&mut out).expect("the body");
        }
        (status, out)
    }

    /// Makes the bucket `name`.
    pub fn create_bucket(&self, name: &str) {
        let (status, body) = self.request("PUT", &format!("/{name}"), b"");
        assert_eq!(status, 200, "creating bucket {name}: {}", String::from_utf8_lossy(&body));
    }

    /// Stores `bytes` as `bucket/key`.
    pub fn put(&self, bucket: &str, key: &str, bytes: &[u8]) {
        let (status, body) = self.request("PUT", &format!("/{bucket}/{key}"), bytes);
        assert_eq!(status, 200, "storing {bucket}/{key}: {}", String::from_utf8_lossy(&body));
    }

    /// The object `bucket/key` by one plain, unsigned GET (`None`: there is none): an object
    /// stored by [`S3Server::put`], which moto lets anyone read.
    pub fn get(&self, bucket: &str, key: &str) -> Option<Vec<u8>> {
        match self.request("GET", &format!("/{bucket}/{key}"), b"") {
            (200, body) => Some(body),
            (404, _) => None,
            (status, body) => panic!("GET {bucket}/{key}: {status} {}", String::from_utf8_lossy(&body)),
        }
    }

    /// The object `bucket/key` as boto3 downloads it with the test's credentials (`None`: there
    /// is none): an object that object_store stored, readable by its owner only.
    pub fn download(&self, bucket: &str, key: &str) -> Option<Vec<u8>> {
        let out = tempfile_path("download");
        let script = "import sys, boto3\n\
            e, b, k, out = sys.argv[1:]\n\
            c = boto3.client('s3', endpoint_url=e, aws_access_key_id='test', aws_secret_access_key='test', region_name='us-east-1')\n\
            try:\n    body = c.get_object(Bucket=b, Key=k)['Body'].read()\n\
            except c.exceptions.NoSuchKey:\n    sys.exit(3)\n\
            open(out, 'wb').write(body)\n";
        let run = Command::new(crate::python())
            .args(["-c", script, &self.endpoint(), bucket, key, out.to_str().unwrap()])
            .output()
            .expect("python runs");
        match run.status.code() {
            Some(0) => {
                let bytes = std::fs::read(&out).expect("boto3's download");
                let _ = std::fs::remove_file(&out);
                Some(bytes)
            }
            Some(3) => None,
            _ => panic!("boto3's download of {bucket}/{key}: {}", String::from_utf8_lossy(&run.stderr)),
        }
    }
}

/// A new path in the system's temporary directory.
fn tempfile_path(what: &str) -> std::path::PathBuf {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("b2schema-s3-{what}-{}-{n}", std::process::id()))
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until the server `child` answers on `port` of 127.0.0.1, for at most 60 s: a server
/// (`what`) that exits first, or never answers, fails the test saying so.
pub(crate) fn wait_listening(child: &mut Child, port: u16, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().expect("the server's status") {
            panic!("{what} exited at start: {status}");
        }
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        assert!(Instant::now() < deadline, "{what} did not answer on port {port} within 60 s");
        std::thread::sleep(Duration::from_millis(50));
    }
}
