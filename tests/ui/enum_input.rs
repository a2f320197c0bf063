use b2schema::B2Layout;

#[derive(B2Layout)]
enum Codec {
    Blosclz,
    Lz4,
}

fn main() {}
