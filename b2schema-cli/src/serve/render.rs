//! The data as images: a heatmap of a 2-D slice of an NDArray, a line plot of a 1-D one, drawn
//! as RGB pixels from a slice streamed through [`ArrayReader::read_to`] (only the blocks the
//! slice touches are decoded; memory stays at one streamed piece plus the image).
//!
//! Large slices are downsampled: the heatmap keeps every `step`-th row and column (nearest
//! sample, no averaging, so every pixel is a real value of the array); the line plot keeps the
//! minimum and the maximum of each pixel column, so no spike disappears.

use super::no_answer::NoAnswer;
use b2schema::array::{ArrayReader, ReadOptions, Selection};
use b2schema::dtype::{ByteOrder, DType, Kind};

/// The largest side of a heatmap, and the width of a line plot, in pixels.
pub const MAX_SIDE: usize = 1024;
/// The height of a line plot, in pixels.
pub const PLOT_HEIGHT: usize = 320;
/// The largest slice, in bytes, a request may stream through the decoder.
pub const MAX_SLICE_BYTES: u64 = 512 << 20;
/// The most bytes held at once while streaming a slice.
pub const SLAB_BYTES: usize = 16 << 20;
/// The colour of NaN and infinite values in a heatmap (mid grey).
pub const NAN_RGB: [u8; 3] = [128, 128, 128];

/// How values map to colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// The slice's smallest and largest finite values.
    MinMax,
    /// The 1st and 99th percentiles of the finite sampled values.
    Percentile,
}

/// A drawn image and what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// RGB pixels, row by row.
    pub rgb: Vec<u8>,
    /// The values at the two ends of the colour map (heatmap) or of the vertical axis (plot).
    pub lo: f64,
    /// See `lo`.
    pub hi: f64,
    /// One pixel is `step` items along each axis.
    pub step: usize,
}

/// How to read one item of a numeric dtype as `f64`, or why it cannot be drawn.
#[derive(Clone, Copy, Debug)]
pub struct Numeric {
    kind: Kind,
    size: usize,
    big: bool,
}

impl Numeric {
    /// Numbers and booleans of 1, 2, 4 or 8 bytes (float16 included).
    pub fn of(dtype: &DType) -> Result<Self, String> {
        let DType::Scalar(s) = dtype else {
            return Err(format!("dtype {} is not a number", dtype.to_numpy_str()));
        };
        let ok = match s.kind {
            Kind::Int | Kind::UInt => matches!(s.size, 1 | 2 | 4 | 8),
            Kind::Float => matches!(s.size, 2 | 4 | 8),
            Kind::Bool => s.size == 1,
            _ => false,
        };
        if !ok {
            return Err(format!("dtype {} is not a number the viewer draws", dtype.to_numpy_str()));
        }
        Ok(Numeric { kind: s.kind, size: s.size, big: s.order.resolve(ByteOrder::Little) == ByteOrder::Big })
    }

    /// Bytes per item.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The value of one item (`b.len() == self.size()`).
    pub fn value(&self, b: &[u8]) -> f64 {
        let mut a = [0u8; 8];
        a[..self.size].copy_from_slice(b);
        if self.big {
            a[..self.size].reverse();
        }
        let u = u64::from_le_bytes(a);
        match (self.kind, self.size) {
            (Kind::Float, 2) => f16_to_f64(u as u16),
            (Kind::Float, 4) => f32::from_bits(u as u32) as f64,
            (Kind::Float, _) => f64::from_bits(u),
            (Kind::Int, n) => {
                let shift = 64 - 8 * n as u32;
                ((u << shift) as i64 >> shift) as f64
            }
            _ => u as f64,
        }
    }
}

fn f16_to_f64(h: u16) -> f64 {
    let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    match exp {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        e => sign * (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// The 2-D slice to draw: `y` and `x` are the axes shown down and across; `index` gives the
/// position along every axis (the entries of `y` and `x` are ignored).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slice2 {
    /// The vertical axis.
    pub y: usize,
    /// The horizontal axis.
    pub x: usize,
    /// One index per axis.
    pub index: Vec<u64>,
}

/// The colour of `t` in `0..=1` on viridis (the perceptually uniform map of matplotlib by
/// Stéfan van der Walt and Nathaniel Smith, released under CC0 into the public domain), through
/// the `colorous` crate's table.
pub fn viridis(t: f64) -> [u8; 3] {
    let c = colorous::VIRIDIS.eval_continuous(t.clamp(0.0, 1.0));
    [c.r, c.g, c.b]
}

fn selection_2d(reader: &ArrayReader<'_>, s: &Slice2) -> Result<Selection, NoAnswer> {
    let shape = reader.shape();
    let nd = shape.len();
    if nd < 2 {
        return Err(format!("a heatmap needs 2 dimensions or more, the array has {nd}").into());
    }
    if s.y >= nd || s.x >= nd || s.y == s.x {
        return Err(format!("two different axes below {nd} expected, found {} and {}", s.y, s.x).into());
    }
    if s.index.len() != nd {
        return Err(format!("{nd} indices expected, found {}", s.index.len()).into());
    }
    let ranges = (0..nd)
        .map(|a| {
            if a == s.y || a == s.x {
                Ok(0..shape[a])
            } else if s.index[a] < shape[a] {
                Ok(s.index[a]..s.index[a] + 1)
            } else {
                Err(format!("index {} of axis {a} is outside its length {}", s.index[a], shape[a]))
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    Selection::new(ranges, shape).map_err(|e| NoAnswer::from(e.to_string()))
}

fn options(bytes: u64, nthreads: usize) -> Result<ReadOptions, NoAnswer> {
    if bytes > MAX_SLICE_BYTES {
        return Err(format!("a slice of {bytes} bytes, over the viewer's budget of {MAX_SLICE_BYTES}").into());
    }
    Ok(ReadOptions { nthreads, ..ReadOptions::one_thread(MAX_SLICE_BYTES) })
}

/// Draws the heatmap of `s`: at most [`MAX_SIDE`] pixels a side, rows along `s.y`.
pub fn heatmap(
    reader: &ArrayReader<'_>,
    num: Numeric,
    s: &Slice2,
    scale: Scale,
    nthreads: usize,
) -> Result<Image, NoAnswer> {
    heatmap_within(reader, num, s, scale, nthreads, MAX_SIDE)
}

/// [`heatmap`] with at most `max_side` pixels a side: one pixel per `step` items along each
/// axis, the item at (`step` r, `step` c) for pixel (r, c).
pub fn heatmap_within(
    reader: &ArrayReader<'_>,
    num: Numeric,
    s: &Slice2,
    scale: Scale,
    nthreads: usize,
    max_side: usize,
) -> Result<Image, NoAnswer> {
    let sel = selection_2d(reader, s)?;
    let shape = reader.shape();
    let (ny, nx) = (shape[s.y] as usize, shape[s.x] as usize);
    let items = (ny as u64).saturating_mul(nx as u64);
    let opts = options(items.saturating_mul(num.size() as u64), nthreads)?;
    if items == 0 {
        return Err("an empty slice".into());
    }
    let step = ny.max(nx).div_ceil(max_side.max(1)).max(1);
    let (h, w) = (ny.div_ceil(step), nx.div_ceil(step));
    let mut values = vec![f64::NAN; w * h];
    // The C-order stream runs over the lower-numbered of the two axes first.
    let (outer_is_y, inner) = if s.y < s.x { (true, nx) } else { (false, ny) };
    let mut at = 0usize;
    reader.read_to(&sel, &opts, SLAB_BYTES, |piece| {
        // Only every `step`-th item of every `step`-th row is read: skipped rows and the
        // items between two samples are jumped over, not visited.
        let items = piece.len() / num.size();
        let mut k = 0;
        while k < items {
            let (o, i) = (at / inner, at % inner);
            let skip = if o % step != 0 { inner - i } else { (step - i % step) % step };
            if skip > 0 {
                let skip = skip.min(items - k);
                k += skip;
                at += skip;
                continue;
            }
            let (r, c) = if outer_is_y { (o / step, i / step) } else { (i / step, o / step) };
            values[r * w + c] = num.value(&piece[k * num.size()..][..num.size()]);
            k += 1;
            at += 1;
        }
        Ok(())
    })?;
    let (lo, hi) = range(&values, scale);
    let mut rgb = Vec::with_capacity(w * h * 3);
    for &v in &values {
        rgb.extend_from_slice(&if v.is_finite() { viridis(unit(v, lo, hi)) } else { NAN_RGB });
    }
    Ok(Image { width: w, height: h, rgb, lo, hi, step })
}

/// Where `v` falls between `lo` and `hi`, in `0..=1` (0.5 when they are equal).
pub fn unit(v: f64, lo: f64, hi: f64) -> f64 {
    if hi > lo { ((v - lo) / (hi - lo)).clamp(0.0, 1.0) } else { 0.5 }
}

/// The ends of the scale over the finite values (0 and 1 when there are none).
pub fn range(values: &[f64], scale: Scale) -> (f64, f64) {
    let mut finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if finite.is_empty() {
        return (0.0, 1.0);
    }
    match scale {
        Scale::MinMax => {
            finite.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)))
        }
        Scale::Percentile => {
            finite.sort_by(f64::total_cmp);
            let at = |p: f64| finite[((finite.len() - 1) as f64 * p).round() as usize];
            (at(0.01), at(0.99))
        }
    }
}

/// Draws a 1-D array as a line: [`MAX_SIDE`] pixel columns at most, each the span from the
/// minimum to the maximum of its items, on white.
pub fn line_plot(reader: &ArrayReader<'_>, num: Numeric, nthreads: usize) -> Result<Image, NoAnswer> {
    let shape = reader.shape();
    if shape.len() != 1 {
        return Err(format!("a line plot needs 1 dimension, the array has {}", shape.len()).into());
    }
    let n = shape[0] as usize;
    if n == 0 {
        return Err("an empty array".into());
    }
    let opts = options((n as u64).saturating_mul(num.size() as u64), nthreads)?;
    let step = n.div_ceil(MAX_SIDE).max(1);
    let w = n.div_ceil(step);
    let mut bins = vec![(f64::INFINITY, f64::NEG_INFINITY); w];
    let mut at = 0usize;
    reader.read_to(&Selection::all(shape), &opts, SLAB_BYTES, |piece| {
        for item in piece.chunks_exact(num.size()) {
            let v = num.value(item);
            if v.is_finite() {
                let b = &mut bins[at / step];
                *b = (b.0.min(v), b.1.max(v));
            }
            at += 1;
        }
        Ok(())
    })?;
    let lo = bins.iter().map(|b| b.0).fold(f64::INFINITY, f64::min);
    let hi = bins.iter().map(|b| b.1).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let h = PLOT_HEIGHT;
    let mut rgb = vec![255u8; w * h * 3];
    let ink = viridis(0.0);
    let row = |v: f64| ((1.0 - unit(v, lo, hi)) * (h - 1) as f64).round() as usize;
    let mut prev: Option<(usize, usize)> = None;
    for (c, &(a, b)) in bins.iter().enumerate() {
        if !a.is_finite() {
            prev = None;
            continue;
        }
        let (mut top, mut bottom) = (row(b), row(a));
        if let Some((pt, pb)) = prev {
            // Join to the previous column so the line has no gaps.
            top = top.min(pb);
            bottom = bottom.max(pt);
        }
        for r in top..=bottom {
            rgb[(r * w + c) * 3..][..3].copy_from_slice(&ink);
        }
        prev = Some((row(b), row(a)));
    }
    Ok(Image { width: w, height: h, rgb, lo, hi, step })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        let n = |s: &str| Numeric::of(&DType::parse(s).unwrap()).unwrap();
        assert_eq!(n("<i2").value(&(-3i16).to_le_bytes()), -3.0);
        assert_eq!(n(">i4").value(&(-70000i32).to_be_bytes()), -70000.0);
        assert_eq!(n("<u8").value(&u64::MAX.to_le_bytes()), u64::MAX as f64);
        assert_eq!(n(">f8").value(&1.5f64.to_be_bytes()), 1.5);
        assert_eq!(n("<f2").value(&[0x00, 0x3c]), 1.0);
        assert_eq!(n("<f2").value(&[0x00, 0xc0]), -2.0);
        assert!(Numeric::of(&DType::parse("<U4").unwrap()).is_err());
    }

    #[test]
    fn scales() {
        let v: Vec<f64> = (0..=100).map(f64::from).chain([f64::NAN]).collect();
        assert_eq!(range(&v, Scale::MinMax), (0.0, 100.0));
        assert_eq!(range(&v, Scale::Percentile), (1.0, 99.0));
        assert_eq!(viridis(0.0), [68, 1, 84]);
        assert_eq!(viridis(1.0), [253, 231, 37]);
    }
}
