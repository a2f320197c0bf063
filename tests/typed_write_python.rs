//! Arrays written from typed Rust values (`b2schema::writer::Array`: every `Item` type, 0 to 4
//! dimensions, python-blosc2's default shapes or given ones, `meta` and `vlmeta` from `Serialize`
//! values) read back equal by b2schema's typed reader and by python-blosc2 (dtype, shape, chunks,
//! blocks, items, metalayers and vlmetalayers; then python-blosc2 resizes and writes the file).

use b2schema::array::{DateTime64, Element, TimeDelta64};
use b2schema::dtype::DateTimeUnit;
use b2schema::writer::{Array, Item};
use b2schema_tests::{Rng, hex, python_checks};
use serde_json::{Value, json};

fn shape(rng: &mut Rng) -> Vec<u64> {
    let ndim = rng.below(5);
    (0..ndim)
        .map(|_| rng.below(if ndim == 1 { 3000 } else { 12 }) as u64 + u64::from(rng.below(8) != 0))
        .collect()
}

/// Writes `items` as an array of `shape`, checks b2schema reads them back equal, and returns the
/// manifest entry python-blosc2's checker reads.
fn case<T: Item + Element + PartialEq + std::fmt::Debug>(
    dir: &std::path::Path,
    rng: &mut Rng,
    name: &str,
    shape: &[u64],
    items: Vec<T>,
) -> Value {
    let path = dir.join(format!("{name}.b2nd"));
    let mut a = Array::from_slice(shape, &items).unwrap();
    if rng.below(2) == 0 && !shape.is_empty() {
        let chunks: Vec<u64> = shape.iter().map(|&s| 1 + rng.below(s.max(1) as usize) as u64).collect();
        a = a.chunks(&chunks);
        if rng.below(2) == 0 {
            let blocks: Vec<u64> = chunks.iter().map(|&c| 1 + rng.below(c as usize) as u64).collect();
            a = a.blocks(&blocks);
        }
    }
    let a = a
        .meta("units", &("K", 2, [1.5, -0.25]))
        .unwrap()
        .vlmeta("title", &format!("{name} \u{e9}"))
        .unwrap()
        .vlmeta("weights", &[1u8, 2, 3])
        .unwrap();
    a.write_file(&path).unwrap();
    let (chunks, blocks) = a.chunks_and_blocks();

    let back = b2schema::open(&path).unwrap();
    assert_eq!(back.shape(), shape, "{name}");
    assert_eq!(back.dtype().unwrap().to_numpy_str(), a.dtype(), "{name}");
    let sel = if shape.is_empty() { String::from("()") } else { String::from("...") };
    assert_eq!(back.read_as::<T>(sel.as_str()).unwrap(), items, "{name}");
    assert_eq!(back.get::<String>("title").unwrap().unwrap(), format!("{name} \u{e9}"));
    let units: (String, i64, Vec<f64>) = back.metalayer("units").unwrap().unwrap();
    assert_eq!(units, ("K".into(), 2, vec![1.5, -0.25]));

    let mut bytes = Vec::new();
    T::put(&items, &mut bytes);
    let ml = |v: &Value| hex(&b2schema::to_vec_with(v, b2schema::Config::minimal()).unwrap());
    let b2nd = back.frame().view().unwrap().metalayer("b2nd").unwrap().to_vec();
    json!({
        "name": name, "path": path.display().to_string(), "kind": "ndarray",
        "shape": shape, "chunks": chunks, "blocks": blocks, "dtype": a.dtype(),
        "fill": "data", "data_hex": hex(&bytes),
        "meta": [["b2nd", hex(&b2nd)], ["units", ml(&json!(["K", 2, [1.5, -0.25]]))]],
        "vlmeta": [["title", ml(&json!(format!("{name} \u{e9}")))], ["weights", ml(&json!([1, 2, 3]))]],
    })
}

fn n(shape: &[u64]) -> usize {
    shape.iter().product::<u64>() as usize
}

#[test]
fn arrays_written_from_typed_values_read_equal_in_b2schema_and_python_blosc2() {
    let dir = std::env::temp_dir().join(format!("b2schema-typed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x7e57_0001);
    let mut entries = Vec::new();
    let units = [DateTimeUnit::Second, DateTimeUnit::Day, DateTimeUnit::Nanosecond, DateTimeUnit::Generic];
    for round in 0..3 {
        macro_rules! numbers {
            ($($t:ty),*) => {$(
                let s = shape(&mut rng);
                let items: Vec<$t> = (0..n(&s)).map(|_| rng.next_u64() as $t).collect();
                entries.push(case(&dir, &mut rng, &format!("{}-{round}", stringify!($t)), &s, items));
            )*};
        }
        numbers!(i8, i16, i32, i64, u8, u16, u32, u64);
        let s = shape(&mut rng);
        let items: Vec<f32> = (0..n(&s)).map(|i| (i as f32).sin() * 1e3).collect();
        entries.push(case(&dir, &mut rng, &format!("f32-{round}"), &s, items));
        let s = shape(&mut rng);
        let items: Vec<f64> = (0..n(&s)).map(|i| (i as f64).cos() / 7.0).collect();
        entries.push(case(&dir, &mut rng, &format!("f64-{round}"), &s, items));
        let s = shape(&mut rng);
        let items: Vec<bool> = (0..n(&s)).map(|_| rng.below(2) == 0).collect();
        entries.push(case(&dir, &mut rng, &format!("bool-{round}"), &s, items));
        let (unit, count) = (units[round % units.len()], [1, 1, 5][round]);
        let s = shape(&mut rng);
        let items: Vec<DateTime64> = (0..n(&s))
            .map(|i| {
                let value = if i % 7 == 3 { DateTime64::NAT } else { 1_704_067_200 + i as i64 };
                DateTime64 { value, unit, count }
            })
            .collect();
        entries.push(case(&dir, &mut rng, &format!("datetime-{round}"), &s, items));
        let s = shape(&mut rng);
        let items: Vec<TimeDelta64> = (0..n(&s))
            .map(|i| TimeDelta64 {
                value: if i % 5 == 1 { TimeDelta64::NAT } else { -(i as i64) },
                unit,
                count,
            })
            .collect();
        entries.push(case(&dir, &mut rng, &format!("timedelta-{round}"), &s, items));
    }
    let text = python_checks("check_written.py", &dir, &entries);
    println!("{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn typed_writing_refuses_what_does_not_fit() {
    use b2schema::ErrorKind;
    let e = Array::from_slice(&[2, 3], &[1i32; 5]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Invalid(_)), "{e}");
    let e = Array::from_bytes(&[2], "<f8", vec![0; 15]).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Invalid(_)), "{e}");
    assert!(Array::from_bytes(&[2], "not a dtype", vec![0; 16]).is_err());
    let mixed = [
        DateTime64 { value: 1, unit: DateTimeUnit::Second, count: 1 },
        DateTime64 { value: 2, unit: DateTimeUnit::Day, count: 1 },
    ];
    assert!(Array::from_slice(&[2], &mixed).is_err(), "times of two units in one array");
    let big = Array::from_slice(&[1 << 40, 0], &[0u8; 0]).unwrap().chunks(&[1 << 33, 1]);
    assert!(big.to_ndarray().is_err(), "a chunk dimension over i32::MAX");
    // Structured records from bytes, read back field by field.
    let rec: Vec<u8> = [(1.5f32, 7i32), (-2.0, 9)]
        .iter()
        .flat_map(|(a, b)| [a.to_le_bytes(), b.to_le_bytes()].concat())
        .collect();
    let a = Array::from_bytes(&[2], "[('t', '<f4'), ('n', '<i4')]", rec).unwrap();
    assert_eq!(a.dtype(), "[('t', '<f4'), ('n', '<i4')]");
}
