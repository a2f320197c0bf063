//! Properties of the viewer's request handling and drawing, over generated inputs.

use proptest::prelude::*;

use super::http::{percent_decode, query_param, read_request};
use super::paths::Roots;
use super::render::{self, Numeric, Scale, Slice2};
use b2schema::array::ArrayReader;
use b2schema::dtype::DType;
use b2schema::frame::FrameFile;
use b2schema::writer::{Fill, NdArray};

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any bytes: a request or a refusal, never a panic; what is accepted is a GET or HEAD of an
    /// absolute path of visible ASCII with a Host.
    #[test]
    fn any_bytes_parse_or_refuse(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(r) = read_request(&bytes[..]) {
            prop_assert!(r.method == "GET" || r.method == "HEAD");
            prop_assert!(r.path.starts_with('/'));
            prop_assert!(r.path.bytes().all(|b| (0x21..0x7f).contains(&b)));
        }
    }

    /// A well-formed request gives back its path, its query's values and its Host.
    #[test]
    fn requests_round_trip(path in "(/[a-z0-9._-]{0,8}){1,4}", value in "\\PC{0,20}", port in 1u16..) {
        let host = format!("127.0.0.1:{port}");
        let text = format!("GET {path}?root=0&path={} HTTP/1.1\r\nHost: {host}\r\nAccept: */*\r\n\r\n", encode(&value));
        let r = read_request(text.as_bytes()).unwrap();
        prop_assert_eq!(&r.path, &path);
        prop_assert_eq!(r.host, host);
        prop_assert_eq!(query_param(&r.query, "path"), Some(value.clone()));
        prop_assert_eq!(percent_decode(&encode(&value)), Some(value));
    }

    /// Whatever relative path is asked for, the answer is a refusal or a path under the root,
    /// and a path with `..` is always refused.
    #[test]
    fn resolved_paths_stay_in_the_root(parts in proptest::collection::vec(
        prop_oneof![Just("a"), Just("b.b2nd"), Just(".."), Just("."), Just(""), Just("up"), Just("sub")], 0..5)) {
        let (base, root) = tree();
        let roots = Roots::new(std::slice::from_ref(&root)).unwrap();
        let rel = parts.join("/");
        if let Ok(p) = roots.resolve(0, &rel) {
            prop_assert!(p.starts_with(root.canonicalize().unwrap()), "{} escaped to {}", rel, p.display());
            prop_assert!(!parts.contains(&".."));
        }
        let _ = base;
    }

    /// Every heatmap pixel is viridis of its item's place between the minimum and the maximum of the
    /// items drawn, whatever the shape, the axes' order, the index of the third axis and the
    /// downsampling step.
    #[test]
    fn heatmap_pixels_are_their_items(ny in 1u64..9, nx in 1u64..9, nz in 1u64..4, k in 0u64..4,
                                      perm in 0usize..6, seed in any::<u64>(), max_side in 1usize..10) {
        let shape = [ny, nx, nz];
        let n = (ny * nx * nz) as usize;
        let values: Vec<i32> = (0..n).map(|i| ((i as u64).wrapping_mul(seed | 1) >> 7) as i32 % 1000).collect();
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let dir = std::env::temp_dir().join(format!("b2schema-serve-prop-{}-{:?}", std::process::id(), std::thread::current().id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.b2nd");
        let s = shape.map(|d| d as i64);
        NdArray::new(&s, &[3, 4, 2], &[2, 2, 1], "<i4", 4, Fill::Data(&bytes)).to_frame().unwrap().write_file(&path).unwrap();
        let file = FrameFile::open(&path).unwrap();
        let reader = ArrayReader::new(&file).unwrap();
        let num = Numeric::of(&DType::parse("<i4").unwrap()).unwrap();
        let (y, x) = [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)][perm];
        let other = 3 - y - x;
        let mut index = vec![0u64; 3];
        index[other] = k % shape[other];
        let slice2 = Slice2 { y, x, index: index.clone() };
        let img = render::heatmap_within(&reader, num, &slice2, Scale::MinMax, 2, max_side).unwrap();
        let step = shape[y].max(shape[x]).div_ceil(max_side as u64);
        prop_assert_eq!(img.step as u64, step);
        prop_assert_eq!((img.width as u64, img.height as u64), (shape[x].div_ceil(step), shape[y].div_ceil(step)));
        let item = |at: [u64; 3]| values[(at[0] * nx * nz + at[1] * nz + at[2]) as usize] as f64;
        let mut slice = Vec::new();
        for r in (0..shape[y]).step_by(step as usize) {
            for c in (0..shape[x]).step_by(step as usize) {
                let mut at = [0u64; 3];
                at[other] = index[other];
                at[y] = r;
                at[x] = c;
                slice.push(((r / step, c / step), item(at)));
            }
        }
        let lo = slice.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
        let hi = slice.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
        prop_assert_eq!((img.lo, img.hi), (lo, hi));
        for ((r, c), v) in slice {
            let px = &img.rgb[((r * img.width as u64 + c) * 3) as usize..][..3];
            prop_assert_eq!(px, &render::viridis(render::unit(v, lo, hi))[..], "pixel ({}, {})", r, c);
        }
    }
}

/// A root holding `a`, `b.b2nd`, `sub/b.b2nd`, and `up`, a link to the root's parent.
fn tree() -> (std::path::PathBuf, std::path::PathBuf) {
    let base = std::env::temp_dir().join(format!("b2schema-serve-tree-{}", std::process::id()));
    let root = base.join("root");
    if !root.join("up").exists() {
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("a"), b"a").unwrap();
        std::fs::write(root.join("b.b2nd"), b"b").unwrap();
        std::fs::write(root.join("sub/b.b2nd"), b"b").unwrap();
        std::fs::write(base.join("b.b2nd"), b"outside").unwrap();
        let _ = std::os::unix::fs::symlink(&base, root.join("up"));
    }
    (base, root)
}
