use b2schema::B2Layout;

#[derive(B2Layout)]
struct Pair<T> {
    #[b2(int32)]
    a: i32,
    #[b2(offset = 6)]
    b: T,
}

fn main() {}
