use b2schema::B2Layout;

#[derive(B2Layout)]
#[b2(packed)]
struct Triggers {
    mask: u8,
    count: i32,
}

fn main() {}
