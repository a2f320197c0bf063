use b2schema::B2Layout;

#[derive(B2Layout)]
struct Meta {
    #[b2(counted)]
    shape: Vec<i64>,
    #[b2(int32, offset = 2)]
    typesize: i32,
}

fn main() {}
