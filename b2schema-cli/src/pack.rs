//! `pack` (a NumPy `.npy` file to a compressed `.b2nd` array) and `unpack` (back).

use std::path::Path;
use std::process::ExitCode;

use b2schema::chunk::{Codec, Filter};
use b2schema::frame::SplitMode;
use b2schema::writer::{CParams, Fill, NdArray, default_blocks, default_shapes};

use crate::Failure;
use crate::npy;

/// The codec a name (or id) stands for: the chunk codec's own vocabulary ([`Codec`]'s `FromStr`).
fn codec(name: &str) -> Result<Codec, Failure> {
    name.parse::<Codec>().map_err(|e| Failure::Message(format!("unknown codec {name:?}: {e}")))
}

/// A meta from -128 to 255, as its byte (`what` names it in the error).
fn meta(m: &str, what: &str) -> Result<u8, Failure> {
    let v: i16 = m
        .parse()
        .ok()
        .filter(|v| (-128..=255).contains(v))
        .ok_or_else(|| Failure::Message(format!("{what} {m:?}: an integer from -128 to 255")))?;
    Ok(v as u8)
}

/// A filter name or id, `NAME:META` with its meta (`trunc_prec:BITS`), as (filter, meta); `none`
/// is an empty slot.
fn filter(name: &str) -> Result<(Filter, u8), Failure> {
    let (name, meta) = match name.split_once(':') {
        Some((n, m)) => (n, meta(m, "filter meta")?),
        None => (name, 0),
    };
    let id = match name {
        "none" => Filter::NoFilter,
        _ => name.parse::<Filter>().map_err(|e| Failure::Message(format!("unknown filter {name:?}: {e}")))?,
    };
    if id == Filter::TruncPrec && meta == 0 {
        return Err(Failure::Message(
            "trunc_prec needs its precision: trunc_prec:BITS (mantissa bits kept)".into(),
        ));
    }
    if id == Filter::IntTrunc && meta == 0 {
        return Err(Failure::Message(
            "int_trunc needs its precision: int_trunc:BITS (integer bits kept)".into(),
        ));
    }
    if matches!(id, Filter::NdCell | Filter::NdMean) && meta == 0 {
        return Err(Failure::Message(format!("{id} needs its cell size: {id}:CELL (items a side)")));
    }
    Ok((id, meta))
}

fn parse_shape(s: &str, ndim: usize, what: &str) -> Result<Vec<u64>, Failure> {
    let v: Vec<u64> = s
        .split(',')
        .map(|d| {
            d.trim()
                .parse::<u64>()
                .map_err(|_| Failure::Message(format!("--{what} {s:?}: comma-separated integers")))
        })
        .collect::<Result<_, _>>()?;
    if v.len() != ndim {
        return Err(Failure::Message(format!("--{what} has {} dimensions, the array {ndim}", v.len())));
    }
    Ok(v)
}

/// The options of `pack`.
pub struct PackOptions<'a> {
    pub codec: &'a str,
    /// `--codec-meta` as given.
    pub codec_meta: &'a str,
    pub clevel: u8,
    pub filters: &'a [String],
    pub chunks: Option<&'a str>,
    pub blocks: Option<&'a str>,
    pub nthreads: i16,
    /// The most bytes of a `.npy` read from stdin (`-`).
    pub max_input: u64,
}

/// `b2schema pack IN.npy OUT.b2nd`: the items read and compressed one slab of chunks at a time
/// (C order; a Fortran-order file is read whole and reordered first), the frame written as its
/// chunks are made (to stdout, held until done).
pub fn pack(input: &Path, output: &Path, o: &PackOptions<'_>) -> Result<ExitCode, Failure> {
    if crate::walk::is_stdin(input) {
        pack_from(input, &mut std::io::stdin().lock(), o.max_input, output, o)
    } else {
        let (mut f, len) = b2schema::frame::open_regular(input).map_err(|e| Failure::at(input, e))?;
        pack_from(input, &mut f, len, output, o)
    }
}

/// [`pack`] of the `.npy` file `input` read from `f` (a regular file opened, then checked: never
/// a FIFO, a device or `/dev/zero`; or stdin for `-`), which holds at most `len` bytes.
fn pack_from(
    input: &Path,
    f: &mut dyn std::io::Read,
    len: u64,
    output: &Path,
    o: &PackOptions<'_>,
) -> Result<ExitCode, Failure> {
    use std::io::Read;
    let (h, prefix) = read_npy_header(input, f, len)?;
    let in_prefix = &prefix[h.data_at.min(prefix.len())..];
    let in_prefix = &in_prefix[..in_prefix.len().min(h.data_len)];
    let rest = (h.data_len - in_prefix.len()) as u64;
    let mut items = Counted { inner: in_prefix.chain(f.take(rest)), read: 0 };
    let fortran;
    let (data, descr): (&[u8], &str) = if h.fortran && h.shape.len() > 1 {
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(h.data_len)
            .map_err(|_| Failure::at(input, format!("{} bytes of items cannot be allocated", h.data_len)))?;
        items.read_to_end(&mut bytes).map_err(|e| Failure::at(input, e))?;
        if bytes.len() < h.data_len {
            return Err(truncated(input, &h, bytes.len()));
        }
        fortran = npy::fortran_to_c(&bytes, &h.shape, h.itemsize);
        (&fortran, &h.descr)
    } else {
        (&[], &h.descr)
    };
    let a = ndarray(&h.shape, descr, h.itemsize, Fill::Data(data), o)?;
    // A bar over the chunks' bytes as they are compressed (on a terminal, for long runs).
    let mut bar = crate::progress::Bar::stderr("pack", h.data_len as u64, PROGRESS_FROM);
    let mut progress = advance(&mut bar);
    let mut out = crate::output::Sink::create(output, &[input])?;
    let written = match &mut out {
        crate::output::Sink::File(file) if file.is_regular() => {
            if data.is_empty() {
                a.write_from(&mut items, file, &mut progress)
            } else {
                a.write_to(file, &mut progress)
            }
        }
        // stdout, a device or a pipe: the frame is made in memory, then written.
        sink => {
            let mut frame = std::io::Cursor::new(Vec::new());
            let done = if data.is_empty() {
                a.write_from(&mut items, &mut frame, &mut progress)
            } else {
                a.write_to(&mut frame, &mut progress)
            };
            done.and_then(|n| Ok(std::io::Write::write_all(sink, frame.get_ref()).map(|()| n)?))
        }
    };
    drop(progress);
    bar.finish();
    if written.is_err() && items.read < h.data_len {
        return Err(truncated(input, &h, items.read));
    }
    written.map_err(|e| Failure::at(input, e))?;
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// The error for a `.npy` file whose items end after `read` bytes.
fn truncated(input: &Path, h: &npy::Header, read: usize) -> Failure {
    let (got, want) = (h.data_at + read, h.data_at + h.data_len);
    Failure::at(
        input,
        format!("the .npy ends after {got} bytes, its header and shape need {want}: truncated"),
    )
}

/// A reader that counts the bytes it hands out (where a short `.npy` ended).
struct Counted<R> {
    inner: R,
    read: usize,
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n;
        Ok(n)
    }
}

/// The array `pack` writes: `o`'s codec, filters and threads, its chunk and block shapes or
/// python-blosc2's defaults.
fn ndarray<'a>(
    shape: &[u64],
    descr: &str,
    itemsize: usize,
    fill: Fill<'a>,
    o: &PackOptions<'_>,
) -> Result<NdArray<'a>, Failure> {
    let ndim = shape.len();
    let (dc, db) = default_shapes(shape, itemsize as u64);
    let mut chunks = o.chunks.map(|s| parse_shape(s, ndim, "chunks")).transpose()?.unwrap_or(dc);
    let mut blocks = o.blocks.map(|s| parse_shape(s, ndim, "blocks")).transpose()?.unwrap_or(db);
    if o.chunks.is_some() && o.blocks.is_none() {
        blocks = default_blocks(&chunks, itemsize as u64);
    }
    if ndim == 0 {
        chunks.clear();
        blocks.clear();
    }
    let codec = codec(o.codec)?;
    let zfp = matches!(codec, Codec::ZfpAcc | Codec::ZfpPrec | Codec::ZfpRate);
    let mut filters = [Filter::NoFilter; 6];
    let mut metas = [0u8; 6];
    if o.filters.is_empty() && !zfp {
        filters[5] = Filter::Shuffle;
    } else if o.filters.len() > 6 {
        return Err(Failure::Message(format!("{} filters: a pipeline has 6 slots", o.filters.len())));
    }
    for (i, f) in o.filters.iter().enumerate() {
        (filters[i], metas[i]) = filter(f)?;
    }
    let cparams = CParams {
        codec,
        codec_meta: meta(o.codec_meta, "--codec-meta")?,
        clevel: o.clevel,
        filters,
        filters_meta: metas,
        splitmode: SplitMode::Auto,
        nthreads: o.nthreads.max(1),
        ..CParams::default()
    };
    let shape: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    let chunks: Vec<i32> = chunks.iter().map(|&d| i32::try_from(d).unwrap_or(i32::MAX)).collect();
    let blocks: Vec<i32> = blocks.iter().map(|&d| i32::try_from(d).unwrap_or(i32::MAX)).collect();
    let mut a = NdArray::new(&shape, &chunks, &blocks, descr, itemsize, fill);
    a.cparams = cparams;
    Ok(a)
}

/// The header of the `.npy` file `input` read from `f`, which holds at most `len` bytes, with
/// the first bytes read (the header, up to 1 MiB): its size checked
/// against what the header says before any item is read.
fn read_npy_header(
    input: &Path,
    f: &mut dyn std::io::Read,
    len: u64,
) -> Result<(npy::Header, Vec<u8>), Failure> {
    use std::io::Read;
    // The magic, version and header length first, then the header (no items: a prefix of
    // items would be held, and count in the peak memory, for the whole run).
    let mut prefix = Vec::new();
    (&mut *f).take(12).read_to_end(&mut prefix).map_err(|e| Failure::at(input, e))?;
    let end = match (prefix.get(6), prefix.get(8..12)) {
        (Some(1), Some(n)) => 10 + u64::from(u16::from_le_bytes([n[0], n[1]])),
        (Some(2 | 3), Some(n)) => 12 + u64::from(u32::from_le_bytes([n[0], n[1], n[2], n[3]])),
        _ => 12,
    };
    let more = end.min(1 << 20).saturating_sub(prefix.len() as u64);
    (&mut *f).take(more).read_to_end(&mut prefix).map_err(|e| Failure::at(input, e))?;
    let h = npy::read_header(&prefix).map_err(|e| Failure::at(input, e))?;
    let want = (h.data_at as u64).saturating_add(h.data_len as u64);
    if len < want && crate::walk::is_stdin(input) {
        return Err(Failure::at(
            input,
            format!(
                "the .npy on stdin needs {want} bytes, over the limit of {len} (raise --max-decompressed-total)"
            ),
        ));
    }
    if len < want {
        return Err(Failure::at(
            input,
            format!("the .npy file holds {len} bytes, its header and shape need {want}: truncated"),
        ));
    }
    Ok((h, prefix))
}

/// What advances `bar` after each chunk by the share of the array's bytes done (the writer
/// counts padded chunk bytes; the bar counts the array's).
fn advance<W: std::io::Write>(bar: &mut crate::progress::Bar<W>) -> impl FnMut(u64, u64) + '_ {
    let mut shown = 0u64;
    move |done, total| {
        let now = crate::progress::share(done, total, bar.total());
        bar.add(now.saturating_sub(shown));
        shown = now;
    }
}

/// `b2schema unpack IN.b2nd OUT.npy`.
pub fn unpack(
    input: &Path,
    offset: u64,
    output: &Path,
    threads: Option<usize>,
    limits: b2schema::Limits,
) -> Result<ExitCode, Failure> {
    use std::io::Write;
    let file = crate::open::open(input, offset, limits, crate::open::Mode::Validated)?;
    let view = file.view().map_err(|e| Failure::at(input, crate::open::absolute(offset, e)))?;
    let meta =
        view.metalayer("b2nd").ok_or_else(|| Failure::at(input, "no b2nd metalayer: not an NDArray"))?;
    let nd = b2schema::b2nd::read(meta).map_err(|e| Failure::at(input, e))?;
    let stored = nd.dtype.clone().ok_or_else(|| Failure::at(input, "the b2nd metalayer has no dtype"))?;
    let typesize = view.header.typesize;
    let descr =
        npy::descr_for(&stored, usize::try_from(typesize).unwrap_or(0)).map_err(|e| Failure::at(input, e))?;
    let total = file.data_len().map_err(|e| Failure::at(input, crate::open::absolute(offset, e)))?;
    let shape: Vec<u64> = nd.shape.iter().map(|&d| d.max(0) as u64).collect();
    let header = npy::header(&descr, &shape, 0);
    let mut out = crate::output::Sink::create(output, &[input])?;
    out.write_all(&header).map_err(|e| Failure::at(output, e))?;
    // The data streamed (one layer of chunks in memory), with a bar on a terminal.
    let mut bar = crate::progress::Bar::stderr("unpack", total, PROGRESS_FROM);
    let written = file.write_ndarray_with(
        &mut crate::progress::Counting { inner: &mut out, bar: &mut bar },
        &crate::cat::read_options(threads),
    );
    bar.finish();
    written.map_err(|e| Failure::at(input, crate::open::in_file(offset, e)))?;
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// The smallest run that shows progress (on a terminal): 64 MiB.
const PROGRESS_FROM: u64 = 64 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_advances_the_bar_chunk_by_chunk_to_the_end() {
        // 10 chunks of 100 items of 8 bytes (the last chunk padded: 950 items), so the writer's
        // padded total (8000 bytes) differs from the array's (7600): the bar ends at 100 % anyway.
        let data: Vec<u8> = (0..950u64).flat_map(|i| (i * i).to_le_bytes()).collect();
        let a = NdArray::new(&[950], &[100], &[25], "<u8", 8, Fill::Data(&data));
        let mut bar = crate::progress::Bar::new(Some(Vec::new()), "pack", data.len() as u64);
        a.write_to(&mut std::io::Cursor::new(Vec::new()), advance(&mut bar)).unwrap();
        let drawn = String::from_utf8(bar.into_output().unwrap()).unwrap();
        let pcts: Vec<&str> = drawn.split('\r').filter(|l| !l.is_empty()).collect();
        assert_eq!(pcts.len(), 10, "one redraw per chunk: {drawn:?}");
        assert!(pcts[0].contains(" 10%"), "{drawn:?}");
        assert!(pcts[9].contains("100%"), "{drawn:?}");
    }
}
