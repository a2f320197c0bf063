//! The derive's model of the input: a struct with named fields and their parsed attributes.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Generics, Ident, Type, Visibility};

use crate::attr::{self, Errors};

/// The struct being derived.
pub struct Container<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    pub attrs: attr::Container,
    pub fields: Vec<Field<'a>>,
    /// The path of the b2schema crate in generated code.
    pub krate: TokenStream,
}

/// One named field.
pub struct Field<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub ty: &'a Type,
    pub attrs: attr::Field,
    pub doc: String,
}

/// How the struct is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Repr {
    Array,
    Array16,
    Map,
    Packed,
}

impl Container<'_> {
    pub fn repr(&self) -> Repr {
        if self.attrs.packed.is_some() {
            Repr::Packed
        } else if self.attrs.map.is_some() {
            Repr::Map
        } else if self.attrs.array16.is_some() {
            Repr::Array16
        } else {
            Repr::Array
        }
    }

    pub fn minimal(&self) -> bool {
        self.attrs.minimal.is_some()
    }

    pub fn name(&self) -> String {
        self.ident.to_string()
    }
}

impl Field<'_> {
    pub fn name(&self) -> String {
        self.ident.to_string()
    }

    /// The `Encoding` expression of the field: its attribute, or the type's default.
    pub fn encoding(&self, krate: &TokenStream) -> TokenStream {
        let ty = self.ty;
        match &self.attrs.encoding {
            Some(e) => {
                let v = Ident::new(e.value, e.span);
                quote!(#krate::__private::Encoding::#v)
            }
            None => quote!(<#ty as #krate::__private::B2Type>::ENCODING),
        }
    }

    /// The type as written, for the layout description.
    pub fn type_string(&self) -> String {
        self.ty.to_token_stream().to_string().replace(" < ", "<").replace(" >", ">").replace("& '", "&'")
    }
}

/// Reads the input, collecting every attribute error.
pub fn container(input: &DeriveInput) -> syn::Result<Container<'_>> {
    let mut errors = Errors::default();
    let named = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => Some(named),
            Fields::Unnamed(f) => {
                errors
                    .error(f.span(), "B2Layout needs named fields: each field's name appears in the layout");
                None
            }
            Fields::Unit => {
                errors.error(
                    input.ident.span(),
                    "B2Layout needs a struct with named fields, not a unit struct",
                );
                None
            }
        },
        Data::Enum(e) => {
            errors.error(e.enum_token.span(), "B2Layout describes structs; an enum has no fixed layout");
            None
        }
        Data::Union(u) => {
            errors.error(u.union_token.span(), "B2Layout describes structs, not unions");
            None
        }
    };
    let attrs = attr::container(&input.attrs, &mut errors);
    let mut fields = Vec::new();
    for f in named.into_iter().flat_map(|n| &n.named) {
        let Some(ident) = f.ident.as_ref() else { continue };
        let fa = attr::field(&f.attrs, &mut errors);
        fields.push(Field { ident, vis: &f.vis, ty: &f.ty, attrs: fa, doc: attr::doc(&f.attrs) });
    }
    let krate = match &attrs.krate {
        Some(p) => quote!(#p),
        None => quote!(::b2schema),
    };
    let c = Container { ident: &input.ident, generics: &input.generics, attrs, fields, krate };
    check(&c, &mut errors);
    errors.finish()?;
    Ok(c)
}

/// Checks that need the whole struct.
fn check(c: &Container<'_>, errors: &mut Errors) {
    let n = c.fields.len();
    if c.repr() == Repr::Array && n > 15 {
        errors.error(
            c.ident.span(),
            format!("a fixarray holds at most 15 fields and this struct has {n}: add #[b2(array16)]"),
        );
    }
    if c.repr() == Repr::Map && n > 15 && c.minimal() {
        errors.error(c.ident.span(), format!("a fixmap holds at most 15 fields and this struct has {n}"));
    }
    for f in &c.fields {
        if let Some(e) = &f.attrs.encoding
            && c.repr() == Repr::Packed
            && e.value != "Raw"
        {
            errors.error(
                e.span,
                format!(
                    "`{}` in a packed struct: a packed struct holds bare bytes, so its fields take no \
                         marker (remove the attribute, or use `raw`)",
                    attr::attr_name(e.value)
                ),
            );
        }
        // A length applies to text and bytes; another type (a packed struct) has its own.
        if let Some(len) = &f.attrs.len
            && !is_text_or_bytes(f.ty)
        {
            errors.error(
                len.span,
                format!(
                    "`fixstr(len = N)` needs text or bytes (`&str`, `String`, `[u8; N]`, `&[u8]`, `Vec<u8>`), \
                     not `{}`, whose length its type fixes: write `fixstr`",
                    f.type_string()
                ),
            );
        }
        // A byte-string constant written as an array of fixints (the default of `[u8; N]`, or
        // fixarray, array16, counted) must hold bytes 0..=127.
        if let Some(m) = &f.attrs.magic
            && let Some(lit) = crate::tokens::byte_string(&m.value)
            && matches!(
                f.attrs.encoding.as_ref().map(|e| e.value),
                None | Some("FixArray" | "Array16" | "Counted")
            )
            && c.repr() != Repr::Packed
            && let Some(b) = lit.value().iter().find(|b| **b > 0x7f)
        {
            errors.error(
                lit.span(),
                format!(
                    "byte {b:#04x} of this constant does not fit: field `{}` is written as an array of positive \
                     fixints (0..=127); write #[b2(fixstr)], #[b2(bin32)] or #[b2(raw)] to write it as bytes",
                    f.name()
                ),
            );
        }
        if let Some(o) = &f.attrs.offset
            && c.generics.type_params().next().is_some()
        {
            errors.error(
                o.span,
                "`offset = N` needs a struct without type parameters (offsets are checked at compile time)",
            );
        }
    }
}

/// Whether `ty` is written as text or bytes: `&str`, `String`, `Cow<str>`, `[u8; N]`, `&[u8]`,
/// `Vec<u8>` (by name: the derive sees tokens, not types).
fn is_text_or_bytes(ty: &Type) -> bool {
    match ty {
        Type::Reference(r) => is_text_or_bytes(&r.elem),
        Type::Array(a) => is_u8(&a.elem),
        Type::Slice(sl) => is_u8(&sl.elem),
        Type::Path(p) => match p.path.segments.last() {
            Some(seg) => match seg.ident.to_string().as_str() {
                "str" | "String" | "Cow" => true,
                "Vec" | "Box" => match &seg.arguments {
                    syn::PathArguments::AngleBracketed(args) => args.args.iter().any(|a| match a {
                        syn::GenericArgument::Type(t) => is_u8(t) || is_text_or_bytes(t),
                        _ => false,
                    }),
                    _ => false,
                },
                _ => false,
            },
            None => false,
        },
        Type::Group(g) => is_text_or_bytes(&g.elem),
        Type::Paren(p) => is_text_or_bytes(&p.elem),
        _ => false,
    }
}

fn is_u8(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.path.is_ident("u8"))
}
