//! The contract of `#[derive(B2Layout)]` (`b2schema::attributes`) on the built-in layouts: the
//! frame header, `b2nd`, `caterva` and the trailer, checked by the same clause checks as the
//! generated matrix (`tests/matrix/checks.rs`) on proptest values, boundary values included
//! (0 and 16 dimensions, 15 and 16 elements under `counted`, empty and 31-byte names):
//!
//! 1. the serde path and the direct codec write the same bytes and read them back to the value;
//! 2. a `fixed_len` of `Some(n)` is the length of every encoding;
//! 3. a field's `marker_offset`, `value_offset` and `width` are where its bytes are: its handle
//!    reads exactly the field's value there, and patching changes that field alone (in memory
//!    and in a file);
//! 4. handles on `magic` and `computed` fields refuse to patch and change nothing;
//! 5. offsets are `None` from the first field whose width depends on the value;
//! 6. `layout::annotate` follows a valid encoding to its end (no `!!` line).
//!
//! `B2_MATRIX_CASES` sets the proptest cases per layout (64 by default).

use std::fmt::Debug;

use b2schema::B2Layout;
use b2schema::b2nd::{B2nd, Caterva};
use b2schema::frame::{FilterPipeline, Fingerprint, FrameFlags, FrameHeader, MetaLayers, Trailer};
use b2schema::layout::{Layout, Role};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

include!("matrix/checks.rs");

#[path = "strategies/frame.rs"]
mod frame_strategies;
use frame_strategies::{borrowed, flags, pipeline};

/// A dimension count: the boundaries (0, 1, 15, 16) and anything up to 16.
fn ndim() -> impl Strategy<Value = usize> {
    prop_oneof![Just(0usize), Just(1), Just(15), Just(16), 0usize..=16]
}

fn i64s(n: usize) -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(prop_oneof![Just(0i64), Just(i64::MIN), Just(i64::MAX), any::<i64>()], n)
}

fn i32s(n: usize) -> impl Strategy<Value = Vec<i32>> {
    prop::collection::vec(prop_oneof![Just(0i32), Just(i32::MIN), Just(i32::MAX), any::<i32>()], n)
}

/// Small fixints at their boundaries.
fn fixint() -> impl Strategy<Value = u8> {
    prop_oneof![Just(0u8), Just(127), 0u8..=127]
}

/// (version, shape, chunkshape, blockshape, dtype_format, dtype)
type ArrayMeta = (u8, Vec<i64>, Vec<i32>, Vec<i32>, u8, String);

fn array_meta() -> impl Strategy<Value = ArrayMeta> {
    (ndim(), ndim(), ndim()).prop_flat_map(|(a, b, c)| {
        (fixint(), i64s(a), i32s(b), i32s(c), fixint(), prop_oneof![Just(String::new()), "\\PC{0,40}"])
    })
}

fn b2nd(o: &ArrayMeta) -> B2nd<'_> {
    B2nd {
        version: o.0,
        ndim: o.1.len() as u8,
        shape: o.1.clone(),
        chunkshape: o.2.clone(),
        blockshape: o.3.clone(),
        dtype_format: o.4,
        dtype: &o.5,
    }
}

fn caterva(o: &ArrayMeta) -> Caterva {
    Caterva {
        version: o.0,
        ndim: o.1.len() as u8,
        shape: o.1.clone(),
        chunkshape: o.2.clone(),
        blockshape: o.3.clone(),
    }
}

#[test]
fn b2nd_keeps_the_contract() {
    run(array_meta, |o, o2| {
        let v = b2nd(o);
        let v2 = b2nd(o2);
        let bytes = check_whole!(v, B2nd);
        check_layout(B2nd::LAYOUT, &bytes)?;
        check_field!(B2nd::VERSION, v, version, v2.version, "data", |v| v, 0, bytes, B2nd);
        check_field!(B2nd::NDIM, v, ndim, v2.ndim, "computed", |v| v, 0, bytes, B2nd);
        check_field!(B2nd::SHAPE, v, shape, v2.shape.clone(), "data", |v| v, 0, bytes, B2nd);
        check_field!(B2nd::CHUNKSHAPE, v, chunkshape, v2.chunkshape.clone(), "data", |v| v, 0, bytes, B2nd);
        check_field!(B2nd::BLOCKSHAPE, v, blockshape, v2.blockshape.clone(), "data", |v| v, 0, bytes, B2nd);
        check_field!(B2nd::DTYPE_FORMAT, v, dtype_format, v2.dtype_format, "data", |v| v, 0, bytes, B2nd);
        check_field!(B2nd::DTYPE, v, dtype, v2.dtype, "data", |v| v, 0, bytes, B2nd);
        Ok(())
    });
}

#[test]
fn caterva_keeps_the_contract() {
    run(array_meta, |o, o2| {
        let v = caterva(o);
        let v2 = caterva(o2);
        let bytes = check_whole!(v, Caterva);
        check_layout(Caterva::LAYOUT, &bytes)?;
        check_field!(Caterva::VERSION, v, version, v2.version, "data", |v| v, 0, bytes, Caterva);
        check_field!(Caterva::NDIM, v, ndim, v2.ndim, "computed", |v| v, 0, bytes, Caterva);
        check_field!(Caterva::SHAPE, v, shape, v2.shape.clone(), "data", |v| v, 0, bytes, Caterva);
        check_field!(
            Caterva::CHUNKSHAPE,
            v,
            chunkshape,
            v2.chunkshape.clone(),
            "data",
            |v| v,
            0,
            bytes,
            Caterva
        );
        check_field!(
            Caterva::BLOCKSHAPE,
            v,
            blockshape,
            v2.blockshape.clone(),
            "data",
            |v| v,
            0,
            bytes,
            Caterva
        );
        Ok(())
    });
}

/// Unique metalayer names (fixstr: at most 31 bytes: empty and 31-byte ones included).
fn layers(max: usize) -> impl Strategy<Value = Vec<(String, Vec<u8>)>> {
    let name = prop_oneof![Just(String::new()), Just("n".repeat(31)), "[a-z0-9_]{0,31}", "\\PC{1,7}"];
    prop::collection::btree_map(name, prop::collection::vec(any::<u8>(), 0..48), 0..=max)
        .prop_map(|m| m.into_iter().filter(|(n, _)| n.len() <= 31).collect::<Vec<_>>())
}

/// (frame_len, flags, nbytes, cbytes, [typesize, blocksize, chunksize], threads, has_vl, pipeline, layers)
type HeaderValues =
    (i64, FrameFlags, i64, i64, [i32; 3], [i16; 2], bool, FilterPipeline, Vec<(String, Vec<u8>)>);

fn header_values() -> impl Strategy<Value = HeaderValues> {
    (
        prop_oneof![Just(0i64), Just(i64::MAX), 0..=i64::MAX],
        flags(),
        any::<i64>(),
        any::<i64>(),
        any::<[i32; 3]>(),
        any::<[i16; 2]>(),
        any::<bool>(),
        pipeline(),
        layers(6),
    )
}

fn header<'a>(o: &'a HeaderValues, layers: &'a [(&'a str, &'a [u8])]) -> FrameHeader<'a> {
    let metalayers = MetaLayers::build(layers, 87);
    FrameHeader {
        magic: *b"b2frame\0",
        header_len: (87 + metalayers.encoded_len()) as i32,
        frame_len: o.0,
        flags: o.1,
        nbytes: o.2,
        cbytes: o.3,
        typesize: o.4[0],
        blocksize: o.4[1],
        chunksize: o.4[2],
        nthreads_comp: o.5[0],
        nthreads_decomp: o.5[1],
        has_vlmetalayers: o.6,
        filter_pipeline: o.7,
        metalayers,
    }
}

#[test]
fn frame_header_keeps_the_contract() {
    run(header_values, |o, o2| {
        let (l, l2) = (borrowed(&o.8), borrowed(&o2.8));
        let v = header(o, &l);
        let v2 = header(o2, &l2);
        let bytes = check_whole!(v, FrameHeader);
        check_layout(FrameHeader::LAYOUT, &bytes)?;
        type H<'a> = FrameHeader<'a>;
        check_field!(H::MAGIC, v, magic, *b"b2frame\x01", "magic", |v| v, 0, bytes, H);
        check_field!(H::HEADER_LEN, v, header_len, v2.header_len, "computed", |v| v, 0, bytes, H);
        check_field!(H::FRAME_LEN, v, frame_len, v2.frame_len, "data", |v| v, 0, bytes, H);
        check_field!(H::FLAGS, v, flags, v2.flags, "data", |v| v, 0, bytes, H);
        check_field!(H::NBYTES, v, nbytes, v2.nbytes, "data", |v| v, 0, bytes, H);
        check_field!(H::CBYTES, v, cbytes, v2.cbytes, "data", |v| v, 0, bytes, H);
        check_field!(H::TYPESIZE, v, typesize, v2.typesize, "data", |v| v, 0, bytes, H);
        check_field!(H::BLOCKSIZE, v, blocksize, v2.blocksize, "data", |v| v, 0, bytes, H);
        check_field!(H::CHUNKSIZE, v, chunksize, v2.chunksize, "data", |v| v, 0, bytes, H);
        check_field!(H::NTHREADS_COMP, v, nthreads_comp, v2.nthreads_comp, "data", |v| v, 0, bytes, H);
        check_field!(H::NTHREADS_DECOMP, v, nthreads_decomp, v2.nthreads_decomp, "data", |v| v, 0, bytes, H);
        check_field!(
            H::HAS_VLMETALAYERS,
            v,
            has_vlmetalayers,
            v2.has_vlmetalayers,
            "data",
            |v| v,
            0,
            bytes,
            H
        );
        check_field!(H::FILTER_PIPELINE, v, filter_pipeline, v2.filter_pipeline, "data", |v| v, 0, bytes, H);
        check_field!(H::METALAYERS, v, metalayers, v2.metalayers.clone(), "data", |v| v, 0, bytes, H);
        Ok(())
    });
}

/// (fingerprint kind, fingerprint, vlmetalayers)
type TrailerValues = (u8, [u8; 16], Vec<(String, Vec<u8>)>);

fn trailer_values() -> impl Strategy<Value = TrailerValues> {
    (any::<u8>(), any::<[u8; 16]>(), layers(6))
}

fn trailer<'a>(o: &TrailerValues, layers: &'a [(&'a str, &'a [u8])]) -> Trailer<'a> {
    let vlmetalayers = MetaLayers::build(layers, 2);
    let trailer_len = (vlmetalayers.encoded_len() + b2schema::frame::TRAILER_FIXED_LEN) as u32;
    Trailer { version: 1, vlmetalayers, trailer_len, fingerprint: Fingerprint { kind: o.0, value: o.1 } }
}

#[test]
fn trailer_keeps_the_contract() {
    run(trailer_values, |o, o2| {
        let (l, l2) = (borrowed(&o.2), borrowed(&o2.2));
        let v = trailer(o, &l);
        let v2 = trailer(o2, &l2);
        let bytes = check_whole!(v, Trailer);
        check_layout(Trailer::LAYOUT, &bytes)?;
        check_field!(Trailer::VERSION, v, version, 0u8, "data", |v| v, 0, bytes, Trailer);
        check_field!(
            Trailer::VLMETALAYERS,
            v,
            vlmetalayers,
            v2.vlmetalayers.clone(),
            "data",
            |v| v,
            0,
            bytes,
            Trailer
        );
        check_field!(
            Trailer::TRAILER_LEN,
            v,
            trailer_len,
            v2.trailer_len,
            "computed",
            |v| v,
            0,
            bytes,
            Trailer
        );
        check_field!(Trailer::FINGERPRINT, v, fingerprint, v2.fingerprint, "data", |v| v, 0, bytes, Trailer);
        Ok(())
    });
}
