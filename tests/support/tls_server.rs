//! An `https://` server on 127.0.0.1 for the TLS tests: a TLS front (rustls with graviola's
//! cryptography, a thread per connection) before the plain [`Server`] of `http_server`, which
//! serves the files, answers the ranges, redirects and counts; the front passes each request
//! and answer through, and misbehaves at the TLS layer on demand ([`TlsFault`]). Its
//! certificates come from a test CA made when the tests start, by the `openssl` command
//! ([`Pki`]): one for 127.0.0.1, one for another name, one expired, one from a CA nobody trusts.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::http_server::Server;

/// Which certificate the server shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cert {
    /// For `127.0.0.1`, `localhost` and `b2schema-origin.invalid` (a name that never resolves: only
    /// a proxy's tunnel reaches it, [`ConnectProxy`]), from the test CA, valid now.
    Good,
    /// For `other.example` only.
    WrongName,
    /// For `127.0.0.1`, expired yesterday.
    Expired,
    /// For `127.0.0.1`, from another CA (not in the client's roots).
    Untrusted,
}

/// How the TLS front misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlsFault {
    /// As it should.
    Not,
    /// Sends the answer's head and half its body, then a TLS record cut short, then closes.
    TruncatedRecord,
    /// Sends the answer's head and half its body, then an alert (`close_notify`, the one rustls
    /// lets a server send), then closes.
    AlertMidBody,
    /// Answers the client's hello with bytes of a handshake record, one every 50 ms.
    TrickleHandshake,
}

/// The test CA and the servers' certificates, made once per test binary in a temporary directory.
pub struct Pki {
    dir: PathBuf,
}

impl Pki {
    /// The certificates, made on first use by `openssl` (a Debian base package; the tests fail
    /// saying so when it is missing).
    pub fn get() -> &'static Pki {
        static P: OnceLock<Pki> = OnceLock::new();
        P.get_or_init(|| {
            let dir = std::env::temp_dir().join(format!("b2schema-pki-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            make(&dir);
            Pki { dir }
        })
    }

    /// The test CA's certificate (PEM): what `--cacert` gives the client.
    pub fn ca(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }

    fn config(&self, cert: Cert) -> Arc<ServerConfig> {
        let name = match cert {
            Cert::Good => "good",
            Cert::WrongName => "wrongname",
            Cert::Expired => "expired",
            Cert::Untrusted => "untrusted",
        };
        let chain: Vec<CertificateDer<'static>> =
            CertificateDer::pem_file_iter(self.dir.join(format!("{name}.pem")))
                .unwrap()
                .map(|c| c.unwrap())
                .collect();
        let key = PrivateKeyDer::from_pem_file(self.dir.join(format!("{name}.key"))).unwrap();
        let config = ServerConfig::builder_with_provider(Arc::new(rustls_graviola::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap();
        Arc::new(config)
    }
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the openssl command (Debian's package openssl), to make the test certificates");
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Makes the two CAs and the four server certificates (P-256 keys) in `dir`.
fn make(dir: &Path) {
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    for ca in ["ca", "otherca"] {
        let subj = format!("/CN=b2schema test {ca}");
        let (key, pem) = (format!("{ca}.key"), format!("{ca}.pem"));
        let mut args = vec!["req", "-x509"];
        args.extend(ec);
        args.extend(["-keyout", &key, "-out", &pem, "-subj", &subj, "-days", "2"]);
        openssl(dir, &args);
    }
    for (name, san, ca, days) in [
        ("good", "IP:127.0.0.1,DNS:localhost,DNS:b2schema-origin.invalid", "ca", "2"),
        ("wrongname", "DNS:other.example", "ca", "2"),
        ("expired", "IP:127.0.0.1,DNS:localhost", "ca", "-1"),
        ("untrusted", "IP:127.0.0.1,DNS:localhost", "otherca", "2"),
    ] {
        let (key, csr, pem, ext) =
            (format!("{name}.key"), format!("{name}.csr"), format!("{name}.pem"), format!("{name}.ext"));
        std::fs::write(
            dir.join(&ext),
            format!("subjectAltName={san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"),
        )
        .unwrap();
        let mut args = vec!["req"];
        args.extend(ec);
        args.extend(["-keyout", &key, "-out", &csr, "-subj", "/CN=b2schema test server"]);
        openssl(dir, &args);
        let (ca_pem, ca_key) = (format!("{ca}.pem"), format!("{ca}.key"));
        openssl(
            dir,
            &[
                "x509",
                "-req",
                "-in",
                &csr,
                "-CA",
                &ca_pem,
                "-CAkey",
                &ca_key,
                "-set_serial",
                "7",
                "-days",
                days,
                "-extfile",
                &ext,
                "-out",
                &pem,
            ],
        );
    }
}

struct Front {
    cert: Mutex<Cert>,
    fault: Mutex<TlsFault>,
    stop: AtomicBool,
}

/// A running `https://` server; stopped when dropped.
pub struct TlsServer {
    addr: SocketAddr,
    backend: Server,
    front: Arc<Front>,
}

impl TlsServer {
    /// Serves `files` (name, bytes) at `/name` over TLS.
    pub fn start(files: Vec<(String, Vec<u8>)>) -> TlsServer {
        let backend = Server::start(files);
        let back = backend.url("");
        let back_addr: SocketAddr =
            back.trim_start_matches("http://").trim_end_matches('/').parse().expect("the backend's address");
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port on 127.0.0.1");
        let addr = listener.local_addr().expect("the port");
        let front = Arc::new(Front {
            cert: Mutex::new(Cert::Good),
            fault: Mutex::new(TlsFault::Not),
            stop: AtomicBool::new(false),
        });
        let f = Arc::clone(&front);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if f.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let config = Pki::get().config(*f.cert.lock().unwrap());
                let fault = *f.fault.lock().unwrap();
                std::thread::spawn(move || {
                    let _ = serve(conn, config, fault, back_addr);
                });
            }
        });
        TlsServer { addr, backend, front }
    }

    /// The `https://` URL of file `name`.
    pub fn url(&self, name: &str) -> String {
        format!("https://{}/{name}", self.addr)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The plain server behind the front (its counts, redirects and misbehaviours).
    pub fn backend(&self) -> &Server {
        &self.backend
    }

    /// Shows `cert` to the connections from now on.
    pub fn cert(&self, cert: Cert) {
        *self.front.cert.lock().unwrap() = cert;
    }

    /// Misbehaves as `fault` says on the connections from now on.
    pub fn fault(&self, fault: TlsFault) {
        *self.front.fault.lock().unwrap() = fault;
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        self.front.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

/// One TLS connection: each request passed to the backend, each answer back.
fn serve(
    tcp: TcpStream,
    config: Arc<ServerConfig>,
    fault: TlsFault,
    back: SocketAddr,
) -> std::io::Result<()> {
    tcp.set_nodelay(true)?;
    tcp.set_read_timeout(Some(Duration::from_secs(30)))?;
    if fault == TlsFault::TrickleHandshake {
        let mut hello = [0u8; 512];
        let _ = (&tcp).read(&mut hello)?;
        // A handshake record's header and then bytes, slowly, for up to 30 s.
        for b in [0x16u8, 0x03, 0x03, 0x40, 0x00].iter().chain([0u8; 600].iter()) {
            std::thread::sleep(Duration::from_millis(50));
            (&tcp).write_all(&[*b])?;
        }
        return Ok(());
    }
    let conn = rustls::ServerConnection::new(config).map_err(std::io::Error::other)?;
    let mut tls = BufReader::new(rustls::StreamOwned::new(conn, tcp));
    let backend = TcpStream::connect(back)?;
    let mut back_out = backend.try_clone()?;
    let mut back_in = BufReader::new(backend);
    loop {
        // The request's head (GET has no body).
        let mut request = Vec::new();
        loop {
            let n = tls.read_until(b'\n', &mut request)?;
            if n == 0 {
                return Ok(());
            }
            if request.ends_with(b"\r\n\r\n") {
                break;
            }
        }
        back_out.write_all(&request)?;
        // The answer's head, and its body by its Content-Length.
        let mut head = Vec::new();
        let mut len = 0usize;
        loop {
            let start = head.len();
            if back_in.read_until(b'\n', &mut head)? == 0 {
                return Ok(());
            }
            let line = String::from_utf8_lossy(&head[start..]).to_string();
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                len = value.trim().parse().unwrap_or(0);
            }
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0u8; len];
        back_in.read_exact(&mut body)?;
        let s = tls.get_mut();
        match fault {
            TlsFault::TruncatedRecord => {
                s.conn.writer().write_all(&head)?;
                s.conn.writer().write_all(&body[..len / 2])?;
                let mut records = Vec::new();
                while s.conn.wants_write() {
                    s.conn.write_tls(&mut records)?;
                }
                let cut = records.len().saturating_sub(7);
                s.sock.write_all(&records[..cut])?;
                return Ok(());
            }
            TlsFault::AlertMidBody => {
                s.write_all(&head)?;
                s.write_all(&body[..len / 2])?;
                s.conn.send_close_notify();
                s.flush()?;
                return Ok(());
            }
            _ => {
                s.write_all(&head)?;
                s.write_all(&body)?;
                s.flush()?;
            }
        }
    }
}

/// A proxy for `https://` on 127.0.0.1: each `CONNECT host:port` answered `200` and tunnelled to
/// one server (whatever the host asked: the names need not resolve), the bytes passed both ways.
pub struct ConnectProxy {
    addr: SocketAddr,
    asked: Arc<Mutex<Vec<String>>>,
}

impl ConnectProxy {
    /// Tunnels every `CONNECT` to `target`.
    pub fn start(target: SocketAddr) -> ConnectProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port on 127.0.0.1");
        let addr = listener.local_addr().expect("the port");
        let asked = Arc::new(Mutex::new(Vec::new()));
        let a = Arc::clone(&asked);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let a = Arc::clone(&a);
                std::thread::spawn(move || {
                    let _ = tunnel(conn, target, &a);
                });
            }
        });
        ConnectProxy { addr, asked }
    }

    /// Its URL (`http://127.0.0.1:PORT`), as `https_proxy` names it.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The request lines received (`CONNECT host:port HTTP/1.1`).
    pub fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }
}

fn tunnel(client: TcpStream, target: SocketAddr, asked: &Mutex<Vec<String>>) -> std::io::Result<()> {
    let mut r = BufReader::new(client.try_clone()?);
    let mut first = String::new();
    r.read_line(&mut first)?;
    asked.lock().unwrap().push(first.trim_end().to_string());
    loop {
        let mut h = String::new();
        if r.read_line(&mut h)? == 0 || h == "\r\n" {
            break;
        }
    }
    let server = TcpStream::connect(target)?;
    (&client).write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")?;
    let (mut up_from, mut up_to) = (client.try_clone()?, server.try_clone()?);
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut up_from, &mut up_to);
        let _ = up_to.shutdown(std::net::Shutdown::Write);
    });
    let (mut down_from, mut down_to) = (server, client);
    std::io::copy(&mut down_from, &mut down_to)?;
    let _ = down_to.shutdown(std::net::Shutdown::Write);
    Ok(())
}
