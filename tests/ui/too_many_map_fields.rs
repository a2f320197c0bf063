use b2schema::B2Layout;

#[derive(B2Layout)]
#[b2(map, minimal)]
struct Wide {
    a: i32, b: i32, c: i32, d: i32, e: i32, f: i32, g: i32, h: i32,
    i: i32, j: i32, k: i32, l: i32, m: i32, n: i32, o: i32, p: i32,
}

fn main() {}
