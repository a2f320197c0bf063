use b2schema::B2Layout;

#[derive(B2Layout)]
struct Header {
    #[b2(magic = )]
    version: u8,
}

fn main() {}
