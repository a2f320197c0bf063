//! The layers of the library crates, as folders. `b2schema-format/src` (issues 19 and 46): the
//! fixed-width format (`format/`) at the bottom, the derive's runtime (`schema/`) above it; the
//! Blosc2 containers are the crate `b2schema` above both (a compiler fact: that crate depends on
//! this one). `b2schema-chunk/src` (issue 28): the leaves (`bytes`,
//! `error`, `fields`, `id`), the plugin `registry`, then `codec/` and `filter/` side by side (blind
//! to each other), then `chunk/`. Inside a crate, code names the crate's items by their defining
//! module (`crate::format::error::Error`) or through `super::`; this test reads every file's code
//! (comments and test modules left out), resolves each such path to the file that defines it,
//! and checks that no path points up a layer or sideways to another module of the same level,
//! that no code names a root re-export (which would hide the layer it comes from), and that no
//! files import one another in a loop.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A crate's layers: its top-level modules with their levels; a file may name its own module
/// and the modules of lower levels.
type Layers = &'static [(&'static str, usize)];

/// `b2schema-format`: bottom first.
const LAYERS: Layers = &[("format", 0), ("schema", 1)];

/// `b2schema`: the containers, and the derive's attribute reference (documentation only).
const CONTAINER_LAYERS: Layers = &[("attributes", 0), ("container", 1)];

/// `b2schema-chunk`: the leaves, the registry, codecs and filters side by side, chunks.
const CHUNK_LAYERS: Layers = &[
    ("bytes", 0),
    ("error", 0),
    ("fields", 0),
    ("id", 0),
    ("test_data", 0),
    ("registry", 1),
    ("codec", 2),
    ("filter", 2),
    ("chunk", 3),
];

/// Every library crate with its layers, and the names its root gives to crates beneath it
/// (`b2schema` names `b2schema-format`'s halves `crate::format` and `crate::schema`).
const CRATES: [(&str, Layers, &[&str]); 3] = [
    ("b2schema-format/src", LAYERS, &[]),
    ("b2schema/src", CONTAINER_LAYERS, &["format", "schema"]),
    ("b2schema-chunk/src", CHUNK_LAYERS, &[]),
];

struct File {
    /// Where it is, from `b2schema/src`.
    path: String,
    /// Its module path from the crate root (`["format", "de", "raw"]`).
    module: Vec<String>,
    /// Its code: no comments, nothing from its `#[cfg(test)]` module on.
    code: String,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file: lines up to its test module, without comments.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t == "#[cfg(test)]" || (t.starts_with("#[cfg(all(test") && t.ends_with(")]")) {
            break;
        }
        let line = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    code
}

fn files(crate_src: &str) -> Vec<File> {
    let src = b2schema_tests::repo_root().join(crate_src);
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter(|p| p.file_name().unwrap() != "lib.rs")
        .map(|p| {
            let rel = p.strip_prefix(&src).unwrap().to_str().unwrap().replace('\\', "/");
            file(&rel, &std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// Every path of `code` that starts with `crate::` or `super::`, or with the name of one of
/// the file's own submodules (`children`; re-exports of them, `pub use child::...;`, are the
/// module's face, not a use), as the module path it names from the crate root (`super` resolved
/// against `module`), one path per item of a `{...}` list (its leading segments).
fn paths(code: &str, module: &[String], children: &[String]) -> Vec<Vec<String>> {
    let mut out = scan(code, |rest| {
        if let Some(after) = rest.strip_prefix("crate::") {
            return Some((Vec::new(), rest.len() - after.len()));
        }
        let mut base = module.to_vec();
        let mut n = 0;
        while rest[n..].starts_with("super::") {
            base.pop();
            n += "super::".len();
        }
        (n > 0).then_some((base, n))
    });
    let own = without_reexports(code);
    out.extend(scan(&own, |rest| {
        children.iter().find(|c| rest.starts_with(&format!("{c}::"))).map(|_| (module.to_vec(), 0))
    }));
    out
}

/// `code` without its `pub use ...;` and `pub(...) use ...;` statements.
fn without_reexports(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(i) =
        ["pub use ", "pub(crate) use ", "pub(super) use "].iter().filter_map(|p| rest.find(p)).min()
    {
        out.push_str(&rest[..i]);
        rest = rest[i..].find(';').map_or("", |j| &rest[i + j + 1..]);
    }
    out.push_str(rest);
    out
}

/// The paths of `code` where `start` (given the code from a word's start) recognises one: the
/// module it starts from and how many bytes its prefix takes.
fn scan(code: &str, start: impl Fn(&str) -> Option<(Vec<String>, usize)>) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let ident_end = |i: usize| (i..bytes.len()).find(|&j| !word(bytes[j])).unwrap_or(bytes.len());
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !(word(bytes[i - 1]) || bytes[i - 1] == b':');
        let Some((mut base, n)) = boundary.then(|| start(&code[i..])).flatten() else {
            i += 1;
            continue;
        };
        let mut at = i + n;
        loop {
            let end = ident_end(at);
            if end == at {
                break;
            }
            base.push(code[at..end].to_string());
            at = end;
            if !code[at..].starts_with("::") {
                break;
            }
            at += 2;
        }
        if code[at..].starts_with('{') {
            let close = code[at..].find('}').map_or(code.len(), |j| at + j);
            for item in code[at + 1..close].split(',') {
                let segs = item
                    .trim()
                    .split("::")
                    .map(|s| s.trim().split(' ').next().unwrap_or("").to_string())
                    .take_while(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'));
                let mut path = base.clone();
                path.extend(segs.filter(|s| s != "self"));
                out.push(path);
            }
            at = close;
        } else {
            out.push(base);
        }
        i = at.max(i + 1);
    }
    out
}

/// The submodules a file declares (`mod name;`, with any visibility).
fn children(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub(crate) ").or_else(|| l.strip_prefix("pub ")).unwrap_or(l);
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.to_string())
        })
        .collect()
}

/// The layer (top-level module and level) a path from the crate root names.
fn layer(layers: Layers, path: &[String]) -> Option<(&'static str, usize)> {
    layers.iter().copied().find(|(l, _)| path.first().is_some_and(|p| p == l))
}

/// The problems of the tree: imports up a layer, root re-exports named inside the crate, loops.
fn problems(layers: Layers, beneath: &[&str], files: &[File]) -> Vec<String> {
    let by_module: BTreeMap<&[String], usize> =
        files.iter().enumerate().map(|(i, f)| (f.module.as_slice(), i)).collect();
    let mut problems = Vec::new();
    let mut edges = vec![Vec::new(); files.len()];
    for (i, f) in files.iter().enumerate() {
        let (own, level) = layer(layers, &f.module).unwrap_or_else(|| panic!("{} is in no layer", f.path));
        for path in paths(&f.code, &f.module, &children(&f.code)) {
            if path.first().is_some_and(|p| beneath.contains(&p.as_str())) {
                continue;
            }
            let name = path.join("::");
            match layer(layers, &path) {
                Some((l, n)) if n > level => {
                    problems.push(format!("{} ({own}) names {name} ({l}): up a layer", f.path))
                }
                Some((l, n)) if n == level && l != own => {
                    problems.push(format!("{} ({own}) names {name} ({l}): sideways, same level", f.path))
                }
                Some(_) => {}
                None => problems.push(format!("{} names crate::{name}, a root re-export", f.path)),
            }
            // The file that defines the path: its longest prefix that is a module of a file.
            let target = (1..=path.len()).rev().find_map(|n| by_module.get(&path[..n]).copied());
            if let Some(t) = target
                && t != i
                && !edges[i].contains(&t)
            {
                edges[i].push(t);
            }
        }
    }
    // Loops: a depth-first walk that meets a file still on its stack.
    fn walk(
        n: usize,
        edges: &[Vec<usize>],
        state: &mut [u8],
        stack: &mut Vec<usize>,
        loops: &mut Vec<Vec<usize>>,
    ) {
        state[n] = 1;
        stack.push(n);
        for &m in &edges[n] {
            match state[m] {
                0 => walk(m, edges, state, stack, loops),
                1 => loops.push(stack[stack.iter().position(|&s| s == m).unwrap()..].to_vec()),
                _ => {}
            }
        }
        stack.pop();
        state[n] = 2;
    }
    let mut state = vec![0u8; files.len()];
    let mut loops = Vec::new();
    for n in 0..files.len() {
        if state[n] == 0 {
            walk(n, &edges, &mut state, &mut Vec::new(), &mut loops);
        }
    }
    for l in loops {
        let names: Vec<&str> = l.iter().map(|&n| files[n].path.as_str()).collect();
        problems.push(format!("import loop: {} -> {}", names.join(" -> "), names[0]));
    }
    problems
}

#[test]
fn imports_point_down_the_layers_and_never_loop() {
    for (src, layers, beneath) in CRATES {
        let files = files(src);
        // Every layer has files, and the resolver finds imports (a reader that saw nothing would
        // pass whatever the code does).
        for (l, _) in layers {
            assert!(files.iter().any(|f| f.module[0] == *l), "{src}: no file in {l}");
        }
        let resolved: usize = files.iter().map(|f| paths(&f.code, &f.module, &children(&f.code)).len()).sum();
        assert!(resolved > 100, "{src}: only {resolved} crate:: or super:: paths found");
        let problems = problems(layers, beneath, &files);
        assert!(problems.is_empty(), "{src}: {} problems:\n{}", problems.len(), problems.join("\n"));
    }
}

#[test]
fn no_source_file_is_over_900_lines() {
    for (src, _, _) in CRATES
        .iter()
        .chain([("b2schema-cli/src", LAYERS, &[][..]), ("b2schema-derive/src", LAYERS, &[][..])].iter())
    {
        let mut paths = Vec::new();
        rust_files(&b2schema_tests::repo_root().join(src), &mut paths);
        assert!(!paths.is_empty(), "no file in {src}");
        for p in paths {
            let n = std::fs::read_to_string(&p).unwrap().lines().count();
            assert!(n <= 900, "{} has {n} lines (at most 900: split it by what it holds)", p.display());
        }
    }
}

/// The file at `path` (from its crate's `src`) with `code`: its module path and its code.
fn file(path: &str, code: &str) -> File {
    let mut module: Vec<String> = path.trim_end_matches(".rs").split('/').map(String::from).collect();
    if module.last().is_some_and(|m| m == "mod") {
        module.pop();
    }
    File { path: path.to_string(), module, code: code_of(code) }
}

#[test]
fn the_checks_see_an_import_up_a_layer_a_root_path_and_a_loop() {
    let files = [
        file("format/error.rs", "use crate::format::int::Int;\n// crate::container::frame in a comment\n"),
        file("format/int.rs", "use super::error::{Error, ErrorKind};\n"),
        file(
            "format/dump.rs",
            "use crate::{schema::layout::Layout, format::int};\nfn f() { crate::Error::at(); }\n",
        ),
        file(
            "schema/layout/mod.rs",
            "mod sizes;\npub use sizes::width;\npub struct Layout;\nfn f() { sizes::sum(); }\n",
        ),
        file("schema/layout/sizes.rs", "use super::Layout;\n"),
        // A module's face (re-exporting a child that uses it) is no loop.
        file(
            "schema/codec/mod.rs",
            "mod traits;\n#[doc(inline)]\npub use traits::{Decode, Encode};\npub fn g() {}\n",
        ),
        file("schema/codec/traits.rs", "use super::g;\n"),
    ];
    assert_eq!(
        problems(LAYERS, &[], &files),
        [
            "format/dump.rs (format) names schema::layout::Layout (schema): up a layer",
            "format/dump.rs names crate::Error::at, a root re-export",
            "import loop: format/error.rs -> format/int.rs -> format/error.rs",
            "import loop: schema/layout/mod.rs -> schema/layout/sizes.rs -> schema/layout/mod.rs",
        ]
    );
}

#[test]
fn the_checks_see_codecs_and_filters_name_each_other() {
    let files = [
        file("codec/lz4/mod.rs", "use crate::filter::shuffle::unshuffle;\nuse crate::error::Error;\n"),
        file("filter/shuffle.rs", "use crate::registry::Registry;\n"),
        file("registry.rs", "use crate::chunk::params::Params;\n"),
        file("error.rs", ""),
        file("chunk/params.rs", "use crate::codec::lz4;\n"),
    ];
    assert_eq!(
        problems(CHUNK_LAYERS, &[], &files),
        [
            "codec/lz4/mod.rs (codec) names filter::shuffle::unshuffle (filter): sideways, same level",
            "registry.rs (registry) names chunk::params::Params (chunk): up a layer",
            "import loop: codec/lz4/mod.rs -> filter/shuffle.rs -> registry.rs -> chunk/params.rs -> codec/lz4/mod.rs",
        ]
    );
}
