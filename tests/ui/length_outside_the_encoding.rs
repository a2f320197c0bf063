use b2schema::B2Layout;

#[derive(B2Layout)]
struct Named {
    #[b2(fixstr, len = 4)]
    code: String,
}

fn main() {}
