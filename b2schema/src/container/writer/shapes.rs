//! python-blosc2's default chunk and block shapes (`compute_chunks_blocks` for the regular codecs),
//! so that an array written without shapes is laid out as `blosc2.asarray(x)` lays it out.

use alloc::vec;
use alloc::vec::Vec;

/// The L2 cache size python-blosc2 reads from the host (`blosc2.cpu_info`) to choose default
/// shapes. b2schema uses fixed values, those python-blosc2 reports on x86-64 machines with 512 KiB
/// of L2 and 32 MiB of L3, so the defaults are reproducible everywhere.
pub const L2_CACHE: u64 = 512 * 1024;
/// The L3 cache size used with [`L2_CACHE`].
pub const L3_CACHE: u64 = 32 * 1024 * 1024;

/// python-blosc2's `nearest_divisor`: the divisor of `a` closest to `b` (searching down from
/// `b` when `a` is large or `strict`).
fn nearest_divisor(a: u64, b: u64, strict: bool) -> u64 {
    if a > 100_000 || strict {
        return (1..=b).rev().find(|i| a.is_multiple_of(*i)).unwrap_or(1);
    }
    let mut closest = 1;
    let mut min_diff = a;
    let mut i = 1;
    while i * i <= a {
        if a.is_multiple_of(i) {
            for d in [i, a / i] {
                let diff = d.abs_diff(b);
                if diff < min_diff {
                    min_diff = diff;
                    closest = d;
                }
            }
        }
        i += 1;
    }
    closest
}

/// python-blosc2's `compute_partition`: a shape of about `nitems` items inside `maxshape`,
/// growing the last dimensions first and snapping to divisors.
fn compute_partition(nitems: u64, maxshape: &[u64], minpart: Option<&[u64]>) -> Vec<u64> {
    let mut max_items = nitems;
    let mut part = vec![1u64; maxshape.len()];
    for i in (0..maxshape.len()).rev() {
        if max_items <= 1 {
            break;
        }
        let size = maxshape[i];
        let minsize = minpart.map_or(1, |m| m[i]);
        let mut rsize = size.max(minsize);
        if rsize <= max_items {
            if !size.is_multiple_of(rsize) {
                rsize = nearest_divisor(size, rsize, false);
            }
        } else {
            rsize = max_items.max(minsize);
            let new = if size.is_multiple_of(rsize) { rsize } else { nearest_divisor(size, rsize, true) };
            if rsize / 2 < new && new < rsize * 2 {
                rsize = new;
            }
        }
        part[i] = rsize;
        max_items /= rsize.max(1);
    }
    part
}

/// python-blosc2's default block shape inside chunks of shape `chunks` (what `asarray` gives when
/// only `chunks` is passed).
pub fn default_blocks(chunks: &[u64], itemsize: u64) -> Vec<u64> {
    compute_partition((32 * 1024u64).max(L2_CACHE / 4) / itemsize.max(1), chunks, None)
}

/// python-blosc2's default chunk and block shapes for an array of `shape` and items of
/// `itemsize` bytes, as `(chunks, blocks)`.
///
/// ```
/// use b2schema::writer::default_shapes;
/// // blosc2.asarray(np.zeros((3000, 3000), np.float32)).chunks, .blocks
/// assert_eq!(default_shapes(&[3000, 3000], 4), (vec![600, 3000], vec![10, 3000]));
/// ```
pub fn default_shapes(shape: &[u64], itemsize: u64) -> (Vec<u64>, Vec<u64>) {
    if shape.contains(&0) || shape.is_empty() {
        return (shape.to_vec(), shape.to_vec());
    }
    let itemsize = itemsize.max(1);
    let blocksize = (32 * 1024u64).max(L2_CACHE / 4).max(itemsize);
    let blocks = compute_partition(blocksize / itemsize, shape, None);
    let blocksize = blocks.iter().product::<u64>() * itemsize;
    // get_chunksize with reduc_factor 4.
    let mut chunksize = if blocksize * 32 < (1 << 26) { blocksize * 32 } else { blocksize };
    if L3_CACHE > L2_CACHE {
        chunksize = L3_CACHE;
    }
    chunksize /= 4;
    if L2_CACHE > chunksize {
        chunksize = (L2_CACHE / 4).max(chunksize);
    }
    chunksize = chunksize.max(4 << 20).min(i32::MAX as u64 - 32).max(blocksize);
    if chunksize % blocksize != 0 {
        chunksize = chunksize / blocksize * blocksize;
    }
    let chunks = compute_partition(chunksize / itemsize, shape, Some(&blocks));
    let chunks = chunks
        .iter()
        .zip(shape)
        .zip(&blocks)
        .map(|((&c, &s), &b)| s.min(if c % b == 0 { c } else { (c / b + 1) * b }))
        .collect();
    (chunks, blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_blosc2_default_shapes() {
        // blosc2.asarray(np.zeros(...)).chunks / .blocks with python-blosc2 4.14.1 on a host
        // with L2 512 KiB and L3 32 MiB.
        assert_eq!(default_shapes(&[1_000_000], 8), (vec![1_000_000], vec![15625]));
        assert_eq!(default_shapes(&[1000, 1000], 8), (vec![1000, 1000], vec![10, 1000]));
        assert_eq!(default_shapes(&[3000, 3000], 4), (vec![600, 3000], vec![10, 3000]));
        assert_eq!(default_shapes(&[50, 60, 70], 1), (vec![50, 60, 70], vec![25, 60, 70]));
        assert_eq!(default_shapes(&[7], 4), (vec![7], vec![7]));
    }
}
