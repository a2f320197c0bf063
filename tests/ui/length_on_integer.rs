use b2schema::B2Layout;

#[derive(B2Layout)]
struct Header {
    #[b2(uint8(len = 3))]
    version: u8,
}

fn main() {}
