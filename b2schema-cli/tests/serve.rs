//! `b2schema serve` in a real browser: the server on a free port, headless Chromium driven
//! through chromedriver's WebDriver HTTP API (scripts/browser.sh installs both from Debian's
//! packages; the test fails, never skips, when it cannot), and raw HTTP requests for what a
//! browser would not send.
//!
//! Checked on the fixtures: the list shows every fixture; a file page shows the header values
//! python-blosc2 reported (tests/data/fixtures.json); hovering a field of the header diagram
//! highlights exactly its bytes in the hex and hovering a byte highlights its field; a heatmap
//! of a known array has the expected size and colours; a 1-D array is a line plot; `..`, a
//! symbolic link out of the root and a foreign `Host` are refused; a file that is not Blosc2
//! gets its own page. With `B2SCHEMA_SCREENSHOTS=1`, screenshots are written to `docs/`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use b2schema::frame::FrameHeader;
use b2schema::layout::B2Layout;
use b2schema::writer::{Fill, NdArray};
use b2schema_tests::repo_root;
use base64::Engine;
use serde_json::{Value, json};

/// A child process killed when dropped.
pub(crate) struct Kill(pub(crate) Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One HTTP/1.1 exchange over a fresh connection: status, headers (lower-case names), body.
pub(crate) fn http(
    port: u16,
    method: &str,
    path: &str,
    host: &str,
    body: Option<&Value>,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    // Read the head, then the body by its length (chromedriver keeps the connection open).
    let mut r = BufReader::new(s);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "the response ended in its head");
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let len = headers.iter().find(|(k, _)| k == "content-length").map(|(_, v)| v.parse::<usize>().unwrap());
    let mut rest = Vec::new();
    match len {
        Some(n) => {
            rest.resize(n, 0);
            r.read_exact(&mut rest).unwrap();
        }
        None => {
            r.read_to_end(&mut rest).unwrap();
        }
    }
    if headers.iter().any(|(k, v)| k == "transfer-encoding" && v.contains("chunked")) {
        rest = unchunk(&rest);
    }
    (status, headers, rest)
}

fn unchunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let eol = b.windows(2).position(|w| w == b"\r\n").unwrap();
        let n = usize::from_str_radix(
            std::str::from_utf8(&b[..eol]).unwrap().split(';').next().unwrap().trim(),
            16,
        )
        .unwrap();
        if n == 0 {
            return out;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + n]);
        b = &b[eol + 4 + n..];
    }
}

fn free_port() -> u16 {
    TcpListener::bind(("127.0.0.1", 0)).unwrap().local_addr().unwrap().port()
}

/// The viewer serving `roots`, and its port (read from the URL it prints).
pub(crate) fn start_server(roots: &[&Path]) -> (Kill, u16) {
    start_server_with(roots, &[])
}

/// [`start_server`] with the variables `env` set (an object store's settings).
pub(crate) fn start_server_with(roots: &[&Path], env: &[(String, String)]) -> (Kill, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_b2schema"))
        .arg("serve")
        .args(roots)
        .args(["--port", "0"])
        .envs(env.iter().cloned())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().strip_prefix("b2schema serve: ").unwrap_or_else(|| panic!("no URL in {line:?}"));
    let port = url.trim_start_matches("http://127.0.0.1:").trim_end_matches('/').parse().unwrap();
    (Kill(child), port)
}

/// A WebDriver session of headless Chromium.
pub(crate) struct Browser {
    port: u16,
    session: String,
    _driver: Kill,
    _profile: TempDir,
}

impl Browser {
    pub(crate) fn start() -> Browser {
        let script = repo_root().join("scripts/browser.sh");
        let out = Command::new("bash").arg(&script).stderr(Stdio::inherit()).output().unwrap();
        assert!(out.status.success(), "scripts/browser.sh could not provide chromium (see above)");
        let chromium = String::from_utf8(out.stdout).unwrap().trim().to_owned();
        let port = free_port();
        let driver =
            Command::new("chromedriver").arg(format!("--port={port}")).stdout(Stdio::null()).spawn().unwrap();
        let driver = Kill(driver);
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        // One profile per browser: the tests of this file run at once, each with its own.
        static BROWSERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = BROWSERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile = TempDir::new(&format!("chromium-profile-{n}"));
        let caps = json!({ "capabilities": { "alwaysMatch": { "goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", "--window-size=1280,1000",
                     format!("--user-data-dir={}", profile.0.display())],
        }}}});
        let (status, _, body) = http(port, "POST", "/session", &format!("127.0.0.1:{port}"), Some(&caps));
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(status, 200, "new session: {v}");
        let session = v["value"]["sessionId"].as_str().unwrap().to_owned();
        Browser { port, session, _driver: driver, _profile: profile }
    }

    pub(crate) fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let p = format!("/session/{}{path}", self.session);
        let (status, _, b) = http(self.port, method, &p, &format!("127.0.0.1:{}", self.port), body.as_ref());
        let v: Value = serde_json::from_slice(&b).unwrap();
        assert_eq!(status, 200, "{method} {path}: {v}");
        v["value"].clone()
    }

    pub(crate) fn js(&self, script: &str) -> Value {
        self.call("POST", "/execute/sync", Some(json!({ "script": script, "args": [] })))
    }

    /// Opens `url` and waits until the page says it has drawn it.
    pub(crate) fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.js("return document.body.getAttribute('data-ready')").is_null() {
            assert!(Instant::now() < deadline, "{url} never became ready");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Moves the mouse onto the centre of the element matched by `css`.
    pub(crate) fn hover(&self, css: &str) {
        self.hover_at(css, 0, 0);
    }

    /// Moves the mouse to (`x`, `y`) from the centre of the element matched by `css`.
    pub(crate) fn hover_at(&self, css: &str, x: i64, y: i64) {
        let e = self.call("POST", "/element", Some(json!({ "using": "css selector", "value": css })));
        let id = e.as_object().unwrap().values().next().unwrap().clone();
        let origin = json!({ "element-6066-11e4-a52e-4f735466cecf": id });
        let actions = json!({ "actions": [{ "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
            "actions": [{ "type": "pointerMove", "duration": 0, "origin": origin, "x": x, "y": y }] }] });
        self.call("POST", "/actions", Some(actions));
    }

    /// With `B2SCHEMA_SCREENSHOTS` set, writes `docs/NAME`, scrolled to the element `css`.
    pub(crate) fn screenshot(&self, name: &str, css: &str) {
        if std::env::var_os("B2SCHEMA_SCREENSHOTS").is_none() {
            return;
        }
        self.js(&format!("document.querySelector('{css}').scrollIntoView()"));
        let b64 = self.call("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD.decode(b64.as_str().unwrap()).unwrap();
        let to = repo_root().join("docs").join(name);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(
            self.port,
            "DELETE",
            &format!("/session/{}", self.session),
            &format!("127.0.0.1:{}", self.port),
            None,
        );
    }
}

pub(crate) struct TempDir(pub(crate) PathBuf);

impl TempDir {
    pub(crate) fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("b2schema-serve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The known arrays: `ramp.b2nd` (40 x 50 float64, item (i, j) = 50 i + j), `big.b2nd`
/// (2500 x 1200 int32, item (i, j) = i: downsampled), `line.b2nd` (1-D), a text file, and a
/// symbolic link to a file outside the root.
fn own_files(dir: &Path, outside: &Path) {
    let ramp: Vec<u8> = (0..40 * 50).flat_map(|i| f64::from(i).to_le_bytes()).collect();
    NdArray::new(&[40, 50], &[16, 20], &[8, 10], "<f8", 8, Fill::Data(&ramp))
        .to_frame()
        .unwrap()
        .write_file(dir.join("ramp.b2nd"))
        .unwrap();
    let big: Vec<u8> = (0..2500 * 1200).flat_map(|i: i32| (i / 1200).to_le_bytes()).collect();
    NdArray::new(&[2500, 1200], &[500, 600], &[100, 100], "<i4", 4, Fill::Data(&big))
        .to_frame()
        .unwrap()
        .write_file(dir.join("big.b2nd"))
        .unwrap();
    let line: Vec<u8> = (0..3000).flat_map(|i: i32| ((f64::from(i) / 300.0).sin()).to_le_bytes()).collect();
    NdArray::new(&[3000], &[1000], &[250], "<f8", 8, Fill::Data(&line))
        .to_frame()
        .unwrap()
        .write_file(dir.join("line.b2nd"))
        .unwrap();
    std::fs::write(dir.join("notes.txt"), "not a Blosc2 file\n").unwrap();
    std::fs::write(outside, "secret").unwrap();
    std::os::unix::fs::symlink(outside, dir.join("escape.b2nd")).unwrap();
}

fn png_of(body: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut dec = png::Decoder::new(std::io::Cursor::new(body)).read_info().unwrap();
    let mut buf = vec![0; dec.output_buffer_size().unwrap()];
    let info = dec.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width as usize, info.height as usize, buf)
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= 2)
}

#[test]
fn serve_in_a_browser() {
    let base = TempDir::new("roots");
    let own = base.0.join("own");
    std::fs::create_dir_all(&own).unwrap();
    own_files(&own, &base.0.join("outside.txt"));
    let fixtures_dir = repo_root().join("tests/data/fixtures");
    // Root 2 is a file: it is listed as itself and served with an empty relative path.
    let (_server, port) = start_server(&[&fixtures_dir, &own, &own.join("line.b2nd")]);
    let host = format!("127.0.0.1:{port}");
    let url = format!("http://{host}/");
    let browser = Browser::start();

    // The list: every fixture of fixtures.json, once, from root 0.
    let t0 = Instant::now();
    browser.open(&url);
    let first_page = t0.elapsed();
    let listed = browser.js(
        "return [...document.querySelectorAll('tr.file')].filter(r => r.dataset.root === '0').map(r => r.dataset.path)",
    );
    let mut listed: Vec<String> = serde_json::from_value(listed).unwrap();
    listed.sort();
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(repo_root().join("tests/data/fixtures.json")).unwrap())
            .unwrap();
    let fixtures = meta["fixtures"].as_object().unwrap();
    let mut expected: Vec<String> = fixtures.keys().cloned().collect();
    expected.sort();
    assert_eq!(listed, expected, "the list shows every fixture once");
    browser.screenshot("serve-list.png", "#files");

    // File pages: the header values python-blosc2 reported.
    for name in ["chunks-2d-60.b2nd", "sparse-2d-i4.b2nd", "codec-blosclz-9.b2nd", "sparse-schunk.b2frame"] {
        let f = &fixtures[name];
        browser.open(&format!("{url}#/file/0/{name}"));
        let shown = |k: &str| {
            browser.js(&format!("return document.querySelector('td[data-key=\"{k}\"]').textContent"))
        };
        let s = &f["schunk"];
        for key in ["nbytes", "cbytes", "typesize", "chunksize", "nchunks"] {
            assert_eq!(shown(key).as_str().unwrap(), s[key].to_string(), "{name}: {key}");
        }
        assert_eq!(shown("clevel").as_str().unwrap(), f["cparams"]["clevel"].to_string(), "{name}: clevel");
        let codec = shown("codec").as_str().unwrap().to_ascii_uppercase();
        assert!(codec.starts_with(f["cparams"]["codec"].as_str().unwrap()), "{name}: codec {codec}");
        // The filters by name (issue 53), as the library names python-blosc2's ids.
        let names: Vec<&str> = f["cparams"]["filters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| id.as_u64().unwrap() as u8)
            .filter(|&id| id != 0)
            .map(|id| b2schema::frame::Filter::from_id(id).name().unwrap())
            .collect();
        let filters = shown("filters");
        let listed: Vec<&str> =
            filters.as_str().unwrap().split(", ").map(|f| f.split(" (meta").next().unwrap()).collect();
        assert_eq!(listed, if names.is_empty() { vec!["none"] } else { names }, "{name}: filters");
        let n = browser.js("return document.querySelectorAll('#chunkmap').length + ':' + document.getElementById('chunkinfo').textContent");
        assert_eq!(
            n.as_str().unwrap(),
            format!("1:{} chunks; hover for one", s["nchunks"]),
            "{name}: chunk map"
        );
    }

    // Hovering a diagram field highlights exactly its bytes, and a byte its field.
    browser.open(&format!("{url}#/file/0/chunks-2d-60.b2nd"));
    let highlighted = || -> Vec<u64> {
        serde_json::from_value(
            browser.js("return [...document.querySelectorAll('#hex .hl')].map(e => +e.dataset.offset)"),
        )
        .unwrap()
    };
    for field in ["header_len", "typesize", "flags", "filter_pipeline", "has_vlmetalayers"] {
        let f = FrameHeader::LAYOUT.fields.iter().find(|f| f.name == field).unwrap();
        let (start, width) = (f.marker_offset.unwrap() as u64, f.width.unwrap() as u64);
        browser.hover(&format!("#diagram [data-field=\"{field}\"]"));
        assert_eq!(highlighted(), (start..start + width).collect::<Vec<_>>(), "hovering {field}");
        browser.hover(&format!("#hex [data-offset=\"{}\"]", start + width - 1));
        let fields =
            browser.js("return [...document.querySelectorAll('#diagram .hl')].map(e => e.dataset.field)");
        assert!(
            fields.as_array().unwrap().iter().all(|f| f == field) && !fields.as_array().unwrap().is_empty(),
            "{field}: {fields}"
        );
    }

    browser.hover("#diagram [data-field=\"typesize\"]");
    browser.screenshot("serve-file.png", "#fieldinfo");

    // The heatmap of the ramp: 50 x 40 pixels, viridis from #440154 (value 0) to #fde725 (1999).
    let q = "/api/heatmap.png?root=1&path=ramp.b2nd";
    let (status, headers, body) = http(port, "GET", q, &host, None);
    assert_eq!(status, 200);
    assert!(headers.contains(&("content-type".into(), "image/png".into())));
    let (w, h, rgb) = png_of(&body);
    assert_eq!((w, h), (50, 40));
    let px = |x: usize, y: usize| -> [u8; 3] { rgb[(y * w + x) * 3..][..3].try_into().unwrap() };
    assert_eq!(px(0, 0), [0x44, 0x01, 0x54]);
    assert_eq!(px(49, 39), [0xfd, 0xe7, 0x25]);
    // Item (20, 0) = 1000 is 0.50025 of the way: viridis(0.5) is #21918c.
    assert!(close(px(0, 20), [0x21, 0x91, 0x8c]), "{:?}", px(0, 20));
    // Transposed (rows along axis 1): item (j, i) at pixel (i, j).
    let (_, _, body) = http(port, "GET", &format!("{q}&y=1&x=0"), &host, None);
    let (w2, h2, t) = png_of(&body);
    assert_eq!((w2, h2), (40, 50));
    assert_eq!(t[((49 * 40) + 39) * 3..][..3], [0xfd, 0xe7, 0x25]);
    assert_eq!(t[39 * 3..][..3], px(0, 39), "item (39, 0) at pixel (39, 0)");
    // Downsampled: 2500 x 1200 items every 3rd row and column, rows constant.
    let (_, headers, body) = http(port, "GET", "/api/heatmap.png?root=1&path=big.b2nd", &host, None);
    let (bw, bh, big) = png_of(&body);
    assert_eq!((bw, bh), (400, 834));
    assert!(headers.contains(&("x-step".into(), "3".into())));
    assert_eq!(big[..3], [0x44, 0x01, 0x54]);
    assert_eq!(big[(833 * 400 + 399) * 3..][..3], [0xfd, 0xe7, 0x25]);
    assert!(
        (0..400).all(|x| big[(500 * 400 + x) * 3..][..3] == big[500 * 400 * 3..][..3]),
        "rows are constant"
    );

    // In the browser: the image and the value under the cursor.
    browser.open(&format!("{url}#/file/1/ramp.b2nd"));
    let size = browser.js("const i = document.getElementById('image'); return new Promise(r => { const f = () => i.complete && i.naturalWidth ? r(i.naturalWidth + 'x' + i.naturalHeight) : setTimeout(f, 20); f(); })");
    assert_eq!(size.as_str().unwrap(), "50x40");
    browser.hover_at("#image", 5, 5);
    let deadline = Instant::now() + Duration::from_secs(20);
    let cursor = loop {
        let c = browser.js("return document.getElementById('cursor').textContent");
        if !c.as_str().unwrap().is_empty() {
            break c;
        }
        assert!(Instant::now() < deadline, "no value under the cursor");
        std::thread::sleep(Duration::from_millis(50));
    };
    // Near the centre of the 50 x 40 image (shown 10 times larger; WebDriver aims at the centre
    // of the part in view): the item under the cursor and its value, 50 i + j.
    let text = cursor.as_str().unwrap();
    let (at, value) = text.split_once(" = ").unwrap();
    let at: Vec<u64> = at.trim_matches(['[', ']']).split(", ").map(|x| x.parse().unwrap()).collect();
    assert!(at[0] < 40 && at[1] < 50 && at[1].abs_diff(25) <= 2, "{text}");
    assert_eq!(value.parse::<u64>().unwrap(), 50 * at[0] + at[1], "{text}");
    browser.screenshot("serve-heatmap.png", "#chunkmap");
    let t1 = Instant::now();
    browser.open(&format!("{url}#/file/1/big.b2nd"));
    let heatmap_page = t1.elapsed();

    // A 1-D array is a line plot; a text file gets its own page.
    let (status, _, body) = http(port, "GET", "/api/plot.png?root=1&path=line.b2nd", &host, None);
    assert_eq!(status, 200);
    let (pw, ph, plot) = png_of(&body);
    assert_eq!((pw, ph), (1000, 320));
    assert!(plot.chunks(3).any(|p| p == [0x44, 0x01, 0x54]) && plot.chunks(3).any(|p| p == [255, 255, 255]));
    browser.open(&format!("{url}#/file/1/notes.txt"));
    let page = browser.js("return document.getElementById('notframe').textContent");
    assert!(page.as_str().unwrap().contains("not a Blosc2 file the viewer can read"), "{page}");

    // Refused: a path with .., a symbolic link out of the root, a foreign Host, a write.
    for bad in [
        "/api/file?root=0&path=../fixtures.json",
        "/api/file?root=1&path=escape.b2nd",
        "/api/file?root=1&path=%2Fetc%2Fpasswd",
        "/api/value?root=0&path=..%2F..%2FCargo.toml&at=0",
    ] {
        let (status, _, body) = http(port, "GET", bad, &host, None);
        assert_eq!(status, 403, "{bad}: {}", String::from_utf8_lossy(&body));
    }
    let listed_escape = browser.js("return 0");
    assert_eq!(listed_escape, json!(0));
    for evil in ["evil.example", "evil.example:80", &format!("rebind.example:{port}"), "127.0.0.1:1"] {
        assert_eq!(http(port, "GET", "/", evil, None).0, 421, "Host {evil}");
    }
    assert_eq!(http(port, "GET", "/", &format!("localhost:{port}"), None).0, 200);
    assert_eq!(http(port, "POST", "/api/files", &host, Some(&json!({}))).0, 405);
    let (_, _, files) = http(port, "GET", "/api/files", &host, None);
    let files: Value = serde_json::from_slice(&files).unwrap();
    let file_root: Vec<&Value> =
        files["files"].as_array().unwrap().iter().filter(|f| f["root"] == 2).collect();
    assert_eq!(file_root.len(), 1);
    assert_eq!((&file_root[0]["path"], &file_root[0]["kind"]), (&json!(""), &json!("NDArray")));
    assert_eq!(http(port, "GET", "/api/file?root=2&path=", &host, None).0, 200);
    assert_eq!(http(port, "GET", "/api/file?root=2&path=x", &host, None).0, 403);
    assert!(!files.to_string().contains("escape.b2nd"), "a link out of the root is not listed");
    eprintln!("first page {first_page:?}, page with the 2500x1200 heatmap {heatmap_page:?}");
}

/// A python-blosc2 store and a CTable in the viewer (`tests/data/tables/`, and a `.b2z` of the
/// table written by b2schema's `StoreWriter`): the list shows the `.b2d` and the `.b2z` as
/// CTables beside the files; the store page lists the members as a folder (a `.b2d` member opens
/// as a file) and shows the live rows of the table, 50 a page, equal to python-blosc2's reading
/// (`tables.json`); `/api/table` pages by offset; a path out of the root and a file that is not a
/// store are refused.
#[test]
fn serve_shows_a_store_as_a_folder_and_a_ctable_as_a_paged_table() {
    let dir = TempDir::new("serve-tables");
    let tables = repo_root().join("tests/data/tables");
    // The table again as a .b2z, every member copied into a store b2schema writes.
    let store = b2schema::store::Store::open(tables.join("table.b2d")).unwrap();
    let mut w = b2schema::store::StoreWriter::new(b2schema::store::Flavour::Dict);
    for m in store.members() {
        let b2schema::store::Place::File(p) = &m.place else { panic!("{}: not a file", m.key) };
        w.insert(&m.key, std::fs::read(p).unwrap()).unwrap();
    }
    w.write_zip(dir.0.join("table.b2z")).unwrap();
    let (_server, port) = start_server(&[&tables, &dir.0]);
    let host = format!("127.0.0.1:{port}");
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(tables.join("tables.json")).unwrap()).unwrap();
    let want_rows: Vec<Vec<Value>> = want["table.b2d"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            want["table.b2d"]["columns"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| r[c.as_str().unwrap()].clone())
                .collect()
        })
        .collect();

    let get = |path: &str| {
        let (status, _, body) = http(port, "GET", path, &host, None);
        (status, serde_json::from_slice::<Value>(&body).unwrap_or(Value::Null))
    };
    let (_, files) = get("/api/files");
    let kinds: Vec<(Value, Value)> =
        files["files"].as_array().unwrap().iter().map(|f| (f["path"].clone(), f["kind"].clone())).collect();
    assert!(kinds.contains(&(json!("table.b2d"), json!("CTable"))), "{kinds:?}");
    assert!(kinds.contains(&(json!("table.b2z"), json!("CTable"))), "{kinds:?}");
    for (root, path) in [(0, "table.b2d"), (1, "table.b2z")] {
        let (status, page) = get(&format!("/api/table?root={root}&path={path}&offset=2&limit=3"));
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["rows"], json!(want_rows[2..5]), "{path}");
        assert_eq!(page["n_rows"], 6);
    }
    assert_eq!(get("/api/table?root=0&path=..%2Ftables%2Ftable.b2d").0, 403);
    assert_eq!(get("/api/store?root=0&path=batch.b2b").0, 422);

    let browser = Browser::start();
    browser.open(&format!("http://{host}/#/store/0/table.b2d"));
    let cells = browser.js(
        "return [...document.querySelectorAll('#rows tbody tr')].map(r => [...r.children].slice(1).map(c => c.textContent))",
    );
    let shown: Vec<Vec<String>> = serde_json::from_value(cells).unwrap();
    assert_eq!(shown.len(), 6);
    assert_eq!(shown[1], ["2", "1", "true", "nn", "0x0202", "ab", "null"]);
    let members = browser
        .js("return [...document.querySelectorAll('#members tr.member a')].map(a => a.getAttribute('href'))");
    let members: Vec<String> = serde_json::from_value(members).unwrap();
    assert!(members.contains(&"#/file/0/table.b2d%2F_cols%2Fid.b2nd".to_string()), "{members:?}");
    // The member opens as a file page.
    browser.open(&format!("http://{host}/#/file/0/table.b2d%2F_cols%2Fid.b2nd"));
    assert_eq!(
        browser.js("return document.querySelector('td[data-key=\"typesize\"]').textContent"),
        json!("8")
    );
    browser.open(&format!("http://{host}/#/store/1/table.b2z"));
    assert_eq!(browser.js("return document.getElementById('rowinfo').textContent"), json!("rows 0-6 of 6"));
    // A .b2z's members open by their keys.
    let links = browser
        .js("return [...document.querySelectorAll('#members tr.member a')].map(a => a.getAttribute('href'))");
    assert!(links.as_array().unwrap().contains(&json!("#/member/1/table.b2z/%2F_cols%2Fid")), "{links}");
}

#[test]
fn serve_shows_a_remote_file_as_it_shows_the_local_one() {
    use b2schema_tests::fixture_file;
    use b2schema_tests::http_server::Server;
    let names = ["nd-3d-f8-zstd.b2nd", "sparse-2d-i4.b2nd"];
    let mut files = vec![(names[0].to_string(), std::fs::read(fixture_file(names[0])).unwrap())];
    for e in std::fs::read_dir(fixture_file(names[1])).unwrap() {
        let p = e.unwrap().path();
        files.push((
            format!("{}/{}", names[1], p.file_name().unwrap().to_str().unwrap()),
            std::fs::read(&p).unwrap(),
        ));
    }
    let remote = Server::start(files);
    for name in names {
        let local = fixture_file(name);
        let url = remote.url(name);
        let (_l, lp) = start_server(&[&local]);
        let (_r, rp) = start_server(&[Path::new(&url)]);
        let get = |port: u16, q: &str| {
            let (status, _, body) = http(port, "GET", q, &format!("127.0.0.1:{port}"), None);
            (status, body)
        };
        let (ls, lb) = get(lp, "/api/files");
        let (rs, rb) = get(rp, "/api/files");
        assert_eq!((ls, rs), (200, 200));
        let (mut l, mut r): (Value, Value) =
            (serde_json::from_slice(&lb).unwrap(), serde_json::from_slice(&rb).unwrap());
        assert_eq!(r["roots"], json!([url]));
        l["roots"] = Value::Null;
        r["roots"] = Value::Null;
        if name.starts_with("sparse") {
            // The size of a remote sparse frame is its index's frame length (the directory's
            // files are not listed over HTTP).
            l["files"][0]["size"] = Value::Null;
            r["files"][0]["size"] = Value::Null;
        }
        assert_eq!(l, r, "{name}");
        assert!(r["files"][0].get("error").is_none(), "{r}");
        for q in [
            "/api/file?root=0&path=",
            "/api/value?root=0&path=&at=0",
            "/api/heatmap.png?root=0&path=",
            "/api/plot.png?root=0&path=",
        ] {
            let (ls, lb) = get(lp, q);
            let (rs, rb) = get(rp, q);
            assert_eq!(ls, rs, "{name} {q}: {}", String::from_utf8_lossy(&rb));
            if q.starts_with("/api/file?") {
                let (l, r): (Value, Value) =
                    (serde_json::from_slice(&lb).unwrap(), serde_json::from_slice(&rb).unwrap());
                assert_eq!(l, r, "{name} {q}");
            } else {
                assert!(lb == rb, "{name} {q}: the answers differ");
            }
        }
        // Nothing under a URL root.
        let (status, _) = get(rp, "/api/file?root=0&path=x");
        assert_eq!(status, 403);
    }
}

#[test]
fn serve_shows_a_remote_store_as_it_shows_the_local_one() {
    use b2schema_tests::http_server::Server;
    let dir = TempDir::new("serve-remote-stores");
    let table = b2schema_tests::stored_zip::dir_as_zip(&repo_root().join("tests/data/tables/table.b2d"));
    std::fs::write(dir.0.join("table.b2z"), &table).unwrap();
    std::fs::copy(repo_root().join("tests/data/stores/tree.b2z"), dir.0.join("tree.b2z")).unwrap();
    let remote = Server::start(vec![
        ("table.b2z".into(), table),
        ("tree.b2z".into(), std::fs::read(dir.0.join("tree.b2z")).unwrap()),
    ]);
    for name in ["table.b2z", "tree.b2z"] {
        let local = dir.0.join(name);
        let url = remote.url(name);
        let (_l, lp) = start_server(&[&local]);
        let (_r, rp) = start_server(&[Path::new(&url)]);
        let get = |port: u16, q: &str| {
            let (status, _, body) = http(port, "GET", q, &format!("127.0.0.1:{port}"), None);
            (status, serde_json::from_slice::<Value>(&body).unwrap_or(Value::Null))
        };
        let (ls, mut l) = get(lp, "/api/files");
        let (rs, mut r) = get(rp, "/api/files");
        assert_eq!((ls, rs), (200, 200));
        assert_eq!(r["roots"], json!([url]));
        l["roots"] = Value::Null;
        r["roots"] = Value::Null;
        assert_eq!(l, r, "{name}");
        assert!(r["files"][0]["kind"].is_string() && r["files"][0].get("error").is_none(), "{r}");
        for q in [
            "/api/store?root=0&path=",
            "/api/table?root=0&path=&offset=1&limit=3",
            "/api/table?root=0&path=&offset=1&limit=3&sort=x&desc=1",
            "/api/file?root=0&path=&key=%2Fx",
            "/api/value?root=0&path=&key=%2Fx&at=3",
        ] {
            let (ls, l) = get(lp, q);
            let (rs, r) = get(rp, q);
            assert_eq!((ls, &l), (rs, &r), "{name} {q}");
            if (name == "table.b2z" && q.contains("table")) || (name == "tree.b2z" && q.contains("key")) {
                assert_eq!(ls, 200, "{q}: {l}");
            }
        }
    }
}
