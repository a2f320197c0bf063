//! XXH64, the frame checksum of zstd (RFC 8878 §3.1.1: its low 32 bits, seed 0).

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

#[inline(always)]
fn round(acc: u64, lane: u64) -> u64 {
    acc.wrapping_add(lane.wrapping_mul(P2)).rotate_left(31).wrapping_mul(P1)
}

#[inline(always)]
fn merge(acc: u64, v: u64) -> u64 {
    (acc ^ round(0, v)).wrapping_mul(P1).wrapping_add(P4)
}

#[inline(always)]
fn u64_at(b: &[u8]) -> u64 {
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// XXH64 of `data` with seed 0.
pub(crate) fn xxh64(data: &[u8]) -> u64 {
    let len = data.len() as u64;
    let mut chunks = data.chunks_exact(32);
    let mut h = if data.len() >= 32 {
        let mut v = [P1.wrapping_add(P2), P2, 0, 0u64.wrapping_sub(P1)];
        for c in &mut chunks {
            v[0] = round(v[0], u64_at(&c[0..8]));
            v[1] = round(v[1], u64_at(&c[8..16]));
            v[2] = round(v[2], u64_at(&c[16..24]));
            v[3] = round(v[3], u64_at(&c[24..32]));
        }
        let mut h = v[0]
            .rotate_left(1)
            .wrapping_add(v[1].rotate_left(7))
            .wrapping_add(v[2].rotate_left(12))
            .wrapping_add(v[3].rotate_left(18));
        for x in v {
            h = merge(h, x);
        }
        h
    } else {
        P5
    };
    h = h.wrapping_add(len);
    let mut rest = chunks.remainder();
    while rest.len() >= 8 {
        h = (h ^ round(0, u64_at(rest))).rotate_left(27).wrapping_mul(P1).wrapping_add(P4);
        rest = &rest[8..];
    }
    if rest.len() >= 4 {
        let k = u64::from(u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]));
        h = (h ^ k.wrapping_mul(P1)).rotate_left(23).wrapping_mul(P2).wrapping_add(P3);
        rest = &rest[4..];
    }
    for &b in rest {
        h = (h ^ u64::from(b).wrapping_mul(P5)).rotate_left(11).wrapping_mul(P1);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(P2);
    h ^= h >> 29;
    h = h.wrapping_mul(P3);
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_values() {
        // Reference values of XXH64 (seed 0).
        assert_eq!(super::xxh64(b""), 0xEF46_DB37_51D8_E999);
        assert_eq!(super::xxh64(b"a"), 0xD24E_C4F1_A98C_6E5B);
        assert_eq!(super::xxh64(b"abc"), 0x44BC_2CF5_AD77_0999);
    }
}
