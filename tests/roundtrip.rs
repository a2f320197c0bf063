//! Property tests: every supported type round-trips in both modes, every truncation of a valid
//! encoding is an error, and arbitrary bytes never panic the decoder.

use std::collections::BTreeMap;

use b2schema::wrap::{Array16, Bin32, Counted, FixStr, Int16, Map16, Uint8, Uint64};
use b2schema::{Config, from_slice_with, to_vec_with};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Kind {
    Unit,
    Newtype(i32),
    Tuple(u16, bool),
    Struct { a: i8 },
}

/// Every scalar and container the format supports, with lengths that fit the fixed encodings
/// (fixarray <= 15 elements, fixstr <= 31 bytes).
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct All {
    b: bool,
    u8_: u8,
    u16_: u16,
    u32_: u32,
    u64_: u64,
    i8_: i8,
    i16_: i16,
    i32_: i32,
    i64_: i64,
    f32_: f32,
    f64_: f64,
    text: String,
    bytes: ByteBuf,
    // A struct holds at most 15 fields in a fixarray: the rest nest.
    more: More,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct More {
    seq: Vec<i32>,
    map: BTreeMap<String, i64>,
    opt: Option<u32>,
    tuple: (u8, i64, String),
    kind: Kind,
    unit: (),
    wrapped: Wrapped,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Wrapped {
    uint8: Uint8<u8>,
    uint64: Uint64<i64>,
    int16: Int16<u8>,
    fixstr: FixStr<String>,
    flags: FixStr<[u8; 4]>,
    bin: Bin32<Vec<u8>>,
    counted: Counted<Vec<i64>>,
    array16: Array16<Vec<u16>>,
    map16: Map16<BTreeMap<u16, bool>>,
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        Just(Kind::Unit),
        any::<i32>().prop_map(Kind::Newtype),
        (any::<u16>(), any::<bool>()).prop_map(|(a, b)| Kind::Tuple(a, b)),
        any::<i8>().prop_map(|a| Kind::Struct { a }),
    ]
}

fn wrapped() -> impl Strategy<Value = Wrapped> {
    (
        any::<u8>(),
        0..=i64::MAX,
        any::<u8>(),
        "[a-z0-9]{0,31}",
        any::<[u8; 4]>(),
        prop::collection::vec(any::<u8>(), 0..40),
        prop::collection::vec(any::<i64>(), 0..=16),
        prop::collection::vec(any::<u16>(), 0..40),
        prop::collection::btree_map(any::<u16>(), any::<bool>(), 0..5),
    )
        .prop_map(|(u8_, u64_, i16_, s, flags, bin, counted, a16, m16)| Wrapped {
            uint8: Uint8(u8_),
            uint64: Uint64(u64_),
            int16: Int16(i16_),
            fixstr: FixStr(s),
            flags: FixStr(flags),
            bin: Bin32(bin),
            counted: Counted(counted),
            array16: Array16(a16),
            map16: Map16(m16),
        })
}

fn more() -> impl Strategy<Value = More> {
    (
        prop::collection::vec(any::<i32>(), 0..=15),
        prop::collection::btree_map("[a-z]{0,8}", any::<i64>(), 0..6),
        any::<Option<u32>>(),
        (0u8..=127, any::<i64>(), ".{0,10}"),
        kind(),
        wrapped(),
    )
        .prop_map(|(seq, map, opt, tuple, kind, wrapped)| More {
            seq,
            map,
            opt,
            tuple,
            kind,
            unit: (),
            wrapped,
        })
}

fn all() -> impl Strategy<Value = All> {
    (
        (any::<bool>(), 0u8..=127, any::<u16>(), any::<u32>(), any::<u64>()),
        (any::<i8>(), any::<i16>(), any::<i32>(), any::<i64>()),
        (
            any::<f32>().prop_filter("NaN != NaN", |f| !f.is_nan()),
            any::<f64>().prop_filter("NaN", |f| !f.is_nan()),
        ),
        ".{0,40}",
        prop::collection::vec(any::<u8>(), 0..64),
        more(),
    )
        .prop_map(
            |((b, u8_, u16_, u32_, u64_), (i8_, i16_, i32_, i64_), (f32_, f64_), text, bytes, more)| All {
                b,
                u8_,
                u16_,
                u32_,
                u64_,
                i8_,
                i16_,
                i32_,
                i64_,
                f32_,
                f64_,
                text,
                bytes: ByteBuf::from(bytes),
                more,
            },
        )
}

const CONFIGS: [Config; 4] =
    [Config::fixed(), Config::minimal(), Config::minimal().strict(true), Config::minimal().struct_map()];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_type_round_trips_in_every_mode(value in all()) {
        for cfg in CONFIGS {
            let bytes = to_vec_with(&value, cfg).unwrap();
            let back: All = from_slice_with(&bytes, cfg).unwrap();
            prop_assert_eq!(&back, &value);
            prop_assert_eq!(b2schema::encoded_len_with(&value, cfg).unwrap(), bytes.len());
        }
    }

    #[test]
    fn fixed_encodings_have_the_same_length_for_every_value(a in all(), b in all()) {
        // Same shape (lengths of containers and strings), different values: same length.
        let mut b = b;
        b.text = a.text.clone();
        b.bytes = a.bytes.clone();
        b.more = a.more.clone();
        prop_assert_eq!(
            to_vec_with(&a, Config::fixed()).unwrap().len(),
            to_vec_with(&b, Config::fixed()).unwrap().len()
        );
    }

    #[test]
    fn every_truncation_is_an_error(value in all()) {
        for cfg in CONFIGS {
            let bytes = to_vec_with(&value, cfg).unwrap();
            for end in 0..bytes.len() {
                let r = from_slice_with::<All>(&bytes[..end], cfg);
                prop_assert!(r.is_err(), "prefix of {} bytes decoded", end);
                let e = r.unwrap_err();
                prop_assert!(e.offset().is_some_and(|o| o <= end), "offset {:?} past {}", e.offset(), end);
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        for cfg in [Config::fixed(), Config::minimal(), Config::fixed().strict(false)] {
            let _ = from_slice_with::<All>(&bytes, cfg);
            let _ = from_slice_with::<serde_json::Value>(&bytes, cfg);
            let _ = from_slice_with::<Wrapped>(&bytes, cfg);
        }
        let _ = b2schema::dump::annotate(&bytes);
    }

    #[test]
    fn mutated_encodings_never_panic(value in all(), flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)) {
        let mut bytes = to_vec_with(&value, Config::fixed()).unwrap();
        for (i, b) in flips {
            let i = i.index(bytes.len());
            bytes[i] = b;
        }
        let _ = from_slice_with::<All>(&bytes, Config::fixed());
        let _ = from_slice_with::<All>(&bytes, Config::fixed().strict(false));
        let _ = b2schema::dump::annotate(&bytes);
    }
}
