use b2schema::B2Layout;

#[derive(B2Layout)]
struct S<'a> {
    parts: Vec<&'a [u8]>,
}

fn main() {}
