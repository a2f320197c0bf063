use b2schema::B2Layout;

#[derive(B2Layout)]
struct Header {
    #[b2(fixint)]
    version: u8,
    #[b2(int32, offset = 1)]
    header_len: i32,
}

fn main() {}
