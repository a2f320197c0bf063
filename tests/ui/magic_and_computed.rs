use b2schema::B2Layout;

#[derive(B2Layout)]
struct Header {
    #[b2(fixint, magic = 0, computed = 1)]
    version: u8,
}

fn main() {}
