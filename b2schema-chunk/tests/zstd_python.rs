//! The zstd decoder against c-blosc2 on chunks python-blosc2 writes: zstd at every clevel
//! (0-9), typesizes 1, 2, 4, 8, 16, five filter pipelines, with and without `use_dict`, each
//! decoded to the bytes c-blosc2 decodes it to. Needs the pinned python-blosc2
//! (`scripts/pyenv.sh`, installed on first use): fails, never skips, without it.

use std::process::Command;

const SCRIPT: &str = r#"
import os, sys
import numpy as np
import blosc2
out = sys.argv[1]
F = blosc2.Filter
PIPES = {"none": [], "shuffle": [F.SHUFFLE], "bitshuffle": [F.BITSHUFFLE],
         "delta-shuffle": [F.DELTA, F.SHUFFLE], "shuffle-bytedelta": [F.SHUFFLE, F.BYTEDELTA]}
rng = np.random.default_rng(29)
n = 160_000
x = np.linspace(0, 40, n // 8)
smooth = (np.sin(x) * np.cos(x / 3) * 1000 + x).astype("<f8").tobytes()
counters = (np.arange(n // 4) // 7 + rng.integers(0, 3, n // 4)).astype("<i4").tobytes()
words = [b"blosc", b"chunk", b"zstd", b"the", b"of", b"frame", b"\n"]
text = b" ".join(words[i] for i in rng.integers(0, len(words), n // 3))[:n]
datasets = [smooth, counters, text]
k = 0
for clevel in range(10):
    for ts in (1, 2, 4, 8, 16):
        for pname, filters in PIPES.items():
            for use_dict in (False, True):
                data = datasets[k % 3]
                k += 1
                c = blosc2.compress2(data, codec=blosc2.Codec.ZSTD, clevel=clevel, typesize=ts, nthreads=1,
                                     filters=filters, filters_meta=[0] * len(filters), use_dict=use_dict)
                name = f"zstd-c{clevel}-ts{ts}-{pname}-dict{int(use_dict)}"
                open(os.path.join(out, name + ".chunk"), "wb").write(c)
                try:
                    d = blosc2.decompress2(c)
                except ValueError:
                    d = None  # c-blosc2 refuses its own chunk (see the Rust side)
                if d is not None:
                    open(os.path.join(out, name + ".out"), "wb").write(d)
print(k)
"#;

#[test]
fn python_blosc2_zstd_chunks_decode_as_c_blosc2_decodes_them() {
    let dir = std::env::temp_dir().join(format!("b2schema-zstd-matrix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(crate::python()).arg("-c").arg(SCRIPT).arg(&dir).output().unwrap();
    assert!(out.status.success(), "python-blosc2 failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let written: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let mut checked = 0;
    let mut dicts = 0;
    let mut refused_by_c_blosc2 = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    names.sort();
    for p in names.iter().filter(|p| p.extension().is_some_and(|x| x == "chunk")) {
        let chunk = std::fs::read(p).unwrap();
        let Ok(want) = std::fs::read(p.with_extension("out")) else {
            // c-blosc2 3.3.5 cannot decompress some of the `use_dict` chunks it writes with the
            // delta or bytedelta filter (12 of these 500): nothing to compare with; ours must
            // still not panic.
            let _ = b2schema_chunk::decompress(&chunk);
            refused_by_c_blosc2.push(p.file_name().unwrap().to_string_lossy().into_owned());
            continue;
        };
        let h = b2schema_chunk::ChunkHeader::parse(&chunk).unwrap();
        dicts += usize::from(h.uses_dict());
        let got = b2schema_chunk::decompress(&chunk).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(got == want, "{}: other bytes than c-blosc2's", p.display());
        checked += 1;
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(checked + refused_by_c_blosc2.len(), written);
    assert_eq!(written, 500);
    assert!(
        refused_by_c_blosc2.len() <= 12
            && refused_by_c_blosc2.iter().all(|n| n.ends_with("dict1.chunk") && n.contains("delta")),
        "c-blosc2 refused more of its chunks than expected: {refused_by_c_blosc2:?}"
    );
    // use_dict made dictionary chunks (c-blosc2 skips the dictionary for clevel 0 and small chunks).
    assert!(dicts >= 100, "only {dicts} dictionary chunks");
}
