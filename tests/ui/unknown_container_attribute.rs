use b2schema::B2Layout;

#[derive(B2Layout)]
#[b2(fixmap)]
struct Header {
    version: u8,
}

fn main() {}
