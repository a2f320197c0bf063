use b2schema::B2Layout;

#[derive(B2Layout)]
struct S {
    a: Option<Option<i32>>,
}

fn main() {}
