//! Codecs and filters by id, for both directions: the built-in ones, and the ones a user plugs in
//! ([`CodecPlugin`], [`FilterPlugin`]), as c-blosc2's `blosc2_register_codec` and
//! `blosc2_register_filter` (and python-blosc2's `register_codec` / `register_filter`) do.
//!
//! ```
//! use b2schema_chunk::{Codec, CodecPlugin, PluginContext, PluginError, Registry};
//! use b2schema_chunk::compress::{self, Params};
//!
//! /// Stores a stream without its trailing zeros (a codec only an example would want).
//! struct TrimZeros;
//!
//! impl CodecPlugin for TrimZeros {
//!     fn name(&self) -> &str { "trim_zeros" }
//!     fn encode(&self, src: &[u8], dst: &mut [u8], _: &PluginContext<'_>) -> Result<usize, PluginError> {
//!         let n = src.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
//!         let Some(out) = dst.get_mut(..n) else { return Ok(0) }; // does not fit
//!         out.copy_from_slice(&src[..n]);
//!         Ok(n)
//!     }
//!     fn decode(&self, src: &[u8], dst: &mut [u8], _: &PluginContext<'_>) -> Result<usize, PluginError> {
//!         let (head, tail) = dst.split_at_mut(src.len().min(dst.len()));
//!         head.copy_from_slice(&src[..head.len()]);
//!         tail.fill(0);
//!         Ok(dst.len())
//!     }
//! }
//!
//! let mut registry = Registry::new();
//! registry.register_codec(Codec::from_id(200), TrimZeros).unwrap();
//! let data: Vec<u8> = (0..40_000u32).flat_map(|i| (i % 1000 * (i % 3)).to_le_bytes()).collect();
//! let params = Params::new(4).with_codec(Codec::from_id(200));
//! let chunk = compress::compress_with(&data, &params, &registry).unwrap();
//! assert!(chunk.len() < data.len());
//! assert_eq!(b2schema_chunk::Decoder::new(&registry).decompress(&chunk).unwrap(), data);
//! // Without the plugin, the chunk names the codec it needs.
//! let err = b2schema_chunk::decompress(&chunk).unwrap_err();
//! assert!(err.to_string().contains("found 200 (user codec)"), "{err}");
//! ```

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::error::{Error, Found};
use super::fields;
use super::id::{Codec, Filter, IdRange};

/// What a plugin is told about the chunk it works on.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct PluginContext<'a> {
    /// The codec's meta (`compcode_meta`), or the filter's (`filters_meta` of its slot).
    pub meta: u8,
    /// The chunk's typesize as its header stores it (1 for types over 255 bytes).
    pub typesize: usize,
    /// The compression level (encoding only; 0 when decoding: chunks do not record it).
    pub clevel: u8,
    /// The block's size in bytes (the last block of a chunk may be shorter).
    pub blocksize: usize,
    /// The array's chunk shape, when the chunk belongs to a `b2nd` array whose reader or writer
    /// gave it (c-blosc2's n-dimensional plugins read it from the `b2nd` metalayer).
    pub chunkshape: Option<&'a [i32]>,
    /// The array's block shape, likewise.
    pub blockshape: Option<&'a [i32]>,
}

impl<'a> PluginContext<'a> {
    /// A context for items of `typesize` bytes in blocks of `blocksize`, with no meta, level or
    /// array shape.
    pub const fn new(typesize: usize, blocksize: usize) -> Self {
        PluginContext { meta: 0, typesize, clevel: 0, blocksize, chunkshape: None, blockshape: None }
    }
}

/// Why a plugin failed: what it expected of the stream or block (shown after "expected").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PluginError(pub &'static str);

/// A codec a user plugs in (c-blosc2's `blosc2_codec`): one stream of a block at a time.
pub trait CodecPlugin: Send + Sync {
    /// Its name, for reports.
    fn name(&self) -> &str;
    /// The codec format version written in byte 1 of its chunks (`versionlz`); 1 by default.
    fn version(&self) -> u8 {
        1
    }
    /// Compresses `src` into `dst` (whose length is the limit): the bytes written, or 0 when
    /// the result would not fit (the stream is then stored raw, as c-blosc2 does).
    fn encode(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<usize, PluginError>;
    /// Decompresses `src` into `dst`, whose length is the stream's uncompressed size: the bytes
    /// written (anything but `dst.len()` is an error of the chunk).
    fn decode(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<usize, PluginError>;
}

/// A filter a user plugs in (c-blosc2's `blosc2_filter`): one block at a time, `src` and `dst`
/// of the block's length.
pub trait FilterPlugin: Send + Sync {
    /// Its name, for reports.
    fn name(&self) -> &str;
    /// Applies the filter (compression side).
    fn forward(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<(), PluginError>;
    /// Undoes it (decompression side).
    fn backward(&self, src: &[u8], dst: &mut [u8], ctx: &PluginContext<'_>) -> Result<(), PluginError>;
}

/// The codecs and filters chunks are encoded and decoded with: the built-in ones (always there,
/// as far as this build's features enable them) and the plugins registered by id.
///
/// Cloning is cheap (the plugins are shared). [`Registry::new`] is a `const fn`, so a
/// registry can be a `static`.
#[derive(Clone, Default)]
pub struct Registry {
    codecs: Vec<(Codec, Arc<dyn CodecPlugin>)>,
    filters: Vec<(Filter, Arc<dyn FilterPlugin>)>,
    /// The `b2nd` array's chunk and block shapes, when the chunks belong to one.
    shapes: Option<Arc<(Vec<i32>, Vec<i32>)>>,
}

/// The registry of the functions that take none: the built-in codecs and filters only.
pub(crate) static BUILTIN: Registry = Registry::new();

impl core::fmt::Debug for Registry {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Registry")
            .field("codecs", &self.codecs.iter().map(|(id, p)| (id.id(), p.name())).collect::<Vec<_>>())
            .field("filters", &self.filters.iter().map(|(id, p)| (id.id(), p.name())).collect::<Vec<_>>())
            .finish()
    }
}

impl Registry {
    /// The built-in codecs and filters only.
    pub const fn new() -> Self {
        Registry { codecs: Vec::new(), filters: Vec::new(), shapes: None }
    }

    /// Telling every codec and filter (built-in n-dimensional ones and plugins) the chunk and
    /// block shapes of the `b2nd` array the chunks belong to, as c-blosc2's plugins read them
    /// from the super-chunk's `b2nd` metalayer.
    pub fn with_array_shapes(mut self, chunkshape: &[i32], blockshape: &[i32]) -> Self {
        self.shapes = Some(Arc::new((chunkshape.to_vec(), blockshape.to_vec())));
        self
    }

    /// The array's chunk shape given by [`Registry::with_array_shapes`].
    pub fn chunkshape(&self) -> Option<&[i32]> {
        self.shapes.as_ref().map(|s| &*s.0)
    }

    /// The array's block shape given by [`Registry::with_array_shapes`].
    pub fn blockshape(&self) -> Option<&[i32]> {
        self.shapes.as_ref().map(|s| &*s.1)
    }

    /// The registry the functions without one use: the built-ins only.
    pub fn builtin() -> &'static Registry {
        &BUILTIN
    }

    /// Registers `plugin` as codec `id` (32-255: c-blosc2's own codecs, 0-31, cannot be
    /// replaced), replacing any plugin registered with that id before.
    pub fn register_codec(
        &mut self,
        id: Codec,
        plugin: impl CodecPlugin + 'static,
    ) -> Result<&mut Self, Error> {
        check_pluggable(id.id(), fields::UDCOMPCODE, "udcompcode")?;
        self.codecs.retain(|(c, _)| *c != id);
        self.codecs.push((id, Arc::new(plugin)));
        Ok(self)
    }

    /// Registers `plugin` as filter `id` (32-255), replacing any plugin registered with that id.
    pub fn register_filter(
        &mut self,
        id: Filter,
        plugin: impl FilterPlugin + 'static,
    ) -> Result<&mut Self, Error> {
        check_pluggable(id.id(), fields::FILTERS, "filters")?;
        self.filters.retain(|(c, _)| *c != id);
        self.filters.push((id, Arc::new(plugin)));
        Ok(self)
    }

    /// The plugin registered as codec `id` (c-blosc2's own NDLZ and ZFP, which this crate
    /// implements, are used when none is).
    pub fn codec(&self, id: Codec) -> Option<&dyn CodecPlugin> {
        self.codecs.iter().find(|(c, _)| *c == id).map(|(_, p)| &**p)
    }

    /// The plugin registered as filter `id` (c-blosc2's own ndcell and ndmean, which this crate
    /// implements, are used when none is).
    pub fn filter(&self, id: Filter) -> Option<&dyn FilterPlugin> {
        self.filters.iter().find(|(c, _)| *c == id).map(|(_, p)| &**p)
    }

    /// The context of a plugin of this registry: `ctx` with the array's shapes, unless it has
    /// its own.
    pub(crate) fn context<'a>(&'a self, ctx: PluginContext<'a>) -> PluginContext<'a> {
        PluginContext {
            chunkshape: ctx.chunkshape.or(self.chunkshape()),
            blockshape: ctx.blockshape.or(self.blockshape()),
            ..ctx
        }
    }

    /// The ids of the registered codec plugins, in the order they were registered.
    pub fn codec_ids(&self) -> impl Iterator<Item = Codec> + '_ {
        self.codecs.iter().map(|(id, _)| *id)
    }

    /// The ids of the registered filter plugins, in the order they were registered.
    pub fn filter_ids(&self) -> impl Iterator<Item = Filter> + '_ {
        self.filters.iter().map(|(id, _)| *id)
    }
}

/// Refuses ids c-blosc2 keeps for itself (0-31).
fn check_pluggable(id: u8, offset: usize, field: &'static str) -> Result<(), Error> {
    if IdRange::of(id) == IdRange::BuiltIn {
        return Err(Error::unsupported(
            offset,
            field,
            "a plugin id from 32 to 255 (0-31 are c-blosc2's own)",
            Found::Value(id.into()),
        ));
    }
    Ok(())
}
