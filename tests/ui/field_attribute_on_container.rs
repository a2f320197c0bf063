use b2schema::B2Layout;

#[derive(B2Layout)]
#[b2(magic = 1)]
struct Header {
    frame_len: i64,
}

fn main() {}
