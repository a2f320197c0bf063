//! `b2schema`: inspect, verify and dump the metadata of Blosc2 files.
//!
//! Exit codes: 0 success, 1 `verify` found a difference, 2 unreadable input or bad usage.
#![forbid(unsafe_code)]

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use b2schema_cli::budget::BudgetArgs;
use b2schema_cli::input;
use b2schema_cli::names::{self, Hint};
#[cfg(feature = "serve")]
use b2schema_cli::serve;
use b2schema_cli::summary::Select;
use b2schema_cli::{
    cat, diff, du, dump, edit, inspect, layouts, ls, pack, store, store_edit, table, verify, vlmeta,
};
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
    /// A PEM file of root certificates trusted for https:// URLs besides Mozilla's (a company's
    /// or a test's CA); without it, the file SSL_CERT_FILE names, if set.
    #[arg(long, global = true, value_name = "FILE")]
    cacert: Option<PathBuf>,
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
    /// A contiguous frame file (any name), a sparse-frame directory, an http:// or https:// URL
    /// (read by ranged GETs, only what is needed), or - for a frame on stdin
    /// (read within --max-decompressed-total).
    path: PathBuf,
    /// Where the frame starts inside the file; offsets in messages stay absolute in the file.
    #[arg(long, default_value_t = 0)]
    offset: u64,
}

/// The frames a subcommand reads many of (one module, `walk.rs`, decides for all).
#[derive(clap::Args)]
struct Many {
    /// Contiguous frame files (any name), sparse-frame directories, - for a frame on stdin, or
    /// plain directories, which stand for the regular files and sparse frames inside them,
    /// sorted by name (only those directly inside without -r).
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    /// Enter the subdirectories of a directory, all the way down (symbolic links to
    /// directories are not entered).
    #[arg(short, long)]
    recursive: bool,
    #[command(flatten)]
    select: Select,
}

#[derive(Subcommand)]
enum VlmetaAction {
    /// Writes a vlmetalayer's value as one line of JSON (--raw: its bytes).
    Get {
        /// The frame (a file, a sparse-frame directory, or -).
        path: PathBuf,
        /// The vlmetalayer's name.
        key: String,
        /// Its decompressed bytes as they are, not as JSON.
        #[arg(long)]
        raw: bool,
    },
    /// Sets a vlmetalayer to VALUE, JSON stored as msgpack (as python-blosc2 stores it), or
    /// with --raw the text's bytes; adds it when new.
    Set {
        /// The contiguous frame file.
        path: PathBuf,
        /// The vlmetalayer's name (at most 31 bytes).
        key: String,
        /// The value: JSON (`'{"units": "m"}'`, `42`, `'"text"'`).
        value: String,
        /// Store VALUE's bytes as they are, not as msgpack.
        #[arg(long)]
        raw: bool,
    },
    /// Deletes a vlmetalayer.
    Del {
        /// The contiguous frame file.
        path: PathBuf,
        /// The vlmetalayer's name.
        key: String,
    },
}

#[derive(Subcommand)]
enum StoreAction {
    /// Adds the frame FILE (a .b2nd, .b2f or .b2b) to STORE (a .b2d, .b2z or .b2e of
    /// python-blosc2) as the member KEY; a key the store has is refused unless --replace. In a
    /// TreeStore, a leaf where a group is, or below a leaf, is refused as python-blosc2 refuses
    /// it. Crash-safe: a .b2z or .b2e is rewritten beside itself, then renamed onto its name.
    Add {
        /// The store.
        store: PathBuf,
        /// The member's key (`/g/x`).
        key: String,
        /// The frame file added (read whole, within --max-decompressed-total).
        file: PathBuf,
        /// Replace the member KEY when the store has one (else it is added).
        #[arg(long)]
        replace: bool,
    },
    /// Removes the member KEY (in a TreeStore, a group KEY with everything below it).
    /// Crash-safe as add.
    #[command(visible_alias = "del")]
    Rm {
        /// The store.
        store: PathBuf,
        /// The member's key (`/g/x`).
        key: String,
    },
    /// Reads or changes the store's own vlmeta (python-blosc2's `tstore.vlmeta`, kept in the
    /// member /__vlmeta__).
    Vlmeta {
        #[command(subcommand)]
        action: StoreVlmetaAction,
    },
}

#[derive(Subcommand)]
enum StoreVlmetaAction {
    /// Writes a store vlmeta's value as one line of JSON.
    Get {
        /// The store (.b2d, .b2z or .b2e).
        store: PathBuf,
        /// The vlmeta's name.
        key: String,
    },
    /// Sets a store vlmeta to VALUE, JSON stored as msgpack (as python-blosc2 stores it); adds
    /// it when new.
    Set {
        /// The store (.b2d, .b2z or .b2e).
        store: PathBuf,
        /// The vlmeta's name (at most 31 bytes).
        key: String,
        /// The value: JSON (`'{"units": "m"}'`, `42`, `'"text"'`).
        value: String,
    },
    /// Deletes a store vlmeta.
    #[command(visible_alias = "rm")]
    Del {
        /// The store (.b2d, .b2z or .b2e).
        store: PathBuf,
        /// The vlmeta's name.
        key: String,
    },
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
    /// python-blosc2 store (.b2z, .b2d, .b2e) lists its members instead (a .b2z or .b2e met in a
    /// scan too).
    ///
    /// With several PATHs, or a directory that is not a sparse frame, every frame is inspected
    /// in turn and a file that fails does not stop the others (exit code 2 at the end).
    Inspect {
        #[command(flatten)]
        many: Many,
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
    /// A health check: re-encodes each frame's header and trailer from their decoded values,
    /// compares the bytes, decodes the offsets index, and decompresses every chunk, checking its
    /// size (--quick: the metadata only). One line per frame: `ok PATH: ...` or `FAIL PATH: reason`.
    Verify {
        #[command(flatten)]
        many: Many,
        /// Where the frame starts inside every file.
        #[arg(long, default_value_t = 0)]
        offset: u64,
        /// One JSON object per frame (JSON Lines): {"schema", "path", "ok", "offset", "header",
        /// "trailer", "frame", "chunks"}, or {"schema", "path", "ok": false, "error"}.
        #[arg(long)]
        json: bool,
        /// Check the metadata only: do not decompress the chunks (by default each is decompressed
        /// and must have its header's size, an NDArray's the padded chunk shape times the
        /// typesize, the sizes adding up to the frame's nbytes).
        #[arg(long)]
        quick: bool,
        /// What verify does by default (decompress every chunk); kept for scripts written before.
        #[arg(long, hide = true, conflicts_with = "quick")]
        deep: bool,
    },
    /// One line per frame, tab-separated: path, shape, dtype, codec, nbytes, cbytes, ratio.
    Ls {
        #[command(flatten)]
        many: Many,
    },
    /// Totals per PATH (a tree with -r), tab-separated: frames, nbytes, cbytes, ratio, path;
    /// then `total` with several PATHs.
    Du {
        #[command(flatten)]
        many: Many,
    },
    /// How the metadata of two frames differ, one line per value: `KEY: A -> B` (exit 1 when
    /// they differ, as diff(1)).
    Diff {
        /// The first frame (a file, a sparse-frame directory, or -).
        a: PathBuf,
        /// The second frame.
        b: PathBuf,
    },
    /// Reads or changes a frame's vlmetalayers (set and del write the file crash-safely: the
    /// new trailer after the frame's end, then the header in one write).
    Vlmeta {
        #[command(subcommand)]
        action: VlmetaAction,
    },
    /// Changes a python-blosc2 store (.b2d, .b2z, .b2e) in place: members added, replaced and
    /// removed, the store's vlmeta set and deleted (each change crash-safe, under a writer lock).
    Store {
        #[command(subcommand)]
        action: StoreAction,
    },
    /// Draws a built-in layout; with no name, lists them.
    Layout {
        /// The layout's name.
        #[arg(value_parser = Hint(names::layouts))]
        name: Option<String>,
    },
    /// Writes the data, decompressed: an NDArray's items in C order (padding and block order
    /// undone), or an SChunk's chunks one after the other.
    Cat {
        #[command(flatten)]
        input: Input,
        /// Write to this file (written whole or not at all) instead of stdout; - is stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Only these items of an NDArray, NumPy style: `start:stop` or `start:stop:step` per
        /// dimension separated by commas (`0:10,5:8`, `::2`; a single index `3`; `:` or nothing
        /// for a whole dimension; negative values count from the end; steps are positive). Only
        /// the chunks and blocks it touches are read.
        #[arg(long, value_name = "SLICE", allow_hyphen_values = true)]
        slice: Option<String>,
        /// Threads decoding an NDArray (default: the available cores).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Write a NumPy .npy file (the array's dtype, the selection's shape as NumPy gives
        /// `arr[SLICE]`) instead of raw items; NDArrays only.
        #[arg(long)]
        npy: bool,
        /// A member of a python-blosc2 store (PATH a .b2z, .b2d or .b2e): its key, `/g/x`; for
        /// a CTable, a column's name (no leading /): its live values.
        #[arg(long, value_name = "KEY")]
        key: Option<String>,
        /// Items and rows as JSON Lines: a BatchArray's items (a .b2b, or a store member that is
        /// one), a CTable's live rows (what `cat TABLE` writes anyway).
        #[arg(long, conflicts_with_all = ["csv", "npy", "slice"])]
        json: bool,
        /// A CTable's live rows (or one column's values, --key NAME) as CSV with a header line.
        #[arg(long, conflicts_with_all = ["npy", "slice"])]
        csv: bool,
        /// A CTable's live rows as an Arrow IPC stream (python-blosc2's `to_arrow()` types),
        /// which pyarrow, Polars and DuckDB read; binary, so never to a terminal.
        #[arg(long, conflicts_with_all = ["npy", "slice", "json", "csv", "text", "key"])]
        arrow: bool,
        /// With --arrow: only these columns, in this order (`a,b`); only their members are read.
        #[arg(long, value_name = "A,B", requires = "arrow")]
        columns: Option<String>,
        /// With --arrow: only the live rows START:STOP (either may be left out: `:100`, `5:`).
        #[arg(long, value_name = "START:STOP", requires = "arrow")]
        rows: Option<String>,
        /// Say on stderr what was read: for a URL, the requests made and the bytes fetched.
        #[arg(long, visible_alias = "verbose")]
        stats: bool,
        /// An NDArray's items as text, a row of the last dimension a line (what `cat` writes
        /// to a terminal, which never gets binary data).
        #[arg(long, conflicts_with_all = ["npy", "json", "csv"])]
        text: bool,
    },
    /// Compresses a NumPy .npy file into a .b2nd array (python-blosc2's defaults: zstd,
    /// clevel 5, shuffle, its default chunk and block shapes).
    Pack {
        /// The .npy file (any dtype, C or Fortran order, 0 to 16 dimensions); - reads stdin
        /// (within --max-decompressed-total). An Arrow IPC stream or file (.arrows, .arrow,
        /// .ipc, .feather; or any input with OUTPUT .b2d or .b2z) is packed as a CTable
        /// (numbers, bool, timestamps, strings, binary, dictionaries of strings, fixed-size lists).
        input: PathBuf,
        /// The .b2nd file to write (whole or not at all); - is stdout.
        output: PathBuf,
        /// The codec.
        #[arg(long, default_value = "zstd", value_parser = Hint(names::written_codecs))]
        codec: String,
        /// The codec's meta, -128 to 255: for zfp_acc the tolerance's decimal exponent (-3:
        /// 10^-3), for zfp_prec the bit planes kept less 3 + 2 per dimension, for zfp_rate the
        /// percentage of the item's bits kept, for ndlz the cell size (4 or 8; 2-D arrays of
        /// 1-byte items).
        #[arg(long = "codec-meta", value_name = "N", default_value = "0", allow_hyphen_values = true)]
        codec_meta: String,
        /// 0 (no compression) to 9.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=9))]
        clevel: u8,
        /// shuffle, bitshuffle, delta, trunc_prec:BITS, bytedelta, int_trunc:BITS, ndcell:CELL,
        /// ndmean:CELL or none; repeat for a pipeline, in order (default: shuffle; none with ZFP).
        #[arg(long = "filter", value_name = "NAME", value_parser = Hint(names::filters))]
        filters: Vec<String>,
        /// Chunk shape, comma-separated.
        #[arg(long)]
        chunks: Option<String>,
        /// Block shape, comma-separated.
        #[arg(long)]
        blocks: Option<String>,
        /// Threads compressing chunks (default: the available cores, as python-blosc2; the
        /// output is the same for any count).
        #[arg(long = "threads", alias = "nthreads", value_name = "N",
              value_parser = clap::value_parser!(i16).range(1..))]
        threads: Option<i16>,
    },
    /// Appends the rows of NumPy .npy files to a .b2nd array along its first axis (each .npy's
    /// other dimensions and dtype the array's), in order, creating the array as pack does from
    /// the first when missing; or the rows of an Arrow IPC stream to a CTable (.b2d, .b2z) of
    /// its columns. Crash-safe: a failure at any step leaves the old array (table) or the new
    /// one; several .npy files are appended in changes of up to 64 MiB of rows each (a failure
    /// leaves the array with the files before the failed change appended).
    Append {
        /// The .npy files (one or more); or one Arrow IPC stream or file (.arrows, .arrow, .ipc,
        /// .feather; or any input with INTO .b2d or .b2z) whose rows are appended to a CTable.
        #[arg(required = true, num_args = 1..)]
        input: Vec<PathBuf>,
        /// The .b2nd array (or sparse-frame directory) to grow; or the CTable (.b2d, .b2z),
        /// written anew beside the old one, then put in its place in one step.
        into: PathBuf,
        /// Do not sync each change to disk (as python-blosc2 never does): the changes are still
        /// made in their crash-safe order, so readers and a killed process see the array before
        /// or after each change, but a crash of the system may lose or tear the last ones. For
        /// loops that append often and can redo their last slabs. Arrays only.
        #[arg(long)]
        no_sync: bool,
    },
    /// Resizes a .b2nd array in place, as python-blosc2's resize: new regions zeros, chunks
    /// outside the new shape dropped. Crash-safe.
    Resize {
        /// The .b2nd array (or sparse-frame directory).
        file: PathBuf,
        /// The new shape, comma-separated (as many dimensions as the array's).
        shape: String,
    },
    /// Writes the items of a NumPy .npy file into a part of a .b2nd array in place
    /// (arr[slice] = items): only the chunks touched are re-encoded. Crash-safe.
    Write {
        /// The .b2nd array (or sparse-frame directory).
        file: PathBuf,
        /// The part written, NumPy-style (`10:20, :`; steps of 1).
        #[arg(long)]
        slice: String,
        /// The .npy file of the slice's shape and the array's dtype.
        input: PathBuf,
    },
    /// Writes a .b2nd array as a NumPy .npy file (C order).
    Unpack {
        /// The .b2nd file (- reads a frame from stdin).
        input: PathBuf,
        /// The .npy file to write (whole or not at all); - is stdout.
        output: PathBuf,
        /// Where the frame starts inside the input file; offsets in messages stay absolute.
        #[arg(long, default_value_t = 0)]
        offset: u64,
        /// Threads decoding (default: the available cores).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
    },
    /// A local web viewer of Blosc2 files (127.0.0.1 only, read-only): the file list, each
    /// file's header, metalayers, layout with its bytes and chunk map, and NDArrays as images.
    #[cfg(feature = "serve")]
    Serve {
        /// Frame files, sparse-frame directories, directories (searched recursively) or
        /// http:// URLs of frames (read by ranged GETs).
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
    /// The man page (roff) on stdout, every subcommand's options in it (e.g. `b2schema man |
    /// man -l -`).
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
    // Every file read from here on is recorded, so that no output is written over one of them
    // (`output.rs`).
    if matches!(
        cli.command,
        Command::Cat { output: Some(_), .. }
            | Command::Pack { .. }
            | Command::Unpack { .. }
            | Command::Append { .. }
            | Command::Write { .. }
            | Command::Resize { .. }
            | Command::Store { action: StoreAction::Add { .. } }
    ) {
        b2schema::frame::opened::record();
    }
    if let Some(file) = cli.cacert {
        b2schema_cli::net::set_ca_file(file);
    }
    let result = match cli.command {
        Command::Inspect { many, json, offset, all_chunks } => {
            let o = inspect::Options { limits, all_chunks, recursive: many.recursive };
            match many.paths.as_slice() {
                [p] if !many.recursive => match input::Input::of(p, offset, limits) {
                    Ok(input::Input::Store(s) | input::Input::Table { store: s, .. }) => {
                        store::inspect(p, &s, json)
                    }
                    Ok(_) => inspect::run(&many.paths, offset, json, &o, &many.select),
                    Err(e) => Err(e),
                },
                _ => inspect::run(&many.paths, offset, json, &o, &many.select),
            }
        }
        Command::Verify { many, offset, json, quick, deep: _ } => {
            let o = verify::VerifyOptions { limits, offset, json, deep: !quick, recursive: many.recursive };
            verify::run(&many.paths, &o, &many.select)
        }
        Command::Ls { many } => ls::ls(&many.paths, many.recursive, &many.select, limits),
        Command::Du { many } => du::run(&many.paths, many.recursive, &many.select, limits),
        Command::Diff { a, b } => diff::run(&a, &b, limits),
        Command::Vlmeta { action } => match action {
            VlmetaAction::Get { path, key, raw } => vlmeta::get(&path, &key, raw, limits),
            VlmetaAction::Set { path, key, value, raw } => vlmeta::set(&path, &key, &value, raw),
            VlmetaAction::Del { path, key } => vlmeta::del(&path, &key),
        },
        Command::Store { action } => match action {
            StoreAction::Add { store, key, file, replace } => {
                store_edit::add(&store, &key, &file, replace, limits)
            }
            StoreAction::Rm { store, key } => store_edit::rm(&store, &key, limits),
            StoreAction::Vlmeta { action } => match action {
                StoreVlmetaAction::Get { store, key } => store_edit::vlmeta_get(&store, &key, limits),
                StoreVlmetaAction::Set { store, key, value } => {
                    store_edit::vlmeta_set(&store, &key, &value, limits)
                }
                StoreVlmetaAction::Del { store, key } => store_edit::vlmeta_del(&store, &key, limits),
            },
        },
        Command::Layout { name } => layouts::run(name.as_deref()),
        Command::Dump { input, cut } => dump::run(&input.path, input.offset, limits, cut.all),
        Command::Cat {
            input,
            output,
            slice,
            threads,
            npy,
            key,
            json,
            csv,
            arrow,
            columns,
            rows,
            stats,
            text,
        } => {
            let output = output.filter(|p| !b2schema_cli::walk::is_std(p));
            let to_terminal = output.is_none() && std::io::stdout().is_terminal();
            let o = cat::CatOptions { slice: slice.as_deref(), threads, npy, stats, text, to_terminal };
            let arrow = arrow.then_some(b2schema_cli::table_arrow::ArrowRows {
                columns: columns.as_deref(),
                rows: rows.as_deref(),
                to_terminal,
                threads,
            });
            let rows = table::Rows { key: key.as_deref(), json, csv, arrow, output: output.as_deref() };
            let (path, offset) = (&input.path, input.offset);
            let asked = input::Asked { key: key.as_deref(), batches: json && key.is_none() };
            input::Input::resolve(path, offset, asked, limits)
                .and_then(|resolved| cat::run(path, offset, resolved, &rows, limits, &o))
        }
        Command::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "b2schema", &mut text);
            b2schema_cli::print(&text)
        }
        Command::Man => match b2schema_cli::man::page(&Cli::command()) {
            Ok(text) => b2schema_cli::print(&text),
            Err(e) => Err(b2schema_cli::Failure::Message(format!("writing the man page: {e}"))),
        },
        Command::Append { input, into, no_sync }
            if b2schema_cli::table_arrow::is_table_pack(&input[0], &into) =>
        {
            match input.as_slice() {
                _ if no_sync => Err(b2schema_cli::Failure::Message(
                    "--no-sync: arrays only (a table is written anew beside the old one, then synced)".into(),
                )),
                [one] => b2schema_cli::table_arrow::append_table(one, &into, limits),
                _ => Err(b2schema_cli::Failure::Message(format!(
                    "{} inputs for the table {}: append one Arrow stream at a time",
                    input.len(),
                    into.display()
                ))),
            }
        }
        Command::Pack { input, output, .. } if b2schema_cli::table_arrow::is_table_pack(&input, &output) => {
            b2schema_cli::table_arrow::pack_table(&input, &output, limits.max_decompressed_total())
        }
        Command::Pack { input, output, codec, codec_meta, clevel, filters, chunks, blocks, threads } => {
            let o = pack::PackOptions {
                codec: &codec,
                codec_meta: &codec_meta,
                clevel,
                filters: &filters,
                chunks: chunks.as_deref(),
                blocks: blocks.as_deref(),
                nthreads: threads.unwrap_or_else(|| {
                    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                    i16::try_from(cores).unwrap_or(i16::MAX)
                }),
                max_input: limits.max_decompressed_total(),
            };
            pack::pack(&input, &output, &o)
        }
        Command::Append { input, into, no_sync } => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let o = pack::PackOptions {
                codec: "zstd",
                codec_meta: "0",
                clevel: 5,
                filters: &[],
                chunks: None,
                blocks: None,
                nthreads: i16::try_from(cores).unwrap_or(i16::MAX),
                max_input: limits.max_decompressed_total(),
            };
            edit::append(&input, &into, limits.max_decompressed_total(), &o, !no_sync)
        }
        Command::Resize { file, shape } => edit::resize(&file, &shape),
        Command::Write { file, slice, input } => {
            edit::write(&file, &slice, &input, limits.max_decompressed_total())
        }
        Command::Unpack { input, output, offset, threads } => {
            pack::unpack(&input, offset, &output, threads, limits)
        }
        #[cfg(feature = "serve")]
        Command::Serve { paths, port } => serve::run(&paths, port),
    };
    match result {
        Ok(code) => code,
        Err(b2schema_cli::Failure::ClosedPipe) => ExitCode::SUCCESS,
        Err(e) => {
            let red = anstyle::AnsiColor::Red.on_default().bold();
            anstream::eprintln!("{red}b2schema:{red:#} {e}");
            ExitCode::from(2)
        }
    }
}
