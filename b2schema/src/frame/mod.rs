//! Blosc2 frames: the header and its metalayers section, declared with `#[derive(B2Layout)]`.

mod header;
mod metalayers;

pub use header::{FilterPipeline, FrameFlags, FrameHeader};
pub use metalayers::{MetaLayers, NameOffsets};
