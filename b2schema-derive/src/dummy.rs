//! The expansion's frame, as serde_derive's `dummy.rs`: everything generated sits in one
//! `const _: () = { ... };`, which binds `b2schema::__private` once, under one name, and the
//! generated code names the runtime through that binding only.
//!
//! The binding is an item of the block, so it resolves wherever the code inside names it, also
//! at tokens spanned at the user's input (a `magic` literal) and under `#![no_implicit_prelude]`.
//! The crate path itself is named once, in the `use`: `::b2schema` by default, or what
//! `#[b2(crate = "...")]` gives.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

/// The name `b2schema::__private` is bound to inside the expansion.
pub fn private() -> TokenStream {
    let name = Ident::new("_b2schema", Span::call_site());
    quote!(#name)
}

/// `code` inside the anonymous constant that binds [`private`] to `#krate::__private`.
pub fn wrap_in_const(krate: &TokenStream, code: TokenStream) -> TokenStream {
    let private = private();
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all)]
        const _: () = {
            use #krate::__private as #private;

            #code
        };
    }
}
