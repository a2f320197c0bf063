//! LZ4 block decoding (the streams of lz4 and lz4hc chunks), safe and tuned for Blosc streams.
//!
//! A stream is a run of sequences: a token (literal count in its high 4 bits, match length
//! minus 4 in its low 4, 15 meaning "more bytes follow, each adding up to 255"), the literals,
//! then a 2-byte little-endian offset and the match. The stream ends right after the literals
//! of its last sequence. A dictionary (c-blosc2's `use_dict`) is the history before the output:
//! an offset reaching past the start of the output continues into its end.
//!
//! Accepted streams are exactly those `lz4_flex`'s safe decoder accepts (the differential tests
//! below check it): an offset of 0, an offset before the dictionary, a length past the input or
//! the output, or input that ends inside a sequence's header is an error (`None`). Nothing here
//! panics or reads out of bounds on any input; every loop consumes input or fills output.
//!
//! Far from both ends (a sequence's header and up to 16 literals in the input, 32 bytes of
//! room in the output past the match), a short literal run is copied as one 16-byte move, and a
//! match whose offset is at least 16 in 16-byte moves that may run past its end (the spill is
//! overwritten by what follows). Closer to the ends every copy is exact. Overlapping matches
//! (offset below the length) repeat their period by doubling copies.

/// Shortest match (`MINMATCH`).
const MINMATCH: usize = 4;
/// The 4-bit length fields' escape value.
const LEN_MASK: usize = 15;
/// The width of the wide copies.
const WIDE: usize = 16;
/// Room the fast path wants after a match in the output: its 16-byte moves spill up to 15
/// bytes, and a literal run of up to 14 bytes is copied as 16.
const OUT_MARGIN: usize = 2 * WIDE;
/// Input the fast path wants after a token: 16 bytes of literals (14 used) and the offset.
const IN_MARGIN: usize = WIDE + 2;

/// Reads a length's extra bytes at `*ip` (each 255 continues), adding them to `n`.
#[inline(always)]
fn extra_length(input: &[u8], ip: &mut usize, mut n: usize) -> Option<usize> {
    loop {
        let b = *input.get(*ip)?;
        *ip += 1;
        n = n.checked_add(usize::from(b))?;
        if b != 0xFF {
            return Some(n);
        }
    }
}

/// Copies a match of `len` bytes from `op - offset` to `op`, exactly, when `offset <= op`.
#[inline(always)]
fn copy_match(output: &mut [u8], op: usize, offset: usize, len: usize) -> Option<()> {
    let start = op.checked_sub(offset)?;
    let end = op.checked_add(len).filter(|&e| e <= output.len())?;
    if offset >= len {
        output.copy_within(start..start + len, op);
    } else if offset == 1 {
        let b = output[start];
        output[op..end].fill(b);
    } else {
        // The bytes from `start` to the write position repeat with period `offset`; each copy
        // doubles what is available.
        // (An offset of 0 never gets here: the callers refuse it. Were it to, `n` would be
        // 0 and the loop would not advance, hence the guard.)
        let mut d = op;
        while d < end {
            let n = (d - start).min(end - d);
            if n == 0 {
                return None;
            }
            output.copy_within(start..start + n, d);
            d += n;
        }
    }
    Some(())
}

/// Decodes the LZ4 block `input` into `output` with `dict` as the history before it; the
/// number of bytes written, `None` for a malformed block or one larger than `output`.
pub(crate) fn decompress(input: &[u8], output: &mut [u8], dict: &[u8]) -> Option<usize> {
    let mut ip = 0usize;
    let mut op = 0usize;
    let in_fast_end = input.len().saturating_sub(IN_MARGIN);
    let out_fast_end = output.len().saturating_sub(OUT_MARGIN);
    loop {
        let token = usize::from(*input.get(ip)?);
        ip += 1;
        let lit = token >> 4;
        let ml_code = token & LEN_MASK;

        // Fast path: short literals and a short or far match, far from both ends.
        if lit < LEN_MASK && ip <= in_fast_end && op + WIDE + LEN_MASK + MINMATCH <= out_fast_end {
            let src: &[u8; WIDE] = input[ip..ip + WIDE].try_into().ok()?;
            let dst: &mut [u8; WIDE] = (&mut output[op..op + WIDE]).try_into().ok()?;
            *dst = *src;
            ip += lit;
            op += lit;
            let offset = usize::from(u16::from_le_bytes([input[ip], input[ip + 1]]));
            ip += 2;
            if offset == 0 {
                return None;
            }
            if ml_code < LEN_MASK && offset >= WIDE && offset <= op {
                // Up to 18 bytes, 16 or more behind: two 16-byte moves.
                let start = op - offset;
                output.copy_within(start..start + WIDE, op);
                output.copy_within(start + WIDE..start + 2 * WIDE, op + WIDE);
                op += ml_code + MINMATCH;
                continue;
            }
            let len = if ml_code == LEN_MASK {
                extra_length(input, &mut ip, LEN_MASK + MINMATCH)?
            } else {
                ml_code + MINMATCH
            };
            op = matched(output, dict, op, offset, len)?;
            continue;
        }

        // Literals, exact.
        let lit = if lit == LEN_MASK { extra_length(input, &mut ip, LEN_MASK)? } else { lit };
        if lit > 0 {
            let src = input.get(ip..ip.checked_add(lit)?)?;
            output.get_mut(op..op.checked_add(lit)?)?.copy_from_slice(src);
            ip += lit;
            op += lit;
        }
        if ip >= input.len() {
            return Some(op);
        }
        let o = input.get(ip..ip + 2)?;
        let offset = usize::from(u16::from_le_bytes([o[0], o[1]]));
        ip += 2;
        if offset == 0 {
            return None;
        }
        let len = if ml_code == LEN_MASK {
            extra_length(input, &mut ip, LEN_MASK + MINMATCH)?
        } else {
            ml_code + MINMATCH
        };
        op = matched(output, dict, op, offset, len)?;
    }
}

/// Writes the match of `len` bytes at `offset` before `op` (reaching into `dict` when the
/// offset passes the start of the output); the new output position.
#[inline(always)]
fn matched(output: &mut [u8], dict: &[u8], mut op: usize, offset: usize, mut len: usize) -> Option<usize> {
    let end = op.checked_add(len).filter(|&e| e <= output.len())?;
    if offset > op {
        // From the dictionary's end, then on in the output.
        let back = offset - op;
        let from = dict.len().checked_sub(back)?;
        let n = len.min(back);
        output.get_mut(op..op + n)?.copy_from_slice(dict.get(from..from + n)?);
        op += n;
        len -= n;
        if len == 0 {
            return Some(op);
        }
    }
    if offset >= WIDE && len <= 2 * WIDE && op + 2 * WIDE <= output.len() {
        // Up to 32 bytes, 16 or more behind: two 16-byte moves (the second reads what the
        // first wrote when the offset is below 32, as the format means it to).
        let start = op - offset;
        output.copy_within(start..start + WIDE, op);
        output.copy_within(start + WIDE..start + 2 * WIDE, op + WIDE);
    } else {
        copy_match(output, op, offset, len)?;
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::decompress;
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// Data with runs, short periods and noise, so that every kind of match shows up.
    fn sample(seed: u64, n: usize) -> Vec<u8> {
        let mut x = seed | 1;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 5 {
                0 => out.extend(core::iter::repeat_n((x >> 8) as u8, (x >> 16) as usize % 40)),
                1 => {
                    let period = 1 + (x >> 8) as usize % 20;
                    let len = (x >> 20) as usize % 300;
                    let start = out.len().saturating_sub(period);
                    for k in 0..len {
                        let b = out.get(start + k % period).copied().unwrap_or(k as u8);
                        out.push(b);
                    }
                }
                2 if out.len() > 100 => {
                    let from = (x >> 8) as usize % out.len();
                    let len = ((x >> 30) as usize % 200).min(out.len() - from);
                    out.extend_from_within(from..from + len);
                }
                _ => out.extend((0..(x >> 40) as usize % 30).map(|k| (x >> (k % 56)) as u8)),
            }
        }
        out.truncate(n);
        out
    }

    fn flex(input: &[u8], out_len: usize, dict: &[u8]) -> Option<Vec<u8>> {
        let mut out = vec![0u8; out_len];
        let n = lz4_flex::block::decompress_into_with_dict(input, &mut out, dict).ok()?;
        out.truncate(n);
        Some(out)
    }

    fn ours(input: &[u8], out_len: usize, dict: &[u8]) -> Option<Vec<u8>> {
        let mut out = vec![0u8; out_len];
        let n = decompress(input, &mut out, dict)?;
        out.truncate(n);
        Some(out)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Valid streams (from both compressors, at several levels) decode to their input, as
        /// with `lz4_flex`, also when the output is larger than needed.
        #[test]
        fn valid_streams_decode_like_lz4_flex(seed in any::<u64>(), n in 0usize..70_000, clevel in 1u8..=9, hc in any::<bool>(), spare in 0usize..40) {
            let data = sample(seed, n);
            let mut c = vec![0u8; n + n / 255 + 16];
            let len = if hc {
                crate::codec::lz4::hc::compress(clevel, &data, &mut c)
            } else {
                crate::codec::lz4::compress(crate::codec::lz4::acceleration(clevel), &data, &mut c)
            };
            prop_assert!(len > 0);
            let c = &c[..len];
            prop_assert_eq!(ours(c, n + spare, &[]), Some(data.clone()));
            prop_assert_eq!(flex(c, n + spare, &[]), Some(data));
        }

        /// Mutated streams: both decoders fail, or both give the same bytes; with and without a
        /// dictionary, with outputs of the exact size and smaller or larger.
        #[test]
        fn mutated_streams_agree_with_lz4_flex(
            seed in any::<u64>(),
            n in 0usize..5_000,
            edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..4), 1..6),
            out_delta in -20isize..20,
            dict_len in 0usize..300,
        ) {
            let data = sample(seed, n);
            let mut c = vec![0u8; n + n / 255 + 16];
            let len = crate::codec::lz4::compress(1, &data, &mut c);
            let mut c = c[..len].to_vec();
            for (at, b, kind) in edits {
                match kind {
                    0 if !c.is_empty() => { let i = at % c.len(); c[i] = b; }
                    1 if !c.is_empty() => { let i = at % c.len(); c[i] ^= 1 << (b % 8); }
                    2 => { let i = at % (c.len() + 1); c.truncate(i); }
                    _ => { let i = at % (c.len() + 1); c.insert(i, b); }
                }
            }
            let dict = sample(seed ^ 0x55, dict_len);
            let out_len = n.saturating_add_signed(out_delta);
            prop_assert_eq!(ours(&c, out_len, &dict), flex(&c, out_len, &dict));
            prop_assert_eq!(ours(&c, out_len, &[]), flex(&c, out_len, &[]));
        }

        /// Arbitrary bytes: the same verdict and output as `lz4_flex`, never a panic.
        #[test]
        fn random_bytes_agree_with_lz4_flex(c in proptest::collection::vec(any::<u8>(), 0..400), out_len in 0usize..3_000) {
            prop_assert_eq!(ours(&c, out_len, b"dictionary bytes"), flex(&c, out_len, b"dictionary bytes"));
            prop_assert_eq!(ours(&c, out_len, &[]), flex(&c, out_len, &[]));
        }
    }

    #[test]
    fn overlapping_matches_and_the_dictionary() {
        // Literals "ab", then a match of 10 at offset 2 (overlapping), then 6 at offset 1.
        let stream = [0x26, b'a', b'b', 2, 0, 0x02, 1, 0, 0x50, b'x', b'y', b'z', b'w', b'v'];
        let mut out = [0u8; 23];
        assert_eq!(decompress(&stream, &mut out, &[]), Some(23));
        assert_eq!(&out, b"ababababababbbbbbbxyzwv");
        // A match 3 bytes before the start of the output reads the dictionary's last 3 bytes and
        // runs on into the output.
        let stream = [0x03, 3, 0, 0x00];
        let mut out = [0u8; 7];
        assert_eq!(decompress(&stream, &mut out, b"..xyz"), Some(7));
        assert_eq!(&out, b"xyzxyzx");
        assert_eq!(decompress(&stream, &mut out, b"yz"), None);
        assert_eq!(decompress(&[0x00, 0, 0], &mut out, b"ab"), None, "offset 0");
        assert_eq!(decompress(&[], &mut out, &[]), None, "no token");
        assert_eq!(decompress(&[0xF0], &mut out, &[]), None, "a length without its bytes");
    }
}
