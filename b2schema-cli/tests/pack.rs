//! `b2schema pack` and `unpack` against NumPy and python-blosc2 4.14.1 (one python process
//! writes the inputs, one checks the outputs): every array packed opens in python-blosc2 with
//! equal data and python-blosc2's default chunk and block shapes (or the ones asked), and
//! unpacks to a `.npy` file NumPy loads equal, and `cat --npy --slice S` writes what NumPy's
//! `arr[S]` gives. This test never skips.

use std::process::Command;

use b2schema_tests::{python, repo_root};

fn b2schema(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_b2schema")).args(args).output().unwrap();
    assert!(out.status.success(), "b2schema {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn numpy_arrays_pack_and_unpack() {
    let dir = std::env::temp_dir().join(format!("b2schema-pack-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = repo_root().join("tests/python/npy_roundtrip.py");
    let py = python();
    let run = |mode: &str| Command::new(&py).arg(&script).arg(mode).arg(&dir).output().unwrap();
    let made = run("make");
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let names: Vec<String> = serde_json::from_slice(&std::fs::read(dir.join("cases.json")).unwrap()).unwrap();
    // A few cases with explicit parameters; the rest with the defaults.
    let explicit: &[(&str, &[&str], &str, &str)] = &[
        ("i4-2d", &["--codec", "lz4", "--clevel", "9", "--filter", "bitshuffle"], "100,350", "20,70"),
        (
            "f8-1d",
            &["--codec", "blosclz", "--filter", "delta", "--filter", "shuffle", "--nthreads", "3"],
            "25000",
            "5000",
        ),
        ("u1-3d", &["--codec", "zlib", "--clevel", "1", "--filter", "none"], "20,25,60", "10,5,60"),
        ("c16-2d", &["--codec", "lz4hc", "--filter", "shuffle", "--filter", "bytedelta"], "10,10", "5,10"),
    ];
    let mut options = serde_json::Map::new();
    for name in &names {
        let npy = dir.join(format!("{name}.npy"));
        let b2nd = dir.join(format!("{name}.b2nd"));
        let back = dir.join(format!("{name}.back.npy"));
        let (npy, b2nd, back) = (npy.to_str().unwrap(), b2nd.to_str().unwrap(), back.to_str().unwrap());
        let mut args = vec!["pack", npy, b2nd];
        if let Some((_, extra, chunks, blocks)) = explicit.iter().find(|e| e.0 == name) {
            args.extend_from_slice(extra);
            args.extend_from_slice(&["--chunks", chunks, "--blocks", blocks]);
            let shape = |s: &str| s.split(',').map(|d| d.parse::<u64>().unwrap()).collect::<Vec<_>>();
            options
                .insert(name.clone(), serde_json::json!({"chunks": shape(chunks), "blocks": shape(blocks)}));
        }
        b2schema(&args);
        b2schema(&["unpack", b2nd, back]);
    }
    std::fs::write(dir.join("options.json"), serde_json::to_vec(&options).unwrap()).unwrap();
    // `cat --npy [--slice S]`: NumPy loads what `arr[S]` gives (dtype, shape with the dimensions
    // of single indices dropped, items).
    let slices: &[(&str, &[&str])] = &[
        ("i4-2d", &["5,:", "-1", "17:290,3", "2:9,100:650", "299,699", "0:0,:"]),
        ("u1-3d", &["1:39,7,5:55", "3", ":,:,-2", "-3:,-4:,1:2"]),
        ("f8-1d", &["-300:", "99999"]),
        ("16d", &["1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,:"]),
        ("struct", &["3:9"]),
        ("U5", &["7"]),
        ("scalar", &[""]),
    ];
    let mut cuts = serde_json::Map::new();
    for (name, texts) in slices {
        let b2nd = dir.join(format!("{name}.b2nd"));
        for (i, text) in texts.iter().enumerate() {
            let out = dir.join(format!("{name}.slice{i}.npy"));
            let mut args = vec!["cat", "--npy", "-o", out.to_str().unwrap(), b2nd.to_str().unwrap()];
            if !text.is_empty() {
                args.extend_from_slice(&["--slice", text]);
            }
            b2schema(&args);
        }
        cuts.insert(name.to_string(), serde_json::json!(texts));
    }
    std::fs::write(dir.join("slices.json"), serde_json::to_vec(&cuts).unwrap()).unwrap();
    let checked = run("check");
    assert!(
        checked.status.success(),
        "python-blosc2 or NumPy disagree:\n{}{}",
        String::from_utf8_lossy(&checked.stdout),
        String::from_utf8_lossy(&checked.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
