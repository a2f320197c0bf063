use b2schema::B2Layout;

// `[u8; 2]` is written as a fixarray of positive fixints by default: 0xff does not fit.
#[derive(B2Layout)]
struct M {
    #[b2(magic = b"\x01\xff")]
    tag: [u8; 2],
}

fn main() {}
