//! Snapshots of what the derive generates, pretty-printed (no cargo-expand, no nightly): a
//! change in the generated code shows as a readable diff in `snapshots/`.

use syn::parse_quote;

fn expand(input: syn::DeriveInput) -> String {
    let tokens = crate::expand(&input).unwrap_or_else(syn::Error::into_compile_error);
    let file: syn::File = syn::parse2(tokens).expect("the expansion parses as Rust");
    prettyplease::unparse(&file)
}

fn snapshot(name: &str, text: String) {
    insta::with_settings!({
        snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/../snapshots"),
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn expansion_of_a_fixed_layout() {
    snapshot(
        "expand_fixed",
        expand(parse_quote! {
            struct Meta<'a> {
                #[b2(fixint, magic = 0)]
                version: u8,
                #[b2(fixint, computed = self.shape.len())]
                ndim: u8,
                #[b2(counted)]
                shape: Vec<i64>,
                #[b2(fixstr(len = 3), offset = 3)]
                code: &'a str,
            }
        }),
    );
}

#[test]
fn expansion_of_a_minimal_map_and_a_packed_struct() {
    snapshot(
        "expand_minimal_map",
        expand(parse_quote! {
            #[b2(crate = "::b2", minimal, map)]
            struct Layer<'a> {
                version: u8,
                serializer: &'a str,
            }
        }),
    );
    snapshot(
        "expand_packed",
        expand(parse_quote! {
            #[b2(packed)]
            struct Flags {
                general: u8,
                frame_type: u8,
            }
        }),
    );
}

#[test]
fn errors_are_collected_not_stopped_at_the_first() {
    let input: syn::DeriveInput = parse_quote! {
        #[b2(map, array16, bogus)]
        struct Bad {
            #[b2(uint8, int8, minimal)]
            a: u8,
        }
    };
    let err = crate::expand(&input).expect_err("an error");
    let messages: Vec<String> = err.into_iter().map(|e| e.to_string()).collect();
    assert_eq!(messages.len(), 4, "{messages:#?}");
}

#[test]
fn the_private_path_is_named_once_per_expansion() {
    for input in [
        parse_quote! {
            struct Meta<'a> {
                #[b2(fixint, magic = 0)]
                version: u8,
                #[b2(fixint, computed = self.shape.len())]
                ndim: u8,
                #[b2(counted)]
                shape: Vec<i64>,
                #[b2(fixstr(len = 3), magic = b"abc")]
                code: &'a str,
            }
        },
        parse_quote! {
            #[b2(crate = "::b2", packed)]
            struct Flags { a: u8, b: [u8; 2] }
        },
    ] {
        let text = expand(input);
        assert_eq!(text.matches("__private").count(), 1, "{text}");
        assert!(text.contains("__private as _b2schema;"), "{text}");
    }
}

#[test]
fn messages_list_every_encoding_of_the_table() {
    let field: syn::DeriveInput = parse_quote! {
        struct Bad {
            #[b2(bogus, fixint(width = 2))]
            a: u8,
        }
    };
    let messages: Vec<String> =
        crate::expand(&field).unwrap_err().into_iter().map(|e| e.to_string()).collect();
    let [unknown, arg] = &messages[..] else { panic!("{messages:#?}") };
    // The list in the message is the table's, in its order, each with its argument form.
    let listed =
        unknown.split_once("an encoding (").and_then(|(_, rest)| rest.split_once("), `")).expect(unknown).0;
    let mut expected = Vec::new();
    for e in crate::attr::ENCODINGS {
        expected.push(e.key.to_string());
        if let Some(a) = e.arg {
            let form = format!("{}({a})", e.key);
            assert!(arg.contains(&form), "{form} in {arg}");
            expected.push(form);
        }
    }
    assert_eq!(listed.split(", ").collect::<Vec<_>>(), expected, "{unknown}");
    let container: syn::DeriveInput = parse_quote! {
        #[b2(bogus)]
        struct Bad { a: u8 }
    };
    let message = crate::expand(&container).unwrap_err().to_string();
    assert!(
        message.ends_with("expected one of `crate = \"...\"`, `minimal`, `map`, `array16`, `packed`"),
        "{message}"
    );
}

/// The expansion of a struct of `n` `i32` fields under `array16`, in pretty-printed lines.
fn lines_for(n: usize) -> usize {
    let fields = (0..n).map(|i| {
        let id = quote::format_ident!("f{i}");
        quote::quote!(#id: i32)
    });
    let input: syn::DeriveInput = syn::parse2(quote::quote! {
        #[b2(array16)]
        struct Wide { #(#fields),* }
    })
    .unwrap();
    expand(input).lines().count()
}

/// The expansion grows linearly with the fields (each field's offset is a running sum, not
/// written out from all the fields before it): 4x the fields give at most 4.4x the lines.
#[test]
fn the_expansion_grows_linearly_with_the_fields() {
    let [l16, l64, l128] = [16, 64, 128].map(lines_for);
    eprintln!("expansion lines: 16 fields {l16}, 64 fields {l64}, 128 fields {l128}");
    assert!(l64 * 10 <= l16 * 44, "16 fields {l16} lines, 64 fields {l64}");
    assert!(l128 * 10 <= l64 * 22, "64 fields {l64} lines, 128 fields {l128}");
}
