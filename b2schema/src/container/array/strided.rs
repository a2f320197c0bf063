//! Strided selections (`::2`): read from pieces of their bounding box, the selected items picked.

use alloc::vec::Vec;

use super::reader::{ArrayReader, ReadOptions, ReadStats, invalid};
use super::selection::Selection;
use crate::container::error::{Error, Result};

impl ArrayReader<'_> {
    /// Reads a strided selection: its bounding box in pieces of about [`super::PIECE_BYTES`] (at
    /// least one row of the first dimension), each read as a plain box, the selected items picked
    /// from it. Memory: one piece besides the result.
    pub(super) fn read_strided(
        &self,
        sel: &Selection,
        out: &mut [u8],
        opts: &ReadOptions,
    ) -> Result<ReadStats> {
        let ts = self.typesize();
        let ranges = sel.ranges();
        let steps = sel.steps();
        let bx: Vec<u64> = ranges.iter().map(|r| r.end - r.start).collect();
        let row_box = bx[1..].iter().fold(ts as u64, |a, &n| a.saturating_mul(n));
        let row_out = sel.shape()[1..].iter().fold(ts as u64, |a, &n| a * n) as usize;
        // Rows of the box per piece: a whole number of steps of the first dimension.
        let fit = (super::PIECE_BYTES as u64 / row_box.max(1)).max(1);
        let rows_per = (fit / steps[0]).max(1) * steps[0];
        let mut stats = ReadStats::default();
        let mut piece = Vec::new();
        let mut at = 0usize;
        let mut start = ranges[0].start;
        while start < ranges[0].end {
            let end = start.saturating_add(rows_per).min(ranges[0].end);
            let mut part = ranges.to_vec();
            part[0] = start..end;
            let part = Selection::new(part, self.shape())
                .map_err(|e| invalid("a selection", "inside the shape", e))?;
            let n = usize::try_from((end - start).saturating_mul(row_box))
                .map_err(|_| Error::no_memory("a piece of the selection", u64::MAX, 0))?;
            if piece.len() < n {
                let more = n - piece.len();
                crate::container::limits::try_reserve(&mut piece, more, "a piece of a strided read", 0)?;
                piece.resize(n, 0);
            }
            stats.add(&self.read_into(&part, &mut piece[..n], opts)?);
            let mut r = 0;
            while start + r < end {
                let src = &piece[(r * row_box) as usize..((r + 1) * row_box) as usize];
                pick(src, &bx[1..], &steps[1..], ts, &mut out[at..at + row_out]);
                at += row_out;
                r += steps[0];
            }
            start = end;
        }
        Ok(stats)
    }
}

/// Copies from `src`, a C-order box of `dims` items of `ts` bytes, the items at multiples of
/// `steps` into `out` in C order.
fn pick(src: &[u8], dims: &[u64], steps: &[u64], ts: usize, out: &mut [u8]) {
    match dims {
        [] => out.copy_from_slice(&src[..ts]),
        [n] if steps[0] == 1 => out.copy_from_slice(&src[..*n as usize * ts]),
        [n] => {
            for (o, i) in out.chunks_exact_mut(ts).zip((0..*n).step_by(steps[0] as usize)) {
                let i = i as usize * ts;
                o.copy_from_slice(&src[i..i + ts]);
            }
        }
        [n, rest @ ..] => {
            let inner_src = rest.iter().fold(ts as u64, |a, &d| a * d) as usize;
            let inner_out =
                rest.iter().zip(&steps[1..]).fold(ts as u64, |a, (&d, &s)| a * d.div_ceil(s)) as usize;
            for (o, i) in out.chunks_exact_mut(inner_out.max(1)).zip((0..*n).step_by(steps[0] as usize)) {
                let i = i as usize * inner_src;
                pick(&src[i..i + inner_src], rest, &steps[1..], ts, o);
            }
        }
    }
}
