//! The generated `B2Layout` and `B2Type` impls, the typed field handles, and the compile-time
//! `offset = N` checks.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::ast::{Container, Field, Repr};
use crate::bound;
use syn::spanned::Spanned;

/// The layout impls of the struct.
pub fn expand(c: &Container<'_>) -> TokenStream {
    let p = &c.private;
    let ident = c.ident;
    let name = c.name();
    let g = bound::with_bound(c.generics, &quote!(#p::B2Type));
    let (impl_g, ty_g, where_c) = g.split_for_impl();
    let n = c.fields.len();
    let minimal = c.minimal();

    let container = match (c.repr(), minimal) {
        (Repr::Packed, _) => quote!(#p::Encoding::Raw),
        (Repr::Map, false) => quote!(#p::Encoding::Map16),
        (Repr::Map, true) => quote!(#p::Encoding::minimal_len(#p::Family::Map, #n)),
        (Repr::Array16, _) => quote!(#p::Encoding::Array16),
        (Repr::Array, false) => quote!(#p::Encoding::FixArray),
        (Repr::Array, true) => quote!(#p::Encoding::minimal_len(#p::Family::Array, #n)),
    };
    let widths = if minimal { quote!(#p::Widths::Minimal) } else { quote!(#p::Widths::Fixed) };
    let header = quote!(#p::layout::header_len(#container, #n));

    let encodings: Vec<TokenStream> = c.fields.iter().map(|f| encoding(c, f)).collect();
    let shapes: Vec<TokenStream> = c.fields.iter().map(|f| shape(c, f)).collect();
    let field_widths: Vec<TokenStream> = c
        .fields
        .iter()
        .zip(&encodings)
        .zip(&shapes)
        .map(|((f, enc), shape)| match c.repr() {
            Repr::Packed => quote!(#p::layout::raw_len(&#shape)),
            _ if minimal && f.attrs.encoding.is_none() => quote!(#p::core::option::Option::None::<usize>),
            _ => quote!(#p::layout::width(#enc, &#shape)),
        })
        .collect();
    let map = c.repr() == Repr::Map;

    // Each field is written once, with no offsets; `place` sums them (the expansion grows
    // linearly with the fields).
    let entries = c.fields.iter().enumerate().map(|(i, f)| {
        let fname = f.name();
        let ty = f.type_string();
        let enc = &encodings[i];
        let shape = &shapes[i];
        let w = &field_widths[i];
        let role = match (&f.attrs.magic, &f.attrs.computed) {
            (Some(m), _) => {
                let text = crate::tokens::expr_text(&m.value);
                quote!(#p::Role::Magic(#text))
            }
            (_, Some(e)) => {
                let text = crate::tokens::expr_text(&e.value);
                quote!(#p::Role::Computed(#text))
            }
            _ => quote!(#p::Role::Data),
        };
        let doc = &f.doc;
        quote! {
            #p::FieldLayout {
                name: #fname,
                rust_type: #ty,
                encoding: #enc,
                shape: #shape,
                marker_offset: #p::core::option::Option::None,
                value_offset: #p::core::option::Option::None,
                width: #w,
                role: #role,
                doc: #doc,
            }
        }
    });

    let handles = c.fields.iter().enumerate().map(|(i, f)| handle(c, f, i));
    let asserts = c.fields.iter().enumerate().filter_map(|(i, f)| offset_assert(c, f, i));
    let fits = c.fields.iter().filter_map(|f| crate::ser::magic_fits(c, f));

    quote! {
        impl #impl_g #ident #ty_g #where_c {
            #[doc(hidden)]
            const __B2SCHEMA_PLACED: #p::layout::Placed<#n> =
                #p::layout::place(#header, #widths, #map, [#(#entries),*]);
        }

        impl #impl_g #p::B2Layout for #ident #ty_g #where_c {
            const LAYOUT: &'static #p::Layout = &#p::Layout {
                name: #name,
                encoding: #container,
                widths: #widths,
                fields: &Self::__B2SCHEMA_PLACED.fields,
                fixed_len: Self::__B2SCHEMA_PLACED.fixed_len,
            };
        }

        impl #impl_g #p::B2Type for #ident #ty_g #where_c {
            const ENCODING: #p::Encoding = <Self as #p::B2Layout>::LAYOUT.encoding;
            const SHAPE: #p::Shape = #p::Shape::Struct(<Self as #p::B2Layout>::LAYOUT);
        }

        impl #impl_g #ident #ty_g #where_c {
            #(#handles)*
        }

        #(#asserts)*
        #(#fits)*
    }
}

/// A function whose where-clause asks every field type for `B2Type`, first in the expansion: a
/// type the derive refuses (an enum) is reported there, at the field's type, before the errors of
/// the serde impls that would also need it.
pub fn field_types(c: &Container<'_>) -> TokenStream {
    let p = &c.private;
    let g = bound::with_bound(c.generics, &quote!(#p::B2Type));
    let (impl_g, _, where_c) = g.split_for_impl();
    let bounds = c.fields.iter().map(|f| {
        let ty = f.ty;
        let p = crate::ser::respan(p, ty.span());
        quote_spanned!(ty.span()=> #ty: #p::B2Type,)
    });
    let preds = where_c.map(|w| {
        let preds = w.predicates.iter();
        quote!(#(#preds,)*)
    });
    quote! {
        #[allow(dead_code, clippy::all)]
        fn __b2schema_field_types #impl_g () where #preds #(#bounds)* {}
    }
}

fn encoding(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let p = &c.private;
    match c.repr() {
        Repr::Packed => quote!(#p::Encoding::Raw),
        _ => f.encoding(p),
    }
}

fn shape(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let p = &c.private;
    let ty = f.ty;
    match &f.attrs.len {
        Some(len) => {
            let n = len.value;
            quote!(#p::Shape::Bytes(#p::core::option::Option::Some(#n)))
        }
        // A constant has the length of its literal whatever the field's type leaves open.
        None => match f.attrs.magic.as_ref().and_then(|m| crate::tokens::literal_len(&m.value)) {
            Some(n) => quote!(#p::layout::with_len(<#ty as #p::B2Type>::SHAPE, #n)),
            None => quote!(<#ty as #p::B2Type>::SHAPE),
        },
    }
}

/// `pub const FIELD_NAME: FieldRef<T>`, with the field's visibility.
fn handle(c: &Container<'_>, f: &Field<'_>, i: usize) -> TokenStream {
    let p = &c.private;
    let vis = f.vis;
    let ty = f.ty;
    let konst = format_ident!("{}", f.name().to_uppercase(), span = f.ident.span());
    let doc = format!("A handle on field `{}`, for reading or patching it in encoded bytes.", f.name());
    quote! {
        #[doc = #doc]
        #[allow(dead_code)]
        #vis const #konst: #p::FieldRef<#ty> = #p::FieldRef::new(&<Self as #p::B2Layout>::LAYOUT.fields[#i]);
    }
}

/// `const _: () = ...` checking `#[b2(offset = N)]` against the computed layout.
fn offset_assert(c: &Container<'_>, f: &Field<'_>, i: usize) -> Option<TokenStream> {
    let o = f.attrs.offset.as_ref()?;
    let p = &c.private;
    let ty = bound::static_type(c.ident, c.generics)?;
    let n = o.value;
    let msg = format!(
        "#[b2(offset = {n})]: field `{}` has no fixed offset: a field before it has a width that depends on its value (see {}::LAYOUT)",
        f.name(),
        c.name()
    );
    let span = o.span;
    let mut n = proc_macro2::Literal::usize_unsuffixed(n);
    n.set_span(span);
    // The type and the value start with tokens of the attribute's span (not the crate path, of
    // the derive's), so that a mismatch points at `offset = N`.
    let check = quote_spanned! {span=>
        const __AT: usize = __value_offset_or(__FIELD, #msg);
        let _: __ValueStartsAtByte<#n> = __ValueStartsAtByte::<__AT>;
    };
    Some(quote! {
        const _: () = {
            use #p::{ValueStartsAtByte as __ValueStartsAtByte, value_offset_or as __value_offset_or};
            const __FIELD: &#p::FieldLayout = &<#ty as #p::B2Layout>::LAYOUT.fields[#i];
            #check
        };
    })
}
