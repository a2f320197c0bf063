//! `b2schema serve` confines every file it opens, not only the path a request names (issue 45):
//! a CTable column, a `.b2d` member, an `embed.b2e` or a sparse frame's chunk file that is a
//! symbolic link leaving the root is refused with 403 by every endpoint that meets it, and its
//! values never appear in an answer. A remote root that never answers does not hold up the file
//! list. A page of a 2-million-row CTable costs memory of the page: six concurrent requests for
//! a page deep in the table are all answered 200 and the server's peak RSS stays small.

use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use b2schema::writer::{Fill, NdArray};
use b2schema_tests::{fixture_file, repo_root};
use serde_json::Value;

use super::serve::{TempDir, http, start_server};

/// `from` copied to `to`, recursively (regular files and directories).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// `link` replaced by a symbolic link to `target`.
fn relink(link: &Path, target: &Path) {
    let _ = std::fs::remove_file(link);
    std::os::unix::fs::symlink(target, link).unwrap();
}

/// The value every item of the secret column holds (never to be seen in an answer).
const SECRET: i64 = 4_242_424_242;

#[test]
fn serve_refuses_every_member_column_and_chunk_file_that_links_out_of_the_root() {
    let dir = TempDir::new("confined");
    let (root, outside) = (dir.0.join("root"), dir.0.join("outside"));
    std::fs::create_dir_all(&outside).unwrap();
    let secret: Vec<u8> = (0..7).flat_map(|_| SECRET.to_le_bytes()).collect();
    let secret_file = outside.join("secret.b2nd");
    NdArray::new(&[7], &[7], &[7], "<i8", 8, Fill::Data(&secret))
        .to_frame()
        .unwrap()
        .write_file(&secret_file)
        .unwrap();
    let tables = repo_root().join("tests/data/tables/table.b2d");
    // A CTable whose column `id` is a link out of the root.
    copy_dir(&tables, &root.join("table.b2d"));
    relink(&root.join("table.b2d/_cols/id.b2nd"), &secret_file);
    // A store whose member /x is one (beside a member of its own), and one whose embed.b2e is.
    copy_dir(&tables, &root.join("member.b2d"));
    relink(&root.join("member.b2d/x.b2nd"), &secret_file);
    copy_dir(&tables, &root.join("embed.b2d"));
    std::fs::copy(tables.join("embed.b2e"), outside.join("embed.b2e")).unwrap();
    relink(&root.join("embed.b2d/embed.b2e"), &outside.join("embed.b2e"));
    // A sparse frame whose first chunk file is one.
    copy_dir(&fixture_file("sparse-2d-i4.b2nd"), &root.join("sparse.b2nd"));
    std::fs::copy(root.join("sparse.b2nd/00000000.chunk"), outside.join("00000000.chunk")).unwrap();
    relink(&root.join("sparse.b2nd/00000000.chunk"), &outside.join("00000000.chunk"));
    // The same table, whole, inside the root: served.
    copy_dir(&tables, &root.join("whole.b2d"));

    let (_server, port) = start_server(&[&root]);
    let host = format!("127.0.0.1:{port}");
    let get = |q: &str| {
        let (status, _, body) = http(port, "GET", q, &host, None);
        (status, String::from_utf8_lossy(&body).into_owned())
    };
    let refused = [
        "/api/table?root=0&path=table.b2d&offset=0&limit=10",
        "/api/store?root=0&path=table.b2d",
        "/api/store?root=0&path=member.b2d",
        "/api/file?root=0&path=member.b2d%2Fx.b2nd",
        "/api/store?root=0&path=embed.b2d",
        "/api/table?root=0&path=embed.b2d",
        "/api/heatmap.png?root=0&path=sparse.b2nd",
        "/api/value?root=0&path=sparse.b2nd&at=0,0",
    ];
    // Every answer first, so that a failure shows them all.
    let answers: Vec<(&str, u16, String)> = refused
        .iter()
        .map(|q| {
            let (status, body) = get(q);
            (*q, status, body)
        })
        .collect();
    let statuses: Vec<(&str, u16)> = answers.iter().map(|(q, s, _)| (*q, *s)).collect();
    assert_eq!(statuses, refused.map(|q| (q, 403)), "{answers:#?}");
    for (q, _, body) in &answers {
        assert!(!body.contains(&SECRET.to_string()), "{q}: {body}");
    }
    // What lies inside the root is served as before, and the list still answers.
    for q in [
        "/api/table?root=0&path=whole.b2d&offset=0&limit=10",
        "/api/store?root=0&path=whole.b2d",
        "/api/file?root=0&path=sparse.b2nd",
        "/api/files",
    ] {
        let (status, body) = get(q);
        assert_eq!(status, 200, "{q}: {body}");
        assert!(!body.contains(&SECRET.to_string()), "{q}: {body}");
    }
}

#[test]
fn serve_lists_files_while_a_remote_root_never_answers() {
    let dir = TempDir::new("stalled");
    NdArray::new(&[10], &[10], &[5], "<i4", 4, Fill::Zeros)
        .to_frame()
        .unwrap()
        .write_file(dir.0.join("a.b2nd"))
        .unwrap();
    // A server that takes every connection and never answers (held until the test ends).
    let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let url = format!("http://127.0.0.1:{}/stalled.b2nd", listener.local_addr().unwrap().port());
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in listener.incoming().take(64) {
            held.push(s);
        }
    });
    let (_server, port) = start_server(&[Path::new(&url), &dir.0]);
    let host = format!("127.0.0.1:{port}");
    for _ in 0..2 {
        let t = Instant::now();
        let (status, _, body) = http(port, "GET", "/api/files", &host, None);
        // A deadline for a hang only: the list waits a few seconds at most for a remote root,
        // where the stalled one would hold it 30 s and more.
        assert!(t.elapsed() < Duration::from_secs(20), "/api/files took {:?}", t.elapsed());
        assert_eq!(status, 200);
        let v: Value = serde_json::from_slice(&body).unwrap();
        let files = v["files"].as_array().unwrap();
        assert!(files[0]["error"].as_str().unwrap().contains("pending"), "{v}");
        assert_eq!(files[1]["path"], "a.b2nd", "{v}");
        assert_eq!(files[1]["kind"], "NDArray", "{v}");
    }
}

/// The server's peak resident memory (`VmHWM`), in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn serve_reads_only_the_rows_of_a_table_page() {
    let dir = TempDir::new("big-table");
    let script = r#"
import sys, blosc2, numpy as np
from dataclasses import dataclass
@dataclass
class Row:
    id: int = blosc2.field(blosc2.int64())
    x: float = blosc2.field(blosc2.float64())
t = blosc2.CTable(Row, urlpath=sys.argv[1], mode="w")
n = 2_000_000
a = np.zeros(n, dtype=[("id", "<i8"), ("x", "<f8")])
a["id"] = np.arange(n)
a["x"] = np.arange(n) * 0.5
t.extend(a)
t.close()
"#;
    let path = dir.0.join("big.b2z");
    let out = Command::new(b2schema_tests::python()).arg("-c").arg(script).arg(&path).output().unwrap();
    assert!(out.status.success(), "python-blosc2: {}", String::from_utf8_lossy(&out.stderr));
    let (server, port) = start_server(&[&dir.0]);
    let host = format!("127.0.0.1:{port}");
    let before = peak_rss_kib(server.0.id());
    let pages: Vec<(u16, Value)> = std::thread::scope(|s| {
        let asks: Vec<_> = (0..6u64)
            .map(|i| {
                let host = &host;
                s.spawn(move || {
                    let q =
                        format!("/api/table?root=0&path=big.b2z&offset={}&limit=200", 1_900_000 + i * 1000);
                    let (status, _, body) = http(port, "GET", &q, host, None);
                    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
                })
            })
            .collect();
        asks.into_iter().map(|a| a.join().unwrap()).collect()
    });
    for (i, (status, page)) in pages.iter().enumerate() {
        assert_eq!(*status, 200, "{page}");
        let first = 1_900_000 + i as u64 * 1000;
        assert_eq!(page["n_rows"], 2_000_000);
        let rows = page["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 200);
        assert_eq!(rows[0], serde_json::json!([first, first as f64 * 0.5]));
        assert_eq!(rows[199][0], first + 199);
    }
    let peak = peak_rss_kib(server.0.id());
    eprintln!("serve's peak RSS: {before} KiB before the pages, {peak} KiB after");
    // Reading every row (the code before) took hundreds of MiB for one page.
    assert!(peak < 96 * 1024, "peak RSS {peak} KiB (before the pages: {before} KiB)");
}
