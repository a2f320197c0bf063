use b2schema::B2Layout;

#[derive(B2Layout)]
struct Inner {
    a: i32,
}

#[derive(B2Layout)]
struct Probe<'a> {
    inner: &'a Inner,
}

fn main() {}
