use b2schema::B2Layout;

// A constant must have the field's type: it is written under the field's encoding.
#[derive(B2Layout)]
struct M {
    #[b2(magic = 1.5)]
    version: u8,
}

fn main() {}
