//! The ndmean filter (33, c-blosc2's `ndmean` plugin): every cell of the block (`meta` items a
//! side, at most the block's side) replaced by its mean, written cell by cell as ndcell does;
//! lossy, float32 and float64 only. Decoding scatters the cells back as ndcell's does.

use super::cells::{self, Cells, Visit};
use crate::registry::{FilterPlugin, PluginContext, PluginError};

/// c-blosc2's ndmean plugin.
pub(crate) struct NdMean;

impl NdMean {
    /// The geometry: the cell side is the meta as an `i8` (1-127), cut to each block side.
    fn cells(ctx: &PluginContext<'_>, len: usize) -> Result<Cells, PluginError> {
        let side = i64::from(ctx.meta as i8);
        if side <= 0 {
            return Err(PluginError("a cell side from 1 to 127 (filters_meta)"));
        }
        Cells::new(ctx, len, |b| side.min(b))
    }
}

impl FilterPlugin for NdMean {
    fn name(&self) -> &str {
        "ndmean"
    }

    fn forward(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<(), PluginError> {
        let ts = ctx.typesize;
        if ts != 4 && ts != 8 {
            return Err(PluginError("typesize 4 or 8 (float32 or float64) for ndmean"));
        }
        let cells = Self::cells(ctx, src.len())?;
        let (mut sum32, mut sum64, mut count, mut op) = (0f32, 0f64, 0usize, 0usize);
        cells.walk(|v| {
            match v {
                Visit::Run { at, len } => {
                    for item in src[at * ts..(at + len) * ts].chunks_exact(ts) {
                        match item.try_into() {
                            Ok(b) => sum32 += f32::from_le_bytes(b),
                            Err(_) => sum64 += f64::from_le_bytes(item.try_into().unwrap_or([0; 8])),
                        }
                    }
                    count += len;
                }
                Visit::CellEnd => {
                    let out = dst
                        .get_mut(op..op + count * ts)
                        .ok_or(PluginError("cells that fill the block exactly"))?;
                    if ts == 4 {
                        let mean = (sum32 / count as f32).to_le_bytes();
                        out.chunks_exact_mut(4).for_each(|o| o.copy_from_slice(&mean));
                    } else {
                        let mean = (sum64 / count as f64).to_le_bytes();
                        out.chunks_exact_mut(8).for_each(|o| o.copy_from_slice(&mean));
                    }
                    op += count * ts;
                    (sum32, sum64, count) = (0.0, 0.0, 0);
                }
            }
            Ok(())
        })
    }

    fn backward(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<(), PluginError> {
        let cells = Self::cells(ctx, src.len())?;
        cells::scatter(&cells, ctx.typesize, src, dst)
    }
}
