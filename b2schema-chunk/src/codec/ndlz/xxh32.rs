//! XXH32 (xxHash's 32-bit hash, as c-blosc2's NDLZ encoder calls it through `xxhash.h`):
//! written here for the few bytes NDLZ hashes (16 to 64), `no_std`, safe Rust only.

const P1: u32 = 2_654_435_761;
const P2: u32 = 2_246_822_519;
const P3: u32 = 3_266_489_917;
const P4: u32 = 668_265_263;
const P5: u32 = 374_761_393;

fn round(acc: u32, lane: u32) -> u32 {
    acc.wrapping_add(lane.wrapping_mul(P2)).rotate_left(13).wrapping_mul(P1)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// `XXH32(input, len, seed)`.
pub(super) fn xxh32(input: &[u8], seed: u32) -> u32 {
    let len = input.len();
    let mut at = 0;
    let mut h = if len >= 16 {
        let mut v =
            [seed.wrapping_add(P1).wrapping_add(P2), seed.wrapping_add(P2), seed, seed.wrapping_sub(P1)];
        while at + 16 <= len {
            for (i, lane) in v.iter_mut().enumerate() {
                *lane = round(*lane, u32_at(input, at + 4 * i));
            }
            at += 16;
        }
        v[0].rotate_left(1)
            .wrapping_add(v[1].rotate_left(7))
            .wrapping_add(v[2].rotate_left(12))
            .wrapping_add(v[3].rotate_left(18))
    } else {
        seed.wrapping_add(P5)
    };
    h = h.wrapping_add(len as u32);
    while at + 4 <= len {
        h = h.wrapping_add(u32_at(input, at).wrapping_mul(P3)).rotate_left(17).wrapping_mul(P4);
        at += 4;
    }
    while at < len {
        h = h.wrapping_add(u32::from(input[at]).wrapping_mul(P5)).rotate_left(11).wrapping_mul(P1);
        at += 1;
    }
    h ^= h >> 15;
    h = h.wrapping_mul(P2);
    h ^= h >> 13;
    h = h.wrapping_mul(P3);
    h ^ (h >> 16)
}

#[cfg(test)]
mod tests {
    use super::xxh32;

    #[test]
    fn known_values() {
        // xxHash's reference values (its sanity-check vectors for the empty input and "a").
        assert_eq!(xxh32(b"", 0), 0x02CC_5D05);
        assert_eq!(xxh32(b"abc", 0), 0x32D1_53FF);
        assert_eq!(xxh32(b"Nobody inspects the spammish repetition", 0), 0xE229_3B2F);
    }
}
