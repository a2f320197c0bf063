//! `b2schema`: inspect, verify and dump the metadata of Blosc2 files.
//!
//! Exit codes: 0 success, 1 `verify` found a difference, 2 unreadable input or bad usage.
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use b2schema_cli::budget::BudgetArgs;
#[cfg(feature = "serve")]
use b2schema_cli::serve;
use b2schema_cli::{cat, inspect, layouts, pack, store, verify};
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

/// The exit codes, in `--help` (the README says the same).
const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  verify found a difference
  2  unreadable or invalid input, or bad usage";

/// Inspect, verify and dump the metadata of Blosc2 frames (.b2nd, .b2frame, cframes, sparse
/// directories), byte for byte as c-blosc2 writes it.
#[derive(Parser)]
#[command(name = "b2schema", version, about, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// What an input may cost (every subcommand).
    #[command(flatten)]
    budget: BudgetArgs,
    /// Colour: only on a terminal (auto, the default; NO_COLOR turns it off), always or never.
    #[arg(long, global = true, value_enum, default_value_t = Color::Auto)]
    color: Color,
}

#[derive(Clone, Copy, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

/// The frame a subcommand reads: the same options everywhere.
#[derive(clap::Args)]
struct Input {
    /// A contiguous frame file (any name) or a sparse-frame directory.
    path: PathBuf,
    /// Where the frame starts inside the file; offsets in messages stay absolute in the file.
    #[arg(long, default_value_t = 0)]
    offset: u64,
}

/// What is cut in the output.
#[derive(clap::Args)]
struct Cut {
    /// Print everything, nothing cut (also see --max-bytes).
    #[arg(long)]
    all: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Everything in a frame's metadata: header, metalayers, vlmetalayers, chunks. A
    /// python-blosc2 store (.b2z, .b2d, .b2e) lists its members instead.
    ///
    /// With several PATHs, or a directory that is not a sparse frame, every frame is inspected
    /// in turn and a file that fails does not stop the others (exit code 2 at the end).
    Inspect {
        /// Contiguous frame files (any name), sparse-frame directories, or plain directories,
        /// which stand for the regular files and sparse frames directly inside them, sorted
        /// by name (not recursing).
        #[arg(value_name = "PATH", required = true)]
        paths: Vec<PathBuf>,
        /// One JSON object per frame on stdout; with several, JSON Lines (the contract is in
        /// the README).
        #[arg(long)]
        json: bool,
        /// Where the frame starts inside the file (inside every file, with several).
        #[arg(long, default_value_t = 0)]
        offset: u64,
        /// List every chunk (streamed), not only the first --max-items (--all, as for dump).
        #[arg(long, visible_alias = "all")]
        all_chunks: bool,
    },
    /// Re-encodes the header and the trailer from their decoded values and compares the bytes.
    Verify {
        #[command(flatten)]
        input: Input,
        /// One JSON object: {"schema": 1, "path", "offset", "header", "trailer", "frame"}.
        #[arg(long)]
        json: bool,
    },
    /// Draws a built-in layout; with no name, lists them.
    Layout {
        /// frame-header, frame-flags, filter-pipeline, metalayers, trailer, fingerprint, b2nd,
        /// b2nd-dev6, caterva.
        name: Option<String>,
    },
    /// Writes the data, decompressed: an NDArray's items in C order (padding and block order
    /// undone), or an SChunk's chunks one after the other.
    Cat {
        #[command(flatten)]
        input: Input,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Only these items of an NDArray, NumPy style: `start:stop` per dimension separated by
        /// commas (`0:10,5:8`; a single index `3`; `:` or nothing for a whole dimension;
        /// negative values count from the end). Only the chunks and blocks it touches are read.
        #[arg(long, value_name = "SLICE", allow_hyphen_values = true)]
        slice: Option<String>,
        /// Threads decoding an NDArray (default: the available cores).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Write a NumPy .npy file (the array's dtype, the selection's shape as NumPy gives
        /// `arr[SLICE]`) instead of raw items; NDArrays only.
        #[arg(long)]
        npy: bool,
        /// A member of a python-blosc2 store (PATH a .b2z, .b2d or .b2e): its key, `/g/x`.
        #[arg(long, value_name = "KEY")]
        key: Option<String>,
    },
    /// Compresses a NumPy .npy file into a .b2nd array (python-blosc2's defaults: zstd,
    /// clevel 5, shuffle, its default chunk and block shapes).
    Pack {
        /// The .npy file (any dtype, C or Fortran order, 0 to 16 dimensions).
        input: PathBuf,
        /// The .b2nd file to write.
        output: PathBuf,
        /// blosclz, lz4, lz4hc, zlib or zstd.
        #[arg(long, default_value = "zstd")]
        codec: String,
        /// 0 (no compression) to 9.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=9))]
        clevel: u8,
        /// shuffle, bitshuffle, delta, trunc_prec:BITS, bytedelta or none; repeat for a
        /// pipeline, in order (default: shuffle).
        #[arg(long = "filter", value_name = "NAME")]
        filters: Vec<String>,
        /// Chunk shape, comma-separated.
        #[arg(long)]
        chunks: Option<String>,
        /// Block shape, comma-separated.
        #[arg(long)]
        blocks: Option<String>,
        /// Threads compressing the blocks of a chunk (the output is the same for any count).
        #[arg(long, default_value_t = 1)]
        nthreads: i16,
    },
    /// Writes a .b2nd array as a NumPy .npy file (C order).
    Unpack {
        /// The .b2nd file.
        input: PathBuf,
        /// The .npy file to write.
        output: PathBuf,
        /// Where the frame starts inside the input file; offsets in messages stay absolute.
        #[arg(long, default_value_t = 0)]
        offset: u64,
    },
    /// A local web viewer of Blosc2 files (127.0.0.1 only, read-only): the file list, each
    /// file's header, metalayers, layout with its bytes and chunk map, and NDArrays as images.
    #[cfg(feature = "serve")]
    Serve {
        /// Frame files, sparse-frame directories or directories (searched recursively).
        #[arg(value_name = "PATH", required = true)]
        paths: Vec<PathBuf>,
        /// The port on 127.0.0.1 (0: a free one; the URL is printed).
        #[arg(long, default_value_t = 8000)]
        port: u16,
    },
    /// The annotated hex dump of the header, each metalayer (with its own layout when known,
    /// or as msgpack), the trailer and each vlmetalayer's content.
    Dump {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        cut: Cut,
    },
    /// A shell completion script on stdout (e.g. `b2schema completions bash > b2schema.bash`).
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// The man page (roff) on stdout (e.g. `b2schema man | man -l -`).
    Man,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.color {
        Color::Auto => {}
        Color::Always => anstream::ColorChoice::Always.write_global(),
        Color::Never => anstream::ColorChoice::Never.write_global(),
    }
    let limits = cli.budget.limits();
    let result = match cli.command {
        Command::Inspect { paths, json, offset, all_chunks } => match paths.as_slice() {
            [p] if offset == 0 && store::detect(p, limits) => store::inspect(p, json, limits),
            _ => inspect::run(&paths, offset, json, &inspect::Options { limits, all_chunks }),
        },
        Command::Verify { input, json } => verify::run(&input.path, input.offset, limits, json),
        Command::Layout { name } => layouts::run(name.as_deref()),
        Command::Dump { input, cut } => verify::dump(&input.path, input.offset, limits, cut.all),
        Command::Cat { input, output, slice, threads, npy, key } => {
            let o = cat::CatOptions { slice: slice.as_deref(), threads, npy };
            match key {
                Some(key) => store::cat(&input.path, input.offset, &key, output.as_deref(), limits, &o),
                None => cat::run(&input.path, input.offset, output.as_deref(), limits, &o),
            }
        }
        Command::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "b2schema", &mut text);
            b2schema_cli::print(&text)
        }
        Command::Man => {
            let mut text = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut text) {
                Ok(()) => b2schema_cli::print(&text),
                Err(e) => Err(b2schema_cli::Failure(format!("writing the man page: {e}"))),
            }
        }
        Command::Pack { input, output, codec, clevel, filters, chunks, blocks, nthreads } => {
            let o = pack::PackOptions {
                codec: &codec,
                clevel,
                filters: &filters,
                chunks: chunks.as_deref(),
                blocks: blocks.as_deref(),
                nthreads,
            };
            pack::pack(&input, &output, &o)
        }
        Command::Unpack { input, output, offset } => pack::unpack(&input, offset, &output, limits),
        #[cfg(feature = "serve")]
        Command::Serve { paths, port } => serve::run(&paths, port),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let red = anstyle::AnsiColor::Red.on_default().bold();
            anstream::eprintln!("{red}b2schema:{red:#} {e}");
            ExitCode::from(2)
        }
    }
}
