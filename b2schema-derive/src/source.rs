//! What a field gives its encoder: its encoding and its value (the field, a constant or a
//! computed value). Both the field-by-field write (`codec`) and the fixed part's exact write
//! (`fixed`) take it from here.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Container, Field};
use crate::ser;

/// `Some(Encoding::X)` for a field with an encoding attribute, else `None` (its type's own).
pub(crate) fn encoding(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let p = &c.private;
    match &f.attrs.encoding {
        Some(_) => {
            let enc = f.encoding(p);
            quote!(#p::core::option::Option::Some(#enc))
        }
        None => quote!(#p::core::option::Option::None),
    }
}

/// What a field gives its encoder, by kind of field: both the field-by-field write and the fixed
/// part's exact write take it from here.
pub(crate) enum Source {
    /// A computed field: the value of its hidden method.
    Computed(syn::Ident),
    /// A value of the field's type: the field itself (`self.field`) or a constant bound to `__m`
    /// by `binding`, with the check of its fixed length (`len = N`) when it has one.
    Value { binding: Option<TokenStream>, value: TokenStream, check: Option<TokenStream> },
    /// A computed field with a fixed length: the serde value as it is.
    Serde(TokenStream),
}

pub(crate) fn source(c: &Container<'_>, f: &Field<'_>) -> Source {
    let p = &c.private;
    let (id, ty) = (f.ident, f.ty);
    let (binding, value) = match ser::magic_value(c, f) {
        Some(m) => (Some(quote!(let __m: #ty = #m;)), quote!(__m)),
        None => (None, quote!(self.#id)),
    };
    match (&f.attrs.computed, &f.attrs.len) {
        (Some(_), None) => Source::Computed(ser::computed_method(f)),
        (Some(_), Some(_)) => Source::Serde(ser::value(c, f)),
        (None, len) => {
            let check = len.as_ref().map(|len| {
                let (name, n) = (f.name(), len.value);
                quote!(#p::check_len(#name, #p::ByteLen::byte_len(&#value), #n))
            });
            Source::Value { binding, value, check }
        }
    }
}
