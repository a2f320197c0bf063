//! What the encoder runs for each Blosc clevel: the zstd level (c-blosc2's) and two choices of
//! this crate's own, calibrated against c-blosc2 3.3.5 (libzstd 1.5.7) on the four datasets of
//! `scripts/bench_compress.py` and one chunk of `scripts/bench_pack.py`'s field (BENCHMARKS.md,
//! "The zstd encoder calibrated per clevel"). None of them is a format rule: c-blosc2 never
//! reads how a frame was made, and every valid frame decodes.

/// How a clevel's streams are cut into zstd blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Blocks {
    /// zstd's largest, 128 KiB (`rusty_zstd`'s default).
    Largest,
    /// At most this many bytes.
    Cap(usize),
    /// Chosen per stream from its statistics ([`super::blocks::block_cap`]).
    Picked,
}

/// The encoder's setting for one clevel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Setting {
    /// The zstd level, c-blosc2's `zstd_wrap_compress` mapping (`2 * clevel - 1`, 22 at 9).
    pub(crate) level: i32,
    /// Whether random-looking streams are tried at level 1 first and given up when that does
    /// not shrink them ([`super::probe::looks_random`]).
    pub(crate) probe: bool,
    /// The zstd block size.
    pub(crate) blocks: Blocks,
}

/// The lazy finders' skip over literal runs, for every level: a position without a match
/// advances by `((ip - anchor) >> SKIP) + 1`. It is libzstd's value (`kSearchStrength`);
/// `rusty_zstd` 0.4.1 ships 12, which walks nearly every position of a stream that barely
/// compresses. One value for the whole process, as `rusty_zstd` keeps it (the frames then do
/// not depend on what other threads encode).
pub(crate) const SKIP: usize = 8;

/// The settings of clevels 1 to 9 (index `clevel - 1`; clevel 0 never reaches a codec).
///
/// Measured (2026-11-27; sizes against c-blosc2's for the same chunk; speeds of the streams'
/// encoding alone, CPU time; the `pack` field is one 16 MiB chunk in 512 KiB blocks):
/// * [`SKIP`] 8 against `rusty_zstd`'s 12 at clevels 3 to 5 (levels 5, 7, 9 over split
///   streams): the `pack` field at clevel 5 105 -> 185 MB/s, random int64 320 -> 1380 MB/s,
///   smooth float64 150 -> 230 MB/s, counters and text unchanged (190, 60 MB/s); sizes within
///   0.1 % of c-blosc2's on all five (1.0004, 1.0009, 1.0012, 1.0000, 0.9995), where a skip of
///   6 makes the smooth field 3 % larger. The probe is not needed there any more: without it
///   the smooth field at clevel 5 is 1.0009 of c-blosc2's (1.009 with it). Lower zstd levels
///   at clevel 5 are faster but larger: text +3.7 % at level 8, +10 % at level 5. Left as
///   it is: with a blocksize of 1 MiB (128 KiB streams) the smooth field at clevel 5 is 1.079
///   of c-blosc2's size (0.994 with skip 12; the counters, text and the `pack` field within
///   0.1 %); 16 KiB zstd blocks for streams over 64 KiB bring it to 1.010 but make the
///   automatic blocksize's last, unsplit block 2.6 % larger.
/// * clevels 6 to 8 (levels 11, 13, 15 over whole 1 MiB blocks): with skip 8 and 128 KiB zstd
///   blocks the smooth field is 35 % larger (its literal runs cross whole byte planes); with
///   16 KiB blocks it is 1.024 to 1.036 of c-blosc2's (before, with skip 12: 0.995 to 1.008),
///   the `pack` field 0.98 (before 1.026), text 0.97 to 1.016, counters 0.99 to 1.0, and the
///   counters at clevels 7 and 8 encode at 41 MB/s (before 12).
/// * clevel 9 (level 22): the block size picked per stream brings the smooth field from 1.331
///   to 1.026 of c-blosc2's size, the counters from 1.150 to 1.111 and the `pack` field from
///   1.034 to 0.998; text keeps 128 KiB blocks (1.073; 8 KiB blocks would make it 1.147).
pub(crate) const SETTINGS: [Setting; 9] = [
    Setting { level: 1, probe: false, blocks: Blocks::Largest },
    Setting { level: 3, probe: false, blocks: Blocks::Largest },
    Setting { level: 5, probe: false, blocks: Blocks::Largest },
    Setting { level: 7, probe: false, blocks: Blocks::Largest },
    Setting { level: 9, probe: false, blocks: Blocks::Largest },
    Setting { level: 11, probe: true, blocks: Blocks::Cap(16 * 1024) },
    Setting { level: 13, probe: true, blocks: Blocks::Cap(16 * 1024) },
    Setting { level: 15, probe: true, blocks: Blocks::Cap(16 * 1024) },
    Setting { level: rusty_zstd::MAX_CLEVEL, probe: true, blocks: Blocks::Picked },
];

/// The setting for `clevel` (1 to 9; above 9 is 9, as c-blosc2 clamps).
pub(crate) fn setting(clevel: u8) -> Setting {
    SETTINGS[usize::from(clevel.clamp(1, 9)) - 1]
}
