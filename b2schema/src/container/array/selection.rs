//! A part of an array: `start..stop` (with a step) in every dimension.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;

/// A part of an array: one `start..stop` per dimension, inside the array's shape, with a step
/// (1 unless parsed from `start:stop:step`): the items `start, start + step, ...` below `stop`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    ranges: Vec<Range<u64>>,
    /// Per dimension: the step (at least 1).
    steps: Vec<u64>,
    /// Per dimension: selected by a single index (`3`), which NumPy's result drops.
    indexed: Vec<bool>,
}

/// Why a selection does not fit an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectionError {
    /// The dimension at fault, when one is.
    pub dim: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// A selection's error as the crate's error, so that `?` takes both in one function returning
/// [`crate::Result`].
impl From<SelectionError> for crate::container::error::Error {
    fn from(e: SelectionError) -> Self {
        crate::container::error::Error::custom(alloc::format!("a selection that fits the array: {e}"))
    }
}

impl fmt::Display for SelectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.dim {
            Some(d) => write!(f, "dimension {d}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl std::error::Error for SelectionError {}

fn err(dim: Option<usize>, message: impl ToString) -> SelectionError {
    SelectionError { dim, message: message.to_string() }
}

impl Selection {
    /// The whole array of this shape.
    pub fn all(shape: &[u64]) -> Self {
        Selection {
            ranges: shape.iter().map(|&s| 0..s).collect(),
            steps: alloc::vec![1; shape.len()],
            indexed: alloc::vec![false; shape.len()],
        }
    }

    /// `ranges`, one per dimension of `shape`, each with `start <= stop <= shape`.
    pub fn new(ranges: Vec<Range<u64>>, shape: &[u64]) -> Result<Self, SelectionError> {
        if ranges.len() != shape.len() {
            return Err(err(None, alloc::format!("{} ranges for {} dimensions", ranges.len(), shape.len())));
        }
        for (d, (r, &s)) in ranges.iter().zip(shape).enumerate() {
            if r.start > r.end || r.end > s {
                return Err(err(Some(d), alloc::format!("{}..{} is not inside 0..{s}", r.start, r.end)));
            }
        }
        let indexed = alloc::vec![false; ranges.len()];
        let steps = alloc::vec![1; ranges.len()];
        Ok(Selection { ranges, steps, indexed })
    }

    /// Parses NumPy-style text, one item per dimension separated by commas: `start:stop` or
    /// `start:stop:step` (any may be left out; negative bounds count from the end; the step is
    /// positive), a single index `i` (a range of one), or `:` / nothing for the whole dimension.
    /// Dimensions not given are whole, as in NumPy; indices out of range are an error, bounds of
    /// ranges are clipped as Python clips them. Negative steps (`::-1`) are refused. One `...`
    /// stands for as many whole dimensions as the others leave (`..., 0` is the first item of the
    /// last dimension), and `()` for the whole array, as in NumPy.
    ///
    /// ```
    /// use b2schema::array::Selection;
    /// let s = Selection::parse("..., 1:3", &[4, 5, 6])?;
    /// assert_eq!(s.ranges(), [0..4, 0..5, 1..3]);
    /// assert_eq!(Selection::parse("()", &[4, 5])?.ranges(), [0..4, 0..5]);
    /// assert!(Selection::parse("..., 0, ...", &[4, 5]).is_err());
    /// assert!(Selection::parse("0, ..., 0, 0", &[4, 5]).is_err());
    /// # Ok::<(), b2schema::array::SelectionError>(())
    /// ```
    pub fn parse(text: &str, shape: &[u64]) -> Result<Self, SelectionError> {
        let text = if text.trim() == "()" { "" } else { text };
        let mut items: Vec<&str> =
            if text.trim().is_empty() { Vec::new() } else { text.split(',').collect() };
        if let Some(at) = items.iter().position(|i| i.trim() == "...") {
            if items.iter().filter(|i| i.trim() == "...").count() > 1 {
                return Err(err(None, String::from("at most one ellipsis (`...`)")));
            }
            let whole = (shape.len() + 1).checked_sub(items.len()).ok_or_else(|| {
                err(None, alloc::format!("{} items for {} dimensions", items.len() - 1, shape.len()))
            })?;
            items.splice(at..=at, core::iter::repeat_n("", whole));
        }
        if items.len() > shape.len() {
            return Err(err(None, alloc::format!("{} items for {} dimensions", items.len(), shape.len())));
        }
        let mut ranges = Vec::with_capacity(shape.len());
        let mut steps = Vec::with_capacity(shape.len());
        let mut indexed = Vec::with_capacity(shape.len());
        for (d, &s) in shape.iter().enumerate() {
            let item = items.get(d).map_or("", |i| i.trim());
            let (range, step) = parse_item(item, s).map_err(|m| err(Some(d), m))?;
            ranges.push(range);
            steps.push(step);
            indexed.push(!item.is_empty() && !item.contains(':'));
        }
        Ok(Selection { ranges, steps, indexed })
    }

    /// The ranges, one per dimension (with their steps: [`Selection::steps`]).
    pub fn ranges(&self) -> &[Range<u64>] {
        &self.ranges
    }

    /// The steps, one per dimension (1 for a plain range).
    pub fn steps(&self) -> &[u64] {
        &self.steps
    }

    /// Whether a step is other than 1.
    pub fn is_strided(&self) -> bool {
        self.steps.iter().any(|&s| s != 1)
    }

    /// The same ranges with steps of 1: the box around the selected items.
    pub fn bounding_box(&self) -> Selection {
        Selection { steps: alloc::vec![1; self.ranges.len()], ..self.clone() }
    }

    /// The shape of what is selected: per dimension, the items of its range taken with its step.
    pub fn shape(&self) -> Vec<u64> {
        self.ranges.iter().zip(&self.steps).map(|(r, &s)| (r.end - r.start).div_ceil(s.max(1))).collect()
    }

    /// The shape NumPy gives `arr[text]` for the text this selection was parsed from: as
    /// [`shape`](Self::shape), without the dimensions selected by a single index (`3,1:4` of a
    /// 3-D array has 2 dimensions; all single indices give a 0-d result).
    pub fn numpy_shape(&self) -> Vec<u64> {
        self.shape().into_iter().zip(&self.indexed).filter(|(_, i)| !**i).map(|(n, _)| n).collect()
    }

    /// The number of items selected (`None` on overflow).
    pub fn len(&self) -> Option<u64> {
        self.shape().into_iter().try_fold(1u64, |n, d| n.checked_mul(d))
    }

    /// `true` when nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.ranges.iter().any(|r| r.start == r.end)
    }
}

/// One item of [`Selection::parse`] for a dimension of length `len`: its range and step.
fn parse_item(item: &str, len: u64) -> Result<(Range<u64>, u64), String> {
    let num = |t: &str| -> Result<Option<i128>, String> {
        let t = t.trim();
        if t.is_empty() {
            return Ok(None);
        }
        t.parse::<i128>().map(Some).map_err(|_| alloc::format!("{t:?} is not an integer"))
    };
    let len_i = i128::from(len);
    match item.split(':').collect::<Vec<_>>()[..] {
        [one] if !one.trim().is_empty() => {
            let i = num(one)?.unwrap_or(0);
            let i = if i < 0 { i + len_i } else { i };
            if !(0..len_i).contains(&i) {
                return Err(alloc::format!("index {} is out of bounds for length {len}", item.trim()));
            }
            Ok((i as u64..i as u64 + 1, 1))
        }
        [_] => Ok((0..len, 1)),
        [a, b] | [a, b, _] => {
            let step = match item.split(':').nth(2).map(num).transpose()?.flatten() {
                None => 1,
                Some(s) if s > 0 => u64::try_from(s).unwrap_or(u64::MAX),
                Some(0) => return Err(alloc::format!("{item:?}: a step cannot be zero")),
                Some(_) => return Err(alloc::format!("{item:?}: negative steps are not supported")),
            };
            let clip = |v: Option<i128>, default: i128| -> u64 {
                let v = v.unwrap_or(default);
                let v = if v < 0 { v + len_i } else { v };
                v.clamp(0, len_i) as u64
            };
            let start = clip(num(a)?, 0);
            let stop = clip(num(b)?, len_i);
            Ok((start..stop.max(start), step))
        }
        _ => Err(alloc::format!("{item:?}: more than start:stop:step")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_style_items() {
        let s = Selection::parse("0:10, 5:8", &[100, 20, 3]).unwrap();
        assert_eq!(s.ranges(), &[0..10, 5..8, 0..3]);
        let s = Selection::parse("-1,:-2,", &[4, 5, 6]).unwrap();
        assert_eq!(s.ranges(), &[3..4, 0..3, 0..6]);
        let s = Selection::parse("7:3,100:", &[10, 5]).unwrap();
        assert_eq!(s.ranges(), &[7..7, 5..5]);
        assert!(s.is_empty());
        assert_eq!(Selection::parse("", &[]).unwrap().len(), Some(1));
        // NumPy's result shape drops the dimensions given by one index.
        assert_eq!(Selection::parse("3,1:4", &[5, 6, 7]).unwrap().numpy_shape(), [3, 7]);
        assert_eq!(Selection::parse("3, -1", &[5, 6]).unwrap().numpy_shape(), [0u64; 0]);
        assert_eq!(Selection::parse(" 2 ", &[5]).unwrap().shape(), [1]);
        assert_eq!(Selection::all(&[5, 6]).numpy_shape(), [5, 6]);
        assert!(Selection::parse("4", &[4]).unwrap_err().to_string().contains("out of bounds"));
        let s = Selection::parse("0:4:2, ::3, 1::2", &[4, 10, 5]).unwrap();
        assert_eq!(
            (s.ranges(), s.steps(), s.shape()),
            (&[0..4, 0..10, 1..5][..], &[2, 3, 2][..], vec![2, 4, 2])
        );
        assert_eq!(s.len(), Some(16));
        assert!(Selection::parse("::-1", &[4]).unwrap_err().to_string().contains("negative steps"));
        assert!(Selection::parse("::0", &[4]).unwrap_err().to_string().contains("zero"));
        assert!(Selection::parse("1:2:3:4", &[4]).is_err());
        assert!(Selection::parse("1,2", &[4]).is_err());
        assert!(Selection::parse("x", &[4]).is_err());
        #[allow(clippy::reversed_empty_ranges)]
        let backwards = alloc::vec![2..1];
        assert!(Selection::new(backwards, &[4]).is_err());
    }
}
