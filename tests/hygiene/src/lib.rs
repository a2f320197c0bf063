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

/// Names a careless expansion would pick up in the user's module: the generated code reaches the
/// runtime through the one binding of `__private` it makes, so none of them is seen.
mod shadowing {
    #![allow(non_camel_case_types)]
    pub mod core {}
    pub mod serde_core {}
    pub mod b2schema {}
    pub mod b2 {}
    pub mod __private {}
    pub struct Result;
    pub struct Option;
    pub struct Encoding;
    pub struct String;
    pub struct PhantomData;

    #[derive(::b2::B2Layout, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    #[b2(crate = "::b2")]
    pub struct Shadowed {
        #[b2(fixstr, magic = b"ok")]
        pub tag: [u8; 2],
        #[b2(fixint, computed = self.items.len())]
        pub count: u8,
        #[b2(counted)]
        pub items: ::std::vec::Vec<u8>,
    }
}

#[cfg(test)]
#[test]
fn derived_code_ignores_shadowing_names() {
    let v = shadowing::Shadowed { tag: *b"ok", count: 2, items: ::std::vec![1, 2] };
    let bytes = ::b2::to_vec(&v).unwrap();
    ::std::assert_eq!(bytes, b"\x93\xa2ok\x02\x92\x01\x02");
    let back: shadowing::Shadowed = ::b2::decode_from_slice(&bytes).unwrap();
    ::std::assert_eq!(back, v);
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
