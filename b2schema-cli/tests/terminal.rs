//! Text from files never reaches a terminal as control characters (issue 32): a frame whose
//! metalayer and vlmetalayer names, dtype string and values carry ESC, OSC, C1 CSI, CR, LF and
//! bidirectional overrides, and a directory entry whose name carries them, through every human
//! output (`inspect`, with and without `--color always`, `dump`, `verify`, directory scans and
//! errors): what comes out holds no byte of them, only their visible escapes.

use std::path::PathBuf;
use std::process::Command;

use b2schema::writer::{Fill, NdArray};

/// Every hostile piece of text the names and values carry.
const HOSTILE: [&str; 7] =
    ["\x1b]0;owned\x07", "\x1b[2J", "\u{9b}31m", "ok\rFORGED", "x\nb2schema: forged", "\u{202e}fdp", "\x7f"];

fn dir() -> PathBuf {
    dir_named("terminal")
}

/// A fresh directory of this test process's, one per test (they run in parallel).
fn dir_named(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("b2schema-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A frame whose every name, the dtype and a value are hostile text.
fn hostile_frame() -> Vec<u8> {
    let mut f = NdArray::new(&[10], &[10], &[10], "|u1", 1, Fill::Value(&[1])).to_frame().unwrap();
    let dtype = format!("|u1{}", HOSTILE.concat());
    let meta = b2schema::b2nd::B2nd {
        version: 0,
        ndim: 1,
        shape: vec![10],
        chunkshape: vec![10],
        blockshape: vec![10],
        dtype_format: 0,
        dtype: &dtype,
    };
    f.metalayers[0].1 = b2schema::encode_to_vec(&meta).unwrap();
    for (i, h) in HOSTILE.iter().enumerate().take(5) {
        f.metalayers.push((format!("m{i}{h}"), vec![0xa1, b'x']));
    }
    for (i, h) in HOSTILE.iter().enumerate() {
        // A msgpack str value holding the hostile text too.
        let mut v = vec![0xd9, h.len() as u8];
        v.extend_from_slice(h.as_bytes());
        f.vlmetalayers.push((format!("v{i}{h}"), v));
    }
    f.to_vec().unwrap()
}

/// Every byte a terminal would act on: C0 controls (but the line breaks), DEL, and the UTF-8 of
/// C1 controls and bidirectional overrides.
fn unsafe_bytes(out: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(out);
    text.char_indices()
        .filter(|&(_, c)| {
            (c < ' ' && c != '\n')
                || c == '\x7f'
                || ('\u{80}'..='\u{9f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
        })
        .map(|(i, c)| format!("{c:?} at {i}"))
        .collect()
}

/// `bytes` without the SGR colour sequences (`ESC [ 0-9; m`) the program writes itself.
fn without_sgr(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0x1b && bytes.get(i + 1) == Some(&b'[') {
            let end = (i + 2..bytes.len()).find(|&j| !(bytes[j].is_ascii_digit() || bytes[j] == b';'));
            if let Some(j) = end.filter(|&j| bytes[j] == b'm') {
                i = j + 1;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

#[test]
fn no_control_character_from_a_file_reaches_the_terminal() {
    let d = dir();
    let path = d.join("hostile.b2nd");
    std::fs::write(&path, hostile_frame()).unwrap();
    // A directory holding a file whose name is hostile, and a corrupt one (an error line).
    let scan = d.join("scan");
    std::fs::create_dir_all(&scan).unwrap();
    std::fs::write(scan.join(format!("name{}.b2nd", "\x1b[2J\u{9b}1m\rX")), hostile_frame()).unwrap();
    std::fs::write(scan.join(format!("bad{}.b2frame", "\x1b]0;t\x07")), b"not a frame at all, just text")
        .unwrap();
    let p = path.to_str().unwrap();
    let s = scan.to_str().unwrap();
    let runs: [&[&str]; 7] = [
        &["inspect", p],
        &["--color", "always", "inspect", p],
        &["inspect", "--all-chunks", p],
        &["dump", p],
        &["verify", p],
        &["inspect", s],
        &["--color", "always", "inspect", s],
    ];
    for args in runs {
        let o = Command::new(env!("CARGO_BIN_EXE_b2schema")).args(args).output().unwrap();
        for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            // `--color always` colours with SGR sequences (ESC [ digits m): the program's own.
            let bad = unsafe_bytes(&without_sgr(bytes));
            assert!(bad.is_empty(), "{args:?} {stream}: {bad:?}\n{}", String::from_utf8_lossy(bytes));
        }
        // The names are there, escaped.
        let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        if args.contains(&p) && args[0] != "dump" && args[0] != "verify" {
            assert!(all.contains("\\x1b[2J"), "{args:?}: {all}");
        }
    }
    tables_and_batches(&d);
    let _ = std::fs::remove_dir_all(&d);
}

/// The cells of a CTable and the items of a BatchArray (written by python-blosc2) carry every
/// hostile text: `cat --csv`, `cat` (JSON Lines), `cat --key`, `cat --json` write none of it raw,
/// the CSV has one line per row, and the JSON parses back to the very strings.
fn tables_and_batches(d: &std::path::Path) {
    let script = r#"
import sys, json, blosc2
from dataclasses import dataclass
hostile = json.loads(sys.argv[3])
@dataclass
class Row:
    id: int = blosc2.field(blosc2.int64())
    name: str = blosc2.field(blosc2.vlstring())
    s: str = blosc2.field(blosc2.string(max_length=24))
t = blosc2.CTable(Row, urlpath=sys.argv[1], mode="w")
for i, h in enumerate(hostile):
    t.append((i, h, h))
t.close()
b = blosc2.BatchArray(urlpath=sys.argv[2], mode="w")
b.append(hostile + [{"k" + hostile[0]: hostile[5]}])
"#;
    let (table, batch) = (d.join("hostile.b2d"), d.join("hostile.b2b"));
    let hostile = serde_json::to_string(&HOSTILE).unwrap();
    let out = Command::new(b2schema_tests::python())
        .arg("-c")
        .arg(script)
        .args([table.as_os_str(), batch.as_os_str(), std::ffi::OsStr::new(&hostile)])
        .output()
        .unwrap();
    assert!(out.status.success(), "python-blosc2: {}", String::from_utf8_lossy(&out.stderr));
    let (t, b) = (table.to_str().unwrap(), batch.to_str().unwrap());
    let runs: [&[&str]; 5] = [
        &["cat", t, "--csv"],
        &["cat", t],
        &["cat", t, "--key", "name"],
        &["cat", b, "--json"],
        &["inspect", "--json", t],
    ];
    for args in runs {
        let o = Command::new(env!("CARGO_BIN_EXE_b2schema")).args(args).output().unwrap();
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            let bad = unsafe_bytes(bytes);
            assert!(bad.is_empty(), "{args:?} {stream}: {bad:?}\n{}", String::from_utf8_lossy(bytes));
        }
        let text = String::from_utf8(o.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let strings: Vec<String> = match args {
            [_, _, "--csv"] => {
                // A header line and a line per row: no cell broke a line.
                assert_eq!(lines.len(), HOSTILE.len() + 1, "{text}");
                assert!(text.contains("\\x1b]0;owned\\x07") && text.contains("\\u{202e}fdp"), "{text}");
                continue;
            }
            ["inspect", ..] => continue,
            [_, _] => lines
                .iter()
                .map(|l| {
                    serde_json::from_str::<serde_json::Value>(l).unwrap()["name"].as_str().unwrap().to_owned()
                })
                .collect(),
            _ => {
                lines.iter().take(HOSTILE.len()).map(|l| serde_json::from_str::<String>(l).unwrap()).collect()
            }
        };
        assert_eq!(strings, HOSTILE, "{args:?}: {text}");
        if args[1] == b {
            let last: serde_json::Value = serde_json::from_str(lines[HOSTILE.len()]).unwrap();
            assert_eq!(last, serde_json::json!({ format!("k{}", HOSTILE[0]): HOSTILE[5] }));
        }
    }
}

/// Runs the binary with `args` on a pseudo-terminal (util-linux's `script`, part of every
/// Debian system): what it writes there, and its exit status.
pub(crate) fn on_a_terminal(args: &[&str]) -> (Vec<u8>, bool) {
    let quoted: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_b2schema"))
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
        .collect();
    let o = Command::new("script")
        .args(["-qec", &quoted.join(" "), "/dev/null"])
        .output()
        .expect("util-linux's script, to give the command a terminal");
    // The terminal ends lines with CR LF (its `onlcr`): back to the program's LF.
    let text = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    (text.into_bytes(), o.status.success())
}

#[test]
fn cat_writes_items_as_text_to_a_terminal_and_never_binary() {
    let d = dir_named("terminal-cat");
    // Bytes a terminal acts on, as the items of a |u1 array, and as the text of a <U array.
    let raw: Vec<u8> = HOSTILE.concat().into_bytes();
    let bytes_path = d.join("bytes.b2nd");
    let n = raw.len();
    NdArray::new(&[n as i64], &[n as i32], &[n as i32], "|u1", 1, Fill::Data(&raw))
        .to_frame()
        .unwrap()
        .write_file(&bytes_path)
        .unwrap();
    let text: Vec<u8> = HOSTILE
        .iter()
        .flat_map(|h| {
            let mut item: Vec<u8> = h.chars().flat_map(|c| (c as u32).to_le_bytes()).collect();
            item.resize(4 * 12, 0);
            item
        })
        .collect();
    let text_path = d.join("text.b2nd");
    NdArray::new(&[7], &[7], &[7], "<U12", 48, Fill::Data(&text))
        .to_frame()
        .unwrap()
        .write_file(&text_path)
        .unwrap();
    let schunk = d.join("s.b2frame");
    let mut frame = b2schema::writer::Frame::new(1);
    frame.chunksize = raw.len() as i32;
    let chunk = b2schema::writer::chunk::memcpy(&raw, 1, 0, &Default::default()).unwrap();
    frame.chunks = vec![b2schema::writer::Chunk::Stored(chunk)];
    frame.write_file(&schunk).unwrap();
    let (b, t, s) = (bytes_path.to_str().unwrap(), text_path.to_str().unwrap(), schunk.to_str().unwrap());

    // On a terminal: the numbers, one line, and no byte of the data itself.
    let (out, ok) = on_a_terminal(&["cat", b]);
    let shown: Vec<String> = raw.iter().map(|v| v.to_string()).collect();
    assert!(ok, "{}", String::from_utf8_lossy(&out));
    assert_eq!(String::from_utf8_lossy(&out).trim_end(), shown.join(" "));
    // Strings shown quoted and escaped, a slice of them too, through a pipe with --text.
    for args in [&["cat", t][..], &["cat", t, "--slice", "1:6"], &["cat", "--text", t]] {
        let (out, ok) = if args.contains(&"--text") {
            let o = Command::new(env!("CARGO_BIN_EXE_b2schema")).args(args).output().unwrap();
            (o.stdout, o.status.success())
        } else {
            on_a_terminal(args)
        };
        assert!(ok, "{args:?}");
        let bad = unsafe_bytes(&out);
        assert!(bad.is_empty(), "{args:?}: {bad:?}\n{}", String::from_utf8_lossy(&out));
        assert!(String::from_utf8_lossy(&out).contains("\\u{1b}[2J"), "{}", String::from_utf8_lossy(&out));
    }
    // Binary data is refused on a terminal, with the way to get it; through a pipe it flows.
    for args in [&["cat", s][..], &["cat", b, "--npy"]] {
        let (out, ok) = on_a_terminal(args);
        assert!(!ok, "{args:?}");
        assert!(String::from_utf8_lossy(&out).contains("-o FILE"), "{}", String::from_utf8_lossy(&out));
        assert!(unsafe_bytes(&without_sgr(&out)).is_empty(), "{args:?}");
    }
    let piped = Command::new(env!("CARGO_BIN_EXE_b2schema")).args(["cat", s]).output().unwrap();
    assert_eq!(piped.stdout, raw);
    let _ = std::fs::remove_dir_all(&d);
}

/// The README's first example, run on a terminal from the repository's root: the lines it shows.
#[test]
fn the_readme_first_look_prints_what_it_shows() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let marker = "<!-- first-look -->\n```console\n$ b2schema ";
    let start = readme.find(marker).expect("the first look") + marker.len();
    let block = &readme[start..readme.find("```\n<!-- /first-look -->").expect("its end")];
    let (command, shown) = block.split_once('\n').unwrap();
    let args: Vec<String> = command
        .split(' ')
        .map(|a| if a.starts_with("tests/") { root.join(a).to_string_lossy().into_owned() } else { a.into() })
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (out, ok) = on_a_terminal(&args);
    assert!(ok, "{}", String::from_utf8_lossy(&out));
    assert_eq!(String::from_utf8_lossy(&out), shown);
}
