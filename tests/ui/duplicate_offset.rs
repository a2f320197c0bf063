use b2schema::B2Layout;

#[derive(B2Layout)]
struct Header {
    #[b2(offset = 1, offset = 2)]
    typesize: i32,
}

fn main() {}
