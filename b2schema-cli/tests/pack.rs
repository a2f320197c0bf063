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
            &["--codec", "blosclz", "--filter", "delta", "--filter", "shuffle", "--threads", "3"],
            "25000",
            "5000",
        ),
        ("u1-3d", &["--codec", "zlib", "--clevel", "1", "--filter", "none"], "20,25,60", "10,5,60"),
        ("c16-2d", &["--codec", "lz4hc", "--filter", "shuffle", "--filter", "bytedelta"], "10,10", "5,10"),
        // One chunk, written out in pieces as its blocks are done (on 2 threads, and on 1 with
        // incompressible items: a memcpy chunk once its raw streams pass its size).
        ("walk-one-chunk", &["--codec", "lz4", "--threads", "2"], "400,1000", "8,1000"),
        ("noise-one-chunk", &["--threads", "1"], "2048,1024", "16,1024"),
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

/// `pack --codec zfp_acc|zfp_prec|zfp_rate --codec-meta N` and `--filter ndcell:CELL`,
/// `ndmean:CELL`, `int_trunc:BITS`: python-blosc2 opens what is packed with the codec, filters
/// and metas asked, reads what `unpack` gives, within ZFP's tolerance of the input, and the
/// integer truncation is exact; ZFP with shuffle is refused as c-blosc2 refuses it.
#[test]
fn plugin_codecs_and_filters_pack_as_python_blosc2_reads_them() {
    let dir = std::env::temp_dir().join(format!("b2schema-pack-plugins-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let py = python();
    let p = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let script = format!(
        "import numpy as np\nnp.save({f8:?}, np.sin(np.arange(90 * 130) * 0.01).reshape(90, 130))\n\
         np.save({i4:?}, (np.arange(90 * 130) * 7919 % 100003).astype('<i4').reshape(90, 130))\n",
        f8 = p("f8.npy"),
        i4 = p("i4.npy")
    );
    let made = Command::new(&py).arg("-c").arg(&script).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let cases: &[(&str, &str, &[&str])] = &[
        ("acc", "f8.npy", &["--codec", "zfp_acc", "--codec-meta", "-3"]),
        ("prec", "f8.npy", &["--codec", "zfp_prec", "--codec-meta", "20"]),
        ("rate", "f8.npy", &["--codec", "zfp_rate", "--codec-meta", "25"]),
        ("mean", "f8.npy", &["--filter", "ndmean:5", "--filter", "shuffle"]),
        (
            "cell",
            "i4.npy",
            &["--codec", "lz4", "--filter", "ndcell:4", "--filter", "int_trunc:20", "--filter", "shuffle"],
        ),
    ];
    for (name, input, extra) in cases {
        let mut args = vec!["pack".to_string(), p(input), p(&format!("{name}.b2nd"))];
        args.extend(extra.iter().map(|s| s.to_string()));
        args.extend(["--chunks", "50,70", "--blocks", "20,30"].map(String::from));
        b2schema(&args.iter().map(String::as_str).collect::<Vec<_>>());
        b2schema(&["unpack", &p(&format!("{name}.b2nd")), &p(&format!("{name}.back.npy"))]);
    }
    let check = format!(
        "import blosc2, numpy as np\nd = {dir:?}\nf8 = np.load(d + '/f8.npy'); i4 = np.load(d + '/i4.npy')\n\
         def read(n):\n    b = blosc2.open(d + '/' + n + '.b2nd', mode='r')\n    back = np.load(d + '/' + n + '.back.npy')\n\
         \x20   assert np.array_equal(b[()], back), n\n    return b, back\n\
         b, x = read('acc'); assert b.schunk.cparams.codec == blosc2.Codec.ZFP_ACC and b.schunk.cparams.codec_meta == 253\n\
         assert np.abs(x - f8).max() <= 1e-3\n\
         b, x = read('prec'); assert b.schunk.cparams.codec == blosc2.Codec.ZFP_PREC and np.abs(x - f8).max() < 1e-3\n\
         b, x = read('rate'); assert b.schunk.cparams.codec == blosc2.Codec.ZFP_RATE and b.schunk.cparams.codec_meta == 25\n\
         assert b.schunk.cbytes < f8.nbytes / 2\n\
         b, x = read('mean'); assert b.schunk.cparams.filters[:2] == [blosc2.Filter.NDMEAN, blosc2.Filter.SHUFFLE]\n\
         assert (x[:5, :5] == x[0, 0]).all() and abs(x[0, 0] - f8[:5, :5].mean()) < 1e-12\n\
         b, x = read('cell'); assert b.schunk.cparams.filters_meta[:2] == [4, 20]\n\
         assert np.array_equal(x, i4 & ~((1 << 12) - 1))\nprint('ok')\n",
        dir = dir.to_str().unwrap()
    );
    let out = Command::new(&py).arg("-c").arg(&check).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let refused = Command::new(env!("CARGO_BIN_EXE_b2schema"))
        .args(["pack", &p("f8.npy"), &p("bad.b2nd"), "--codec", "zfp_rate", "--filter", "shuffle"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no shuffle or bitshuffle with ZFP"));
    let _ = std::fs::remove_dir_all(&dir);
}
