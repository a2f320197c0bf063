//! The ndcell filter (32, c-blosc2's `ndcell` plugin): the block's items regrouped cell by cell,
//! cells of `meta` items a side in every dimension of the array's block shape; decoding puts
//! them back. Lossless.

use super::cells::{self, Cells};
use crate::registry::{FilterPlugin, PluginContext, PluginError};

/// c-blosc2's ndcell plugin.
pub(crate) struct NdCell;

impl NdCell {
    /// The geometry: the cell side is the meta (1-255) in every dimension.
    fn cells(ctx: &PluginContext<'_>, len: usize) -> Result<Cells, PluginError> {
        if ctx.meta == 0 {
            return Err(PluginError("a cell side of at least 1 (filters_meta)"));
        }
        Cells::new(ctx, len, |_| i64::from(ctx.meta))
    }
}

impl FilterPlugin for NdCell {
    fn name(&self) -> &str {
        "ndcell"
    }

    fn forward(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<(), PluginError> {
        let cells = Self::cells(ctx, src.len())?;
        cells::gather(&cells, ctx.typesize, src, dst)
    }

    fn backward(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<(), PluginError> {
        let cells = Self::cells(ctx, src.len())?;
        cells::scatter(&cells, ctx.typesize, src, dst)
    }
}
