//! Generics of the generated impls: the struct's own parameters plus the bounds each trait needs.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{GenericParam, Generics, Lifetime, LifetimeParam, WherePredicate, parse_quote};

/// The struct's generics with `bound` added to every type parameter (`T: #bound`).
pub fn with_bound(generics: &Generics, bound: &TokenStream) -> Generics {
    let mut g = generics.clone();
    let preds: Vec<WherePredicate> = generics
        .type_params()
        .map(|t| {
            let id = &t.ident;
            parse_quote!(#id: #bound)
        })
        .collect();
    g.make_where_clause().predicates.extend(preds);
    g
}

/// The `'de` lifetime of `Deserialize<'de>`, outliving every lifetime of the struct.
pub fn de_lifetime() -> Lifetime {
    Lifetime::new("'de", Span::call_site())
}

/// The struct's generics plus `'de: 'a + 'b + ...` first, for `Deserialize<'de>` impls.
pub fn with_de_lifetime(generics: &Generics) -> Generics {
    let mut g = generics.clone();
    let de = de_lifetime();
    let mut param = LifetimeParam::new(de);
    param.bounds.extend(generics.lifetimes().map(|l| l.lifetime.clone()));
    g.params.insert(0, GenericParam::Lifetime(param));
    g
}

/// `Struct<'static, ...>` with every lifetime made `'static`, for compile-time checks; `None`
/// when the struct has type or const parameters.
pub fn static_type(ident: &syn::Ident, generics: &Generics) -> Option<TokenStream> {
    if generics.type_params().next().is_some() || generics.const_params().next().is_some() {
        return None;
    }
    let lts = generics.lifetimes().map(|_| quote!('static));
    if generics.lifetimes().next().is_none() { Some(quote!(#ident)) } else { Some(quote!(#ident<#(#lts),*>)) }
}
