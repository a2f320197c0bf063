//! `b2schema`: inspect, verify and dump the metadata of Blosc2 files.
//!
//! Exit codes: 0 success, 1 `verify` found a difference, 2 unreadable input or bad usage.
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use b2schema_cli::budget::BudgetArgs;
use b2schema_cli::{cat, inspect, layouts, verify};
use clap::{Parser, Subcommand};

/// Inspect, verify and dump the metadata of Blosc2 frames (.b2nd, .b2frame, cframes, sparse
/// directories), byte for byte as c-blosc2 writes it.
#[derive(Parser)]
#[command(name = "b2schema", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// What an input may cost (every subcommand).
    #[command(flatten)]
    budget: BudgetArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Everything in a frame's metadata: header, metalayers, vlmetalayers, chunks.
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
        /// List every chunk (streamed), not only the first --max-items.
        #[arg(long)]
        all_chunks: bool,
    },
    /// Re-encodes the header and the trailer from their decoded values and compares the bytes.
    Verify {
        /// A contiguous frame file or a sparse-frame directory.
        path: PathBuf,
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
        /// A contiguous frame file or a sparse-frame directory.
        path: PathBuf,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// The annotated hex dump of the header and the trailer.
    Dump {
        /// A contiguous frame file or a sparse-frame directory.
        path: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let limits = cli.budget.limits();
    let result = match cli.command {
        Command::Inspect { paths, json, offset, all_chunks } => {
            inspect::run(&paths, offset, json, &inspect::Options { limits, all_chunks })
        }
        Command::Verify { path } => verify::run(&path, limits),
        Command::Layout { name } => layouts::run(name.as_deref()),
        Command::Dump { path } => verify::dump(&path, limits),
        Command::Cat { path, output } => cat::run(&path, output.as_deref(), limits),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("b2schema: {e}");
            ExitCode::from(2)
        }
    }
}
