use b2schema::B2Layout;

#[derive(B2Layout)]
#[b2(packed)]
struct Flags {
    #[b2(uint16)]
    general: u8,
}

fn main() {}
