//! The generated `Deserialize` impl: fields read in order (or by name from a map), each under its
//! encoding, then constants, computed fields and fixed lengths checked.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ast::Container;
use crate::{bound, ser};

/// `Deserialize`, `VisitBody` and the hidden check method for the struct.
pub fn expand(c: &Container<'_>, names: &TokenStream) -> TokenStream {
    let p = &c.private;
    let ident = c.ident;
    let name = c.name();
    let de = bound::de_lifetime();
    let g =
        bound::with_bound(&bound::with_de_lifetime(c.generics), &quote!(#p::serde_core::Deserialize<#de>));
    let (impl_g, _, where_c) = g.split_for_impl();
    let (_, ty_g, _) = c.generics.split_for_impl();
    let n = c.fields.len();
    let field_names: Vec<String> = c.fields.iter().map(|f| f.name()).collect();
    let locals: Vec<_> = c.fields.iter().map(|f| format_ident!("__field_{}", f.ident)).collect();
    let idents: Vec<_> = c.fields.iter().map(|f| f.ident).collect();
    let expecting = format!("struct {name} with {n} fields");

    let seeds: Vec<TokenStream> = c
        .fields
        .iter()
        .map(|f| {
            let ty = f.ty;
            let seed = match &f.attrs.encoding {
                Some(_) => {
                    let enc = f.encoding(p);
                    quote!(#p::AsSeed::<#ty>(#enc, #p::core::marker::PhantomData))
                }
                None => quote!(#p::core::marker::PhantomData::<#ty>),
            };
            let seed = match field_checks(c, f) {
                Some(checks) => quote! {
                    #p::Checked(#seed, |__v: &#ty| -> #p::core::result::Result<(), #p::String> {
                        #checks
                        #p::core::result::Result::Ok(())
                    })
                },
                None => seed,
            };
            // A declared length reaches the decoder, which checks the marker before the bytes.
            match &f.attrs.len {
                Some(len) => {
                    let name = format!("$b2schema::len={}", len.value);
                    quote!(#p::LenSeed(#name, #seed))
                }
                None => seed,
            }
        })
        .collect();

    let seq_reads = c.fields.iter().zip(&locals).zip(&seeds).enumerate().map(|(i, ((_, local), seed))| {
        quote! {
            let #local = #p::next_field(&mut __seq, #seed, #i, #expecting)?;
        }
    });

    let map_arms = c.fields.iter().zip(&locals).zip(&seeds).enumerate().map(|(i, ((f, local), seed))| {
        let fname = f.name();
        quote! {
            #p::core::option::Option::Some(#i) => #p::map_field(&mut __map, &mut #local, #seed, #fname)?,
        }
    });
    let map_takes = c.fields.iter().zip(&locals).map(|(f, local)| {
        let fname = f.name();
        quote! {
            let #local = #p::take_field(#local, #fname)?;
        }
    });

    let checks = checks(c);
    let computed = computed_methods(c);

    quote! {
        impl #impl_g #p::serde_core::Deserialize<#de> for #ident #ty_g #where_c {
            fn deserialize<__D>(__deserializer: __D) -> #p::core::result::Result<Self, __D::Error>
            where
                __D: #p::serde_core::Deserializer<#de>,
            {
                #p::deserialize_with_names(__deserializer, #names, #p::BodySeed::<Self>(#p::core::marker::PhantomData))
            }
        }

        impl #impl_g #p::VisitBody<#de> for #ident #ty_g #where_c {
            const NAME: &'static str = #name;
            const FIELDS: &'static [&'static str] = &[#(#field_names),*];

            fn visit_seq<__A>(mut __seq: __A) -> #p::core::result::Result<Self, __A::Error>
            where
                __A: #p::serde_core::de::SeqAccess<#de>,
            {
                #(#seq_reads)*
                let __value = #ident { #(#idents: #locals),* };
                match __value.__b2schema_check() {
                    #p::core::result::Result::Ok(()) => #p::core::result::Result::Ok(__value),
                    #p::core::result::Result::Err(__e) => #p::core::result::Result::Err(#p::custom(__e)),
                }
            }

            fn visit_map<__A>(mut __map: __A) -> #p::core::result::Result<Self, __A::Error>
            where
                __A: #p::serde_core::de::MapAccess<#de>,
            {
                #(let mut #locals = #p::core::option::Option::None;)*
                while let #p::core::option::Option::Some(__key) =
                    #p::serde_core::de::MapAccess::next_key_seed(&mut __map, #p::FieldIndex(<Self as #p::VisitBody<#de>>::FIELDS))?
                {
                    match __key {
                        #(#map_arms)*
                        _ => {
                            let _ = #p::serde_core::de::MapAccess::next_value::<#p::serde_core::de::IgnoredAny>(&mut __map)?;
                        }
                    }
                }
                #(#map_takes)*
                let __value = #ident { #(#idents: #locals),* };
                match __value.__b2schema_check() {
                    #p::core::result::Result::Ok(()) => #p::core::result::Result::Ok(__value),
                    #p::core::result::Result::Err(__e) => #p::core::result::Result::Err(#p::custom(__e)),
                }
            }
        }

        #computed
        #checks
    }
}

/// Checks of one field's own value (constants and fixed lengths), run as soon as it is read.
pub fn field_checks(c: &Container<'_>, f: &crate::ast::Field<'_>) -> Option<TokenStream> {
    let p = &c.private;
    let name = f.name();
    let mut out = TokenStream::new();
    if let Some(m) = &f.attrs.magic {
        let tokens = &m.value;
        out.extend(match crate::tokens::byte_string(tokens) {
            Some(lit) => quote! {
                #p::check_bytes_magic(#name, #p::core::convert::AsRef::<[u8]>::as_ref(__v), #lit)?;
            },
            None => {
                let ty = f.ty;
                let value = ser::magic_value(c, f);
                quote! { #p::check_magic(#name, __v, &{ let __m: #ty = #value; __m })?; }
            }
        });
    }
    if let Some(len) = &f.attrs.len {
        let n = len.value;
        out.extend(quote! { #p::check_len(#name, #p::ByteLen::byte_len(__v), #n)?; });
    }
    (!out.is_empty()).then_some(out)
}

/// The hidden `__b2schema_check` method: computed fields, checked once every field is read.
fn checks(c: &Container<'_>) -> TokenStream {
    let p = &c.private;
    let ident = c.ident;
    let (impl_g, ty_g, where_c) = c.generics.split_for_impl();
    let each = c.fields.iter().filter_map(|f| {
        let id = f.ident;
        let name = f.name();
        let cexpr = f.attrs.computed.as_ref()?;
        let method = ser::computed_method(f);
        let text = crate::tokens::expr_text(&cexpr.value);
        Some(quote! {
            let __expected = self.#method()?;
            if __expected != self.#id {
                return #p::core::result::Result::Err(
                    #p::computed_mismatch(#name, &self.#id, #text, &__expected),
                );
            }
        })
    });
    quote! {
        impl #impl_g #ident #ty_g #where_c {
            #[doc(hidden)]
            #[allow(clippy::all, unused)]
            fn __b2schema_check(&self) -> #p::core::result::Result<(), #p::String> {
                #(#each)*
                #p::core::result::Result::Ok(())
            }
        }
    }
}

/// One hidden method per `computed` field, evaluating its expression with `self` in scope.
fn computed_methods(c: &Container<'_>) -> TokenStream {
    let p = &c.private;
    let ident = c.ident;
    let (impl_g, ty_g, where_c) = c.generics.split_for_impl();
    let methods = c.fields.iter().filter_map(|f| {
        let expr = &f.attrs.computed.as_ref()?.value;
        let method = ser::computed_method(f);
        let ty = f.ty;
        let name = f.name();
        Some(quote! {
            #[doc(hidden)]
            #[allow(clippy::all, unused)]
            fn #method(&self) -> #p::core::result::Result<#ty, #p::String> {
                #p::computed(#expr, #name)
            }
        })
    });
    quote! {
        impl #impl_g #ident #ty_g #where_c {
            #(#methods)*
        }
    }
}
