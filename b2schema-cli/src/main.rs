//! `b2schema`: inspect, verify and dump the metadata of Blosc2 files.
//!
//! Exit codes: 0 success, 1 `verify` found a difference, 2 unreadable input or bad usage.
#![forbid(unsafe_code)]

mod inspect;
mod layouts;
mod msgpack_json;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Inspect, verify and dump the metadata of Blosc2 frames (.b2nd, .b2frame, cframes, sparse
/// directories), byte for byte as c-blosc2 writes it.
#[derive(Parser)]
#[command(name = "b2schema", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Everything in a frame's metadata: header, metalayers, vlmetalayers, chunks.
    Inspect {
        /// A contiguous frame file (any name) or a sparse-frame directory.
        path: PathBuf,
        /// One JSON object on stdout (the contract is in the README).
        #[arg(long)]
        json: bool,
        /// Where the frame starts inside the file.
        #[arg(long, default_value_t = 0)]
        offset: u64,
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
    /// The annotated hex dump of the header and the trailer.
    Dump {
        /// A contiguous frame file or a sparse-frame directory.
        path: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Inspect { path, json, offset } => inspect::run(&path, offset, json),
        Command::Verify { path } => verify::run(&path),
        Command::Layout { name } => layouts::run(name.as_deref()),
        Command::Dump { path } => verify::dump(&path),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("b2schema: {e}");
            ExitCode::from(2)
        }
    }
}

/// An error for the user: what failed, where.
pub struct Failure(String);

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Failure {
    pub fn at(path: &std::path::Path, e: impl std::fmt::Display) -> Self {
        Failure(format!("{}: {e}", path.display()))
    }
}
