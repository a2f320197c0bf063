//! An interrupted `vlmeta set` recovers: run under a file-size limit (`prlimit --fsize=N`, killed
//! by SIGXFSZ, or with SIGXFSZ ignored so that the write fails with EFBIG as on a full disk) for
//! every N between the old and the new file length, it leaves the old frame with a torn tail
//! after it; b2schema and python-blosc2 open that file as the old frame, and the next `vlmeta
//! set` or `del` reclaims the tail (the same `set` again writes the very bytes an uninterrupted
//! run writes). A full file system itself is not made here (it needs a mount); the EFBIG runs and
//! the injected failures of `tests/file_safety.rs` stand for it.

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Output};

use b2schema::frame::FrameFile;
use b2schema_tests::{python_checks, repo_root};
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_b2schema");

fn vlmeta(args: &[&str]) -> Output {
    Command::new(BIN).arg("vlmeta").args(args).output().unwrap()
}

/// `vlmeta set PATH note VALUE` with the file size limited to `limit` bytes; SIGXFSZ ignored
/// (the write fails with EFBIG) or not (the process is killed by it).
fn set_limited(path: &str, value: &str, limit: usize, ignore_signal: bool) -> Output {
    let trap = if ignore_signal { "trap '' XFSZ; " } else { "" };
    Command::new("sh")
        .arg("-c")
        .arg(format!("{trap}exec prlimit --fsize=\"$1\" -- \"$2\" vlmeta set \"$3\" note \"$4\""))
        .args(["sh", &limit.to_string(), BIN, path, value])
        .output()
        .unwrap()
}

/// The frame's length, the file's, and its vlmetalayers' names.
fn read(path: &std::path::Path) -> (u64, u64, Vec<String>) {
    let f = FrameFile::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let names = f.view().unwrap().trailer.vlmetalayers.iter().map(|(n, _, _)| n.to_string()).collect();
    (f.frame_len(), std::fs::metadata(path).unwrap().len(), names)
}

#[test]
fn an_interrupted_vlmeta_set_leaves_the_old_frame_and_the_next_write_reclaims_its_tail() {
    let dir = std::env::temp_dir().join(format!("b2schema-torn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let original = std::fs::read(repo_root().join("tests/data/fixtures/nd-meta-vlmeta.b2nd")).unwrap();
    let (title, attrs) = ("title", "attrs");
    let value = "written whole or not at all";
    let json_value = format!("{value:?}");
    // An uninterrupted run: what every interrupted one must end as once run again.
    let clean = dir.join("clean.b2nd");
    std::fs::write(&clean, &original).unwrap();
    let o = vlmeta(&["set", clean.to_str().unwrap(), "note", &json_value]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = std::fs::read(&clean).unwrap();
    assert!(want.len() > original.len() + 100);
    let title_value = json!("a small array");
    let mut entries = Vec::new();
    for limit in original.len()..want.len() {
        let ignore_signal = limit % 2 == 1;
        let torn = dir.join(format!("torn-{limit}.b2nd"));
        let t = torn.to_str().unwrap();
        std::fs::write(&torn, &original).unwrap();
        let o = set_limited(t, &json_value, limit, ignore_signal);
        let err = String::from_utf8_lossy(&o.stderr);
        if ignore_signal {
            assert_eq!(o.status.code(), Some(2), "limit {limit}: {err}");
            assert!(err.contains("File too large"), "limit {limit}: {err}");
        } else {
            assert_eq!(o.status.signal(), Some(libc::SIGXFSZ), "limit {limit}: {:?} {err}", o.status);
        }
        // The old frame, the start of the new tail after it.
        let bytes = std::fs::read(&torn).unwrap();
        assert_eq!(bytes.len(), limit, "limit {limit}");
        assert_eq!(bytes[..original.len()], original[..], "limit {limit}");
        assert_eq!(read(&torn), (original.len() as u64, limit as u64, vec![title.into(), attrs.into()]));
        entries.push(json!({"name": t, "path": t, "present": {title: title_value}, "absent": ["note"]}));
        // The next write reclaims the tail: the same set writes what the clean run wrote; a del
        // (a shorter tail) leaves nothing after its frame.
        let next = dir.join(format!("next-{limit}.b2nd"));
        let n = next.to_str().unwrap();
        std::fs::copy(&torn, &next).unwrap();
        if limit / 2 % 2 == 0 {
            let o = vlmeta(&["set", n, "note", &json_value]);
            assert!(o.status.success(), "limit {limit}: {}", String::from_utf8_lossy(&o.stderr));
            assert!(std::fs::read(&next).unwrap() == want, "limit {limit}: not the clean run's bytes");
            entries.push(
                json!({"name": n, "path": n, "present": {title: title_value, "note": value}, "absent": []}),
            );
        } else {
            let o = vlmeta(&["del", n, title]);
            assert!(o.status.success(), "limit {limit}: {}", String::from_utf8_lossy(&o.stderr));
            let (frame_len, len, names) = read(&next);
            assert_eq!((frame_len, names), (len, vec![attrs.to_string()]), "limit {limit}");
            entries.push(json!({"name": n, "path": n, "present": {}, "absent": [title, "note"]}));
        }
    }
    // python-blosc2 reads each torn file as the old frame and each rewritten one as the new.
    python_checks("check_vlmeta.py", &dir, &entries);
    std::fs::remove_dir_all(&dir).unwrap();
}
