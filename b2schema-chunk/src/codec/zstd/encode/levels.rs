//! What the encoder runs for each Blosc clevel: the zstd level (c-blosc2's) and three choices
//! of this crate's own, calibrated against c-blosc2 3.3.5 (libzstd 1.5.7) on the four datasets of
//! `scripts/bench_compress.py` and one chunk of `scripts/bench_pack.py`'s field (BENCHMARKS.md,
//! "The zstd encoder calibrated per clevel"). None of them is a format rule: c-blosc2 never
//! reads how a frame was made, and every valid frame decodes.

/// How a clevel's streams are cut into zstd blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Blocks {
    /// zstd's largest, 128 KiB (`rusty_zstd`'s default).
    Largest,
    /// On streams longer than [`super::blocks::TRIED_ABOVE`], tried at the size
    /// [`super::blocks::block_cap`] picks from the stream's statistics when that is smaller,
    /// and kept only when the frame is smaller than with the largest blocks.
    Picked,
}

/// Which encoder writes a clevel's frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoder {
    /// `rusty_zstd` with this setting's skip, probe and blocks.
    Rusty,
    /// This crate's own ([`super::frame`]): libzstd's parameters for the level, no probe, its
    /// block sizes (libzstd 1.5.7's pre-splitter, [`super::presplit`], and for btopt and above
    /// its post-splitter, [`super::postsplit`]), every strategy (levels 1 to 22; an input too
    /// large for its 32-bit positions goes to `rusty_zstd`).
    Own,
}

/// The encoder's setting for one clevel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Setting {
    /// The zstd level, c-blosc2's `zstd_wrap_compress` mapping (`2 * clevel - 1`, 22 at 9).
    pub(crate) level: i32,
    /// The lazy finders' skip over literal runs: a position without a match advances by
    /// `((ip - anchor) >> skip) + 1`. libzstd's is 8 (`kSearchStrength`); `rusty_zstd` 0.4.1
    /// ships 12, which walks nearly every position of a stream that barely compresses. `None`
    /// for the levels whose finders never read it (fast, dfast, the optimal parsers).
    pub(crate) skip: Option<usize>,
    /// Whether random-looking streams are tried at level 1 first and given up when that does
    /// not shrink them ([`super::probe::looks_random`]).
    pub(crate) probe: bool,
    /// The zstd block size.
    pub(crate) blocks: Blocks,
    /// Who encodes.
    pub(crate) encoder: Encoder,
}

/// The settings of clevels 1 to 9 (index `clevel - 1`; clevel 0 never reaches a codec).
///
/// Measured (2026-11-27; sizes against c-blosc2's for the same chunk; speeds of the streams'
/// encoding alone, CPU time; the `pack` field is one 16 MiB chunk in 512 KiB blocks;
/// `benches/zstd_calibrate.rs`):
/// * skip 8 against `rusty_zstd`'s 12 at clevels 3 to 5 (levels 5, 7, 9 over split streams):
///   the `pack` field at clevel 5 105 -> 185 MB/s, random int64 320 -> 1380 MB/s, smooth
///   float64 150 -> 230 MB/s, counters and text unchanged (190, 60 MB/s); sizes within 0.1 %
///   of c-blosc2's on all five (1.0004, 1.0009, 1.0012, 1.0000, 0.9995), where a skip of 6
///   makes the smooth field 3 % larger. The probe is not needed there any more: without it the
///   smooth field at clevel 5 is 1.0009 of c-blosc2's (1.009 with it). Lower zstd levels at
///   clevel 5 are faster but larger: text +3.7 % at level 8, +10 % at level 5. Left as it is:
///   with a blocksize of 1 MiB (128 KiB streams) the smooth field at clevel 5 is 1.079 of
///   c-blosc2's size (0.994 with skip 12; the counters, text and the `pack` field within 0.1 %).
/// * clevels 6 to 8 (levels 11, 13, 15 over whole blocks) keep skip 12: with 8 the smooth field
///   is 35 % larger in 1 MiB blocks and 7 % in 125 000-byte blocks (`b2schema pack`'s default
///   for a 4 MB vector); smaller zstd blocks there make it worse (16 KiB: +23 % in 125 000-byte
///   blocks).
/// * clevel 9 (level 22): the block size tried per stream brings the smooth field in 1 MiB
///   blocks from 1.331 to 1.026 of c-blosc2's size, the counters from 1.150 to 1.111 and the
///   `pack` field from 1.034 to 0.998; text keeps 128 KiB blocks (1.073; 8 KiB blocks would
///   make it 1.147). The estimate alone is not enough: on the smooth field in 125 000-byte
///   blocks it picks 8 KiB, 19 % larger than 128 KiB, hence the second frame, and only on
///   streams over 512 KiB (the `pack` field's 512 KiB blocks stay at 1.034, in half the time).
/// * The crate's own encoder (2026-11-29, `benches/zstd_own.rs`, BENCHMARKS.md): sizes within
///   1 % of libzstd's at zstd levels 1 to 9 on the five datasets (text at level 3: +0.7-1.7 %),
///   but mostly 0.4-0.9x the speed of libzstd and below `rusty_zstd`'s at most levels and
///   datasets, so no clevel uses it yet (issue 52: own encoder only where its sizes are within
///   1 % of libzstd's and its speed at least `rusty_zstd`'s). With a context kept per thread
///   ([`super::context`], 2026-11-29) its speed ratios did not move beyond the run-to-run noise
///   (geometric means 0.54-0.70x libzstd's, 0.44-0.75x `rusty_zstd`'s per level): still none.
/// * After the speed work of 2026-11-29 evening (tables kept between frames by a growing base,
///   libzstd 1.5.7's dfast loop, block-level repeat checks, tables shared instead of copied, a
///   bit writer without reloads; BENCHMARKS.md, "The own zstd encoder, faster"), geometric means
///   of ours / `rusty_zstd`'s speed per level over two runs, wall clock and CPU time (`perf stat
///   -e task-clock`), load 4-7 on 2 shared cores: level 1 0.61-0.66 and 0.85-0.88, level 3
///   0.93-1.06 and 0.97-1.02, level 5 1.02-1.08 and 0.85-0.95, level 7 0.52-0.58 and 0.73-0.78,
///   level 9 0.52 and 0.77-0.78. Sizes within 0.3 % of libzstd's at levels 1 to 9 (text at
///   level 3 now +0.06 %). Still no clevel switches: levels 3 and 5 (clevels 2 and 3) are at
///   parity on average but 0.57-0.80x `rusty_zstd`'s speed on smooth float64 in every run (the
///   most typical Blosc data; faster on counters and random bytes), where libzstd's row match
///   finder beats our hash chain; level 1 is slower; levels 7 and 9 (clevels 4 and 5) are slower
///   and their frames of 256 KiB counter streams would be 4.2-4.3x `rusty_zstd`'s (whose lazy2
///   finds the long periodic matches libzstd's does not).
/// * After the fast/dfast work of 2026-11-29 night (BENCHMARKS.md, "The own zstd encoder,
///   levels 1 and 3 faster"; the bench's own 44-61 ms taken off the CPU times, which the figures
///   above included), ours / `rusty_zstd`'s speed by CPU time at load 8-9, float64 smooth, int32
///   and int64 counters, text, random: level 1 0.57 1.12 0.73 1.10 0.46; level 3 0.79 1.35 1.41
///   1.14 0.92 (a second run at load 9-22: float64 0.93, random 1.33); level 5 0.69 1.35 1.36
///   0.98 0.72. Sizes unchanged. At level 3 ours runs fewer
///   instructions than `rusty_zstd` on every dataset (callgrind), but not in less time on smooth
///   floats: still no clevel switches.
/// * With libzstd's row match finder for greedy, lazy and lazy2 where libzstd runs it (a window
///   over 16 KiB: the 32 and 256 KiB streams; [`super::match_row`], 2026-11-30, BENCHMARKS.md,
///   "The own zstd encoder's row match finder"): sizes at levels 5, 7 and 9 are 0.94-1.0022 of
///   libzstd's (float64 0.9989-0.9995, text 1.0000-1.0006, random 1.0000; the counters' 8 KiB
///   streams, still the hash chain's, 0.94-0.97). Speed ours / `rusty_zstd`'s by CPU time (load
///   5-8, best of two rounds), float64 smooth, int32 and int64 counters, text, random: level 5
///   0.58 1.41 1.53 1.07 0.73; level 7 0.58 1.02 0.18 1.10 0.63; level 9 0.64 0.15 0.29 0.61
///   0.83 (`rusty_zstd`'s lazy2 finds the counters' long periodic matches: 0.23 of libzstd's
///   size at 256 KiB). Without prefetches (not in safe Rust) the rows cost a cache miss per
///   search that libzstd hides: our rows run at 0.76-0.90 of our hash chain's speed on smooth
///   floats, 0.63-0.78 of libzstd's. Still no clevel switches.
/// * With libzstd's prefetches of the rows 8 positions ahead (its hash cache) and its SSE2 tag
///   compares, both through `safe_arch` (2026-11-30, BENCHMARKS.md, "The row finder with
///   prefetches and SSE2 tag compares"; same frames): smooth float64 1.05-1.25x faster at levels
///   5 to 9, text 0.95-0.98x (the prefetches are wasted on its few hot rows). Ours / `rusty_zstd`'s
///   speed by CPU time (load 3-5, best of three rounds), float64 smooth, int32 and int64 counters,
///   text, random: level 1 0.70 0.94 0.74 0.87 0.38; level 3 0.90 1.10 1.14 1.23 0.86; level 5
///   0.60 0.90 1.00 0.85 0.53; level 7 0.61 0.34 0.57 0.81 0.50; level 9 0.76 0.27 0.25 0.63 1.15.
///   Against libzstd's (issue 52's target 0.9): float64 0.72-0.79 at every level, text
///   0.62-0.77, random 0.81-0.95, counters 0.71-1.29. Every level misses the rule on smooth
///   float64 at least: still no clevel switches.
/// * With libzstd's binary trees and optimal parsers (2026-11-30: btlazy2 over the deferred-
///   update tree [`super::match_dubt`], btopt, btultra and btultra2 over [`super::match_bt`] and
///   [`super::opt`]; `cargo bench -p b2schema-chunk --bench zstd_own -- 11 13 15 22`, wall time,
///   best of three, load 2.8-3.1 on 2 cores shared with other sessions; BENCHMARKS.md not
///   updated): every level 1 to 22 is the own encoder's. Ranges over 8, 32 and 256 KiB streams
///   for float64 smooth, int32 counters, int64 counters, text, random.
///   Sizes ours / libzstd's: level 11 0.999-1.000, 0.970-0.991, 0.947-0.978, 0.9998-1.0000,
///   1.0000; level 13 0.9998-1.0006, 0.974-1.024, 0.947-1.032, 1.0001-1.0033, 1.0000; level 15
///   0.9997-0.9998, 0.974-0.992, 0.947-0.971, 1.0000-1.0047, 1.0000; level 22 0.9997-1.0003,
///   0.974-0.992, 0.947-1.0015, 1.0002-1.0023, 1.0000 (the counters' +2.4 % and +3.2 % at level
///   13 are 256 KiB streams of about 1 KiB; libzstd's block splitters, not ported, cut those).
///   Speed ours / libzstd's: level 11 0.76-0.84, 0.93-1.10, 0.90-1.33, 0.89-0.93, 0.71-0.89;
///   level 13 0.59-0.91, 0.91-1.00, 0.88-1.28, 0.89-0.98, 0.67-0.74; level 15 0.73-0.85,
///   0.93-1.13, 0.95-1.45, 0.75-0.83, 0.72-0.98; level 22 1.03-1.11, 1.01-1.07, 0.86-1.09,
///   0.75-0.87, 0.75-0.88. Speed ours / `rusty_zstd`'s (its skip of 12): level 11 0.73-1.67,
///   5.7-360, 1.2-217, 1.0-1.2, 0.43-1.51; level 13 0.82-1.70, 0.85-5.7, 0.51-1.90, 0.5-1.25,
///   0.39-0.82; level 15 0.64-1.17, 0.31-7.9, 0.31-3.6, 0.57-0.83, 0.57-0.66; level 22
///   0.18-0.38, 0.18-0.26, 0.17-0.20, 0.22-0.50, 0.22-0.37 (`rusty_zstd`'s level 22 runs at
///   13-39 MB/s against libzstd's 2-38 with frames 1-6 % larger). Below issue 52's 0.9x of
///   libzstd on floats, text or random at levels 11, 13 and 15, and below `rusty_zstd`'s speed at
///   level 22 everywhere: no clevel switches here.
/// * With libzstd 1.5.7's block splitters (2026-11-30: the pre-splitter, which cuts a full
///   128 KiB block where its byte statistics change once the frame saves 3 bytes, in place of a
///   blind 92 KiB cut taken from a development version; the post-splitter of btopt and above,
///   which cuts a parsed block where its parts cost less; `ZSTD_OWN_SIZES=1 cargo bench -p
///   b2schema-chunk --bench zstd_own -- 1 3 5 7 9 11 13 15 22`): sizes ours / libzstd's over 8 KiB
///   to 1 MiB streams 0.94-1.0010 on every dataset and level (float64 normal 0.9998-1.0004, was
///   up to 1.0194 at level 1 and 1.047 at level 22 over 256 KiB to 1 MiB; float64 smooth and
///   text 0.9986-1.0010), except the int32 counters' 512 KiB and 1 MiB streams at levels 13
///   and 15 (btlazy2): 1.35 and 1.88, frames of 1.5 KiB per MiB where our btlazy2 writes 64
///   bytes for an 8 KiB block that libzstd's writes in 8 (it misses the 64 KiB-periodic match;
///   with 128 KiB blocks it had found it, 0.77-0.88 of libzstd's size).
pub(crate) const SETTINGS: [Setting; 9] = [
    Setting { level: 1, skip: None, probe: false, blocks: Blocks::Largest, encoder: Encoder::Rusty },
    Setting { level: 3, skip: None, probe: false, blocks: Blocks::Largest, encoder: Encoder::Rusty },
    Setting { level: 5, skip: Some(8), probe: false, blocks: Blocks::Largest, encoder: Encoder::Rusty },
    Setting { level: 7, skip: Some(8), probe: false, blocks: Blocks::Largest, encoder: Encoder::Rusty },
    Setting { level: 9, skip: Some(8), probe: false, blocks: Blocks::Largest, encoder: Encoder::Rusty },
    Setting { level: 11, skip: Some(12), probe: true, blocks: Blocks::Largest, encoder: Encoder::Rusty },
    Setting { level: 13, skip: Some(12), probe: true, blocks: Blocks::Largest, encoder: Encoder::Rusty },
    Setting { level: 15, skip: Some(12), probe: true, blocks: Blocks::Largest, encoder: Encoder::Rusty },
    Setting {
        level: rusty_zstd::MAX_CLEVEL,
        skip: None,
        probe: true,
        blocks: Blocks::Picked,
        encoder: Encoder::Rusty,
    },
];

/// The setting for `clevel` (1 to 9; above 9 is 9, as c-blosc2 clamps).
pub(crate) fn setting(clevel: u8) -> Setting {
    SETTINGS[usize::from(clevel.clamp(1, 9)) - 1]
}
