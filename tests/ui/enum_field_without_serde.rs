use b2schema::B2Layout;

enum Codec {
    Blosclz,
    Lz4,
}

#[derive(B2Layout)]
struct Header {
    version: u8,
    codec: Codec,
}

fn main() {}
