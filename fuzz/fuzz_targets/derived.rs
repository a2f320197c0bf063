//! `from_slice` into derived structs: the built-in layouts (`B2nd`, the legacy layouts, the frame
//! header, the trailer, the metalayers sections) and two structs of borrowed fields, one with
//! serde's derive and the wrappers, one with `#[derive(B2Layout)]`; strict and lenient. Nothing may
//! panic, and every error's offset lies inside the input. The direct decoder (`decode_from_slice`)
//! must give exactly what the serde path gives: the same value or the same error (message,
//! offset, field path). Every value that decodes (a lenient read can give values the fixed widths
//! cannot hold) is encoded both ways too, which must give the same bytes or the same error.
#![no_main]

use std::collections::BTreeMap;

use b2schema::b2nd::{B2nd, B2ndDev6, Caterva};
use b2schema::frame::{FrameHeader, MetaLayers, Trailer};
use b2schema::wrap::{Bin32, Counted, Map16, Str32};
use b2schema::{B2Layout, Config, Decode, Encode};
use libfuzzer_sys::fuzz_target;
use serde::Deserialize;

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Borrowed<'a> {
    version: u8,
    #[serde(borrow)]
    name: Str32<&'a str>,
    #[serde(borrow)]
    bytes: Bin32<&'a [u8]>,
    shape: Counted<Vec<i64>>,
    flag: Option<bool>,
    #[serde(borrow)]
    map: Map16<BTreeMap<&'a str, u16>>,
    tail: (i8, u32, f64),
}

#[derive(B2Layout, Debug)]
#[allow(dead_code)]
struct Units<'a> {
    #[b2(fixint, magic = 1)]
    version: u8,
    #[b2(fixstr(len = 4), offset = 3)]
    unit: &'a str,
    scale: f64,
    #[b2(int64)]
    samples: u32,
    #[b2(counted)]
    dims: Vec<i32>,
    #[b2(bin32)]
    payload: &'a [u8],
}

fn check<'a, T: Deserialize<'a>>(data: &'a [u8]) {
    for config in [Config::fixed(), Config::fixed().strict(false), Config::minimal()] {
        if let Err(e) = b2schema::from_slice_with::<T>(data, config) {
            let text = e.to_string();
            if let Some(at) = e.offset() {
                assert!(at <= data.len(), "offset {at} past the input ({}): {text}", data.len());
            }
        }
        let _ = b2schema::take_from_slice_with::<T>(data, config);
    }
}

/// What a decode gave, comparable across the two paths.
fn outcome<T: std::fmt::Debug>(r: b2schema::format::Result<T>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        Err(e) => format!("{e} | {:?} | {}", e.offset(), e.path_string()),
    }
}

fn same<'a, T: Decode<'a> + Encode + std::fmt::Debug>(data: &'a [u8]) {
    check::<T>(data);
    for config in [Config::fixed(), Config::fixed().strict(false), Config::minimal(), Config::minimal().strict(true)] {
        let serde = b2schema::from_slice_with::<T>(data, config);
        let direct = b2schema::decode_from_slice_with::<T>(data, config);
        if let Ok(value) = &direct {
            for config in [Config::fixed(), Config::minimal()] {
                let serde = outcome(b2schema::to_vec_with(value, config));
                let direct = outcome(b2schema::encode_to_vec_with(value, config));
                assert_eq!(direct, serde, "direct and serde encoders differ under {config:?}");
            }
        }
        assert_eq!(outcome(direct), outcome(serde), "direct and serde paths differ under {config:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    same::<B2nd>(data);
    same::<Caterva>(data);
    same::<B2ndDev6>(data);
    same::<FrameHeader>(data);
    same::<Trailer>(data);
    same::<MetaLayers<7>>(data);
    same::<MetaLayers<6>>(data);
    check::<Borrowed>(data);
    same::<Units>(data);
});
