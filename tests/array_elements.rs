//! `read_elements`: the items of a read in memory chosen for their size (`array::Elements`),
//! equal to `read_as`'s on every number type, byte order, selection and size around the
//! threshold; from `HUGE_PAGES_FROM` bytes on (Linux) in a map the kernel is asked to back with
//! huge pages (its `VmFlags` in `/proc/self/smaps` say `hg`); within the reader's budget.

use b2schema::array::{DateTime64, Element, Elements, HUGE_PAGES_FROM};
use b2schema::chunk::Codec;
use b2schema::writer::{Array, CParams};
use b2schema::{Container, ErrorKind, Limits};

fn dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("b2schema-elements-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A fast codec, so that arrays of a few MiB are quick to write in a debug build.
fn fast() -> CParams {
    CParams { codec: Codec::Lz4, clevel: 1, ..CParams::default() }
}

fn write(name: &str, array: Array) -> std::path::PathBuf {
    let path = dir().join(name);
    array.cparams(fast()).write_file(&path).unwrap();
    path
}

/// The map holding `addr`, by `/proc/self/smaps`: whether its `VmFlags` include `hg`
/// (`MADV_HUGEPAGE`); `None` when no map holds it.
#[cfg(target_os = "linux")]
fn advised_for_huge_pages(addr: usize) -> Option<bool> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
    let mut inside = false;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some((a, b)) = first.split_once('-')
            && let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
        {
            inside = (a..b).contains(&addr);
        } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
            return Some(flags.split_whitespace().any(|f| f == "hg"));
        }
    }
    None
}

/// `read_elements::<T>` of each selection equals `read_as::<T>`, mapped exactly when the result
/// is large and its memory the items' little-endian bytes; mutable, and `into_vec` the same.
fn check<T: Element + PartialEq + Copy + std::fmt::Debug>(a: &Container, sels: &[&str], le: bool) {
    for sel in sels {
        let want: Vec<T> = a.read_as(*sel).unwrap();
        let mut got: Elements<T> = a.read_elements(*sel).unwrap();
        assert_eq!(got, want, "{sel}");
        assert_eq!(want, got, "{sel}");
        let big = std::mem::size_of_val(&want[..]) >= HUGE_PAGES_FROM;
        assert_eq!(got.is_mapped(), cfg!(target_os = "linux") && big && le, "{sel}: {} items", want.len());
        #[cfg(target_os = "linux")]
        if got.is_mapped() {
            // A kernel built without transparent huge pages refuses the advice (and has no such
            // folder): the map is then a plain one.
            let thp = std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists();
            let advised = advised_for_huge_pages(got.as_ptr() as usize);
            assert_eq!(advised, Some(thp), "{sel}: the result's map is advised for huge pages");
        }
        if let Some(first) = got.first().copied() {
            let last = got.len() - 1;
            got[last] = first;
            assert_eq!(got[last], first);
        }
        assert_eq!(got.into_vec().len(), want.len());
    }
}

/// Selections around the threshold of an array of `rows` rows of `cols` items.
const SELS: [&str; 6] = ["", "1:", ":-1", "0", "3:3", ":, ::2"];

#[test]
fn elements_equal_typed_reads_around_the_huge_page_threshold() {
    // Rows of 4 KiB: 1024 rows make 4 MiB exactly, one less or more are either side of it.
    for rows in [1023u64, 1024, 1100] {
        let n = rows as usize * 512;
        let f64s: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
        let path = write(&format!("f64-{rows}.b2nd"), Array::from_slice(&[rows, 512], &f64s).unwrap());
        check::<f64>(&b2schema::open(&path).unwrap(), &SELS, true);

        let i16s: Vec<i16> = (0..n * 4).map(|i| (i % 65_521) as i16).collect();
        let path = write(&format!("i16-{rows}.b2nd"), Array::from_slice(&[rows, 2048], &i16s).unwrap());
        check::<i16>(&b2schema::open(&path).unwrap(), &SELS, true);

        // Big-endian int32: converted from the bytes read, so never mapped.
        let bytes: Vec<u8> = (0..n * 2).flat_map(|i| (i as i32).wrapping_mul(7919).to_be_bytes()).collect();
        let path =
            write(&format!("be-i4-{rows}.b2nd"), Array::from_bytes(&[rows, 1024], ">i4", bytes).unwrap());
        check::<i32>(&b2schema::open(&path).unwrap(), &SELS, false);
    }
    // Bytes and the other number widths, once above the threshold.
    let u8s: Vec<u8> = (0..5u32 << 20).map(|i| (i * 31 % 251) as u8).collect();
    let path = write("u8.b2nd", Array::from_slice(&[5 << 10, 1024], &u8s).unwrap());
    check::<u8>(&b2schema::open(&path).unwrap(), &SELS, true);
    let u64s: Vec<u64> = (0..1u64 << 19).map(|i| i * 0x9e37_79b9).collect();
    let path = write("u64.b2nd", Array::from_slice(&[1 << 19], &u64s).unwrap());
    check::<u64>(&b2schema::open(&path).unwrap(), &["", "5:", "::3"], true);
    let f32s: Vec<f32> = (0..(1 << 20) + 7).map(|i| i as f32).collect();
    let path = write("f32.b2nd", Array::from_slice(&[(1 << 20) + 7], &f32s).unwrap());
    check::<f32>(&b2schema::open(&path).unwrap(), &["", "7:", "-3:"], true);
}

#[test]
fn elements_of_other_types_are_converted_into_a_vec() {
    let bools: Vec<bool> = (0..(5 << 20)).map(|i| i % 3 == 0).collect();
    let path = write("bool.b2nd", Array::from_slice(&[5 << 20], &bools).unwrap());
    check::<bool>(&b2schema::open(&path).unwrap(), &["", "1:"], false);
    let times: Vec<u8> = (0..(1i64 << 20)).flat_map(|i| (i * 86_400).to_le_bytes()).collect();
    let path = write("m8.b2nd", Array::from_bytes(&[1 << 20], "<M8[s]", times).unwrap());
    let a = b2schema::open(&path).unwrap();
    let got: Elements<DateTime64> = a.read_elements("").unwrap();
    assert!(!got.is_mapped());
    assert_eq!(got.len(), 1 << 20);
    assert_eq!(got.into_vec(), a.read_as::<DateTime64>("").unwrap());
}

#[test]
fn elements_are_read_within_the_budget_and_errors_name_the_file() {
    let f64s: Vec<f64> = (0..(1 << 20)).map(f64::from).collect();
    let path = write("budget.b2nd", Array::from_slice(&[1 << 20], &f64s).unwrap());
    let a = b2schema::open_with_limits(&path, Limits::default().with_max_output(1 << 20)).unwrap();
    let err = a.read_elements::<f64>("").unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::BudgetExceeded { .. }), "{err}");
    assert!(err.to_string().contains("budget.b2nd"), "{err}");
    // A selection within the budget reads.
    assert_eq!(a.read_elements::<f64>("10:13").unwrap(), [10.0, 11.0, 12.0]);
    // A type the dtype does not read as: the same error as read_as's.
    let e = a.read_elements::<i64>("").unwrap_err();
    assert_eq!(e.to_string(), a.read_as::<i64>("").unwrap_err().to_string());
}
