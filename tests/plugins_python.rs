//! User codecs and filters, as python-blosc2's users register them (`register_codec`,
//! `register_filter`, ids 160-255), both ways: the same codec and filter written in Python
//! (`tests/python/plugins.py`) and in Rust (below, registered in a [`Registry`]); frames
//! python-blosc2 writes with them are read by b2schema, frames b2schema writes are read by
//! python-blosc2, and the chunks are byte-identical (both sides are deterministic). Without the
//! plugins, b2schema refuses the chunks naming the codec or filter they need. Needs the pinned
//! python-blosc2 (`scripts/pyenv.sh`); without it, it fails.

use b2schema::chunk::{Codec, CodecPlugin, Filter, FilterPlugin, PluginContext, PluginError, Registry};
use b2schema::frame::FrameFile;
use b2schema::writer::{self, CParams};
use b2schema_tests::python_checks;
use serde_json::json;

/// Codec 160: a stream without its trailing zero bytes (0 when that saves nothing).
struct TrimZeros;

impl CodecPlugin for TrimZeros {
    fn name(&self) -> &str {
        "trim_zeros"
    }

    fn encode(&self, src: &[u8], dst: &mut [u8], _: &PluginContext<'_>) -> Result<usize, PluginError> {
        let n = src.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        if n >= src.len() || n > dst.len() {
            return Ok(0);
        }
        dst[..n].copy_from_slice(&src[..n]);
        Ok(n)
    }

    fn decode(&self, src: &[u8], dst: &mut [u8], _: &PluginContext<'_>) -> Result<usize, PluginError> {
        let head = dst.get_mut(..src.len()).ok_or(PluginError("a stream no longer than its block"))?;
        head.copy_from_slice(src);
        dst[src.len()..].fill(0);
        Ok(dst.len())
    }
}

/// Filter 161: every byte rotated left by `meta % 7 + 1` bits.
struct RotateBits;

impl FilterPlugin for RotateBits {
    fn name(&self) -> &str {
        "rotate_bits"
    }

    fn forward(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<(), PluginError> {
        let k = u32::from(ctx.meta % 7 + 1);
        dst.iter_mut().zip(src).for_each(|(d, s)| *d = s.rotate_left(k));
        Ok(())
    }

    fn backward(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<(), PluginError> {
        let k = u32::from(ctx.meta % 7 + 1);
        dst.iter_mut().zip(src).for_each(|(d, s)| *d = s.rotate_right(k));
        Ok(())
    }
}

fn registry() -> Registry {
    let mut r = Registry::new();
    r.register_codec(Codec::from_id(160), TrimZeros).unwrap();
    r.register_filter(Filter::from_id(161), RotateBits).unwrap();
    r
}

/// Regions of `period` bytes whose first third is non-zero and the rest zeros (so that blocks
/// end in zeros the codec trims), from `seed`.
fn data(n: usize, period: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if i % period < period / 3 { (x as u8) | 1 } else { 0 }
        })
        .collect()
}

/// Every chunk of the frame at `path`, decoded with `registry`, end to end.
fn read_all(path: &std::path::Path, registry: &Registry) -> b2schema::Result<Vec<u8>> {
    let file = FrameFile::open(path)?.with_registry(registry.clone());
    let mut out = Vec::new();
    for info in file.chunks()? {
        out.extend(file.chunk_data(&info, 1 << 26)?);
    }
    Ok(out)
}

/// The stored chunks of the frame at `path`.
fn stored_chunks(path: &std::path::Path) -> Vec<Vec<u8>> {
    let file = FrameFile::open(path).unwrap();
    file.chunks().unwrap().into_iter().map(|c| file.read_chunk(c.location).unwrap()).collect()
}

#[test]
fn user_codecs_and_filters_round_trip_with_python_blosc2() {
    let dir = std::env::temp_dir().join(format!("b2schema-plugins-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let registry = registry();
    let mut entries = Vec::new();
    let mut cases = Vec::new();
    for (ts, period) in [(1usize, 4096usize), (4, 8192), (8, 16_384)] {
        for (filters, fmeta, cmeta) in [(vec![], 0u8, 0u8), (vec![161u8], 0, 3), (vec![161], 12, 200)] {
            let name = format!("ts{ts}-f{}-m{fmeta}-c{cmeta}", filters.len());
            let input = data(200_000 - 200_000 % ts, period, ts as u64 * 31 + u64::from(fmeta));
            let chunksize = 96 * 1024 / ts * ts;
            let mut slots = [Filter::NoFilter; 6];
            let mut metas = [0u8; 6];
            for (i, &f) in filters.iter().enumerate() {
                slots[i] = Filter::from_id(f);
                metas[i] = fmeta;
            }
            let cparams = CParams {
                codec: Codec::from_id(160),
                codec_meta: cmeta,
                clevel: 5,
                filters: slots,
                filters_meta: metas,
                ..CParams::default()
            };
            let ours = dir.join(format!("{name}.ours.b2frame"));
            let frame = writer::schunk_with(&input, ts, chunksize, cparams, &registry).unwrap();
            frame.write_file(&ours).unwrap();
            // Our own reader, with the plugins: the input; without them: the codec named.
            assert!(
                read_all(&ours, &registry).unwrap() == input,
                "{name}: our own frame reads as other data"
            );
            let err = read_all(&ours, &Registry::new()).unwrap_err().to_string();
            let needs = if filters.is_empty() { "160 (user codec)" } else { "161 (user filter)" };
            assert!(err.contains(needs), "{name}: {err}");
            let data_path = dir.join(format!("{name}.data"));
            std::fs::write(&data_path, &input).unwrap();
            let theirs = dir.join(format!("{name}.theirs.b2frame"));
            entries.push(json!({
                "name": name, "data": data_path, "ours": ours, "theirs": theirs,
                "nchunks": input.len().div_ceil(chunksize), "chunksize": chunksize,
                "codec": 160, "codec_meta": cmeta, "clevel": 5, "typesize": ts,
                "filters": filters, "filters_meta": filters.iter().map(|_| fmeta).collect::<Vec<_>>(),
            }));
            cases.push((name, input, ours, theirs, filters.len()));
        }
    }
    python_checks("plugins.py", &dir, &entries);
    let mut identical = 0;
    let mut compressed = 0;
    for (name, input, ours, theirs, nfilters) in &cases {
        assert!(
            &read_all(theirs, &registry).unwrap() == input,
            "{name}: python-blosc2's frame reads as other data"
        );
        if *nfilters > 0 {
            // Without the filter plugin (the codec alone registered): the filter is named.
            let mut codec_only = Registry::new();
            codec_only.register_codec(Codec::from_id(160), TrimZeros).unwrap();
            let err = read_all(theirs, &codec_only).unwrap_err().to_string();
            assert!(err.contains("161 (user filter)"), "{name}: {err}");
        }
        let (a, b) = (stored_chunks(ours), stored_chunks(theirs));
        assert_eq!(a.len(), b.len(), "{name}: chunk count");
        for (i, (a, b)) in a.iter().zip(&b).enumerate() {
            assert!(a == b, "{name}: chunk {i} differs from python-blosc2's");
            identical += 1;
            compressed += usize::from(b[2] & 0x02 == 0);
        }
    }
    // The codec really ran (not every chunk fell back to a memcpy chunk).
    assert!(compressed * 2 > identical, "{compressed} of {identical} chunks compressed");
    let _ = std::fs::remove_dir_all(&dir);
}
