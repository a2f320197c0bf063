//! Differential fuzzing of b2schema-chunk's zstd decoder against libzstd (the `zstd` crate).
//!
//! The first byte picks the dictionary (none, raw content, trained) and the output capacity;
//! the rest is used twice: (1) as a zstd stream, decoded by both (where libzstd decodes, we must
//! decode the same bytes, except the refusals `libzstd may accept` names; where it refuses, we
//! refuse); (2) as data, compressed by libzstd at a level and with parameters from the next
//! bytes, which we must decode to the data.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use zstd::zstd_safe::CParameter;

fn dicts() -> &'static [Vec<u8>; 2] {
    static D: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    D.get_or_init(|| {
        let raw: Vec<u8> = b"blosc chunk frame zstd the of decoder block stream ".repeat(40);
        let samples: Vec<Vec<u8>> = (0..64u32)
            .map(|i| {
                let mut v = Vec::new();
                for k in 0..200u32 {
                    v.extend_from_slice(&((i * 131 + k * 7) / 5).to_le_bytes());
                    v.extend_from_slice(b"zstd ");
                }
                v
            })
            .collect();
        let trained = zstd::dict::from_samples(&samples, 2048).unwrap_or_else(|_| raw.clone());
        [raw, trained]
    })
}

fn reference(src: &[u8], cap: usize, dict: Option<&[u8]>) -> Option<Vec<u8>> {
    let mut d = match dict {
        Some(x) => zstd::bulk::Decompressor::with_dictionary(x).ok()?,
        None => zstd::bulk::Decompressor::new().ok()?,
    };
    let mut out = vec![0u8; cap];
    let n = d.decompress_to_buffer(src, &mut out).ok()?;
    out.truncate(n);
    Some(out)
}

fn ours(src: &[u8], cap: usize, dict: Option<&[u8]>) -> Result<Vec<u8>, (usize, &'static str, bool)> {
    let mut out = vec![0u8; cap];
    let n = b2schema_chunk::__zstd_fuzz_decode(dict, src, &mut out)?;
    assert!(n <= cap);
    out.truncate(n);
    Ok(out)
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let dict = match sel % 3 {
        0 => None,
        k => Some(&dicts()[usize::from(k - 1)][..]),
    };
    let cap = [0usize, 1, 64, 4096, 65536, 1 << 20][usize::from(sel / 3) % 6];

    // (1) The input as a stream.
    let want = reference(rest, cap, dict);
    let got = ours(rest, cap, dict);
    if let Err((at, _, _)) = got {
        assert!(at <= rest.len(), "error offset {at} past the input ({})", rest.len());
    }
    match (&want, &got) {
        (Some(w), Ok(g)) => assert!(w == g, "both decode, to different bytes"),
        (None, Err(_)) => {}
        (Some(_), Err(e)) => assert!(e.2, "libzstd decodes, we refuse: {e:?}"),
        (None, Ok(g)) => panic!("libzstd refuses, we decode {} bytes", g.len()),
    }

    // (2) The input as data, compressed by libzstd.
    if rest.len() < 2 {
        return;
    }
    let (p, body) = rest.split_at(2);
    let level = i32::from(p[0] % 28) - 5;
    let mut c = match dict {
        Some(d) => zstd::bulk::Compressor::with_dictionary(level, d),
        None => zstd::bulk::Compressor::new(level),
    }
    .unwrap();
    c.set_parameter(CParameter::ChecksumFlag(p[1] & 1 != 0)).unwrap();
    c.set_parameter(CParameter::ContentSizeFlag(p[1] & 2 != 0)).unwrap();
    if p[1] & 4 != 0 {
        c.set_parameter(CParameter::EnableLongDistanceMatching(true)).unwrap();
    }
    if p[1] & 8 != 0 {
        let _ = c.set_parameter(CParameter::TargetCBlockSize(1340));
    }
    // Data repeated per the remaining bits, so that matches are long.
    let reps = 1 + usize::from(p[1] >> 4);
    let src: Vec<u8> = body.iter().copied().cycle().take(body.len() * reps).collect();
    let z = c.compress(&src).unwrap();
    let got = ours(&z, src.len(), dict);
    assert!(got.as_deref().ok() == Some(&src[..]), "a libzstd stream we do not decode: {:?}", got.err());
});
