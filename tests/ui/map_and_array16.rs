use b2schema::B2Layout;

#[derive(B2Layout)]
#[b2(map, array16)]
struct Header {
    frame_len: i64,
}

fn main() {}
