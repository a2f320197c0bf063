//! The shell examples of the guides, run. The walk-through of `docs/command-line.md` (issue 37):
//! the tree it describes is built from the fixtures, and every command of its block is run with
//! `sh` in that tree, its stdout compared with the lines the guide shows after it. Every block
//! marked `<!-- run -->` in README.md and `docs/*.md`: its commands run with `sh` from the
//! repository's root (on the files shipped in `tests/data/`), their stdout compared likewise.

use std::path::{Path, PathBuf};
use std::process::Command;

use b2schema_tests::repo_root;

/// The console blocks of `text` between `<!-- MARK -->` and `<!-- /MARK -->`, each as
/// (command, output) steps.
fn blocks(text: &str, mark: &str) -> Vec<Vec<(String, String)>> {
    let (open, close) = (format!("<!-- {mark} -->\n```console\n"), format!("```\n<!-- /{mark} -->"));
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(&open) {
        let block = &rest[start + open.len()..];
        let end = block.find(&close).unwrap_or_else(|| panic!("a block {mark} without its end"));
        out.push(steps(&block[..end]));
        rest = &block[end..];
    }
    out
}

/// The walk-through's block: (command, output).
fn walkthrough() -> Vec<(String, String)> {
    let guide = std::fs::read_to_string(repo_root().join("docs/command-line.md")).unwrap();
    let mut found = blocks(&guide, "walkthrough");
    assert_eq!(found.len(), 1, "one walk-through");
    found.remove(0)
}

/// A console block's lines as (command, output) steps.
fn steps(block: &str) -> Vec<(String, String)> {
    let mut steps: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("$ ") {
            Some(cmd) => steps.push((cmd.to_string(), String::new())),
            None => {
                let (_, out) = steps.last_mut().expect("output after a command");
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    steps
}

/// The tree of the walk-through, under a new directory.
fn tree() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("b2schema-walkthrough-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.join("data");
    std::fs::create_dir_all(data.join("2024/01")).unwrap();
    std::fs::create_dir_all(data.join("2024/02")).unwrap();
    let fixture = |name: &str| std::fs::read(repo_root().join("tests/data/fixtures").join(name)).unwrap();
    std::fs::write(data.join("2024/01/temperature.b2nd"), fixture("nd-meta-vlmeta.b2nd")).unwrap();
    std::fs::write(data.join("2024/01/pressure.b2nd"), fixture("codec-lz4-9.b2nd")).unwrap();
    std::fs::write(data.join("2024/02/humidity.b2nd"), fixture("codec-zstd-9.b2nd")).unwrap();
    // Bytes of the first chunk overwritten (the header is 146 bytes, the chunk 329).
    let mut wind = fixture("codec-zstd-9.b2nd");
    wind[246..446].fill(0x55);
    std::fs::write(data.join("2024/02/wind.b2nd"), wind).unwrap();
    std::fs::write(data.join("log.b2frame"), fixture("schunk-vlmeta-values.b2frame")).unwrap();
    dir
}

/// Runs each command with `sh` in `dir`, the binary under test first on `PATH`, and compares
/// its stdout with what the block shows.
fn run_steps(steps: Vec<(String, String)>, dir: &Path, what: &str) {
    let bin = Path::new(env!("CARGO_BIN_EXE_b2schema")).parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    for (cmd, want) in steps {
        let o = Command::new("sh")
            .arg("-c")
            .arg(&cmd)
            .current_dir(dir)
            .env("PATH", &path)
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .output()
            .unwrap();
        let got = String::from_utf8_lossy(&o.stdout);
        assert_eq!(got, want, "{what}: $ {cmd}\nstderr: {}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn the_guide_walkthrough_prints_what_it_shows() {
    let steps = walkthrough();
    assert!(steps.len() >= 10, "{} commands", steps.len());
    let dir = tree();
    run_steps(steps, &dir, "docs/command-line.md");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every `<!-- run -->` block of README.md and the guides, run from the repository's root.
#[test]
fn the_shell_examples_of_the_guides_print_what_they_show() {
    let mut files = vec![repo_root().join("README.md")];
    let mut guides: Vec<PathBuf> = std::fs::read_dir(repo_root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guides.sort();
    files.extend(guides);
    let mut n = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for block in blocks(&text, "run") {
            assert!(!block.is_empty(), "{}: an empty block", file.display());
            n += block.len();
            run_steps(block, &repo_root(), &file.display().to_string());
        }
    }
    assert!(n >= 5, "{n} commands in the guides' run blocks");
}
