//! `#[derive(B2Layout)]`: exact bytes, checks, layouts, diagrams, annotated dumps and patches, on
//! the built-in layouts and on user-style metalayers.

use b2schema::b2nd::B2nd;
use b2schema::frame::FrameHeader;
use b2schema::layout;
use b2schema::{B2Layout, Config, from_slice, to_vec};
use b2schema_tests::{read_compat, snapshot};

/// A user-style fixed-width metalayer: physical units and a linear scale.
#[derive(B2Layout, Debug, Clone, PartialEq)]
struct Units<'a> {
    /// Layout version of this record.
    #[b2(fixint, magic = 1)]
    version: u8,
    /// Unit symbol, padded to 4 bytes.
    #[b2(fixstr(len = 4), offset = 3)]
    unit: &'a str,
    /// Multiply stored values by this.
    #[b2(offset = 8)]
    scale: f64,
    /// Then add this.
    offset: f64,
    /// Decimal exponent of the unit.
    #[b2(int16)]
    exponent: i8,
    /// Sample count, written as an int64 whatever its Rust type.
    #[b2(int64, offset = 29)]
    samples: u32,
}

fn units() -> Units<'static> {
    Units { version: 1, unit: "m/s ", scale: 0.5, offset: -1.25, exponent: -3, samples: 1000 }
}

/// python-blosc2's ObjectArray metalayer: `{"version": 1, "serializer": "msgpack"}`.
#[derive(B2Layout, Debug, PartialEq)]
#[b2(minimal, map)]
struct VlArray<'a> {
    version: u8,
    serializer: &'a str,
}

fn real_b2nd() -> Vec<u8> {
    read_compat("c-blosc2/plugins/test_data/example_day_month_temp.b2nd")[0x70..0x70 + 53].to_vec()
}

#[test]
fn b2nd_derive_reads_and_writes_real_bytes() {
    let bytes = real_b2nd();
    let meta: B2nd = from_slice(&bytes).unwrap();
    assert_eq!(meta.ndim, 2);
    assert_eq!(meta.shape, [400, 3]);
    assert_eq!(meta.chunkshape, [110, 3]);
    assert_eq!(meta.blockshape, [57, 3]);
    assert_eq!(meta.dtype, "|u1");
    assert_eq!(to_vec(&meta).unwrap(), bytes);
    // 12 + 19 * ndim + len(dtype)
    let sixteen = B2nd {
        version: 0,
        ndim: 16,
        shape: vec![1; 16],
        chunkshape: vec![1; 16],
        blockshape: vec![1; 16],
        dtype_format: 0,
        dtype: "<f8",
    };
    let b = to_vec(&sixteen).unwrap();
    assert_eq!(b.len(), 12 + 19 * 16 + 3);
    assert_eq!(b[3], 0xa0);
    assert_eq!(from_slice::<B2nd>(&b).unwrap(), sixteen);
}

#[test]
fn computed_fields_are_written_and_verified() {
    let real = real_b2nd();
    let mut meta: B2nd = from_slice(&real).unwrap();
    // The encoder derives ndim from the shape, whatever the field holds.
    meta.ndim = 9;
    let bytes = to_vec(&meta).unwrap();
    assert_eq!(bytes[2], 2);
    // The decoder verifies it.
    let mut bad = bytes.clone();
    bad[2] = 3;
    let e = from_slice::<B2nd>(&bad).unwrap_err();
    assert_eq!(e.to_string(), "field `ndim` holds 3 but `self.shape.len()` gives 2 at offset 0");
    // A shape too long for a u8 count is an encoding error.
    let mut huge = meta.clone();
    huge.shape = vec![1; 300];
    assert!(to_vec(&huge).is_err());
}

#[test]
fn constants_are_written_and_checked_at_their_offset() {
    let mut u = units();
    u.version = 7;
    let bytes = to_vec(&u).unwrap();
    assert_eq!(bytes[1], 1, "the encoder writes the constant");
    let mut bad = bytes.clone();
    bad[1] = 2;
    let e = from_slice::<Units>(&bad).unwrap_err();
    assert_eq!(e.to_string(), "field `version`: expected constant 1, found 2 at offset 1 (version)");

    let file = read_compat("c-blosc2/plugins/test_data/example_day_month_temp.b2nd");
    let mut header = file[..165].to_vec();
    header[6] = b'X';
    let e = from_slice::<FrameHeader>(&header).unwrap_err();
    assert_eq!(
        e.to_string(),
        "field `magic`: expected constant b\"b2frame\\x00\", found b\"b2frXme\\x00\" at offset 1 (magic)"
    );
}

#[test]
fn fixed_lengths_are_checked_both_ways() {
    let mut u = units();
    u.unit = "km/h";
    assert!(to_vec(&u).is_ok());
    u.unit = "m";
    let e = to_vec(&u).unwrap_err();
    assert_eq!(e.to_string(), "field `unit` must hold exactly 4 bytes, it holds 1 at offset 2 (unit)");
}

#[test]
fn user_metalayer_round_trips_with_a_fixed_layout() {
    let u = units();
    let bytes = to_vec(&u).unwrap();
    assert_eq!(Some(bytes.len()), Units::LAYOUT.fixed_len);
    assert_eq!(Units::LAYOUT.fixed_len, Some(37));
    assert_eq!(from_slice::<Units>(&bytes).unwrap(), u);
    let mut s = layout::diagram(Units::LAYOUT);
    s.push('\n');
    s.push_str(&layout::annotate(Units::LAYOUT, &bytes));
    snapshot!("units_layout", s);
}

#[test]
fn python_style_minimal_map_layer_round_trips() {
    let v = VlArray { version: 1, serializer: "msgpack" };
    let bytes = to_vec(&v).unwrap();
    assert_eq!(bytes, b"\x82\xa7version\x01\xaaserializer\xa7msgpack");
    assert_eq!(from_slice::<VlArray>(&bytes).unwrap(), v);
    // Keys in another order, as another writer might put them, read the same.
    let swapped = b"\x82\xaaserializer\xa7msgpack\xa7version\x01";
    assert_eq!(from_slice::<VlArray>(swapped).unwrap(), v);
}

#[test]
fn derived_structs_are_natural_json() {
    let real = real_b2nd();
    let meta: B2nd = from_slice(&real).unwrap();
    assert_eq!(
        serde_json::to_string(&meta).unwrap(),
        r#"{"version":0,"ndim":2,"shape":[400,3],"chunkshape":[110,3],"blockshape":[57,3],"dtype_format":0,"dtype":"|u1"}"#
    );
    let json = serde_json::to_string(&meta).unwrap();
    let back: B2nd = serde_json::from_str(&json).unwrap();
    assert_eq!(back, meta);
    let file = read_compat("c-blosc2/plugins/test_data/example_day_month_temp.b2nd");
    let (h, _) = b2schema::take_from_slice::<FrameHeader>(&file).unwrap();
    let json = serde_json::to_value(&h).unwrap();
    assert_eq!(json["flags"], serde_json::json!({"general": 18, "frame_type": 0, "codec": 80, "other": 3}));
    assert_eq!(json["frame_len"], 2633);
    assert_eq!(json["magic"], serde_json::json!([98, 50, 102, 114, 97, 109, 101, 0]));
}

#[test]
fn field_handles_patch_in_place() {
    let file = read_compat("c-blosc2/plugins/test_data/example_day_month_temp.b2nd");
    let mut buf = file.clone();
    FrameHeader::FRAME_LEN.patch(&mut buf, &4096).unwrap();
    assert_eq!(FrameHeader::FRAME_LEN.read(&buf).unwrap(), 4096);
    let changed: Vec<usize> = (0..buf.len()).filter(|&i| buf[i] != file[i]).collect();
    assert_eq!(changed, [22, 23]);
    // The marker is checked before anything is written.
    let mut wrong = file.clone();
    wrong[15] = 0xd3;
    let e = FrameHeader::FRAME_LEN.patch(&mut wrong, &1).unwrap_err();
    assert_eq!(e.to_string(), "expected uint64 marker cf at offset 15 (frame_len), found d3 (int64)");
    assert_eq!(wrong[16..24], file[16..24]);
    // A value that does not fit the encoding is refused.
    assert!(FrameHeader::TYPESIZE.patch(&mut buf, &-1).is_ok());
    assert!(FrameHeader::FRAME_LEN.patch(&mut buf, &-1).is_err());
    // Variable-width fields have no fixed place.
    let e = B2nd::SHAPE.read(&real_b2nd()).unwrap_err();
    assert!(e.to_string().contains("depends on the values before it"), "{e}");
}

#[test]
fn field_handles_patch_files() {
    let file = read_compat("c-blosc2/plugins/test_data/example_day_month_temp.b2nd");
    let dir = std::env::temp_dir().join(format!("b2schema-patch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("frame.b2nd");
    // The frame sits at offset 100 of a larger file.
    let mut data = vec![0xee; 100];
    data.extend_from_slice(&file);
    std::fs::write(&path, &data).unwrap();
    let mut f = std::fs::OpenOptions::new().read(true).write(true).open(&path).unwrap();
    FrameHeader::FRAME_LEN.patch_file(&mut f, 100, &(file.len() as i64 + 1)).unwrap();
    drop(f);
    let after = std::fs::read(&path).unwrap();
    assert_eq!(after.len(), data.len());
    let changed: Vec<usize> = (0..after.len()).filter(|&i| after[i] != data[i]).collect();
    assert_eq!(changed, [123]);
    // At the wrong base the marker check fails and nothing is written.
    let mut f = std::fs::OpenOptions::new().read(true).write(true).open(&path).unwrap();
    assert!(FrameHeader::FRAME_LEN.patch_file(&mut f, 0, &1).is_err());
    drop(f);
    assert_eq!(std::fs::read(&path).unwrap(), after);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn layouts_render_to_diagrams() {
    snapshot!("frame_header_diagram", layout::diagram(FrameHeader::LAYOUT));
    snapshot!("b2nd_diagram", layout::diagram(B2nd::LAYOUT));
}

#[test]
fn annotated_dumps_name_every_field() {
    let file = read_compat("c-blosc2/plugins/test_data/example_day_month_temp.b2nd");
    snapshot!("frame_header_annotated", layout::annotate(FrameHeader::LAYOUT, &file[..165]));
    snapshot!("b2nd_annotated", layout::annotate(B2nd::LAYOUT, &real_b2nd()));
    // Broken bytes stop the dump with a reason, never a panic.
    let text = layout::annotate(B2nd::LAYOUT, &real_b2nd()[..20]);
    assert!(text.lines().last().unwrap().contains("!!"), "{text}");
    for end in 0..165 {
        let _ = layout::annotate(FrameHeader::LAYOUT, &file[..end]);
    }
}

#[test]
fn minimal_mode_of_the_caller_does_not_change_fixed_layouts() {
    // A derived layout carries its own widths: the caller's configuration does not leak in.
    let real = real_b2nd();
    let meta: B2nd = from_slice(&real).unwrap();
    assert_eq!(b2schema::to_vec_with(&meta, Config::minimal().struct_map()).unwrap(), real_b2nd());
}
