use b2schema::B2Layout;

#[derive(B2Layout)]
struct Header {
    #[b2(fixstr, magic = b"b2frame\0")]
    magic: u32,
}

fn main() {}
