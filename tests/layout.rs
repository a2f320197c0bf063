//! The derive on the built-in layouts: offsets against the facts document, diagrams, annotated
//! dumps and in-place patches of real files.

use b2schema::frame::FrameHeader;
use b2schema::layout::B2Layout;
use b2schema_tests::read_compat;

#[test]
fn frame_header_offsets_match_the_reference() {
    let l = FrameHeader::LAYOUT;
    let v = |name: &str| l.field(name).unwrap().value_offset;
    assert_eq!(v("magic"), Some(2));
    assert_eq!(v("header_len"), Some(11));
    assert_eq!(v("frame_len"), Some(16));
    assert_eq!(v("flags"), Some(25));
    assert_eq!(v("nbytes"), Some(30));
    assert_eq!(v("cbytes"), Some(39));
    assert_eq!(v("typesize"), Some(48));
    assert_eq!(v("blocksize"), Some(53));
    assert_eq!(v("chunksize"), Some(58));
    assert_eq!(v("nthreads_comp"), Some(63));
    assert_eq!(v("nthreads_decomp"), Some(66));
    assert_eq!(v("has_vlmetalayers"), Some(68));
    assert_eq!(v("filter_pipeline"), Some(70));
    assert_eq!(l.field("metalayers").unwrap().marker_offset, Some(87));
    assert_eq!(l.variable_from(), Some(87));
    assert_eq!(l.fixed_len, None);
}

#[test]
fn frame_header_of_a_real_file_round_trips() {
    let file = read_compat("c-blosc2/plugins/test_data/example_day_month_temp.b2nd");
    let (h, _rest) = b2schema::take_from_slice::<FrameHeader>(&file).unwrap();
    assert_eq!(h.header_len, 165);
    assert_eq!(h.frame_len, 2633);
    assert_eq!(h.flags.general, 0x12);
    assert_eq!(h.typesize, 4);
    assert_eq!(h.filter_pipeline.filters, [0, 0, 0, 0, 0, 1]);
    assert_eq!(h.metalayers.index.0, vec![("b2nd", 107)]);
    assert_eq!(h.metalayers.contents[0].0.len(), 53);
    assert_eq!(b2schema::to_vec(&h).unwrap(), file[..165]);
}
