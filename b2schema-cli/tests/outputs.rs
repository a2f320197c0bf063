//! Issue 45, outputs and stores: no command writes over, renames over or truncates a file it
//! read in the same run (a store, each member and CTable column file of a `.b2d`, an embed
//! store, a sparse frame's chunk files, the `.npy` being packed), through any name; `-o LINK`
//! follows the link as `cp` does and refuses one that leads nowhere; `ls`, `du`, `verify` and
//! `diff` read stores, and skip (with a warning) a file of a scanned folder that is not Blosc2.
//! Every fixture is a copy, in a folder of its own, of python-blosc2's files in `tests/data/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use b2schema_tests::repo_root;

struct Temp(PathBuf);

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// A `.npy` of three `<f8` (NumPy's header, padded to 128 bytes).
fn npy() -> Vec<u8> {
    let dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }";
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&118u16.to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.resize(127, b' ');
    out.push(b'\n');
    for v in [1.0f64, 2.0, 3.0] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// A new folder `name` holding copies of the stores, the CTable, two sparse frames, a frame
/// (`f8.b2nd`), a `.npy` (`a.npy`) and an empty folder `sub` (for `sub/../NAME`).
fn fixtures(name: &str) -> Temp {
    let root = std::env::temp_dir().join(format!("b2schema-outputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let data = repo_root().join("tests/data");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    for f in ["dict.b2z", "embed.b2e", "kinds.b2z", "small.b2z"] {
        std::fs::copy(data.join("stores").join(f), root.join(f)).unwrap();
    }
    copy_dir(&data.join("stores/dict.b2d"), &root.join("dict.b2d"));
    copy_dir(&data.join("tables/table.b2d"), &root.join("table.b2d"));
    for d in ["sparse-schunk.b2frame", "sparse-2d-i4.b2nd"] {
        copy_dir(&data.join("fixtures").join(d), &root.join(d));
    }
    std::fs::copy(data.join("fixtures/dtype-f8.b2nd"), root.join("f8.b2nd")).unwrap();
    std::fs::write(root.join("a.npy"), npy()).unwrap();
    Temp(root)
}

/// Every entry under `root`: a file's bytes, a link's target, a folder.
fn tree(root: &Path) -> BTreeMap<PathBuf, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let (p, t) = (e.path(), e.file_type().unwrap());
            let rel = p.strip_prefix(root).unwrap().to_path_buf();
            if t.is_symlink() {
                out.insert(rel, format!("link to {}", std::fs::read_link(&p).unwrap().display()));
            } else if t.is_dir() {
                out.insert(rel, "folder".into());
                walk(root, &p, out);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                out.insert(rel, format!("{} bytes {:?}", bytes.len(), bytes));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn b2schema(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_b2schema")).current_dir(dir).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The writing commands, each with the file it reads that its output `O` is aimed at.
const WRITES: &[(&str, &[&str])] = &[
    ("dict.b2z", &["cat", "dict.b2z", "--key", "/big", "--npy", "-o", "O"]),
    ("dict.b2z", &["cat", "dict.b2z", "--key", "/x", "-o", "O"]),
    ("kinds.b2z", &["cat", "kinds.b2z", "--key", "/schunk", "-o", "O"]),
    ("embed.b2e", &["cat", "embed.b2e", "--key", "/big", "-o", "O"]),
    ("dict.b2d/big.b2nd", &["cat", "dict.b2d", "--key", "/big", "--npy", "-o", "O"]),
    ("dict.b2d/g/x.b2nd", &["cat", "dict.b2d", "--key", "/g/x", "-o", "O"]),
    ("dict.b2d/embed.b2e", &["cat", "dict.b2d", "--key", "/x", "-o", "O"]),
    ("table.b2d/_cols/id.b2nd", &["cat", "table.b2d", "--csv", "-o", "O"]),
    ("table.b2d/_cols/id.b2nd", &["cat", "table.b2d", "--key", "id", "--csv", "-o", "O"]),
    ("table.b2d/_cols/name.b2b", &["cat", "table.b2d", "-o", "O"]),
    ("table.b2d/_valid_rows.b2nd", &["cat", "table.b2d", "--csv", "-o", "O"]),
    ("sparse-schunk.b2frame/00000001.chunk", &["cat", "sparse-schunk.b2frame", "-o", "O"]),
    ("sparse-schunk.b2frame/chunks.b2frame", &["cat", "sparse-schunk.b2frame", "-o", "O"]),
    ("sparse-2d-i4.b2nd/00000000.chunk", &["cat", "sparse-2d-i4.b2nd", "--npy", "-o", "O"]),
    ("sparse-2d-i4.b2nd/00000000.chunk", &["unpack", "sparse-2d-i4.b2nd", "O"]),
    ("dict.b2d/big.b2nd", &["unpack", "dict.b2d/big.b2nd", "O"]),
    ("f8.b2nd", &["unpack", "f8.b2nd", "O"]),
    ("f8.b2nd", &["cat", "f8.b2nd", "-o", "O"]),
    ("a.npy", &["pack", "a.npy", "O"]),
];

/// Every writing command aimed at a file it reads, by the file's name, a symbolic link to it,
/// a hard link to it and a `sub/../` spelling: refused with exit 2, the message naming the
/// input, and every file of the folder byte for byte as it was (no temporary file left).
#[cfg(unix)]
#[test]
fn no_output_is_written_over_a_file_read_whatever_its_name() {
    let mut cases = 0;
    for (i, (target, args)) in WRITES.iter().enumerate() {
        for spelling in ["name", "symlink", "hardlink", "dotdot"] {
            let t = fixtures(&format!("matrix-{i}-{spelling}"));
            let root = &t.0;
            let out = match spelling {
                "name" => target.to_string(),
                "symlink" => {
                    std::os::unix::fs::symlink(root.join(target), root.join("link.out")).unwrap();
                    "link.out".into()
                }
                "hardlink" => {
                    std::fs::hard_link(root.join(target), root.join("hard.out")).unwrap();
                    "hard.out".into()
                }
                _ => format!("sub/../{target}"),
            };
            let before = tree(root);
            let args: Vec<&str> = args.iter().map(|a| if *a == "O" { out.as_str() } else { a }).collect();
            let o = b2schema(root, &args);
            let err = text(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?} ({spelling} of {target}): {err}");
            assert!(
                err.contains(&format!("{out}: is the input"))
                    && err.contains("refusing to write over what is being read"),
                "{args:?}: {err}"
            );
            assert_eq!(tree(root), before, "{args:?} ({spelling} of {target}) changed the user's files");
            cases += 1;
        }
    }
    assert_eq!(cases, WRITES.len() * 4);
}

/// `vlmeta set` and `del` on what is not a frame file (a `.b2z`, a `.b2d`, a sparse frame's
/// chunk file) are refused, and leave every file as it was.
#[test]
fn vlmeta_writes_nothing_into_a_store_or_a_chunk_file() {
    let t = fixtures("vlmeta");
    let root = &t.0;
    let before = tree(root);
    for path in ["dict.b2z", "dict.b2d", "table.b2d", "sparse-schunk.b2frame/00000001.chunk"] {
        for args in [vec!["vlmeta", "set", path, "k", "1"], vec!["vlmeta", "del", path, "k"]] {
            let o = b2schema(root, &args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        }
    }
    assert_eq!(tree(root), before);
}

/// `-o LINK` follows the link as `cp` does: the file it leads to gets the data and the link
/// stays; a link that leads nowhere (into a missing folder, or to a missing file) is refused
/// with exit 2 and nothing is created.
#[cfg(unix)]
#[test]
fn an_output_link_is_followed_as_cp_does_and_a_dangling_one_refused() {
    let t = fixtures("links");
    let root = &t.0;
    let want = b2schema(root, &["cat", "f8.b2nd"]).stdout;
    assert!(!want.is_empty());
    std::fs::write(root.join("sub/old.bin"), b"old").unwrap();
    std::os::unix::fs::symlink("sub/old.bin", root.join("to-old")).unwrap();
    let o = b2schema(root, &["cat", "f8.b2nd", "-o", "to-old"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(std::fs::symlink_metadata(root.join("to-old")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(root.join("sub/old.bin")).unwrap(), want);
    for (link, to) in [("nowhere", "missing/folder/out.bin"), ("no-file", "sub/absent.bin")] {
        std::os::unix::fs::symlink(to, root.join(link)).unwrap();
        let before = tree(root);
        let o = b2schema(root, &["cat", "f8.b2nd", "-o", link]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{link}: {err}");
        assert!(err.contains(&format!("{link}: is a symbolic link to {to}, which leads nowhere")), "{err}");
        assert_eq!(tree(root), before, "{link}");
    }
}

/// `ls`, `du` and `verify` read a `.b2z`, a `.b2d` and a `.b2e` as stores, a line per member
/// (`STORE/KEY`); `diff` compares two stores member by member and refuses a store against a
/// frame.
#[test]
fn ls_du_verify_and_diff_read_stores() {
    let t = fixtures("stores");
    let root = &t.0;
    for store in ["dict.b2z", "dict.b2d", "embed.b2e"] {
        let o = b2schema(root, &["ls", store]);
        assert_eq!(o.status.code(), Some(0), "{store}: {}", text(&o.stderr));
        let out = text(&o.stdout);
        let keys: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
        let want: Vec<String> =
            ["big", "g/h/deep", "g/x", "x"].iter().map(|k| format!("{store}/{k}")).collect();
        assert_eq!(keys, want, "{out}");
        assert!(out.starts_with(&format!("{store}/big\t12x50\t")), "{out}");
        let o = b2schema(root, &["du", store]);
        assert_eq!(o.status.code(), Some(0), "{store}: {}", text(&o.stderr));
        assert!(text(&o.stdout).starts_with("4\t"), "{}", text(&o.stdout));
        let o = b2schema(root, &["verify", store]);
        assert_eq!(o.status.code(), Some(0), "{store}: {}", text(&o.stderr));
        let out = text(&o.stdout);
        assert_eq!(out.lines().count(), 4, "{out}");
        assert!(out.lines().all(|l| l.starts_with(&format!("ok {store}/"))), "{out}");
    }
    let o = b2schema(root, &["verify", "table.b2d", "kinds.b2z"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(text(&o.stdout).contains("ok table.b2d/_cols/id: "), "{}", text(&o.stdout));

    let o = b2schema(root, &["diff", "dict.b2z", "dict.b2z"]);
    assert_eq!((o.status.code(), text(&o.stdout)), (Some(0), String::new()), "{}", text(&o.stderr));
    let o = b2schema(root, &["diff", "dict.b2z", "small.b2z"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("members[/big].shape: [12,50] -> (none)\n"), "{out}");
    assert!(out.contains("members[/a].shape: (none) -> [4]\n"), "{out}");
    let o = b2schema(root, &["diff", "dict.b2d", "f8.b2nd"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("dict.b2d is a store and f8.b2nd is not"), "{}", text(&o.stderr));
}

/// A folder scanned by `ls`, `du` and `verify` (with and without `-r`): a store in it is listed
/// by members, a file that is not Blosc2 is skipped with a warning and leaves the exit code 0;
/// the same file named on the command line still fails with exit 2.
#[test]
fn a_scan_lists_stores_and_skips_what_is_not_blosc2() {
    let t = fixtures("scan");
    let root = &t.0;
    let d = root.join("scan");
    std::fs::create_dir_all(d.join("deeper")).unwrap();
    std::fs::copy(root.join("dict.b2z"), d.join("a.b2z")).unwrap();
    std::fs::copy(root.join("f8.b2nd"), d.join("f8.b2nd")).unwrap();
    std::fs::write(d.join("notes.txt"), b"not a frame\n").unwrap();
    std::fs::write(d.join("deeper/README"), b"# hi\n").unwrap();
    std::fs::copy(root.join("embed.b2e"), d.join("deeper/e.b2e")).unwrap();
    for args in [
        vec!["ls", "scan"],
        vec!["ls", "-r", "scan"],
        vec!["du", "-r", "scan"],
        vec!["verify", "scan"],
        vec!["verify", "-r", "scan"],
    ] {
        let o = b2schema(root, &args);
        let (out, err) = (text(&o.stdout), text(&o.stderr));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {out}{err}");
        assert!(
            err.contains("b2schema: warning: scan/notes.txt: not a Blosc2 file, skipped"),
            "{args:?}: {err}"
        );
        let recursive = args.contains(&"-r");
        assert_eq!(err.contains("scan/deeper/README: not a Blosc2 file"), recursive, "{args:?}: {err}");
        if args[0] == "du" {
            assert!(out.starts_with("9\t"), "4 + 4 members and a frame: {out}");
        } else {
            assert!(out.contains("scan/a.b2z/g/h/deep"), "{args:?}: {out}");
            assert!(out.contains("scan/f8.b2nd"), "{args:?}: {out}");
            assert_eq!(out.contains("scan/deeper/e.b2e/big"), recursive, "{args:?}: {out}");
        }
    }
    for cmd in ["ls", "du", "verify"] {
        let o = b2schema(root, &[cmd, "scan/notes.txt"]);
        assert_eq!(o.status.code(), Some(2), "{cmd}: a file named is read, and fails");
        assert!(text(&o.stderr).contains("not a Blosc2 frame"), "{}", text(&o.stderr));
    }
}
