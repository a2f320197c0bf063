//! The generated code names everything by absolute path: it compiles without the prelude, and
//! with b2schema under another name (`b2`, through `#[b2(crate = "::b2")]`): this crate has no
//! dependency called `b2schema`.
#![no_implicit_prelude]
#![allow(dead_code)]

mod layouts {
    #[derive(::b2::B2Layout, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    #[b2(crate = "::b2")]
    pub struct Everything<'a> {
        #[b2(fixstr, magic = b"ab")]
        pub magic: [u8; 2],
        #[b2(fixint, computed = self.values.len())]
        pub count: u8,
        pub values: ::std::vec::Vec<i32>,
        #[b2(uint64)]
        pub len: i64,
        #[b2(str32)]
        pub name: &'a str,
        #[b2(fixstr(len = 2))]
        pub code: &'a str,
        #[b2(fixstr)]
        pub flags: Flags,
    }

    #[derive(::b2::B2Layout, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    #[b2(crate = "::b2", packed)]
    pub struct Flags {
        pub a: u8,
        pub b: u8,
    }

    #[derive(::b2::B2Layout, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    #[b2(crate = "::b2", minimal, map)]
    pub struct Renamed {
        pub version: u8,
    }

    #[derive(::b2::B2Layout, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    #[b2(crate = "::b2")]
    pub struct Generic<T> {
        #[b2(array16)]
        pub items: ::std::vec::Vec<T>,
    }
}

#[cfg(test)]
#[test]
fn derived_code_needs_no_prelude() {
    let v = layouts::Everything {
        magic: *b"ab",
        count: 2,
        values: ::std::vec![1, 2],
        len: 3,
        name: "x",
        code: "cd",
        flags: layouts::Flags { a: 1, b: 2 },
    };
    let bytes = ::b2::to_vec(&v).unwrap();
    let back: layouts::Everything = ::b2::from_slice(&bytes).unwrap();
    ::std::assert_eq!(back, v);

    let r = layouts::Renamed { version: 1 };
    let bytes = ::b2::to_vec(&r).unwrap();
    ::std::assert_eq!(bytes, b"\x81\xa7version\x01");

    let g = layouts::Generic { items: ::std::vec![1u16, 2] };
    let bytes = ::b2::to_vec(&g).unwrap();
    ::std::assert_eq!(&bytes[..4], &[0x91, 0xdc, 0, 2]);
    let back: layouts::Generic<u16> = ::b2::from_slice(&bytes).unwrap();
    ::std::assert_eq!(back, g);
}
