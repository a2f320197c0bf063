use b2schema::B2Layout;

#[derive(B2Layout)]
struct Header {
    #[b2(fixstr(len = 40))]
    name: String,
}

fn main() {}
