//! The command's code paths on whole files, as library functions, within a small budget:
//! `inspect` (the report, written as JSON and as text, with and without `--all-chunks`),
//! `cat` (the data streamed into a counter: exactly `data_len` bytes or an error) and `dump`
//! (the annotated header and trailer). Run with `-malloc_limit_mb` and `-timeout` so that an
//! allocation or a loop sized by the input is a finding (fuzz/README.md).
#![no_main]

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::OnceLock;

use b2schema::Limits;
use b2schema::dump::Options;
use b2schema::frame::{FrameFile, FrameHeader, Trailer};
use b2schema::layout::{self, B2Layout};
use b2schema_cli::{cat, inspect};
use libfuzzer_sys::fuzz_target;

/// Counts what it is given.
struct Counter(u64);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| std::env::temp_dir().join(format!("b2schema-fuzz-cli-{}.b2frame", std::process::id())))
}

fuzz_target!(|data: &[u8]| {
    let path = path();
    std::fs::write(path, data).expect("the fuzz target writes its input to a temporary file");
    let limits = Limits::default()
        .with_max_decompressed(16 << 20)
        .with_max_decompressed_total(64 << 20)
        .with_max_output(64 << 20)
        .with_max_items(64)
        .with_max_shown(256)
        .with_max_chunks(1 << 12);
    if let Ok(file) = FrameFile::open_with_limits(path, limits) {
        for all_chunks in [false, true] {
            let opts = inspect::Options { limits, all_chunks, recursive: false };
            if let Ok(report) = inspect::report(path, &file, &opts) {
                for as_json in [true, false] {
                    let mut problems = report.problems.clone();
                    let _ = inspect::write_report(&mut io::sink(), &file, &report, as_json, &opts, &mut problems);
                }
            }
        }
        // `verify --deep`: every chunk decoded, errors and never a panic.
        let _ = b2schema_cli::deep::decode_all(&file);
        let mut counter = Counter(0);
        let one_thread = b2schema::array::ReadOptions { nthreads: 1, ..Default::default() };
        if let Ok(n) = cat::write(&file, &mut counter, &one_thread) {
            assert_eq!(n, counter.0, "cat says what it wrote");
            assert_eq!(Some(n), file.data_len().ok(), "cat writes exactly the data's length");
        }
    }
    if let Ok(file) = FrameFile::locate_with_limits(path, limits) {
        let opts = Options { max_payload_lines: 8, max_output: 1 << 20, ..Options::default() };
        let header = layout::annotate_with(FrameHeader::LAYOUT, file.header_bytes(), opts);
        let trailer = layout::annotate_with(Trailer::LAYOUT, file.trailer_bytes(), opts);
        assert!(header.len() < 2 << 20 && trailer.len() < 2 << 20, "dump stays near its output limit");
    }
});
