//! The data readers over the space of array geometries: `Geometry::each_run` visits every item
//! of the array exactly once and no padding, whatever the chunk and block shapes claim (its
//! work is bounded by the real items); `FrameFile::write_data` streams exactly the array in C
//! order, chunk layer by chunk layer, and refuses what its limits refuse.

use b2schema::Limits;
use b2schema::b2nd::Geometry;
use b2schema::frame::FrameFile;
use b2schema::writer::{Fill, NdArray};
use proptest::prelude::*;

/// A shape of 0 to 4 dimensions with chunk and block shapes (block <= chunk, both >= 1).
fn geometry() -> impl Strategy<Value = (Vec<i64>, Vec<i32>, Vec<i32>)> {
    prop::collection::vec((1i64..9, 1i32..6, 1i32..6), 0..=4).prop_map(|dims| {
        let shape = dims.iter().map(|d| d.0).collect();
        let chunks: Vec<i32> = dims.iter().map(|d| d.1).collect();
        let blocks = dims.iter().zip(&chunks).map(|(d, &c)| d.2.min(c)).collect();
        (shape, chunks, blocks)
    })
}

fn grid_coords(mut index: usize, grid: &[usize]) -> Vec<usize> {
    let mut c = vec![0; grid.len()];
    for (c, &g) in c.iter_mut().zip(grid).rev() {
        *c = index % g;
        index /= g;
    }
    c
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn each_run_covers_every_item_once_and_no_padding((shape, chunks, blocks) in geometry()) {
        let g = Geometry::new(&shape, &chunks, &blocks);
        let nitems: usize = shape.iter().map(|&s| s as usize).product();
        let grid = g.grid();
        let nchunks: usize = grid.iter().product();
        let chunk_items = g.chunk_items().unwrap();
        let mut seen = vec![0u8; nitems];
        let mut calls = 0usize;
        for i in 0..nchunks {
            let mut in_chunk = vec![false; chunk_items];
            g.each_run(&grid_coords(i, &grid), |r| {
                calls += 1;
                assert!(r.len > 0 && r.chunk_at + r.len <= chunk_items, "{r:?} inside the padded chunk");
                for k in 0..r.len {
                    assert!(!in_chunk[r.chunk_at + k], "chunk item {} used twice", r.chunk_at + k);
                    in_chunk[r.chunk_at + k] = true;
                    seen[r.array_at + k] += 1;
                }
                Ok(())
            }).unwrap();
        }
        prop_assert!(seen.iter().all(|&n| n == 1), "every item exactly once: {seen:?}");
        prop_assert!(calls <= nitems.max(1));
    }

    /// Chunk and block shapes up to 2^31 over a small array: the walk stays within the real
    /// items (it would take 2^31 steps per dimension over the padded chunk).
    #[test]
    fn huge_chunk_shapes_cost_only_the_real_items(shape in prop::collection::vec(1i64..4, 1..=16), big in 1i32..=i32::MAX) {
        let n = shape.len();
        let g = Geometry::new(&shape, &vec![big; n], &vec![big; n]);
        let nitems: usize = shape.iter().map(|&s| s as usize).product();
        let mut items = 0;
        let r = g.each_run(&vec![0; n], |r| { items += r.len; Ok(()) });
        // The chunk position may not fit a usize (16 dimensions of 2^31): an error, never a panic.
        if r.is_ok() {
            prop_assert_eq!(items, nitems);
        }
        prop_assert!(g.each_run(&vec![0; n.saturating_sub(1)], |_| Ok(())).is_err(), "too few coordinates");
    }

    #[test]
    fn write_data_streams_the_array_in_c_order((shape, chunks, blocks) in geometry(), ts in 1usize..5) {
        let nitems: usize = shape.iter().map(|&s| s as usize).product();
        let data: Vec<u8> = (0..nitems * ts).map(|i| (i * 7 + 3) as u8).collect();
        let frame = NdArray::new(&shape, &chunks, &blocks, &format!("|V{ts}"), ts, Fill::Data(&data)).to_frame().unwrap();
        let path = std::env::temp_dir().join(format!("b2schema-data-stream-{}.b2nd", std::process::id()));
        frame.write_file(&path).unwrap();
        let f = FrameFile::open(&path).unwrap();
        let mut out = Vec::new();
        let n = f.write_data(&mut out).unwrap();
        prop_assert_eq!(n as usize, data.len());
        prop_assert_eq!(&out, &data);
        // A limit below the data refuses it before writing anything.
        if !data.is_empty() {
            let f = FrameFile::open_with_limits(&path, Limits::default().with_max_output(data.len() as u64 - 1)).unwrap();
            let mut out = Vec::new();
            let e = f.write_data(&mut out).unwrap_err();
            prop_assert!(out.is_empty() && e.to_string().contains("Limits::max_output"), "{e}");
        }
        let _ = std::fs::remove_file(&path);
    }
}

/// A 4 MB msgpack string dumps into at most `max_output` bytes of text (plus the last line
/// saying where it stopped), not the 225 MB its 8-byte lines would take.
#[test]
fn annotate_of_4_mb_stays_within_its_output_limit() {
    let value = vec![b'x'; 4 << 20];
    let bytes = b2schema::to_vec(&serde_bytes::Bytes::new(&value)).unwrap();
    let text = b2schema::dump::annotate(&bytes);
    assert!(text.len() <= b2schema::dump::DEFAULT_MAX_OUTPUT + 200, "{} bytes", text.len());
    assert!(
        text.trim_end().lines().last().unwrap().starts_with("!! output limit"),
        "{}",
        &text[text.len() - 200..]
    );
    let small = b2schema::dump::Options { max_output: 4096, ..Default::default() };
    assert!(b2schema::dump::annotate_with(&bytes, small).len() < 4096 + 200);
}
