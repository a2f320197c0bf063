use b2schema::B2Layout;

#[derive(B2Layout)]
struct Shape(i64, i64);

fn main() {}
