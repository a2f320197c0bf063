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
//! room in the output past the match; for a run with a length byte, 64 bytes of input and 80
//! of output), a literal run of up to 14 is copied as one 16-byte move and one of 15 to 47 (a
//! single length byte) as three, the offset read from the same checked window; else,
//! far from the ends, a run of up to 64 literals in 16-byte moves; a match of up to 18 bytes
//! in 8-byte moves (at an offset of 8 or more; below 8, its first 8 bytes one at a time, then
//! 8-byte moves a whole number of periods back), a longer one of up to 64 bytes at an offset
//! of 16 or more in 16-byte moves. Those moves may run past the copy's end (the spill is
//! overwritten by what follows). Closer to the ends every copy is exact. Longer overlapping
//! matches (offset below the length) repeat their period by doubling copies.

/// Shortest match (`MINMATCH`).
const MINMATCH: usize = 4;
/// The 4-bit length fields' escape value.
const LEN_MASK: usize = 15;
/// The width of the wide copies.
const WIDE: usize = 16;
/// Room the fast path wants after a match in the output: its 16-byte moves spill up to 15
/// bytes, and a literal run of up to 14 bytes is copied as 16.
const OUT_MARGIN: usize = 2 * WIDE;
/// The longest match copied in 16-byte moves rather than by `copy_within` (a call).
const LONG_WIDE: usize = 4 * WIDE;
/// The input the fast path reads after a token: up to 14 literals copied as 16 bytes, and the
/// offset.
const IN_WINDOW: usize = 2 * WIDE;
/// The output the fast path may write from the literals' start: 16 bytes of literals, then a
/// match of up to 18 bytes written as 24 from up to 14 bytes in.
const OUT_WINDOW: usize = 3 * WIDE;
/// The longest literal run with a length byte the fast path copies (as 48 bytes: three
/// 16-byte moves).
const FAST_LIT: usize = 3 * WIDE - 1;
/// The input the fast path reads after a token with a length byte: the byte, up to 47
/// literals copied as 48 bytes, and the offset (51 bytes).
const MID_IN_WINDOW: usize = 4 * WIDE;
/// The output the fast path may write from such a run's start: 48 bytes of literals, then a
/// match of up to 18 bytes written as 24 from up to 47 bytes in.
const MID_OUT_WINDOW: usize = 5 * WIDE;
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

        // Fast path: short literals and a short or far match, far from both ends. The header,
        // literals and offset are read from one 32-byte window and the literals written into
        // one 48-byte window of the output: two bounds checks, not one per access.
        if lit < LEN_MASK
            && let Some(window) = input.get(ip..ip + IN_WINDOW)
            && op + OUT_WINDOW <= output.len()
        {
            let w: &[u8; IN_WINDOW] = window.try_into().ok()?;
            (ip, op) = fast_sequence::<IN_WINDOW, OUT_WINDOW, 0, WIDE>(
                w, input, output, dict, ip, op, lit, ml_code,
            )?;
            continue;
        }
        // Likewise for 15 to 47 literals (one length byte), from a 64-byte window into an
        // 80-byte one.
        if lit == LEN_MASK
            && let Some(window) = input.get(ip..ip + MID_IN_WINDOW)
            && op + MID_OUT_WINDOW <= output.len()
            && usize::from(window[0]) <= FAST_LIT - LEN_MASK
        {
            let w: &[u8; MID_IN_WINDOW] = window.try_into().ok()?;
            let lit = LEN_MASK + usize::from(w[0]);
            (ip, op) = fast_sequence::<MID_IN_WINDOW, MID_OUT_WINDOW, 1, { FAST_LIT + 1 }>(
                w, input, output, dict, ip, op, lit, ml_code,
            )?;
            continue;
        }

        // Literals: a long run far from the ends in 16-byte moves (up to 64 bytes; a call
        // copies longer ones), else exact.
        let lit = if lit == LEN_MASK { extra_length(input, &mut ip, LEN_MASK)? } else { lit };
        let (in_end, out_end) = (ip.checked_add(lit)?, op.checked_add(lit)?);
        if lit <= LONG_WIDE && in_end <= in_fast_end && out_end <= out_fast_end {
            let mut k = 0;
            while k < lit {
                let src: &[u8; WIDE] = input[ip + k..ip + k + WIDE].try_into().ok()?;
                output[op + k..op + k + WIDE].copy_from_slice(src);
                k += WIDE;
            }
        } else if lit > 0 {
            let src = input.get(ip..in_end)?;
            output.get_mut(op..out_end)?.copy_from_slice(src);
        }
        ip = in_end;
        op = out_end;
        if ip >= input.len() {
            return Some(op);
        }
        let o = input.get(ip..ip + 2)?;
        let offset = usize::from(u16::from_le_bytes([o[0], o[1]]));
        ip += 2;
        if offset == 0 {
            return None;
        }
        if ml_code < LEN_MASK && offset <= op && op + 3 * 8 <= output.len() {
            let len = ml_code + MINMATCH;
            short_match(output, op - offset, op, offset, len);
            op += len;
            continue;
        }
        let len = if ml_code == LEN_MASK {
            extra_length(input, &mut ip, LEN_MASK + MINMATCH)?
        } else {
            ml_code + MINMATCH
        };
        op = matched(output, dict, op, offset, len)?;
    }
}

/// One sequence on the fast path, its token read, `w` the input after the token (`HEAD` bytes
/// of literal length, then the literals and the offset), at least `OUT` bytes of output at
/// `op`: the literals copied as `COPY` bytes, then the match; the new input and output
/// positions, `None` for a malformed sequence.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn fast_sequence<const IN: usize, const OUT: usize, const HEAD: usize, const COPY: usize>(
    w: &[u8; IN],
    input: &[u8],
    output: &mut [u8],
    dict: &[u8],
    mut ip: usize,
    mut op: usize,
    lit: usize,
    ml_code: usize,
) -> Option<(usize, usize)> {
    let (history, ahead) = output.split_at_mut(op);
    let o: &mut [u8; OUT] = ahead.get_mut(..OUT)?.try_into().ok()?;
    o[..COPY].copy_from_slice(&w[HEAD..HEAD + COPY]);
    let at = HEAD + lit;
    let offset = usize::from(u16::from_le_bytes([w[at], w[at + 1]]));
    ip += at + 2;
    if ml_code <= 8 - MINMATCH && offset >= lit + 8 && offset <= op + lit {
        // A match of up to 8 bytes wholly in the output before the literals (the commonest):
        // one move from the history into the window.
        let start = op + lit - offset;
        let src: &[u8; 8] = history.get(start..start + 8)?.try_into().ok()?;
        o[lit..lit + 8].copy_from_slice(src);
        return Some((ip, op + lit + ml_code + MINMATCH));
    }
    op += lit;
    if offset == 0 {
        return None;
    }
    if ml_code < LEN_MASK && offset <= op {
        // Up to 18 bytes from inside the output, with room for the spill.
        let len = ml_code + MINMATCH;
        short_match(output, op - offset, op, offset, len);
        return Some((ip, op + len));
    }
    let len = if ml_code == LEN_MASK {
        extra_length(input, &mut ip, LEN_MASK + MINMATCH)?
    } else {
        ml_code + MINMATCH
    };
    Some((ip, matched(output, dict, op, offset, len)?))
}

/// Copies 16 bytes from `from` to `to` in `output` (both in bounds: checked, never failing in
/// the callers).
#[inline(always)]
fn copy16(output: &mut [u8], from: usize, to: usize) {
    output.copy_within(from..from + WIDE, to);
}

/// Copies 8 bytes from `from` to `to` in `output` (likewise).
#[inline(always)]
fn copy8(output: &mut [u8], from: usize, to: usize) {
    output.copy_within(from..from + 8, to);
}

/// The bytes a period of 1 to 7 is repeated by in whole periods to span at least 8: the step
/// of the 8-byte copies after the first 8 bytes of an overlapping match.
const PERIOD_STEP: [usize; 8] = [8, 8, 8, 9, 8, 10, 12, 14];

/// Writes a match of `len` bytes (4 to 18) from `start = op - offset` at `op`, far from the
/// output's end (up to 24 bytes are written from `op`; what runs past the match is overwritten
/// by what follows). Each copy reads only bytes written before it, so that an overlapping match
/// repeats its period as the format means it to: at an offset of 8 or more, 8-byte moves, as
/// many as the length needs (liblz4's shortcut does the same: a wider load reading bytes the
/// sequences just before stored in pieces waits for them, measured 10-25 % slower on streams of
/// short sequences); below 8, the first 8 bytes one at a time, then 8-byte moves from a whole
/// number of periods back.
#[inline(always)]
fn short_match(output: &mut [u8], start: usize, op: usize, offset: usize, len: usize) {
    if offset >= 8 {
        copy8(output, start, op);
        if len > 8 {
            copy8(output, start + 8, op + 8);
            if len > WIDE {
                copy8(output, start + WIDE, op + WIDE);
            }
        }
    } else {
        for k in 0..8 {
            output[op + k] = output[start + k];
        }
        let back = PERIOD_STEP[offset];
        if len > 8 {
            copy8(output, op + 8 - back, op + 8);
            if len > WIDE {
                copy8(output, op + WIDE - back, op + WIDE);
            }
        }
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
    if offset >= WIDE && len <= LONG_WIDE && op + LONG_WIDE <= output.len() {
        // Up to 64 bytes, 16 or more behind: 16-byte moves in order (each reads what the ones
        // before it wrote when the offset is below the length, as the format means it to).
        let start = op - offset;
        let mut k = 0;
        while k < len {
            copy16(output, start + k, op + k);
            k += WIDE;
        }
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

    /// A valid stream of the given sequences (literal count, offset, match length; offsets
    /// reaching before `dict` are cut to it and the output so far, at least 1) and last
    /// literals, with the output it means, written byte by byte after `dict`.
    fn stream_of(seqs: &[(usize, usize, usize)], last: usize, seed: u8, dict: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let (mut c, mut out) = (Vec::new(), dict.to_vec());
        let mut byte = seed;
        let mut lits = |n: usize, c: &mut Vec<u8>, out: &mut Vec<u8>| {
            for _ in 0..n {
                byte = byte.wrapping_mul(31).wrapping_add(7);
                c.push(byte);
                out.push(byte);
            }
        };
        let length = |c: &mut Vec<u8>, mut n: usize| {
            while n >= 255 {
                c.push(255);
                n -= 255;
            }
            c.push(n as u8);
        };
        for &(lit, offset, ml) in seqs {
            let token_at = c.len();
            c.push(0);
            if lit >= 15 {
                length(&mut c, lit - 15);
            }
            lits(lit, &mut c, &mut out);
            if out.is_empty() {
                // A match needs output before it: one more literal.
                c[token_at] += 0x10;
                lits(1, &mut c, &mut out);
            }
            let offset = offset.clamp(1, out.len());
            c.extend_from_slice(&(offset as u16).to_le_bytes());
            if ml - 4 >= 15 {
                length(&mut c, ml - 4 - 15);
            }
            c[token_at] += (lit.min(15) << 4) as u8 + (ml - 4).min(15) as u8;
            for _ in 0..ml {
                out.push(out[out.len() - offset]);
            }
        }
        c.push((last.min(15) << 4) as u8);
        if last >= 15 {
            length(&mut c, last - 15);
        }
        lits(last, &mut c, &mut out);
        (c, out.split_off(dict.len()))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Short sequences with offsets of 1 to 64 (overlapping matches of every period) and
        /// some long ones, decoded into an output of exactly their size or a little larger (so
        /// that the last sequences run near the output's end, where the copies are exact) and
        /// a little smaller (an error): the bytes the format means, as `lz4_flex` gives them.
        #[test]
        fn short_sequences_near_the_ends_decode_exactly(
            seqs in proptest::collection::vec((0usize..20, 1usize..=64, 4usize..=24), 0..60),
            long in proptest::collection::vec((0usize..300, 1usize..=2000, 4usize..=300), 0..3),
            last in 0usize..40,
            spare in 0usize..70,
            seed in any::<u8>(),
        ) {
            let mut all = seqs.clone();
            all.extend(long);
            all.rotate_left(seqs.len() / 2);
            let (c, want) = stream_of(&all, last, seed, &[]);
            prop_assert_eq!(ours(&c, want.len() + spare, &[]), Some(want.clone()));
            prop_assert_eq!(flex(&c, want.len() + spare, &[]), Some(want.clone()));
            // The same sequences after a dictionary, their offsets reaching into it.
            let dict = sample(u64::from(seed), 100);
            let (c, with_dict) = stream_of(&all, last, seed, &dict);
            prop_assert_eq!(ours(&c, with_dict.len() + spare, &dict), Some(with_dict.clone()));
            prop_assert_eq!(flex(&c, with_dict.len() + spare, &dict), Some(with_dict));
            if !want.is_empty() {
                prop_assert_eq!(ours(&c, want.len() - 1, &[]), None);
            }
        }
    }

    /// `c` decodes to `want` into an output `spare` bytes larger than it, by both decoders,
    /// and is refused by both into one `cut` bytes smaller.
    fn decodes_into_room_and_not_cut_short(
        c: &[u8],
        want: &[u8],
        spare: usize,
        cut: usize,
    ) -> Result<(), TestCaseError> {
        prop_assert_eq!(ours(c, want.len() + spare, &[]), Some(want.to_vec()));
        prop_assert_eq!(flex(c, want.len() + spare, &[]), Some(want.to_vec()));
        let short = want.len().saturating_sub(cut);
        prop_assert_eq!(ours(c, short, &[]), None);
        prop_assert_eq!(flex(c, short, &[]), None);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The fast path's limits: a few sequences of long short-form literals and matches
        /// (whose moves spill the most) ending within a few bytes of the output's end, and
        /// the same streams into outputs cut short by up to 48 bytes (the last literals do
        /// not fit: an error, the sequences before them still far from the input's end).
        #[test]
        fn the_widest_short_sequences_at_the_very_end(
            head in 0usize..80,
            seqs in proptest::collection::vec((8usize..15, 1usize..=64, 12usize..=18), 1..6),
            last in 0usize..64,
            spare in 0usize..16,
            cut in 1usize..48,
            seed in any::<u8>(),
        ) {
            let mut all = vec![(head, 1, 4)];
            all.extend(seqs);
            let (c, want) = stream_of(&all, last, seed, &[]);
            decodes_into_room_and_not_cut_short(&c, &want, spare, cut)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The fast path's medium literal runs (15 to 47 bytes, one length byte, copied as 48)
        /// and the runs just past them (48 to 60, and a first length byte of 255): sequences
        /// ending within a few bytes of the output's end and of the input's, with short and
        /// overlapping matches, and the same streams into outputs cut short (an error).
        #[test]
        fn medium_literal_runs_near_the_ends(
            head in 0usize..80,
            seqs in proptest::collection::vec((15usize..=60, 1usize..=64, 4usize..=24), 1..6),
            long_lit in any::<bool>(),
            last in 0usize..64,
            spare in 0usize..16,
            cut in 1usize..64,
            seed in any::<u8>(),
        ) {
            let mut all = vec![(head, 1, 4)];
            all.extend(seqs);
            if long_lit {
                all.push((15 + 255, 9, 4));
            }
            let (c, want) = stream_of(&all, last, seed, &[]);
            decodes_into_room_and_not_cut_short(&c, &want, spare, cut)?;
            // Cut inside the last sequences' headers and literals: both refuse it alike.
            for k in 1..cut.min(c.len()) {
                let cut_c = &c[..c.len() - k];
                prop_assert_eq!(ours(cut_c, want.len() + spare, &[]), flex(cut_c, want.len() + spare, &[]));
            }
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
