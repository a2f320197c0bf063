//! The README's walk-through (issue 37), run: the tree it describes is built from the fixtures,
//! and every command of its block is run with `sh` in that tree, its stdout compared with the
//! lines the README shows after it.

use std::path::{Path, PathBuf};
use std::process::Command;

use b2schema_tests::repo_root;

/// The block between `<!-- walkthrough -->` and `<!-- /walkthrough -->`: (command, output).
fn steps() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let start = readme.find("<!-- walkthrough -->\n```console\n").expect("the walk-through's start");
    let block = &readme[start..];
    let block = &block[block.find("```console\n").unwrap() + "```console\n".len()..];
    let block = &block[..block.find("```\n<!-- /walkthrough -->").expect("the walk-through's end")];
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

#[test]
fn the_readme_walkthrough_prints_what_it_shows() {
    let steps = steps();
    assert!(steps.len() >= 10, "{} commands", steps.len());
    let dir = tree();
    let bin = Path::new(env!("CARGO_BIN_EXE_b2schema")).parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    for (cmd, want) in steps {
        let o = Command::new("sh")
            .arg("-c")
            .arg(&cmd)
            .current_dir(&dir)
            .env("PATH", &path)
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .output()
            .unwrap();
        let got = String::from_utf8_lossy(&o.stdout);
        assert_eq!(got, want, "$ {cmd}\nstderr: {}", String::from_utf8_lossy(&o.stderr));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
