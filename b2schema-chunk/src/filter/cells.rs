//! The cell geometry c-blosc2's ndcell and ndmean plugins share: a block of the array's block
//! shape cut into cells of `cellshape` items a side (smaller at the block's far edges), visited
//! cell by cell in C order, each cell as runs of items along its last dimension.
//!
//! The positions are computed as c-blosc2 computes them (its cell origin uses the first
//! dimension's cell side for every dimension, which only matters for ndmean's clamped cells);
//! every run is checked against the block, so a geometry c-blosc2 would read or write out of
//! bounds with is an error here.

use crate::registry::{PluginContext, PluginError};

/// Most dimensions the plugins take (`NDCELL_MAX_DIM`, `NDMEAN_MAX_DIM`).
pub(crate) const MAX_DIM: usize = 8;

/// A checked cell geometry.
pub(crate) struct Cells {
    ndim: usize,
    blockshape: [i64; MAX_DIM],
    cellshape: [i64; MAX_DIM],
    /// Items in the block.
    pub(crate) items: usize,
}

/// One step of the walk: a run of `len` items from item `at` of the block, or the end of a cell.
pub(crate) enum Visit {
    Run { at: usize, len: usize },
    CellEnd,
}

impl Cells {
    /// The geometry for a block of `len` bytes with `ctx`'s block shape and typesize; `side`
    /// gives each dimension's cell side from its block side. Refuses what c-blosc2 refuses: no
    /// array shapes, more than 8 dimensions, a block shape that is not the block's.
    pub(crate) fn new(
        ctx: &PluginContext<'_>,
        len: usize,
        side: impl Fn(i64) -> i64,
    ) -> Result<Self, PluginError> {
        let bs = ctx.blockshape.ok_or(PluginError("the array's block shape (the chunk of a b2nd array)"))?;
        let ndim = bs.len();
        if ndim == 0 || ndim > MAX_DIM {
            return Err(PluginError("an array of 1 to 8 dimensions"));
        }
        let typesize = ctx.typesize;
        if typesize == 0 {
            return Err(PluginError("a typesize of at least 1"));
        }
        let mut blockshape = [1i64; MAX_DIM];
        let mut cellshape = [1i64; MAX_DIM];
        let mut bytes = typesize as u64;
        let mut cell_items = 1u64;
        for (i, &b) in bs.iter().enumerate() {
            if b <= 0 {
                return Err(PluginError("a block shape of positive sides"));
            }
            bytes = bytes.saturating_mul(b as u64);
            if bytes > len as u64 {
                return Err(PluginError("a block shape that fits its block"));
            }
            blockshape[i] = i64::from(b);
            cellshape[i] = side(i64::from(b));
            if cellshape[i] <= 0 {
                return Err(PluginError("a cell side of at least 1 (filters_meta)"));
            }
            cell_items = cell_items.saturating_mul(cellshape[i] as u64);
        }
        if bytes != len as u64 {
            return Err(PluginError("a block of exactly the array's block shape"));
        }
        let items = len / typesize;
        if cell_items > items as u64 {
            return Err(PluginError("cells no larger than the block (filters_meta)"));
        }
        Ok(Cells { ndim, blockshape, cellshape, items })
    }

    /// Walks the block cell by cell (c-blosc2's loop); `f` gets every run and cell end.
    pub(crate) fn walk(
        &self,
        mut f: impl FnMut(Visit) -> Result<(), PluginError>,
    ) -> Result<(), PluginError> {
        let n = self.ndim;
        let (bs, cs) = (&self.blockshape, &self.cellshape);
        let mut grid = [1i64; MAX_DIM];
        for i in 0..n {
            grid[i] = (bs[i] + cs[i] - 1) / cs[i];
        }
        let ncells: i64 = grid[..n].iter().product();
        let mut last_end = 0usize;
        let mut ii = [0i64; MAX_DIM];
        let mut pad = [0i64; MAX_DIM];
        for cell in 0..ncells {
            unflatten(&grid[..n], cell, &mut ii[..n]);
            let mut orig = 0i64;
            let mut stride = cs[0];
            for i in (0..n).rev() {
                orig += ii[i] * stride;
                stride *= bs[i];
            }
            for d in 0..n {
                pad[d] = if bs[d] % cs[d] != 0 && ii[d] == grid[d] - 1 { bs[d] % cs[d] } else { cs[d] };
            }
            let ncopies: i64 = pad[..n - 1].iter().product();
            let mut kk = [0i64; MAX_DIM];
            for copy in 0..ncopies {
                unflatten(&pad[..n - 1], copy, &mut kk[..n - 1]);
                let mut at = orig;
                let mut stride = bs[n - 1];
                for i in (0..n - 1).rev() {
                    at += kk[i] * stride;
                    stride *= bs[i];
                }
                let len = pad[n - 1] as usize;
                let at = usize::try_from(at).map_err(|_| PluginError("cells inside the block"))?;
                if at.checked_add(len).is_none_or(|end| end > self.items) {
                    return Err(PluginError(
                        "cells inside the block (a cell shape c-blosc2 reads past the block with)",
                    ));
                }
                last_end = at + len;
                f(Visit::Run { at, len })?;
            }
            f(Visit::CellEnd)?;
        }
        // c-blosc2's final check: the last run ends the block.
        if last_end != self.items {
            return Err(PluginError("cells that end with the block's last item"));
        }
        Ok(())
    }
}

/// `blosc2_unidim_to_multidim`: the C-order coordinates of `index` in `shape`.
fn unflatten(shape: &[i64], mut index: i64, out: &mut [i64]) {
    for (o, &s) in out.iter_mut().zip(shape).rev() {
        *o = index % s;
        index /= s;
    }
}

/// Runs `walk` gathering: the runs of `src` written one after the other into `dst` (c-blosc2's
/// ndcell forward).
pub(crate) fn gather(cells: &Cells, typesize: usize, src: &[u8], dst: &mut [u8]) -> Result<(), PluginError> {
    let mut op = 0;
    cells.walk(|v| {
        if let Visit::Run { at, len } = v {
            let (s, n) = (at * typesize, len * typesize);
            let out = dst.get_mut(op..op + n).ok_or(PluginError("cells that fill the block exactly"))?;
            out.copy_from_slice(&src[s..s + n]);
            op += n;
        }
        Ok(())
    })
}

/// The inverse of [`gather`]: `src`'s consecutive runs scattered to their places in `dst`
/// (c-blosc2's ndcell and ndmean backward). Items no run reaches are zero.
pub(crate) fn scatter(cells: &Cells, typesize: usize, src: &[u8], dst: &mut [u8]) -> Result<(), PluginError> {
    dst.fill(0);
    let mut ip = 0;
    cells.walk(|v| {
        if let Visit::Run { at, len } = v {
            let (d, n) = (at * typesize, len * typesize);
            let input = src.get(ip..ip + n).ok_or(PluginError("cells that fill the block exactly"))?;
            dst[d..d + n].copy_from_slice(input);
            ip += n;
        }
        Ok(())
    })
}
