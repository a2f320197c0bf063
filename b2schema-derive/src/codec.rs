//! The generated `Encode` and `Decode` impls: the direct codec of a struct written as an array.
//! The container header is a constant, each field goes to its type's direct code (or through
//! serde when the type has none, chosen at compile time by `Probe`), and the checks are the
//! serde impl's own, so both paths give the same bytes and the same errors.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ast::{Container, Field, Repr};
use crate::source::{Source, encoding, source};
use crate::{bound, de, fixed, locals};

/// `Encode` and `Decode` for the struct, each with its private supertrait of fast paths
/// (`EncodeHooks`, `DecodeHooks`). Maps take the serde path whole.
pub fn expand(c: &Container<'_>) -> TokenStream {
    let p = &c.private;
    let ident = c.ident;
    let ser_g = bound::with_bound(c.generics, &quote!(#p::serde_core::Serialize));
    let (ser_impl, ty_g, ser_where) = ser_g.split_for_impl();
    let de_lt = bound::de_lifetime();
    let de_g =
        bound::with_bound(&bound::with_de_lifetime(c.generics), &quote!(#p::serde_core::Deserialize<#de_lt>));
    let (de_impl, _, de_where) = de_g.split_for_impl();

    let Items { encode, encode_hooks, decode, decode_hooks } = match frame(c) {
        Some(frame) => array_items(c, &frame),
        None if c.repr() == Repr::Packed => packed_items(c),
        // Maps take the serde path whole: the traits' provided methods.
        None => Items::default(),
    };
    quote! {
        impl #ser_impl #p::Encode for #ident #ty_g #ser_where {
            #encode
        }

        impl #ser_impl #p::EncodeHooks for #ident #ty_g #ser_where {
            #encode_hooks
        }

        impl #de_impl #p::Decode<#de_lt> for #ident #ty_g #de_where {
            #decode
        }

        impl #de_impl #p::DecodeHooks<#de_lt> for #ident #ty_g #de_where {
            #decode_hooks
        }
    }
}

/// The items of the four impls: `Encode`, `EncodeHooks`, `Decode`, `DecodeHooks`.
#[derive(Default)]
struct Items {
    encode: TokenStream,
    encode_hooks: TokenStream,
    decode: TokenStream,
    decode_hooks: TokenStream,
}

/// `encode` and `decode` of a struct written as an array (header, then each field).
fn array_items(c: &Container<'_>, frame: &TokenStream) -> Items {
    let fixed = fixed::layout(c);
    Items {
        encode: array_encode(c, frame, fixed.as_ref()),
        encode_hooks: TokenStream::new(),
        decode: array_decode(c, frame, fixed.as_ref()),
        decode_hooks: quote!(
            const CHECKS_END: bool = true;
        ),
    }
}

/// `encode` of a struct written as an array: its fixed part at once when `fixed` (its layout
/// constants) is given, then each field not written yet.
fn array_encode(c: &Container<'_>, frame: &TokenStream, fixed: Option<&TokenStream>) -> TokenStream {
    let p = &c.private;
    let fixed_part = fixed.map(|layout| fixed::encode_part(c, layout));
    let writes = c.fields.iter().enumerate().map(|(i, f)| {
        let write = encode_field(c, f);
        match fixed {
            Some(_) => fixed::unless_written(c, i, write),
            None => write,
        }
    });
    encode_method(
        c,
        quote! {
            #[allow(unused_imports)]
            use #p::{EncodeDirect as _, EncodeSerde as _};
            #p::encode_struct(self, __enc, __s, #frame, |__s| {
                #fixed_part
                #(#writes)*
                #p::core::result::Result::Ok(())
            })
        },
    )
}

/// `Encode::encode` with `body` (`self`, `__enc` and the serializer `__s` in scope).
fn encode_method(c: &Container<'_>, body: TokenStream) -> TokenStream {
    let p = &c.private;
    quote! {
        #[inline]
        fn encode<__O: #p::Output>(
            &self,
            __enc: #p::core::option::Option<#p::Encoding>,
            __s: &mut #p::B2Serializer<__O>,
        ) -> #p::B2Result<()> {
            #body
        }
    }
}

/// `Decode::decode` with `body` (`__enc` and the deserializer `__d` in scope).
fn decode_method(c: &Container<'_>, body: TokenStream) -> TokenStream {
    let p = &c.private;
    let de_lt = bound::de_lifetime();
    quote! {
        #[inline]
        fn decode(
            __enc: #p::core::option::Option<#p::Encoding>,
            __d: &mut #p::B2Deserializer<#de_lt>,
        ) -> #p::B2Result<Self> {
            #body
        }
    }
}

/// `decode` of a struct written as an array: its fixed part at constant offsets when `fixed` is
/// given, each field after it, the checks, and the struct built last, where it is returned
/// (unless a computed field's expression needs the built struct).
fn array_decode(c: &Container<'_>, frame: &TokenStream, fixed: Option<&TokenStream>) -> TokenStream {
    let p = &c.private;
    let ident = c.ident;
    let start = fixed.map(|layout| fixed::decode_start(c, layout));
    let end = fixed.map(|_| fixed::decode_end(c));
    let reads = c.fields.iter().enumerate().map(|(i, f)| decode_field(c, f, fixed.map(|_| i)));
    let locals: Vec<_> = c.fields.iter().map(local).collect();
    let idents = c.fields.iter().map(|f| f.ident);
    let value = quote!(#ident { #(#idents: #locals),* });
    // The last field read is named if bytes are left after the struct (its count may be wrong).
    let note_last = c.fields.last().map(|f| {
        let name = f.name();
        quote!(#p::note_last(__d, #name, __at);)
    });
    let tail = match locals::checks(c, &local) {
        Some(checks) => quote! {
            #checks
            #p::close(__d, __open)?;
            #p::core::result::Result::Ok(#value)
        },
        None => quote!(#p::finish(__d, __open, #value, Self::__b2schema_check)),
    };
    decode_method(
        c,
        quote! {
            #[allow(unused_imports)]
            use #p::{DecodeDirect as _, DecodeSerde as _};
            #p::decode_struct(__enc, __d, #frame, |__d, __open| {
                #start
                #(#reads)*
                #end
                #note_last
                #tail
            })
        },
    )
}

/// `encode` and `decode` of a packed struct: its bytes in one piece under the field's framing.
fn packed_items(c: &Container<'_>) -> Items {
    let p = &c.private;
    let de_lt = bound::de_lifetime();
    let packed = decode_packed(c);
    let decode = decode_method(c, quote!(#p::decode_bytes_framed(#p::packed_encoding(__enc), __d)));
    let decode_hooks = quote! {
        #[inline]
        fn decode_exact(
            __enc: #p::core::option::Option<#p::Encoding>,
            __bytes: &#de_lt [u8],
        ) -> #p::core::option::Option<Self> {
            #p::decode_exact_framed(#p::packed_encoding(__enc), __bytes)
        }

        #packed
    };
    let (encode, encode_hooks) = encode_packed(c);
    Items { encode, encode_hooks, decode, decode_hooks }
}

/// The `Frame` of a struct written as an array, `None` for maps and packed structs.
fn frame(c: &Container<'_>) -> Option<TokenStream> {
    let p = &c.private;
    let n = c.fields.len();
    let (encoding, mode) = match (c.repr(), c.minimal()) {
        (Repr::Array, false) => (quote!(FixArray), quote!(FixedArray)),
        (Repr::Array, true) => (quote!(FixArray), quote!(MinimalArray)),
        (Repr::Array16, false) => (quote!(Array16), quote!(FixedArray)),
        (Repr::Array16, true) => (quote!(Array16), quote!(MinimalArray)),
        (Repr::Map | Repr::Packed, _) => return None,
    };
    Some(quote!(#p::Frame { encoding: #p::Encoding::#encoding, mode: #p::ModeSwitch::#mode, len: #n }))
}

pub(crate) fn local(f: &Field<'_>) -> syn::Ident {
    format_ident!("__field_{}", f.ident)
}

fn encode_field(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let p = &c.private;
    let name = f.name();
    let ty = f.ty;
    let enc = encoding(c, f);
    let probe = quote!((&&#p::Probe::<#ty>::new()));
    let write = match source(c, f) {
        Source::Computed(method) => quote! {
            match self.#method() {
                #p::core::result::Result::Ok(__v) => #probe.encode_value(&__v, #enc, __s),
                #p::core::result::Result::Err(__m) => #p::core::result::Result::Err(#p::ser_custom(__m)),
            }
        },
        Source::Value { binding, value, check } => {
            let check = check.map(|check| quote!(#check.map_err(#p::ser_custom::<#p::Error>)?;));
            quote!({ #binding #check #probe.encode_value(&#value, #enc, __s) })
        }
        Source::Serde(value) => quote!(#p::encode_serde(#value, #enc, __s)),
    };
    quote! {
        #p::encode_field(__s, #name, |__s| #write)?;
    }
}

/// `let __check = |__v: &T| ...;`: the serde impl's checks of one field's own value (constants,
/// fixed lengths), when it has any.
fn check_closure(c: &Container<'_>, f: &Field<'_>) -> Option<TokenStream> {
    let p = &c.private;
    let ty = f.ty;
    let checks = de::field_checks(c, f)?;
    Some(quote! {
        let __check = |__v: &#ty| -> #p::core::result::Result<(), #p::String> {
            #checks
            #p::core::result::Result::Ok(())
        };
    })
}

/// Reads one field into its local: at its constant offset when `fixed` (its index) is given and
/// the fields before it were all read there, else straight from its type's code (no `Result` in
/// between, so the value is not copied through one), naming the field in an error.
fn decode_field(c: &Container<'_>, f: &Field<'_>, fixed: Option<usize>) -> TokenStream {
    let p = &c.private;
    let name = f.name();
    let ty = f.ty;
    let enc = encoding(c, f);
    let local = local(f);
    // A declared length (`fixstr(len = N)`) is checked on the marker before the bytes are read.
    let len_check = f.attrs.len.as_ref().map(|len| {
        let n = len.value;
        let fenc = f.encoding(p);
        quote! {
            if let #p::core::result::Result::Err(__e) = #p::check_len_marker(__d, #fenc, #n) {
                return #p::core::result::Result::Err(#p::field_error(__e, __at, #name, __d, __open));
            }
        }
    });
    let read = quote! {
        let __at = #p::B2Deserializer::position(__d);
        #len_check
        match (&&#p::Probe::<#ty>::new()).decode_value(#enc, __d) {
            #p::core::result::Result::Ok(__v) => (__v, __at),
            #p::core::result::Result::Err(__e) => {
                return #p::core::result::Result::Err(#p::field_error(__e, __at, #name, __d, __open));
            }
        }
    };
    let read = match fixed {
        Some(i) => fixed::read(c, f, i, read),
        None => quote!({ #read }),
    };
    let checks = check_closure(c, f).map(|check| {
        quote! {
            #check
            if let #p::core::result::Result::Err(__m) = __check(&#local) {
                return #p::core::result::Result::Err(#p::field_error(#p::custom(__m), __at, #name, __d, __open));
            }
        }
    });
    quote! {
        let (#local, __at): (#ty, usize) = #read;
        #checks
    }
}

/// `decode_packed` of a packed struct: its fields one after the other from the bytes, then the
/// checks; any failure gives `None` and the serde path reports it.
fn decode_packed(c: &Container<'_>) -> TokenStream {
    let p = &c.private;
    let ident = c.ident;
    let de_lt = bound::de_lifetime();
    let reads = c.fields.iter().map(|f| {
        let ty = f.ty;
        let local = local(f);
        let checks = check_closure(c, f).map(|check| {
            quote! {
                #check
                if __check(&#local).is_err() {
                    return #p::core::option::Option::None;
                }
            }
        });
        quote! {
            let #local: #ty = (&&#p::Probe::<#ty>::new()).decode_packed_value(__bytes, __at)?;
            #checks
        }
    });
    let locals = c.fields.iter().map(local);
    let idents = c.fields.iter().map(|f| f.ident);
    quote! {
        #[inline]
        fn decode_packed(__bytes: &#de_lt [u8], __at: &mut usize) -> #p::core::option::Option<Self> {
            #[allow(unused_imports)]
            use #p::{DecodeDirect as _, DecodeSerde as _};
            #(#reads)*
            let __value = #ident { #(#idents: #locals),* };
            __value.__b2schema_check().ok()?;
            #p::core::option::Option::Some(__value)
        }
    }
}

/// `encode`, then `packed_len` and `encode_packed` (the hooks) of a packed struct: its fields as
/// bare bytes, under the field's byte framing, in one piece.
fn encode_packed(c: &Container<'_>) -> (TokenStream, TokenStream) {
    let p = &c.private;
    let n = c.fields.len();
    let lens = c.fields.iter().map(|f| {
        let ty = f.ty;
        quote!(__n += (&&#p::Probe::<#ty>::new()).packed_len()?;)
    });
    // Constants and computed fields write what the serde path writes: a packed struct holding
    // them takes that path.
    let plain = c
        .fields
        .iter()
        .all(|f| f.attrs.magic.is_none() && f.attrs.computed.is_none() && f.attrs.len.is_none());
    let writes = c.fields.iter().map(|f| {
        let ty = f.ty;
        let id = f.ident;
        quote!((&&#p::Probe::<#ty>::new()).encode_packed_value(&self.#id, __s)?;)
    });
    let packed_len = if plain {
        quote! {
            let mut __n = 0usize;
            #(#lens)*
            #p::core::option::Option::Some(__n)
        }
    } else {
        quote!(#p::core::option::Option::None)
    };
    let len = quote! {
        match <Self as #p::B2Layout>::LAYOUT.fixed_len {
            #p::core::option::Option::Some(__n) => __n,
            #p::core::option::Option::None => #n,
        }
    };
    let encode =
        encode_method(c, quote!(#p::encode_bytes_framed(self, #p::packed_encoding(__enc), __enc, #len, __s)));
    let hooks = quote! {
        #[inline]
        fn packed_len() -> #p::core::option::Option<usize> {
            #[allow(unused_imports)]
            use #p::{EncodeDirect as _, EncodeSerde as _};
            #packed_len
        }

        #[inline]
        fn encode_packed<__O: #p::Output>(&self, __s: &mut #p::B2Serializer<__O>) -> #p::B2Result<()> {
            #[allow(unused_imports)]
            use #p::{EncodeDirect as _, EncodeSerde as _};
            #(#writes)*
            #p::core::result::Result::Ok(())
        }
    };
    (encode, hooks)
}
