use b2schema::B2Layout;

#[derive(B2Layout)]
struct Nothing;

fn main() {}
