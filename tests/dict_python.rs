//! Dictionary chunks (`use_dict`) against the reference, both ways, in one python process:
//! b2schema compresses zstd, lz4 and lz4hc chunks with a dictionary made from their blocks, and
//! python-blosc2 4.14.1 decompresses them (`blosc2.decompress2`); python-blosc2 compresses the
//! same data with `use_dict=True` (zstd, lz4, lz4hc) and b2schema decompresses its chunks. Both
//! sides must put a dictionary in the chunks large enough for one (the `BLOSC2_USEDICT` bit)
//! and none in the small ones; b2schema's lz4 and lz4hc dictionary chunks are python-blosc2's
//! bytes. This test never skips: without python-blosc2
//! (`scripts/pyenv.sh`) it fails. `B2SCHEMA_KEEP_DICT=1` keeps the chunks (in the temporary
//! directory) for a look.

use b2schema::chunk::compress::{self, MIN_USEFUL_DICT, Params};
use b2schema::chunk::{self, ChunkHeader, Codec, Filter};
use b2schema_tests::python_checks;
use serde_json::{Value, json};

/// Items that compress like real data: a slow signal with noise, repeated words for bytes.
fn data(ts: usize, nbytes: usize, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    let mut noise = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let words: [&[u8]; 8] =
        [b"blosc ", b"chunk ", b"frame ", b"zstd ", b"dictionary ", b"of ", b"the ", b"\n"];
    let mut out = Vec::with_capacity(nbytes + 16);
    let mut i = 0u64;
    while out.len() < nbytes {
        let r = noise();
        match ts {
            4 => out.extend_from_slice(&((i as f32 * 0.01).sin() * 100.0 + (r % 7) as f32).to_le_bytes()),
            8 => out.extend_from_slice(&(i / 5 + r % 3).to_le_bytes()),
            _ => out.extend_from_slice(words[(r % 8) as usize]),
        }
        i += 1;
    }
    out.truncate(nbytes);
    out
}

/// A chunk's `blosc2_flags` byte has `BLOSC2_USEDICT`.
fn has_dict(chunk: &[u8]) -> bool {
    ChunkHeader::parse(chunk).unwrap().uses_dict()
}

/// One case: its manifest entry, the input, our chunk, whether a dictionary is due.
struct Case {
    manifest: Value,
    input: Vec<u8>,
    ours: Vec<u8>,
    dict_expected: bool,
}

#[test]
fn python_blosc2_and_b2schema_read_each_others_dictionary_chunks() {
    let dir = std::env::temp_dir().join(format!("b2schema-dict-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // (nbytes, whether c-blosc2 makes a dictionary: at least 20 * 256 bytes).
    let sizes = [(MIN_USEFUL_DICT * 20 - 100, false), (200_000, true), (1 << 20, true)];
    let none = [Filter::NoFilter; 6];
    let mut shuffle = none;
    shuffle[5] = Filter::Shuffle;
    let mut cases: Vec<Case> = Vec::new();
    for (codec, cname) in [(Codec::Zstd, "zstd"), (Codec::Lz4, "lz4"), (Codec::Lz4hc, "lz4hc")] {
        for (ts, filters) in [(1usize, none), (4, shuffle), (8, shuffle)] {
            for (nbytes, dict_expected) in sizes {
                for clevel in [1u8, 5, 9] {
                    let name = format!("{cname}-ts{ts}-n{nbytes}-c{clevel}");
                    let input = data(ts, nbytes, u64::from(clevel) * 31 + ts as u64);
                    let data_path = dir.join(format!("{name}.data"));
                    std::fs::write(&data_path, &input).unwrap();
                    let p = {
                        let mut p = Params::new(ts);
                        p.codec = codec;
                        p.clevel = clevel;
                        p.filters = filters;
                        p.use_dict = true;
                        p
                    };
                    let ours = compress::compress(&input, &p).unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(has_dict(&ours), dict_expected, "{name}: dictionary flag of our chunk");
                    assert_eq!(chunk::decompress(&ours).unwrap(), input, "{name}: our own chunk");
                    std::fs::write(dir.join(format!("{name}.ours")), &ours).unwrap();
                    let manifest = json!({
                        "name": name, "data": data_path, "codec": codec.id(), "clevel": clevel, "typesize": ts,
                        "filters": filters.map(Filter::id), "theirs": dir.join(format!("{name}.theirs")),
                        "ours": dir.join(format!("{name}.ours")),
                    });
                    cases.push(Case { manifest, input, ours, dict_expected });
                }
            }
        }
    }
    let entries: Vec<&Value> = cases.iter().map(|c| &c.manifest).collect();
    python_checks("dict_chunks.py", &dir, &entries);

    let mut sizes_line = Vec::new();
    for c in &cases {
        let name = c.manifest["name"].as_str().unwrap();
        let theirs = std::fs::read(c.manifest["theirs"].as_str().unwrap()).unwrap();
        assert_eq!(has_dict(&theirs), c.dict_expected, "{name}: dictionary flag of python's chunk");
        let got = chunk::decompress(&theirs).unwrap_or_else(|e| panic!("{name}: python's chunk: {e}"));
        assert!(got == c.input, "{name}: python's chunk decodes to other data");
        let same = if c.ours == theirs { " (byte-identical)" } else { "" };
        // lz4 and lz4hc: c-blosc2's dictionary (its raw samples) and liblz4's dictionary
        // compression, ported: the same bytes as python-blosc2's chunk.
        if !name.starts_with("zstd") {
            assert!(
                c.ours == theirs,
                "{name}: not python-blosc2's bytes ({} against {})",
                c.ours.len(),
                theirs.len()
            );
        }
        sizes_line.push(format!("{name} ours {} theirs {}{same}", c.ours.len(), theirs.len()));
    }
    eprintln!("dictionary chunk sizes:\n{}", sizes_line.join("\n"));
    if std::env::var_os("B2SCHEMA_KEEP_DICT").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
