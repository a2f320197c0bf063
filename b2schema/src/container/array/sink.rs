//! Reading into a buffer ([`ArrayReader::read_into`]) and where its items go: the C-order output
//! of a selection, filled block by block from the chunks it touches (a whole block whose rows are
//! whole rows of the output is decoded in place).

use alloc::vec::Vec;
use core::ops::Range;

use super::reader::{
    ArrayReader, Chunk, ReadOptions, ReadStats, Scratch, Source, decode_block, fetch_ahead, invalid,
    next_in_box,
};
use super::selection::Selection;
use crate::container::b2nd::MAX_DIM;
use crate::container::error::Result;

impl ArrayReader<'_> {
    /// Reads the items of `sel` in C order into `out` (exactly their size).
    pub fn read_into(&self, sel: &Selection, out: &mut [u8], opts: &ReadOptions) -> Result<ReadStats> {
        let len = self.result_len(sel, &ReadOptions { max_bytes: u64::MAX, ..*opts })?;
        if out.len() != len {
            return Err(invalid("an output of the selection's size:", len, out.len()));
        }
        let mut stats = ReadStats::default();
        if len == 0 {
            return Ok(stats);
        }
        if sel.is_strided() {
            return self.read_strided(sel, out, opts);
        }
        let ranges = sel.ranges();
        if ranges.is_empty() {
            // A scalar: one chunk, one block, one item.
            let chunk = self.chunk(0, Vec::new(), &mut stats)?;
            let mut sink = Sink::new(self, ranges, out);
            sink.copy_block(self, &chunk, &[], ranges, &mut stats, &mut Scratch::default())?;
            return Ok(stats);
        }
        // The touched chunks, read by the band that needs them, one at a time (their tables, and
        // first blocks for delta): memory does not depend on the number of chunks, and a band
        // visits only the chunks of its chunk row, so work does not grow with their square.
        let lo: Vec<u64> = ranges.iter().zip(&self.chunkshape).map(|(r, &c)| r.start / c).collect();
        let hi: Vec<u64> = ranges.iter().zip(&self.chunkshape).map(|(r, &c)| (r.end - 1) / c).collect();
        let row_bytes = ranges[1..].iter().fold(self.typesize as u64, |a, r| a * (r.end - r.start)) as usize;
        let rows = ranges[0].end - ranges[0].start;
        self.hint_whole_chunks(&lo, &hi, len as u64);
        // One where the target cannot start threads (WebAssembly without atomics, as
        // `wasm32-unknown-unknown`, where std's spawn fails), as the chunk codec does.
        let usable = if cfg!(all(target_family = "wasm", not(target_feature = "atomics"))) {
            1
        } else {
            opts.threads_for(self.decode_work(ranges))
        };
        let nthreads = (usable.max(1) as u64).min(rows) as usize;
        // A group of bands is a range of the first dimension: the bands are made as they are
        // visited, so memory does not depend on how many blocks the selection crosses. Bands are
        // cut at chunk boundaries: each lies in one chunk row.
        let work = |group: Range<u64>, out: &mut [u8]| -> Result<ReadStats> {
            let mut stats = ReadStats::default();
            let mut scratch = self.take_scratch();
            let mut at = 0;
            for band in self.bands(&group, u64::MAX) {
                let n = (band.end - band.start) as usize * row_bytes;
                let (part, _) = out[at..].split_at_mut(n);
                let mut band_ranges = ranges.to_vec();
                band_ranges[0] = band.clone();
                let mut sink = Sink::new(self, &band_ranges, part);
                let mut rest = lo[1..].to_vec();
                loop {
                    let coords =
                        core::iter::once(band.start / self.chunkshape[0]).chain(rest.iter().copied());
                    let index = coords.clone().zip(&self.grid).fold(0u64, |a, (c, &g)| a * g + c);
                    let origin: Vec<u64> = coords.zip(&self.chunkshape).map(|(c, &s)| c * s).collect();
                    let chunk = self.chunk(index as usize, origin, &mut stats)?;
                    sink.copy_chunk(self, &chunk, &band_ranges, &mut stats, &mut scratch)?;
                    if !next_in_box(&mut rest, &lo[1..], &hi[1..]) {
                        break;
                    }
                }
                at += n;
            }
            self.keep_scratch(scratch);
            Ok(stats)
        };
        if nthreads <= 1 {
            stats.add(&work(ranges[0].clone(), out)?);
            return Ok(stats);
        }
        // Contiguous groups of about as many rows each, cut at band boundaries, each with its
        // part of the output.
        let mut parts = Vec::new();
        let mut rest = out;
        let mut start = ranges[0].start;
        for t in 1..=nthreads as u64 {
            let target = ranges[0].start + rows * t / nthreads as u64;
            let end = self.band_boundary_at_or_after(target).min(ranges[0].end);
            if end <= start {
                continue;
            }
            let n = (end - start) as usize * row_bytes;
            let (part, tail) = rest.split_at_mut(n);
            parts.push((start..end, part));
            rest = tail;
            start = end;
        }
        // The caller's thread reads the first group while the others are spawned for the rest: one
        // thread fewer to start, and a selection that makes one group starts none.
        let mut parts = parts.into_iter();
        let Some((first, first_part)) = parts.next() else {
            return Ok(stats);
        };
        let results: Vec<Result<ReadStats>> = std::thread::scope(|scope| {
            let workers: Vec<_> = parts.map(|(g, part)| scope.spawn(move || work(g, part))).collect();
            let mut results = Vec::with_capacity(workers.len() + 1);
            results.push(work(first, first_part));
            results.extend(
                workers.into_iter().map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))),
            );
            results
        });
        for r in results {
            stats.add(&r?);
        }
        Ok(stats)
    }
}

impl ArrayReader<'_> {
    /// About the bytes a read of the box `ranges` decodes: the blocks it touches, whole (a
    /// column of a wide array decodes every block it crosses for one item of each row), never
    /// less than the result. What the threads are counted from.
    fn decode_work(&self, ranges: &[Range<u64>]) -> u64 {
        let block_bytes = self.blockshape.iter().fold(self.typesize as u64, |a, &b| a.saturating_mul(b));
        ranges.iter().zip(&self.chunkshape).zip(&self.blockshape).fold(block_bytes, |a, ((r, &c), &b)| {
            // Blocks restart at each chunk: count them over the chunks the range crosses.
            let (b, c) = (b.max(1), c.max(1));
            let per_chunk = c.div_ceil(b);
            let at = |i: u64| (i / c) * per_chunk + (i % c) / b;
            let blocks = at(r.end.saturating_sub(1).max(r.start)) - at(r.start) + 1;
            a.saturating_mul(blocks)
        })
    }

    /// Tells a remote source that the chunks of the box `lo..=hi` (chunk coordinates) are about
    /// to be read in order, when there are several and the selection (`bytes`) fills at least
    /// half of them: a whole read, which the source may fetch ahead in large pieces.
    pub(super) fn hint_whole_chunks(&self, lo: &[u64], hi: &[u64], bytes: u64) {
        if self.file().min_read() == 0 {
            return;
        }
        let count = lo.iter().zip(hi).try_fold(1u64, |a, (l, h)| a.checked_mul(h - l + 1));
        let whole = count.and_then(|n| n.checked_mul(self.chunk_bytes as u64));
        match (count, whole) {
            (Some(n), Some(w)) if n >= 2 && bytes.saturating_mul(2) >= w => {}
            _ => return,
        }
        let mut at = lo.to_vec();
        let mut locs = Vec::new();
        loop {
            let index = at.iter().zip(&self.grid).fold(0u64, |a, (c, &g)| a * g + c) as usize;
            if let Some(l) = self.locations.get(index) {
                locs.push(*l);
            }
            if !next_in_box(&mut at, lo, hi) {
                break;
            }
        }
        self.file().will_read_chunks(locs.into_iter());
    }
}

/// Where items go: `out` holds the items of `ranges` in C order.
pub(super) struct Sink<'o> {
    out: &'o mut [u8],
    /// Item strides of `out` (the first `ndim`).
    strides: [usize; MAX_DIM],
    starts: [u64; MAX_DIM],
    typesize: usize,
}

impl<'o> Sink<'o> {
    pub(super) fn new(r: &ArrayReader<'_>, ranges: &[Range<u64>], out: &'o mut [u8]) -> Self {
        // At most MAX_DIM dimensions (the b2nd metalayer is checked for it): per-dimension values
        // live in fixed arrays, so that a chunk or a block costs no allocation.
        let n = ranges.len();
        let mut strides = [1usize; MAX_DIM];
        for d in (0..n.saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * (ranges[d + 1].end - ranges[d + 1].start) as usize;
        }
        let mut starts = [0u64; MAX_DIM];
        for (s, r) in starts.iter_mut().zip(ranges) {
            *s = r.start;
        }
        Sink { out, strides, starts, typesize: r.typesize }
    }

    /// Copies the items of `ranges` (array coordinates) that lie in `chunk`, block by block.
    pub(super) fn copy_chunk(
        &mut self,
        r: &ArrayReader<'_>,
        chunk: &Chunk,
        ranges: &[Range<u64>],
        stats: &mut ReadStats,
        scratch: &mut Scratch,
    ) -> Result<()> {
        // The part of the selection inside the chunk's real items, in chunk coordinates.
        let n = ranges.len();
        let (mut lo, mut hi) = ([0u64; MAX_DIM], [0u64; MAX_DIM]);
        for (d, range) in ranges.iter().enumerate() {
            let o = chunk.origin[d];
            let end = (o + r.chunkshape[d]).min(r.shape[d]);
            let (a, b) = (range.start.max(o), range.end.min(end));
            if a >= b {
                return Ok(());
            }
            (lo[d], hi[d]) = (a - o, b - o);
        }
        // A special chunk is one item everywhere: its part is filled at once, whatever its blocks.
        if let Source::Fill(item) = &chunk.source {
            let part: [Range<u64>; MAX_DIM] = core::array::from_fn(|d| {
                if d < n { chunk.origin[d] + lo[d]..chunk.origin[d] + hi[d] } else { 0..0 }
            });
            self.fill_rows(&part[..n], item);
            return Ok(());
        }
        let (mut blo, mut bhi) = ([0u64; MAX_DIM], [0u64; MAX_DIM]);
        for d in 0..n {
            (blo[d], bhi[d]) = (lo[d] / r.blockshape[d], (hi[d] - 1) / r.blockshape[d]);
        }
        let (blo, bhi) = (&blo[..n], &bhi[..n]);
        if let Source::Blocks { loc, table, .. } = &chunk.source
            && r.file().min_read() > 0
        {
            // From a remote source, the bytes of the blocks this band needs in one read: from the
            // first block's span to the last one's.
            let (mut first, mut last, mut n) = (usize::MAX, 0usize, 0usize);
            let mut bc = [0u64; MAX_DIM];
            bc[..blo.len()].copy_from_slice(blo);
            let bc = &mut bc[..blo.len()];
            loop {
                let j = bc.iter().zip(&r.bgrid).fold(0u64, |a, (&c, &g)| a * g + c) as usize;
                let span = table.block_span(j).map_err(|e| crate::container::error::Error::chunk(e, 0))?;
                (first, last, n) = (first.min(span.start), last.max(span.end), n + 1);
                if !next_in_box(bc, blo, bhi) {
                    break;
                }
            }
            if n > 1 && first < last {
                fetch_ahead(r.file(), *loc, first..last, &mut scratch.io, stats)?;
            }
        }
        let mut bc = [0u64; MAX_DIM];
        bc[..n].copy_from_slice(blo);
        let bc = &mut bc[..n];
        loop {
            // The block's items in array coordinates, cut to the selection.
            let block: [Range<u64>; MAX_DIM] = core::array::from_fn(|d| {
                if d >= n {
                    return 0..0;
                }
                let start = chunk.origin[d] + bc[d] * r.blockshape[d];
                let a = start.max(chunk.origin[d] + lo[d]);
                let b = (start + r.blockshape[d]).min(chunk.origin[d] + hi[d]);
                a..b
            });
            self.copy_block(r, chunk, bc, &block[..n], stats, scratch)?;
            if !next_in_box(bc, blo, bhi) {
                return Ok(());
            }
        }
    }

    /// Copies `part` (array coordinates, inside block `bc` of `chunk`) into the output.
    pub(super) fn copy_block(
        &mut self,
        r: &ArrayReader<'_>,
        chunk: &Chunk,
        bc: &[u64],
        part: &[Range<u64>],
        stats: &mut ReadStats,
        scratch: &mut Scratch,
    ) -> Result<()> {
        let ts = self.typesize;
        let j = bc.iter().zip(&r.bgrid).fold(0u64, |a, (&c, &g)| a * g + c) as usize;
        let block: &[u8] = match &chunk.source {
            Source::Fill(item) => {
                self.fill_rows(part, item);
                return Ok(());
            }
            Source::Whole(data) => {
                let start = j * r.block_bytes;
                data.get(start..start + r.block_bytes)
                    .ok_or_else(|| invalid("a block inside its chunk at", start, "past the end"))?
            }
            Source::Blocks { loc, table, first } => {
                let len = table.block_range(j).len();
                if scratch.block.len() < len {
                    let more = len - scratch.block.len();
                    crate::container::limits::try_reserve(&mut scratch.block, more, "a decoded block", 0)?;
                    scratch.block.resize(len, 0);
                }
                match first {
                    // The first block was decoded with the table (the delta reference).
                    Some(first) if j == 0 => &first[..],
                    // A whole block whose rows are whole rows of the output: its C order is the
                    // output's, so it is decoded in place, with no copy.
                    _ if len == r.block_bytes && self.is_whole_run(r, part) => {
                        let dst = self.offset(part) * ts;
                        let reference = first.as_deref().unwrap_or(&[]);
                        let out = &mut self.out[dst..dst + len];
                        return decode_block(
                            r.file(),
                            *loc,
                            table,
                            j,
                            reference,
                            out,
                            &mut scratch.io,
                            stats,
                        );
                    }
                    _ => {
                        let reference = first.as_deref().unwrap_or(&[]);
                        let dst = &mut scratch.block[..len];
                        decode_block(r.file(), *loc, table, j, reference, dst, &mut scratch.io, stats)?;
                        &scratch.block[..len]
                    }
                }
            }
        };
        // Rows of the part: all dimensions but the last, each a contiguous run of items in both
        // the block (C order over the block shape) and the output.
        let n = part.len();
        if n == 0 {
            self.out[..ts].copy_from_slice(
                block.get(..ts).ok_or_else(|| invalid("an item in the block", ts, block.len()))?,
            );
            return Ok(());
        }
        let mut bstrides = [1usize; MAX_DIM];
        for d in (0..n - 1).rev() {
            bstrides[d] = bstrides[d + 1] * r.blockshape[d + 1] as usize;
        }
        let (mut bstart, mut idx, mut hi) = ([0u64; MAX_DIM], [0u64; MAX_DIM], [0u64; MAX_DIM]);
        for (d, p) in part.iter().enumerate() {
            (bstart[d], idx[d], hi[d]) = (chunk.origin[d] + bc[d] * r.blockshape[d], p.start, p.end - 1);
        }
        let lo = idx;
        let run = (part[n - 1].end - part[n - 1].start) as usize * ts;
        loop {
            let src: usize = (0..n).map(|d| (idx[d] - bstart[d]) as usize * bstrides[d]).sum::<usize>() * ts;
            let dst: usize =
                (0..n).map(|d| (idx[d] - self.starts[d]) as usize * self.strides[d]).sum::<usize>() * ts;
            let from = block
                .get(src..src + run)
                .ok_or_else(|| invalid("a row inside the block at", src, "past the end"))?;
            self.out[dst..dst + run].copy_from_slice(from);
            // Next row: the last dimension stays at its start.
            if !next_in_box(&mut idx[..n - 1], &lo[..n - 1], &hi[..n - 1]) {
                return Ok(());
            }
        }
    }

    /// Whether `part`, the items of one block, is the whole block and lies in the output as one
    /// contiguous run: every dimension after the first is whole in both the block and the output.
    fn is_whole_run(&self, r: &ArrayReader<'_>, part: &[Range<u64>]) -> bool {
        let n = part.len();
        n > 0
            && part.iter().zip(&r.blockshape).all(|(p, &b)| p.end - p.start == b)
            && (1..n).all(|d| self.strides[d - 1] == self.strides[d] * r.blockshape[d] as usize)
    }

    /// Where item `part.start` lies in the output, in items.
    fn offset(&self, part: &[Range<u64>]) -> usize {
        part.iter().enumerate().map(|(d, p)| (p.start - self.starts[d]) as usize * self.strides[d]).sum()
    }

    /// Fills the items of `part` with `item`.
    fn fill_rows(&mut self, part: &[Range<u64>], item: &[u8]) {
        let ts = self.typesize;
        let n = part.len();
        let fill = |dst: &mut [u8]| repeat(dst, item);
        if n == 0 {
            fill(&mut self.out[..ts]);
            return;
        }
        let run = (part[n - 1].end - part[n - 1].start) as usize * ts;
        let (mut idx, mut hi) = ([0u64; MAX_DIM], [0u64; MAX_DIM]);
        for (d, p) in part.iter().enumerate() {
            (idx[d], hi[d]) = (p.start, p.end - 1);
        }
        let lo = idx;
        loop {
            let dst: usize =
                (0..n).map(|d| (idx[d] - self.starts[d]) as usize * self.strides[d]).sum::<usize>() * ts;
            fill(&mut self.out[dst..dst + run]);
            if !next_in_box(&mut idx[..n - 1], &lo[..n - 1], &hi[..n - 1]) {
                return;
            }
        }
    }
}

/// Fills `dst` with `item` repeated, at memory speed (zeros with one `fill`).
fn repeat(dst: &mut [u8], item: &[u8]) {
    if item.iter().all(|&b| b == 0) {
        dst.fill(0);
    } else {
        b2schema_chunk::fill_pattern(dst, item, 0);
    }
}

#[cfg(test)]
mod tests {
    use crate::container::array::ArrayReader;
    use crate::container::frame::FrameFile;
    use crate::container::writer::{Fill, NdArray};

    #[test]
    fn a_read_is_counted_as_the_blocks_it_decodes() {
        // 40 x 100 float64 in chunks of 20 rows, blocks of 5 rows: a block is 4000 bytes.
        let data = vec![0u8; 40 * 100 * 8];
        let frame = NdArray::new(&[40, 100], &[20, 100], &[5, 100], "<f8", 8, Fill::Data(&data))
            .to_frame()
            .unwrap()
            .to_vec()
            .unwrap();
        let file = FrameFile::from_bytes(frame, "t.b2nd", Default::default()).unwrap();
        let r = ArrayReader::new(&file).unwrap();
        // One column decodes every block for its 320 bytes.
        assert_eq!(r.decode_work(&[0..40, 7..8]), 8 * 4000);
        assert_eq!(r.decode_work(&[10..11, 0..100]), 4000);
        assert_eq!(r.decode_work(&[4..6, 0..1]), 2 * 4000);
        // Blocks restart at the chunk boundary (row 20).
        assert_eq!(r.decode_work(&[19..21, 0..100]), 2 * 4000);
    }
}
