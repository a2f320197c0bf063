use b2schema::B2Layout;

#[derive(B2Layout)]
struct Header {
    #[b2(fixstr, magic = b"abc")]
    magic: [u8; 4],
}

fn main() {}
