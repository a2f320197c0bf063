use b2schema::B2Layout;

#[derive(B2Layout)]
#[b2(packed)]
struct Flags {
    a: u8,
    b: u8,
}

#[derive(B2Layout)]
struct WithFlags {
    #[b2(fixstr(len = 2))]
    flags: Flags,
}

fn main() {}
