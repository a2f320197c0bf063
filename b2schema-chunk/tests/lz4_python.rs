//! The LZ4 and LZ4HC encoders against c-blosc2's, byte for byte, over the space of data and
//! levels: proptest draws cases (lz4 or lz4hc; the shapes of [`common::data`], short repeating
//! patterns that reach lz4hc level 9's repeated-pattern analysis, mixtures of both; clevel 1 to
//! 9; typesize; shuffle or not; automatic or set blocksize, any length, all zeros or zero runs), python-blosc2 compresses them all
//! in one process and every chunk b2schema writes must be c-blosc2's bytes. A case that differs is left on disk with its
//! parameters in the failure message. Needs the pinned python-blosc2 (`scripts/pyenv.sh`):
//! fails, never skips, without it.

use std::fmt::Write as _;
use std::process::Command;

use b2schema_chunk::compress::compress;
use b2schema_chunk::decompress;
use b2schema_chunk::{Codec, Filter, Params};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};

use crate::common;

const SCRIPT: &str = r#"
import os, sys
import blosc2
d = sys.argv[1]
F = blosc2.Filter
for line in open(os.path.join(d, "cases")):
    name, codec, ts, clevel, shuffle, blocksize = line.split()
    data = open(os.path.join(d, name + ".bin"), "rb").read()
    filters = [F.NOFILTER] * 5 + [F.SHUFFLE if shuffle == "1" else F.NOFILTER]
    c = blosc2.compress2(data, codec=blosc2.Codec[codec.upper()], clevel=int(clevel), typesize=int(ts), nthreads=1,
                         filters=filters, filters_meta=[0] * 6, blocksize=int(blocksize))
    open(os.path.join(d, name + ".chunk"), "wb").write(c)
"#;

/// Decodes b2schema's chunks whose header says the true cut where c-blosc2's does not, with c-blosc2.
const READ_OURS: &str = r#"
import os, sys
import blosc2
d = sys.argv[1]
for name in sys.argv[2:]:
    data = open(os.path.join(d, name + ".bin"), "rb").read()
    ours = open(os.path.join(d, name + ".ours"), "rb").read()
    assert blosc2.decompress2(ours) == data, name
"#;

/// Repeats of a 1- to 8-byte pattern, now and then broken by a stray byte or a shift, over
/// noise: the runs that liblz4's level 9 analyses as patterns.
fn patterns(max_len: usize) -> impl Strategy<Value = Vec<u8>> {
    (1usize..=8, 0..max_len, any::<u64>(), 0u32..4).prop_map(|(period, n, seed, breaks)| {
        let mut s = seed | 1;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let pattern: Vec<u8> = (0..period).map(|_| next() as u8).collect();
        let mut v = Vec::with_capacity(n);
        while v.len() < n {
            let run = (next() % 5000) as usize;
            v.extend((0..run).map(|i| pattern[i % period]));
            let stray = (next() % u64::from(1 + breaks * 40)) as usize;
            v.extend((0..stray).map(|_| next() as u8));
        }
        v.truncate(n);
        v
    })
}

/// One case: codec, data (sometimes two shapes end to end), typesize, clevel, shuffle, blocksize (0:
/// c-blosc2's automatic one).
fn cases() -> impl Strategy<Value = (Codec, Vec<u8>, usize, u8, bool, usize)> {
    let len = prop_oneof![3 => 0usize..5000, 2 => 5000usize..300_000, 1 => 300_000usize..1_300_000];
    let data = len.prop_flat_map(|n| {
        prop_oneof![
            common::data(n + 1),
            patterns(n + 1),
            (common::data(n / 2 + 1), patterns(n / 2 + 1)).prop_map(|(mut a, b)| {
                a.extend_from_slice(&b);
                a
            }),
        ]
    });
    // Now and then all zeros, or runs of zeros inside the data: the special zeros chunk and
    // zero-run streams.
    let data = (data, 0u8..8, any::<u64>()).prop_map(|(mut v, zeros, at)| {
        match zeros {
            0 => v.fill(0),
            1 if !v.is_empty() => {
                let start = (at as usize) % v.len();
                let end = (start + (at >> 32) as usize % 200_000).min(v.len());
                v[start..end].fill(0);
            }
            _ => {}
        }
        v
    });
    // A set blocksize is any size: a multiple of 16 below the data's length (what callers set),
    // or any length at all, larger than the data included.
    let blocksize = prop_oneof![
        4 => Just(0usize),
        2 => (1usize..12_500).prop_map(|k| k * 16),
        1 => 1usize..1_500_000,
    ];
    let codec = prop::sample::select(vec![Codec::Lz4hc, Codec::Lz4]);
    // Any length, a whole number of items or not.
    (codec, data, prop::sample::select(vec![1usize, 2, 4, 8]), 1u8..=9, any::<bool>(), blocksize)
}

#[test]
fn lz4_and_lz4hc_chunks_are_c_blosc2_bytes_over_data_shapes_and_levels() {
    let n = 128;
    let dir = std::env::temp_dir().join(format!("b2schema-lz4-identity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut runner = TestRunner::new(Config::with_cases(n));
    let strategy = cases();
    let mut drawn = Vec::new();
    let mut manifest = String::new();
    for k in 0..n {
        let (codec, data, ts, clevel, shuffle, blocksize) = strategy.new_tree(&mut runner).unwrap().current();
        let name = format!("case{k}");
        std::fs::write(dir.join(format!("{name}.bin")), &data).unwrap();
        writeln!(manifest, "{name} {codec} {ts} {clevel} {} {blocksize}", u8::from(shuffle)).unwrap();
        drawn.push((name, codec, data, ts, clevel, shuffle, blocksize));
    }
    std::fs::write(dir.join("cases"), manifest).unwrap();
    let out = Command::new(crate::python()).arg("-c").arg(SCRIPT).arg(&dir).output().unwrap();
    assert!(out.status.success(), "python-blosc2 failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let (mut differ, mut recut) = (Vec::new(), Vec::new());
    for (name, codec, data, ts, clevel, shuffle, blocksize) in drawn {
        let mut p = Params::new(ts).with_codec(codec).with_clevel(clevel).with_nthreads(1);
        if !shuffle {
            p = p.with_filter(5, Filter::NoFilter, 0);
        }
        if blocksize != 0 {
            p = p.with_blocksize(blocksize);
        }
        let want = std::fs::read(dir.join(format!("{name}.chunk"))).unwrap();
        let got = compress(&data, &p).unwrap();
        assert!(decompress(&got).unwrap() == data, "{name}: b2schema does not read its own chunk back");
        let stored = want[2] & 0x02 != 0 || want[31] & 0x70 != 0;
        if !stored && want.len() == got.len() && le32(&want[8..]) != p.blocksize_for(data.len()) {
            // c-blosc2 says the caller's blocksize cut to the length, where its blocks are cut
            // a whole number of items shorter: a chunk it reads back wrong or not at all. Its
            // bytes but the true cut, which c-blosc2 must read back.
            let mut expected = want.clone();
            expected[8..12].copy_from_slice(&(p.blocksize_for(data.len()) as u32).to_le_bytes());
            assert!(got == expected, "{name}: c-blosc2's bytes but the cut, expected");
            std::fs::write(dir.join(format!("{name}.ours")), &got).unwrap();
            recut.push(name);
        } else if got != want {
            differ.push(format!(
                "{}: {codec}, {} bytes, typesize {ts}, clevel {clevel}, shuffle {shuffle}, blocksize {blocksize}: \
                 {} bytes against c-blosc2's {} (first difference at byte {:?})",
                dir.join(format!("{name}.bin")).display(),
                data.len(),
                got.len(),
                want.len(),
                got.iter().zip(&want).position(|(a, b)| a != b),
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {n} chunks are not c-blosc2's bytes:\n{}",
        differ.len(),
        differ.join("\n")
    );
    if !recut.is_empty() {
        let out =
            Command::new(crate::python()).arg("-c").arg(READ_OURS).arg(&dir).args(&recut).output().unwrap();
        assert!(
            out.status.success(),
            "c-blosc2 does not read back b2schema's chunks with the true cut:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let bytes: usize =
        std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.metadata().unwrap().len() as usize).sum();
    eprintln!(
        "{n} lz4 and lz4hc chunks, {bytes} bytes of data and chunks: c-blosc2's bytes, {} of them with \
         the blocks' true cut in the header, which c-blosc2 reads back",
        recut.len()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn le32(b: &[u8]) -> usize {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
}
