use b2schema::B2Layout;

#[derive(B2Layout)]
union Bits {
    a: u32,
    b: f32,
}

fn main() {}
