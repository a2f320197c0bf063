use b2schema::B2Layout;

#[derive(B2Layout)]
struct Header {
    #[b2(uint64, int32)]
    frame_len: i64,
}

fn main() {}
