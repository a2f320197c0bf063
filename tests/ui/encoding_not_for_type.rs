use b2schema::B2Layout;

#[derive(B2Layout)]
struct S {
    #[b2(float64)]
    a: i32,
    #[b2(str32)]
    b: i32,
    #[b2(fixstr(len = 4))]
    c: [u8; 3],
}

fn main() {}
