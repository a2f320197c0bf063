//! `#[derive(B2Layout)]` for b2schema: exact fixed-width msgpack encodings and a static layout
//! description for annotated structs. The attributes are documented in `b2schema::attributes`.
//!
//! The crate is laid out as serde_derive's: `ast` (the input model), `attr` (attribute parsing,
//! and the one table of encodings), `check` (checks across attributes), `dummy` (the frame of the
//! expansion, which binds `b2schema::__private` once), `ser` and `de` (the serde impls), `codec`
//! (the direct encoder and decoder), `fixed` (their fixed part, at constant offsets), `locals`
//! (computed checks on the decoder's locals), `layout` (the layout impls), `bound` (generics).

mod ast;
mod attr;
mod bound;
mod check;
mod codec;
mod de;
mod dummy;
mod fixed;
mod layout;
mod locals;
mod ser;
mod source;
mod tokens;
mod types;

use proc_macro::TokenStream;
use quote::quote;

/// Derives `Serialize`, `Deserialize`, `B2Layout` and `B2Type` for a struct with named fields,
/// plus a `FieldRef` constant per field. See `b2schema::attributes` for `#[b2(...)]`.
#[proc_macro_derive(B2Layout, attributes(b2))]
pub fn derive_b2layout(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand(&input).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// The whole expansion, as a function of the input (the expansion snapshots call it directly).
fn expand(input: &syn::DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let mut errors = attr::Errors::default();
    let c = ast::container(input, &mut errors);
    check::check(&c, &mut errors);
    errors.finish()?;
    let names = container_names(&c);
    let ser = ser::expand(&c, &names);
    let de = de::expand(&c, &names);
    let layout = layout::expand(&c);
    let codec = codec::expand(&c);
    let types = layout::field_types(&c);
    Ok(dummy::wrap_in_const(
        &c.krate,
        quote! {
            #types
            #ser
            #de
            #layout
            #codec
        },
    ))
}

/// The newtype names the container is written inside: one mode switch (its widths and struct
/// representation, so the caller's configuration does not leak into the layout), then its own
/// encoding when it has one.
fn container_names(c: &ast::Container<'_>) -> proc_macro2::TokenStream {
    let p = &c.private;
    let names = match (c.repr(), c.minimal()) {
        (ast::Repr::Packed, _) => vec![quote!(#p::Encoding::Raw.magic())],
        (ast::Repr::Map, false) => vec![quote!(#p::ModeSwitch::FixedMap.magic())],
        (ast::Repr::Map, true) => vec![quote!(#p::ModeSwitch::MinimalMap.magic())],
        (ast::Repr::Array, false) => vec![quote!(#p::ModeSwitch::FixedArray.magic())],
        (ast::Repr::Array, true) => vec![quote!(#p::ModeSwitch::MinimalArray.magic())],
        (ast::Repr::Array16, minimal) => {
            let mode = if minimal { quote!(MinimalArray) } else { quote!(FixedArray) };
            vec![quote!(#p::ModeSwitch::#mode.magic()), quote!(#p::Encoding::Array16.magic())]
        }
    };
    quote!({
        const NAMES: &[&str] = &[#(#names),*];
        NAMES
    })
}

#[cfg(test)]
mod expansion_tests;
