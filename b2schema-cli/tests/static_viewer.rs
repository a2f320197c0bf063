//! The static viewer (issue 53, `scripts/viewer.sh`): serve's page over b2schema's readers in
//! WebAssembly, with no server code, in headless Chromium (as `serve.rs`). The viewer's files
//! and the data are served from one origin by [`Static`], a static file server that answers
//! `Range` and records the ranges asked (the tests' `http_server` answers ranges only, and
//! names files with their query). A python-blosc2 file by `?url=` shows its header, layout, chunk map
//! and heatmap; a `.b2z` member by `&key=`; a large array fetches its metadata and the blocks
//! drawn, no more; a file chosen by the user is read from the `File`; a hostile file and a
//! server that never answers end in an error in the page within the deadline. With
//! `B2SCHEMA_SCREENSHOTS=1` the pages' screenshots go to `docs/viewer/static-*.png`; with
//! `B2SCHEMA_VIEWER_FIGURES=1` a 256 MB array is opened by `?url=` and the time to its first
//! paint printed (a figure for the notes, not an assertion).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use b2schema::writer::{Fill, NdArray};
use b2schema_tests::{read_file, repo_root};
use serde_json::json;

use super::serve::Browser;

/// `scripts/viewer.sh`'s directory (built, with the module, when it is not).
fn viewer() -> PathBuf {
    let out = Command::new("bash").arg(repo_root().join("scripts/viewer.sh")).output().unwrap();
    assert!(out.status.success(), "scripts/viewer.sh failed:\n{}", String::from_utf8_lossy(&out.stderr));
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// The viewer's files, to be served beside the data.
fn viewer_files() -> Vec<(String, Vec<u8>)> {
    let dir = viewer();
    ["index.html", "viewer.js", "worker.js", "module.js", "app.js", "style.css", "b2schema.wasm"]
        .into_iter()
        .map(|n| (n.to_string(), read_file(&dir.join(n))))
        .collect()
}

/// A `planes × side × side` float32 array of noise (which compresses little), one chunk a
/// plane, 64 × 64 blocks.
fn noise(planes: u64, side: u64) -> Vec<u8> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let items: Vec<u8> = (0..planes * side * side)
        .flat_map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x >> 40) as f32 / 1e3).to_le_bytes()
        })
        .collect();
    let (p, s) = (planes as i64, side as i32);
    NdArray::new(&[p, s as i64, s as i64], &[1, s, s], &[1, 64, 64], "<f4", 4, Fill::Data(&items))
        .to_frame()
        .unwrap()
        .to_vec()
        .unwrap()
}

/// A static file server on 127.0.0.1 (a thread per connection, one request each): files from
/// memory by path (the query ignored), with their content type; `Range: bytes=a-b` answered 206
/// and recorded; `/hung/...` never answered (the connection held open).
struct Static {
    port: u16,
    ranges: Arc<Mutex<Vec<(u64, u64)>>>,
}

impl Static {
    fn start(files: Vec<(String, Vec<u8>)>) -> Static {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let files: Arc<HashMap<String, Vec<u8>>> = Arc::new(files.into_iter().collect());
        let ranges = Arc::new(Mutex::new(Vec::new()));
        let (f, r) = (Arc::clone(&files), Arc::clone(&ranges));
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let (f, r) = (Arc::clone(&f), Arc::clone(&r));
                std::thread::spawn(move || Static::answer(conn, &f, &r));
            }
        });
        Static { port, ranges }
    }

    fn answer(conn: TcpStream, files: &HashMap<String, Vec<u8>>, ranges: &Mutex<Vec<(u64, u64)>>) {
        let mut r = BufReader::new(conn.try_clone().unwrap());
        let mut line = String::new();
        let _ = r.read_line(&mut line);
        let target = line.split(' ').nth(1).unwrap_or("/");
        let path = target.trim_start_matches('/').split('?').next().unwrap_or("").to_string();
        let mut range = None;
        loop {
            let mut h = String::new();
            if r.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
                break;
            }
            if let Some(v) = h.to_ascii_lowercase().strip_prefix("range: bytes=") {
                range = v
                    .trim()
                    .split_once('-')
                    .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)));
            }
        }
        if path.starts_with("hung/") {
            std::thread::sleep(Duration::from_secs(120));
            return;
        }
        let mut out = conn;
        let Some(file) = files.get(&path) else {
            let _ =
                out.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            return;
        };
        let kind = match path.rsplit('.').next() {
            Some("html") => "text/html; charset=utf-8",
            Some("js") => "text/javascript",
            Some("css") => "text/css",
            Some("wasm") => "application/wasm",
            _ => "application/octet-stream",
        };
        let len = file.len() as u64;
        let (status, body, extra) = match range {
            Some((a, b)) if a < len && a <= b => {
                ranges.lock().unwrap().push((a, b));
                let b = b.min(len - 1);
                (
                    "206 Partial Content",
                    &file[a as usize..=b as usize],
                    format!("Content-Range: bytes {a}-{b}/{len}\r\n"),
                )
            }
            _ => ("200 OK", &file[..], String::new()),
        };
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
            body.len()
        );
        let _ = out.write_all(head.as_bytes()).and_then(|_| out.write_all(body));
    }

    fn url(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/{name}", self.port)
    }

    /// The ranges asked for since the last call, and their bytes.
    fn take_ranges(&self) -> (Vec<(u64, u64)>, u64) {
        let taken = std::mem::take(&mut *self.ranges.lock().unwrap());
        let bytes = taken.iter().map(|(a, b)| b - a + 1).sum();
        (taken, bytes)
    }
}

fn text(browser: &Browser, css: &str) -> String {
    let v =
        browser.js(&format!("const e = document.querySelector('{css}'); return e ? e.textContent : null"));
    v.as_str().unwrap_or_else(|| panic!("no {css} in the page")).to_string()
}

/// Waits until the heatmap has been drawn (the image decoded), and returns its width.
fn drawn(browser: &Browser) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let w = browser
            .js("const i = document.getElementById('image'); return i && i.complete ? i.naturalWidth : 0");
        if w.as_u64().unwrap_or(0) > 0 {
            return w.as_u64().unwrap();
        }
        assert!(Instant::now() < deadline, "the image was never drawn");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_static_viewer_reads_remote_files_by_ranges_and_shows_serve_s_pages() {
    let fixture = repo_root().join("tests/data/fixtures/chunks-2d-60.b2nd");
    let big = noise(16, 512);
    let mut hostile = read_file(&fixture);
    hostile.truncate(hostile.len() / 2);
    let mut files = viewer_files();
    files.push(("x.b2nd".into(), read_file(&fixture)));
    files.push(("tree.b2z".into(), read_file(&repo_root().join("tests/data/stores/tree.b2z"))));
    files.push(("big.b2nd".into(), big.clone()));
    files.push(("hostile.b2nd".into(), hostile));
    let server = Static::start(files);
    let index = server.url("index.html");
    let browser = Browser::start();

    // A file python-blosc2 wrote, by ?url=: serve's page, the values the library reads.
    browser.open(&format!("{index}?url={}", server.url("x.b2nd")));
    assert_eq!(browser.js("return document.body.getAttribute('data-ready')"), json!("#/file/0/x.b2nd"));
    let file = b2schema::frame::FrameFile::open(&fixture).unwrap();
    let view = file.view().unwrap();
    assert_eq!(text(&browser, "td[data-key=\"typesize\"]"), view.header.typesize.to_string());
    assert_eq!(text(&browser, "td[data-key=\"nchunks\"]"), view.nchunks().unwrap().to_string());
    for section in ["#header", "#diagram", "#hex", "#chunkmap"] {
        assert!(
            browser.js(&format!("return !!document.querySelector('{section}')")) == json!(true),
            "{section}"
        );
    }
    assert!(drawn(&browser) > 0);
    browser.screenshot("viewer/static-file.png", "#image");
    assert!(server.take_ranges().0.len() > 1, "read by ranges");

    // A member of a .b2z by &key=, and the store itself.
    browser.open(&format!("{index}?url={}&key=/big", server.url("tree.b2z")));
    assert_eq!(
        browser.js("return document.body.getAttribute('data-ready')"),
        json!("#/member/0/tree.b2z/%2Fbig")
    );
    assert_eq!(drawn(&browser), 50, "the member's 12 x 50 heatmap");
    browser.screenshot("viewer/static-member.png", "#image");
    browser.open(&format!("{index}?url={}", server.url("tree.b2z")));
    let keys = browser
        .js("return [...document.querySelectorAll('tr.member td:first-child')].map(t => t.textContent)");
    assert_eq!(keys, json!(["/big", "/g/h/deep", "/g/x", "/x"]));
    browser.screenshot("viewer/static-store.png", "#members");

    // A large array: its metadata and the blocks of the plane drawn (one chunk of 16), no more.
    server.take_ranges();
    browser.open(&format!("{index}?url={}", server.url("big.b2nd")));
    assert_eq!(drawn(&browser), 512);
    let (ranges, fetched) = server.take_ranges();
    let plane = big.len() as u64 / 16;
    assert!(
        fetched < plane + plane / 2,
        "fetched {fetched} bytes of {} (a plane is about {plane}): {ranges:?}",
        big.len()
    );

    // A file chosen by the user: read from the File (no request for its bytes).
    server.take_ranges();
    browser.open(&index);
    let input = browser.call("POST", "/element", Some(json!({ "using": "css selector", "value": "#pick" })));
    let id = input.as_object().unwrap().values().next().unwrap().as_str().unwrap().to_string();
    browser.js("document.body.removeAttribute('data-ready')");
    browser.call(
        "POST",
        &format!("/element/{id}/value"),
        Some(json!({ "text": fixture.display().to_string() })),
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    while browser.js("return document.body.getAttribute('data-ready')") != json!("#/file/0/chunks-2d-60.b2nd")
    {
        assert!(Instant::now() < deadline, "the chosen file was never shown");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(text(&browser, "td[data-key=\"typesize\"]"), view.header.typesize.to_string());
    assert_eq!(server.take_ranges().0, [], "a chosen file is read from the File");

    // A hostile file: an error in the page, at once.
    let t0 = Instant::now();
    browser.open(&format!("{index}?url={}", server.url("hostile.b2nd")));
    assert!(text(&browser, "#notframe").contains("not a Blosc2 file the viewer can read"));
    assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());

    // A server that never answers: the page's deadline ends the worker and says so; the tab
    // answers.
    let t0 = Instant::now();
    browser.open(&format!("{index}?url={}&timeout=2", server.url("hung/x.b2nd")));
    assert!(text(&browser, "#notframe").contains("no answer within 2 s"), "{}", text(&browser, "#notframe"));
    assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
    assert_eq!(browser.js("return 1 + 1"), json!(2));

    if std::env::var_os("B2SCHEMA_VIEWER_FIGURES").is_some() {
        let huge = noise(256, 512);
        let server = Static::start([viewer_files(), vec![("huge.b2nd".into(), huge.clone())]].concat());
        let t0 = Instant::now();
        browser.open(&format!("{}?url={}", server.url("index.html"), server.url("huge.b2nd")));
        drawn(&browser);
        let (ranges, fetched) = server.take_ranges();
        println!(
            "first paint of a {} byte array by ?url=: {:?}, {fetched} bytes fetched in {} ranges",
            huge.len(),
            t0.elapsed(),
            ranges.len()
        );
    }
}
