//! The generated `Serialize` impl: the container's names around the fields, each field under its
//! encoding, constants and computed values written by the encoder.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::ast::{Container, Field};
use crate::bound;

/// `Serialize` and `SerializeBody` for the struct.
pub fn expand(c: &Container<'_>, names: &TokenStream) -> TokenStream {
    let p = &c.private;
    let ident = c.ident;
    let name = c.name();
    let g = bound::with_bound(c.generics, &quote!(#p::serde_core::Serialize));
    let (impl_g, ty_g, where_c) = g.split_for_impl();
    let n = c.fields.len();
    // A packed struct's length is its bytes (its fields may be byte arrays), not its field count.
    let len = match c.repr() {
        crate::ast::Repr::Packed => quote! {
            match <Self as #p::B2Layout>::LAYOUT.fixed_len {
                #p::core::option::Option::Some(__n) => __n,
                #p::core::option::Option::None => #n,
            }
        },
        _ => quote!(#n),
    };
    let fields = c.fields.iter().map(|f| field(c, f));
    quote! {
        impl #impl_g #p::serde_core::Serialize for #ident #ty_g #where_c {
            fn serialize<__S>(&self, __serializer: __S) -> #p::core::result::Result<__S::Ok, __S::Error>
            where
                __S: #p::serde_core::Serializer,
            {
                #p::serde_core::Serialize::serialize(&#p::WithNames(#names, &#p::Body(self)), __serializer)
            }
        }

        impl #impl_g #p::SerializeBody for #ident #ty_g #where_c {
            fn serialize_body<__S>(&self, __serializer: __S) -> #p::core::result::Result<__S::Ok, __S::Error>
            where
                __S: #p::serde_core::Serializer,
            {
                let mut __st = #p::serde_core::Serializer::serialize_struct(__serializer, #name, #len)?;
                #(#fields)*
                #p::serde_core::ser::SerializeStruct::end(__st)
            }
        }
    }
}

fn field(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let p = &c.private;
    let name = f.name();
    let mut value = value(c, f);
    if f.attrs.encoding.is_some() {
        let enc = f.encoding(p);
        value = quote!(&#p::As(#enc, #value));
    }
    quote! {
        #p::serde_core::ser::SerializeStruct::serialize_field(&mut __st, #name, #value)?;
    }
}

/// A reference to what the field writes (its value, constant or computed value, with its
/// length checked), before its encoding is applied.
pub fn value(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let p = &c.private;
    let id = f.ident;
    let name = f.name();
    let mut value = if let Some(m) = magic_value(c, f) {
        let ty = f.ty;
        quote!(&{ let __m: #ty = #m; __m })
    } else if f.attrs.computed.is_some() {
        let method = computed_method(f);
        quote!(&#p::Fallible(self.#method()))
    } else {
        quote!(&self.#id)
    };
    if let Some(len) = &f.attrs.len {
        let n = len.value;
        value = quote_spanned!(len.span=> &#p::LenChecked(#name, #value, #n));
    }
    value
}

/// A `magic` field's constant as an expression of the field's type, so that it is written under
/// the field's encoding (its attribute or its type's default), whatever the literal's own type:
/// `magic = 1` on a `u8` is a fixint, not an `int32`. A byte-string literal becomes the field's
/// byte type (`[u8; N]`, `&[u8]`, `Vec<u8>`); any other expression must have the field's type.
pub fn magic_value(c: &Container<'_>, f: &Field<'_>) -> Option<TokenStream> {
    let m = f.attrs.magic.as_ref()?;
    let tokens = &m.value;
    Some(match crate::tokens::byte_string(tokens) {
        Some(lit) => {
            // Every token at the literal, so that a field type that cannot hold it is an error there.
            let p = respan(&c.private, lit.span());
            quote_spanned!(lit.span()=> #p::magic_bytes(#lit))
        }
        None => quote!(#tokens),
    })
}

/// `tokens` with every token at `span` (a path written at the attribute's place).
pub fn respan(tokens: &TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .clone()
        .into_iter()
        .map(|mut tt| {
            if let proc_macro2::TokenTree::Group(g) = &tt {
                let mut g2 = proc_macro2::Group::new(g.delimiter(), respan(&g.stream(), span));
                g2.set_span(span);
                tt = proc_macro2::TokenTree::Group(g2);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}

/// For an integer field (`u8` ... `i64`) with an integer `magic`, a compile-time check, at the
/// constant's tokens, that it fits the field's encoding (`magic = 200` on a fixint is an error
/// there, not at encoding time).
pub fn magic_fits(c: &Container<'_>, f: &Field<'_>) -> Option<TokenStream> {
    let p = &c.private;
    let m = f.attrs.magic.as_ref()?;
    let syn::Type::Path(tp) = f.ty else { return None };
    let int = tp.path.get_ident().map(|i| i.to_string())?;
    if !matches!(int.as_str(), "u8" | "u16" | "u32" | "u64" | "i8" | "i16" | "i32" | "i64")
        || crate::tokens::byte_string(&m.value).is_some()
    {
        return None;
    }
    let ty = f.ty;
    let tokens = &m.value;
    let enc = f.encoding(p);
    let enc_name = match &f.attrs.encoding {
        Some(e) => crate::attr::attr_name(e.value).to_string(),
        None => format!("the default of {int}"),
    };
    let hint = match f.attrs.encoding.as_ref().map(|e| e.value) {
        None | Some("FixInt") => "; a fixint holds 0..=127: write #[b2(uint8)] for a larger one",
        _ => "; write a constant in its range or choose a wider encoding",
    };
    let msg = format!(
        "#[b2(magic = {})]: the constant does not fit field `{}`'s encoding ({enc_name}){hint}",
        crate::tokens::expr_text(tokens),
        f.name()
    );
    let span = tokens.clone().into_iter().next().map(|t| t.span()).unwrap_or(m.span);
    let check = quote_spanned! {span=>
        const _: () = __magic_fits(__ENC, { let __m: #ty = #tokens; __m } as i128, #msg);
    };
    Some(quote! {
        const _: () = {
            use #p::magic_fits as __magic_fits;
            const __ENC: #p::Encoding = #enc;
            #check
        };
    })
}

/// The hidden method computing a `computed` field.
pub fn computed_method(f: &Field<'_>) -> syn::Ident {
    format_ident!("__b2schema_computed_{}", f.ident)
}
