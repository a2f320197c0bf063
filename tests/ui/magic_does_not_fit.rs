use b2schema::B2Layout;

#[derive(B2Layout)]
struct Version {
    #[b2(magic = 200)]
    fixint: u8,
    #[b2(int8, magic = -129)]
    small: i32,
}

fn main() {}
