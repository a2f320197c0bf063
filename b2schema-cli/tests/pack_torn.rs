//! `pack` cut off while it writes a chunk out in pieces (one chunk compressed alone is written
//! as its blocks are done): under a file-size limit (`prlimit --fsize=N`; SIGXFSZ ignored, so
//! that the write fails with EFBIG as on a full disk, or not, so that the process is killed),
//! the output is written whole or not at all: the old file stays as it was, or none appears.

use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_b2schema");

/// A `.npy` file of `rows x cols` bytes (`|u1`) holding `data`.
fn npy(path: &Path, rows: usize, cols: usize, data: &[u8]) {
    let dict = format!("{{'descr': '|u1', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    let mut header = dict.into_bytes();
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(b' ');
    }
    header.push(b'\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(data);
    std::fs::write(path, out).unwrap();
}

/// `pack IN OUT --threads T` (one chunk of 256 blocks) with the file size limited to `limit`.
fn pack_limited(input: &Path, output: &Path, threads: &str, limit: usize, ignore_signal: bool) -> Output {
    let trap = if ignore_signal { "trap '' XFSZ; " } else { "" };
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{trap}exec prlimit --fsize=\"$1\" -- \"$2\" pack \"$3\" \"$4\" --threads \"$5\" \
             --chunks 4096,1024 --blocks 16,1024"
        ))
        .args(["sh", &limit.to_string(), BIN])
        .args([input, output])
        .arg(threads)
        .output()
        .unwrap()
}

#[test]
fn a_pack_cut_off_mid_chunk_leaves_the_old_output_or_none() {
    let dir = std::env::temp_dir().join(format!("b2schema-pack-torn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join("in.npy"), dir.join("out.b2nd"));
    // 4 MiB of counters with noise in their low bits: compressed in pieces of 1 MiB.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let data: Vec<u8> = (0..4usize << 20)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((i >> 12) as u8) ^ (x as u8 & 0x1f)
        })
        .collect();
    npy(&input, 4096, 1024, &data);
    let full = Command::new(BIN)
        .arg("pack")
        .args([input.as_os_str(), output.as_os_str()])
        .args(["--threads", "1", "--chunks", "4096,1024", "--blocks", "16,1024"])
        .output()
        .unwrap();
    assert!(full.status.success(), "{}", String::from_utf8_lossy(&full.stderr));
    let len = std::fs::metadata(&output).unwrap().len() as usize;
    assert!(len > 2 << 20, "the chunk is written in several pieces: {len} bytes");
    let old = b"an older output".to_vec();
    for (i, limit) in [300_000, len / 2, len - 1000, len - 1].into_iter().enumerate() {
        for threads in ["1", "2"] {
            let ignore = i % 2 == 0;
            std::fs::write(&output, &old).unwrap();
            let o = pack_limited(&input, &output, threads, limit, ignore);
            assert!(!o.status.success(), "limit {limit}, {threads} threads");
            let left = std::fs::read(&output).unwrap();
            assert!(
                left == old,
                "limit {limit}, {threads} threads: {} bytes, not the old output",
                left.len()
            );
            std::fs::remove_file(&output).unwrap();
            let o = pack_limited(&input, &output, threads, limit, ignore);
            assert!(!o.status.success(), "limit {limit}, {threads} threads");
            assert!(!output.exists(), "limit {limit}, {threads} threads: a partial output");
            if ignore {
                // A write that failed (EFBIG) removes its temporary file.
                let names: Vec<_> =
                    std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
                assert_eq!(names, ["in.npy"], "limit {limit}, {threads} threads");
            } else {
                // A process killed (SIGXFSZ) leaves its temporary file, which is not the output.
                for e in std::fs::read_dir(&dir).unwrap() {
                    let e = e.unwrap();
                    if e.file_name() != "in.npy" {
                        std::fs::remove_file(e.path()).unwrap();
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
