//! BloscLZ decompressor (c-blosc2 `blosclz_decompress`, a FastLZ level-1 variant).
//!
//! Stream format.  The first byte's top three bits are a format marker and are
//! ignored.  Each instruction starts with a control byte `ctrl`:
//!
//! * `ctrl < 32`: a literal run of `ctrl + 1` bytes follows.
//! * `ctrl >= 32`: a match.  `len = (ctrl >> 5) - 1`; when that is 6 the length
//!   continues with bytes added while they are 255.  Then one byte `code`
//!   gives the low 8 bits of the distance, whose high 5 bits are `ctrl & 31`.
//!   The copy length is `len + 3` and the distance `(hi << 8) + code + 1`.
//!   When `code == 255` and `hi == 31`, a 16-bit big-endian distance follows
//!   and the distance is that value plus 8192 (`MAX_DISTANCE + 1`).
//!
//! Decoding stops when the input is exhausted.  Every read and write is
//! bounds-checked; errors are reported as `None`.

/// `MAX_DISTANCE` of the encoder: matches at distance >= this use the far form.
const MAX_DISTANCE: usize = 8191;

/// Decompresses `input` into `output`; returns the number of bytes written,
/// or `None` when the stream is malformed or would overflow `output`.
pub(crate) fn decompress(input: &[u8], output: &mut [u8]) -> Option<usize> {
    let mut ip = 0usize;
    let mut op = 0usize;
    let mut ctrl = usize::from(*input.first()? & 31);
    ip += 1;
    loop {
        if ctrl >= 32 {
            let mut len = (ctrl >> 5) - 1;
            let hi = (ctrl & 31) << 8;
            if len == 6 {
                loop {
                    let code = *input.get(ip)?;
                    ip += 1;
                    len = len.checked_add(usize::from(code))?;
                    if code != 255 {
                        break;
                    }
                }
            }
            let code = *input.get(ip)?;
            ip += 1;
            let mut distance = hi + usize::from(code) + 1;
            if code == 255 && hi == (31 << 8) {
                let far_hi = usize::from(*input.get(ip)?);
                let far_lo = usize::from(*input.get(ip + 1)?);
                ip += 2;
                distance = ((far_hi << 8) | far_lo) + MAX_DISTANCE + 1;
            }
            let count = len + 3;
            let end = op.checked_add(count)?;
            if end > output.len() || distance > op {
                return None;
            }
            copy_match(output, op, distance, count);
            op = end;
            match input.get(ip) {
                Some(&b) => {
                    ctrl = usize::from(b);
                    ip += 1;
                }
                None => break,
            }
        } else {
            let count = ctrl + 1;
            if ip + 32 <= input.len() && op + 32 <= output.len() {
                // Fixed-size copy of up to 32 literals (the extra bytes are
                // overwritten by later output, as above).
                if let (Some(s), Some(d)) = (input.get(ip..ip + 32), output.get_mut(op..op + 32)) {
                    d.copy_from_slice(s);
                }
            } else {
                let src = input.get(ip..ip.checked_add(count)?)?;
                let dst = output.get_mut(op..op.checked_add(count)?)?;
                dst.copy_from_slice(src);
            }
            ip += count;
            op += count;
            match input.get(ip) {
                Some(&b) => {
                    ctrl = usize::from(b);
                    ip += 1;
                }
                None => break,
            }
        }
    }
    Some(op)
}

/// Copies `count` bytes from `op - distance` to `op` inside `buf`, with
/// LZ77 overlap semantics.  The caller guarantees `distance <= op` and
/// `op + count <= buf.len()`.
fn copy_match(buf: &mut [u8], op: usize, distance: usize, count: usize) {
    let start = op - distance;
    if count <= 16 && distance >= 16 && op + 16 <= buf.len() {
        // Short match: copy a fixed 16 bytes.  The bytes written past
        // `op + count` are overwritten by later output (a stream that ends
        // early is rejected by the caller anyway).
        let (head, tail) = buf.split_at_mut(op);
        if let (Some(s), Some(d)) = (head.get(start..start + 16), tail.get_mut(..16)) {
            d.copy_from_slice(s);
        }
    } else if distance == 1 {
        let b = buf.get(start).copied().unwrap_or(0);
        if let Some(dst) = buf.get_mut(op..op + count) {
            dst.fill(b);
        }
    } else if distance >= count {
        buf.copy_within(start..start + count, op);
    } else {
        // Overlapping: copy in chunks of `distance`, which doubles the
        // period each time the already-written run is reused.
        let mut done = 0;
        while done < count {
            let n = (count - done).min(distance + done);
            buf.copy_within(start..start + n, op + done);
            done += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::decompress;

    #[test]
    fn literal_and_run() {
        // literal "ab" (ctrl 1), then match len 3+1=4 at distance 2 (ctrl 0b010_00000 | 0, code 1)
        let input = [0x20 | 1, b'a', b'b', 0x40, 1];
        let mut out = [0u8; 6];
        assert_eq!(decompress(&input, &mut out), Some(6));
        assert_eq!(&out, b"ababab");
    }

    #[test]
    fn rejects_bad_distance_and_overflow() {
        let input = [0x20, b'a', 0x40, 5];
        let mut out = [0u8; 8];
        assert_eq!(decompress(&input, &mut out), None);
        let input = [0x20, b'a', 0xe0, 255, 255, 255, 0];
        assert_eq!(decompress(&input, &mut out), None);
        assert_eq!(decompress(&[], &mut out), None);
    }
}
