use b2schema::B2Layout;

// `None` is one byte (`c0`), `Some(_)` five: `a` moves with the value of `zero`.
#[derive(B2Layout)]
struct R {
    zero: Option<i32>,
    #[b2(offset = 7)]
    a: i32,
}

fn main() {}
