//! The surfaces of issue 32 other than the terminal and the viewer, attacked as a user's files
//! and arguments would: `.npy` headers made from a file's dtype string, outputs written whole
//! or not at all and never over the input, `pack`'s `.npy` inputs, and inputs that are not
//! regular files (a FIFO, `/dev/zero`), opened without blocking and refused by what they are.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use b2schema::writer::{Fill, NdArray};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("b2schema-surfaces-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the command under `prlimit` (512 MiB of address space, 5 s of CPU, as the crafted files
/// of `hostile_files.rs`), killing it (and failing) after 10 s: nothing here may block.
fn run(args: &[&str]) -> Output {
    let mut child = Command::new("prlimit")
        .args(["--as=536870912", "--cpu=5", "--", env!("CARGO_BIN_EXE_b2schema")])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("{args:?} still running after 10 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A 2x3 array of `typesize`-byte items whose b2nd metalayer says `dtype`.
fn array_with_dtype(dtype: &str, typesize: usize) -> Vec<u8> {
    let data = vec![1u8; 6 * typesize];
    let mut f =
        NdArray::new(&[2, 3], &[2, 3], &[2, 3], &format!("|V{typesize}"), typesize, Fill::Data(&data))
            .to_frame()
            .unwrap();
    let meta = b2schema::b2nd::B2nd {
        version: 0,
        ndim: 2,
        shape: vec![2, 3],
        chunkshape: vec![2, 3],
        blockshape: vec![2, 3],
        dtype_format: 0,
        dtype,
    };
    f.metalayers[0].1 = b2schema::encode_to_vec(&meta).unwrap();
    f.to_vec().unwrap()
}

/// The `.npy` header's dict and its `descr`, parsed as NumPy parses the header: a Python dict
/// literal with exactly the keys `descr`, `fortran_order` and `shape`.
fn npy_dict(bytes: &[u8]) -> String {
    assert_eq!(&bytes[..6], b"\x93NUMPY");
    let (hlen, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        _ => (u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, 12),
    };
    assert_eq!((start + hlen) % 64, 0, "the data is aligned");
    let dict = std::str::from_utf8(&bytes[start..start + hlen]).unwrap().trim_end().to_string();
    assert!(dict.starts_with("{'descr': ") && dict.ends_with("'shape': (2, 3), }"), "{dict}");
    // One line: no text of the file broke out of the descr.
    assert!(!dict.contains('\n') && dict.matches("'fortran_order'").count() == 1, "{dict:?}");
    dict
}

#[test]
fn npy_headers_come_from_a_parsed_dtype_never_from_the_stored_string() {
    let d = dir("npy");
    // (stored dtype string, typesize, what the header's descr must be, or None: refused).
    let long = format!("[{}]", (0..3000).map(|i| format!("('f{i}', '|u1')")).collect::<Vec<_>>().join(", "));
    let cases: Vec<(String, usize, Option<&str>)> = vec![
        ("<f8".into(), 8, Some("'<f8'")),
        ("<f8', 'shape': (1,), 'x': '".into(), 8, None),
        ("<f8\\'".into(), 8, None),
        ("<f8\n".into(), 8, None),
        ("[('a', '<i4')".into(), 4, None),
        ("|O".into(), 8, None),
        ("<i8".into(), 4, None),
        ("|V0".into(), 1, None),
        (long, 3000, None),
        ("[('it''s', '<i4')]".into(), 4, None),
        ("[('a\"b', '<i4'), ('c', '<f4')]".into(), 8, Some("[('a\"b', '<i4'), ('c', '<f4')]")),
        ("<U0".into(), 1, None),
        ("|S0".into(), 1, None),
        ("O".into(), 8, None),
        ("[('a', '|O')]".into(), 8, None),
        ("<M8[ms]".into(), 8, Some("'<M8[ms]'")),
        ("{'names': ['a'], 'formats': ['<i4'], 'offsets': [4], 'itemsize': 8}".into(), 8, None),
        ("('<f8', (2,))".into(), 16, None),
        ("\u{202e}<f8".into(), 8, None),
    ];
    for (i, (dtype, ts, want)) in cases.iter().enumerate() {
        let path = d.join(format!("a{i}.b2nd"));
        std::fs::write(&path, array_with_dtype(dtype, *ts)).unwrap();
        let p = path.to_str().unwrap();
        for args in
            [vec!["cat", "--npy", p], vec!["unpack", p, d.join(format!("a{i}.npy")).to_str().unwrap()]]
        {
            let o = run(&args);
            let out = if args[0] == "unpack" {
                std::fs::read(d.join(format!("a{i}.npy"))).ok()
            } else {
                Some(o.stdout.clone())
            };
            match want {
                Some(descr) => {
                    assert!(o.status.success(), "{dtype:?} {args:?}: {}", stderr(&o));
                    let dict = npy_dict(out.as_deref().unwrap());
                    assert!(dict.starts_with(&format!("{{'descr': {descr}, ")), "{dtype:?}: {dict}");
                }
                None => {
                    assert_eq!(o.status.code(), Some(2), "{dtype:?} {args:?} was accepted");
                    assert!(
                        stderr(&o).contains("write the raw items")
                            || stderr(&o).contains("objects")
                            || stderr(&o).contains("0-byte"),
                        "{dtype:?}: {}",
                        stderr(&o)
                    );
                    // Nothing written: no partial .npy file.
                    if args[0] == "unpack" {
                        assert!(out.is_none(), "{dtype:?}: a file was left");
                    } else {
                        assert!(o.stdout.is_empty(), "{dtype:?}: bytes on stdout");
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn outputs_are_whole_or_absent_and_never_the_input() {
    let d = dir("out");
    let a = d.join("a.b2nd");
    let bytes = array_with_dtype("<f8", 8);
    std::fs::write(&a, &bytes).unwrap();
    let link = d.join("link.b2nd");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&a, &link).unwrap();
    let (ap, lp) = (a.to_str().unwrap(), link.to_str().unwrap());
    for args in [
        vec!["unpack", ap, ap],
        vec!["unpack", ap, lp],
        vec!["cat", ap, "-o", ap],
        vec!["cat", "--npy", ap, "-o", lp],
        vec!["pack", ap, ap],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(std::fs::read(&a).unwrap(), bytes, "{args:?} changed its input");
    }
    // A failure half-way (a chunk whose bytes were overwritten) leaves the old output as it was.
    let mut broken = bytes.clone();
    let at = broken.len() / 2;
    broken[at..at + 16].fill(0xff);
    let b = d.join("broken.b2nd");
    std::fs::write(&b, &broken).unwrap();
    let out = d.join("out.bin");
    std::fs::write(&out, b"before").unwrap();
    let o = run(&["cat", b.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    if !o.status.success() {
        assert_eq!(std::fs::read(&out).unwrap(), b"before", "a failed cat left a partial output");
    }
    // Only the outputs and the inputs are in the directory: no temporary file left behind.
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("b2schema-tmp")), "{names:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// A `.npy` file NumPy would write for `descr` and `shape`, with `data`.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    let total = (10 + dict.len() + 1).div_ceil(64) * 64;
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&((total - 10) as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    out.extend_from_slice(data);
    out
}

#[test]
fn pack_refuses_what_it_cannot_store_and_reads_no_more_than_the_header_says() {
    let d = dir("pack");
    let out = d.join("out.b2nd");
    let o_ = out.to_str().unwrap();
    let mut bad_magic = npy("<f8", "(1,)", &[0; 8]);
    bad_magic[5] = b'X';
    let mut hlen_lie = npy("<f8", "(1,)", &[0; 8]);
    hlen_lie[8..10].copy_from_slice(&60_000u16.to_le_bytes());
    let extra_key = {
        let mut v = npy("<f8", "(1,), 'x': 1", &[0; 8]);
        v.truncate(v.len() - 8);
        v.extend_from_slice(&[0; 8]);
        v
    };
    let cases: [(&str, Vec<u8>, &[&str], &str); 12] = [
        ("magic", bad_magic, &[], "magic"),
        ("hlen", hlen_lie, &[], "truncated header"),
        ("extra", extra_key, &[], "NumPy's dict"),
        ("overflow", npy("<f8", "(4294967296, 4294967296, 4294967296)", &[0; 8]), &[], "overflows"),
        ("ndim17", npy("|u1", "(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)", &[0; 1]), &[], "16"),
        ("v0", npy("|V0", "(3,)", &[]), &[], "0-byte"),
        ("s0", npy("|S0", "(3,)", &[]), &["--chunks", "2", "--blocks", "1"], "0-byte"),
        ("u0", npy("<U0", "(3, 2)", &[]), &[], "0-byte"),
        ("obj", npy("|O", "(3,)", &[0; 24]), &[], "objects"),
        ("short", npy("<f8", "(1000,)", &[0; 80]), &[], "truncated"),
        ("huge", npy("<f8", "(1000000000000,)", &[0; 8]), &[], "truncated"),
        ("lie", npy("<f8', 'shape': (1,), 'x': '", "(1,)", &[0; 8]), &[], "NumPy's dict"),
    ];
    for (name, bytes, extra, says) in cases {
        let p = d.join(format!("{name}.npy"));
        std::fs::write(&p, bytes).unwrap();
        let o = run(&[&["pack", p.to_str().unwrap(), o_][..], extra].concat());
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{name}: {}", stderr(&o));
        assert!(!out.exists(), "{name}: an output was written");
    }
    // Devices and FIFOs are refused at once (they were read without end, or blocked).
    let o = run(&["pack", "/dev/zero", o_]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a regular file"), "{}", stderr(&o));
    #[cfg(unix)]
    {
        let fifo = d.join("fifo.npy");
        assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        for args in [
            vec!["pack", fifo.to_str().unwrap(), o_],
            vec!["inspect", fifo.to_str().unwrap()],
            vec!["cat", fifo.to_str().unwrap()],
        ] {
            let o = run(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains("FIFO"), "{args:?}: {}", stderr(&o));
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// A symbolic link flipped between a frame and a FIFO while `inspect` runs: it ends, every
/// time, with the frame's report or a refusal, never blocked (the path was checked before the
/// open, so the FIFO could be opened after the check said "a file").
#[cfg(unix)]
#[test]
fn a_link_flipped_to_a_fifo_never_blocks_inspect() {
    let d = dir("race");
    let frame = d.join("a.b2nd");
    std::fs::write(&frame, array_with_dtype("<f8", 8)).unwrap();
    let fifo = d.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let link = d.join("link.b2nd");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flipper = {
        let (stop, frame, fifo, link) = (stop.clone(), frame.clone(), fifo.clone(), link.clone());
        std::thread::spawn(move || {
            let tmp = link.with_extension("tmp");
            let mut i = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let target: &Path = if i.is_multiple_of(2) { &frame } else { &fifo };
                let _ = std::fs::remove_file(&tmp);
                let _ = std::os::unix::fs::symlink(target, &tmp);
                let _ = std::fs::rename(&tmp, &link);
                i += 1;
            }
        })
    };
    for _ in 0..100 {
        let o = run(&["inspect", link.to_str().unwrap()]);
        assert!(
            o.status.success() || stderr(&o).contains("FIFO") || stderr(&o).contains("No such file"),
            "{}",
            stderr(&o)
        );
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    flipper.join().unwrap();
    let _ = std::fs::remove_dir_all(&d);
}

/// A Fortran-order `.npy` (read whole, then reordered) packs to the same array as its C-order
/// twin (read slab by slab), and a short one is refused as truncated.
#[test]
fn pack_of_fortran_order_items_is_the_c_order_array() {
    let d = dir("pack-fortran");
    // 3 x 4 items 0..12 in C order; Fortran order lists the columns.
    let c: Vec<u8> = (0..12).collect();
    let f: Vec<u8> = (0..4).flat_map(|j| (0..3).map(move |i| i * 4 + j)).collect();
    let fortran = |data: &[u8]| {
        let mut v = npy("|u1", "(3, 4)", data);
        let at = v.windows(5).position(|w| w == b"False").unwrap();
        v.splice(at..at + 5, *b"True ");
        v
    };
    let (pc, pf, ps) = (d.join("c.npy"), d.join("f.npy"), d.join("short.npy"));
    std::fs::write(&pc, npy("|u1", "(3, 4)", &c)).unwrap();
    std::fs::write(&pf, fortran(&f)).unwrap();
    std::fs::write(&ps, fortran(&f[..11])).unwrap();
    let (oc, of) = (d.join("c.b2nd"), d.join("f.b2nd"));
    for (i, o) in [(&pc, &oc), (&pf, &of)] {
        let r =
            run(&["pack", "--chunks", "2,3", "--blocks", "1,2", i.to_str().unwrap(), o.to_str().unwrap()]);
        assert!(r.status.success(), "{}", stderr(&r));
    }
    assert_eq!(std::fs::read(&oc).unwrap(), std::fs::read(&of).unwrap());
    let r = run(&["pack", ps.to_str().unwrap(), d.join("s.b2nd").to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(stderr(&r).contains("truncated"), "{}", stderr(&r));
    let _ = std::fs::remove_dir_all(&d);
}

/// An output that exists and is not a regular file (a FIFO here; `/dev/null` alike) is written
/// straight through and stays what it is: a temporary file renamed over it replaced the node
/// (`cat -o /dev/null` as root left a regular file in place of the device).
#[cfg(unix)]
#[test]
fn outputs_that_are_not_regular_files_are_written_through_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let d = dir("out-fifo");
    let npy_path = d.join("a.npy");
    let items: Vec<u8> = (0..4096u32).flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(&npy_path, npy("<u4", "(64, 64)", &items)).unwrap();
    let packed = d.join("a.b2nd");
    let r = run(&["pack", npy_path.to_str().unwrap(), packed.to_str().unwrap()]);
    assert!(r.status.success(), "{}", stderr(&r));
    for args in [
        vec!["cat", packed.to_str().unwrap(), "-o"],
        vec!["pack", npy_path.to_str().unwrap()],
        vec!["unpack", packed.to_str().unwrap()],
    ] {
        let fifo = d.join("out.fifo");
        let _ = std::fs::remove_file(&fifo);
        assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        let o = run(&[&args[..], &[fifo.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        // Checked before waiting for the reader, which would wait for ever on a replaced node.
        assert!(
            std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(),
            "{args:?}: not a FIFO any more"
        );
        let got = reader.join().unwrap();
        let expected = match args[0] {
            "cat" => items.clone(),
            "pack" => std::fs::read(&packed).unwrap(),
            _ => std::fs::read(&npy_path).unwrap(),
        };
        assert_eq!(got, expected, "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
