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
