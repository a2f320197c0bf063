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
    /// The path of the b2schema crate, as written in `#[b2(crate = "...")]` or `::b2schema`:
    /// named once per expansion, where [`Self::private`] is bound to its `__private` module.
    pub krate: TokenStream,
    /// The one name of `b2schema::__private` in the generated code (see [`crate::dummy`]).
    pub private: TokenStream,
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

    /// The `Encoding` expression of the field (`p` is the private path): its attribute, or the
    /// type's default.
    pub fn encoding(&self, p: &TokenStream) -> TokenStream {
        let ty = self.ty;
        match &self.attrs.encoding {
            Some(e) => {
                let v = Ident::new(e.value, e.span);
                quote!(#p::Encoding::#v)
            }
            None => quote!(<#ty as #p::B2Type>::ENCODING),
        }
    }

    /// The type as written, for the layout description.
    pub fn type_string(&self) -> String {
        type_text(self.ty)
    }
}

/// A type as written (`Vec<u8>`, `&'a str`).
pub fn type_text(ty: &impl ToTokens) -> String {
    ty.to_token_stream().to_string().replace(" < ", "<").replace(" >", ">").replace("& '", "&'")
}

/// Reads the input into `errors`, which collects every attribute error (the checks across
/// attributes come after, in [`crate::check`], as serde_derive's `internals` order them).
pub fn container<'a>(input: &'a DeriveInput, errors: &mut Errors) -> Container<'a> {
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
    let attrs = attr::container(&input.attrs, errors);
    let mut fields = Vec::new();
    for f in named.into_iter().flat_map(|n| &n.named) {
        let Some(ident) = f.ident.as_ref() else { continue };
        let mut fa = attr::field(&f.attrs, errors);
        // Borrowed bytes are read as bytes (serde's `&[u8]` visitor), so they are written as
        // bytes too: `bin32` is their default, as the crate's table states (serde alone would
        // write a `[u8]` as an array of fixints, which no decoder reads back).
        if fa.encoding.is_none() && attrs.packed.is_none() && crate::types::is_borrowed_bytes(&f.ty) {
            fa.encoding = Some(attr::Spanned_ { value: "Bin32", span: f.ty.span() });
        }
        fields.push(Field { ident, vis: &f.vis, ty: &f.ty, attrs: fa, doc: attr::doc(&f.attrs) });
    }
    let krate = match &attrs.krate {
        Some(p) => quote!(#p),
        None => quote!(::b2schema),
    };
    let private = crate::dummy::private();
    Container { ident: &input.ident, generics: &input.generics, attrs, fields, krate, private }
}
