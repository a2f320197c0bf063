use b2schema::B2Layout;

#[derive(B2Layout)]
struct Header {
    #[b2(minimal)]
    frame_len: i64,
}

fn main() {}
