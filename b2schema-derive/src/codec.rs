//! The generated `Encode` and `Decode` impls: the direct codec of a struct written as an array.
//! The container header is a constant, each field goes to its type's direct code (or through
//! serde when the type has none, chosen at compile time by `Probe`), and the checks are the
//! serde impl's own, so both paths give the same bytes and the same errors.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ast::{Container, Field, Repr};
use crate::{bound, de, locals, ser};

/// `Encode` and `Decode` for the struct. Maps and packed structs take the serde path whole.
pub fn expand(c: &Container<'_>) -> TokenStream {
    let k = &c.krate;
    let p = quote!(#k::__private);
    let ident = c.ident;
    let ser_g = bound::with_bound(c.generics, &quote!(#p::serde_core::Serialize));
    let (ser_impl, ty_g, ser_where) = ser_g.split_for_impl();
    let de_lt = bound::de_lifetime();
    let de_g =
        bound::with_bound(&bound::with_de_lifetime(c.generics), &quote!(#p::serde_core::Deserialize<#de_lt>));
    let (de_impl, _, de_where) = de_g.split_for_impl();

    let (encode, decode) = match frame(c) {
        Some(frame) => array_items(c, &frame),
        None if c.repr() == Repr::Packed => packed_items(c),
        // Maps take the serde path whole: the traits' provided methods.
        None => (TokenStream::new(), TokenStream::new()),
    };
    quote! {
        impl #ser_impl #p::Encode for #ident #ty_g #ser_where {
            #encode
        }

        impl #de_impl #p::Decode<#de_lt> for #ident #ty_g #de_where {
            #decode
        }
    }
}

/// `encode` and `decode` of a struct written as an array (header, then each field).
fn array_items(c: &Container<'_>, frame: &TokenStream) -> (TokenStream, TokenStream) {
    let k = &c.krate;
    let p = quote!(#k::__private);
    let ident = c.ident;
    let de_lt = bound::de_lifetime();
    let fixed = fixed_layout(c);
    let fast = fixed.is_some();
    let writes = c.fields.iter().enumerate().map(|(i, f)| {
        let write = encode_field(c, f);
        match fast {
            // A field of the fixed part is written here only when that part was not written at
            // once.
            true => quote! {
                if !(__fast && const { #p::layout::fixed_field(__LAYOUT, #i).is_some() }) {
                    #write
                }
            },
            false => write,
        }
    });
    let exact_writes: Vec<_> = c.fields.iter().enumerate().map(|(i, f)| encode_exact(c, f, i)).collect();
    let fixed_part = fixed.as_ref().map(|layout| {
        quote! {
            #layout
            let __config = #p::B2Serializer::config(__s);
            let mut __fixed = [0u8; __PREFIX];
            let __fast = __PREFIX > 0 && #p::fits(__s, __PREFIX) #(&& #exact_writes)*;
            if __fast {
                #p::write_fixed(__s, &__fixed)?;
            }
        }
    });
    let prefix = fixed_prefix(c, fixed.as_ref());
    let fast = prefix.is_some();
    let reads = c.fields.iter().enumerate().map(|(i, f)| decode_field(c, f, fast.then_some(i)));
    let locals: Vec<_> = c.fields.iter().map(local).collect();
    let idents: Vec<_> = c.fields.iter().map(|f| f.ident).collect();
    let encode = quote! {
        #[inline]
        fn encode<__O: #p::Output>(
            &self,
            __enc: #p::core::option::Option<#p::Encoding>,
            __s: &mut #p::B2Serializer<__O>,
        ) -> #p::B2Result<()> {
            #[allow(unused_imports)]
            use #p::{EncodeDirect as _, EncodeSerde as _};
            #p::encode_struct(self, __enc, __s, #frame, |__s| {
                #fixed_part
                #(#writes)*
                #p::core::result::Result::Ok(())
            })
        }
    };
    // All fields read at constant offsets: the deserializer moves past them at the end.
    let end_prefix = fast.then(|| {
        quote! {
            if __fast {
                #p::resume(__d, __base + __PREFIX);
            }
        }
    });
    let value = quote!(#ident { #(#idents: #locals),* });
    let tail = match checks_on_locals(c) {
        // The struct is built last, where it is returned.
        Some(checks) => quote! {
            #checks
            #p::close(__d, __open)?;
            #p::core::result::Result::Ok(#value)
        },
        None => quote!(#p::finish(__d, __open, #value, Self::__b2schema_check)),
    };
    let decode = quote! {
        const CHECKS_END: bool = true;

        #[inline]
        fn decode(
            __enc: #p::core::option::Option<#p::Encoding>,
            __d: &mut #p::B2Deserializer<#de_lt>,
        ) -> #p::B2Result<Self> {
            #[allow(unused_imports)]
            use #p::{DecodeDirect as _, DecodeSerde as _};
            #p::decode_struct(__enc, __d, #frame, |__d, __open| {
                #prefix
                #(#reads)*
                #end_prefix
                #tail
            })
        }
    };
    (encode, decode)
}

/// `encode` and `decode` of a packed struct: its bytes in one piece under the field's framing.
fn packed_items(c: &Container<'_>) -> (TokenStream, TokenStream) {
    let k = &c.krate;
    let p = quote!(#k::__private);
    let de_lt = bound::de_lifetime();
    let packed = decode_packed(c);
    let decode = quote! {
        #[inline]
        fn decode(
            __enc: #p::core::option::Option<#p::Encoding>,
            __d: &mut #p::B2Deserializer<#de_lt>,
        ) -> #p::B2Result<Self> {
            #p::decode_bytes_framed(#p::packed_encoding(__enc), __d)
        }

        #[inline]
        fn decode_exact(
            __enc: #p::core::option::Option<#p::Encoding>,
            __bytes: &#de_lt [u8],
        ) -> #p::core::option::Option<Self> {
            #p::decode_exact_framed(#p::packed_encoding(__enc), __bytes)
        }

        #packed
    };
    (encode_packed(c), decode)
}

/// The checks of the computed fields on the locals the fields were read into (the serde impl's
/// `__b2schema_check`, with each `self.field` read from its local), `None` when an expression
/// needs the struct itself.
fn checks_on_locals(c: &Container<'_>) -> Option<TokenStream> {
    let k = &c.krate;
    let p = quote!(#k::__private);
    let mut out = TokenStream::new();
    for f in &c.fields {
        let Some(expr) = &f.attrs.computed else { continue };
        let expr = locals::over_locals(&expr.value, &c.fields, &local)?;
        let text = crate::layout::expr_text(&f.attrs.computed.as_ref()?.value);
        let (ty, name, local) = (f.ty, f.name(), local(f));
        out.extend(quote! {
            let __expected: #ty = match #p::computed(#expr, #name) {
                #p::core::result::Result::Ok(__v) => __v,
                #p::core::result::Result::Err(__m) => {
                    return #p::core::result::Result::Err(#p::check_failed(__m, __d, __open));
                }
            };
            if __expected != #local {
                let __m = #p::computed_mismatch(#name, &#local, #text, &__expected);
                return #p::core::result::Result::Err(#p::check_failed(__m, __d, __open));
            }
        });
    }
    Some(out)
}

/// The `Frame` of a struct written as an array, `None` for maps and packed structs.
fn frame(c: &Container<'_>) -> Option<TokenStream> {
    let k = &c.krate;
    let p = quote!(#k::__private);
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

fn local(f: &Field<'_>) -> syn::Ident {
    format_ident!("__field_{}", f.ident)
}

/// `Some(Encoding::X)` for a field with an encoding attribute, else `None` (its type's own).
fn encoding(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let k = &c.krate;
    let p = quote!(#k::__private);
    match &f.attrs.encoding {
        Some(_) => {
            let enc = f.encoding(k);
            quote!(#p::core::option::Option::Some(#enc))
        }
        None => quote!(#p::core::option::Option::None),
    }
}

fn encode_field(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let k = &c.krate;
    let p = quote!(#k::__private);
    let name = f.name();
    let ty = f.ty;
    let enc = encoding(c, f);
    let probe = quote!((&&#p::Probe::<#ty>::new()));
    let write = match (&f.attrs.magic, &f.attrs.computed, &f.attrs.len) {
        // A byte-string constant: its bytes under the field's encoding.
        (Some(m), _, None) if ser::byte_string(&m.value).is_some() => {
            let lit = ser::byte_string(&m.value);
            quote!(#p::Encode::encode(&#p::ByteStr(*#lit), #enc, __s))
        }
        (None, Some(_), None) => {
            let method = ser::computed_method(f);
            quote! {
                match self.#method() {
                    #p::core::result::Result::Ok(__v) => #probe.encode_value(&__v, #enc, __s),
                    #p::core::result::Result::Err(__m) => #p::core::result::Result::Err(#p::ser_custom(__m)),
                }
            }
        }
        (None, None, len) => {
            let id = f.ident;
            let check = len.as_ref().map(|len| {
                let n = len.value;
                quote! {
                    #p::check_len(#name, #p::ByteLen::byte_len(&self.#id), #n).map_err(#p::ser_custom::<#p::Error>)?;
                }
            });
            quote!({ #check #probe.encode_value(&self.#id, #enc, __s) })
        }
        // Other constants (and lengths on them) go through the serde value as it is.
        _ => {
            let value = ser::value(c, f);
            quote!(#p::encode_serde(#value, #enc, __s))
        }
    };
    quote! {
        #p::encode_field(__s, #name, |__s| #write)?;
    }
}

/// `let __check = |__v: &T| ...;`: the serde impl's checks of one field's own value (constants,
/// fixed lengths), when it has any.
fn check_closure(c: &Container<'_>, f: &Field<'_>) -> Option<TokenStream> {
    let k = &c.krate;
    let p = quote!(#k::__private);
    let ty = f.ty;
    let checks = de::field_checks(c, f)?;
    Some(quote! {
        let __check = |__v: &#ty| -> #p::core::result::Result<(), #p::String> {
            #checks
            #p::core::result::Result::Ok(())
        };
    })
}

/// `__LAYOUT` and `__PREFIX`, the struct's layout and the bytes of its fixed part (its leading
/// fixed-width fields), `None` when the struct is generic (its layout is then not a constant).
fn fixed_layout(c: &Container<'_>) -> Option<TokenStream> {
    let k = &c.krate;
    let p = quote!(#k::__private);
    let ty = bound::static_type(c.ident, c.generics)?;
    Some(quote! {
        const __LAYOUT: &#p::Layout = <#ty as #p::B2Layout>::LAYOUT;
        const __PREFIX: usize = #p::layout::fixed_prefix_len(__LAYOUT);
    })
}

/// Whether field `i` of the fixed part, written into its constant range of `__fixed`, is the
/// bytes its own encoder writes (`true` for a field outside the fixed part). Each kind of field
/// gives the value its encoder is given, so the bytes are the same either way.
fn encode_exact(c: &Container<'_>, f: &Field<'_>, i: usize) -> TokenStream {
    let k = &c.krate;
    let p = quote!(#k::__private);
    let ty = f.ty;
    let enc = encoding(c, f);
    let probe = quote!((&&#p::Probe::<#ty>::new()));
    let out = quote!(__out);
    let exact = match (&f.attrs.magic, &f.attrs.computed, &f.attrs.len) {
        (Some(m), _, None) if ser::byte_string(&m.value).is_some() => {
            let lit = ser::byte_string(&m.value);
            quote!(#p::Encode::encode_exact(&#p::ByteStr(*#lit), #enc, #out, __config))
        }
        (None, Some(_), None) => {
            let method = ser::computed_method(f);
            quote! {
                match self.#method() {
                    #p::core::result::Result::Ok(__v) => #probe.encode_exact_value(&__v, #enc, #out, __config),
                    #p::core::result::Result::Err(_) => false,
                }
            }
        }
        (None, None, len) => {
            let id = f.ident;
            let name = f.name();
            let check = len.as_ref().map(|len| {
                let n = len.value;
                quote!(#p::check_len(#name, #p::ByteLen::byte_len(&self.#id), #n).is_ok() &&)
            });
            quote!(#check #probe.encode_exact_value(&self.#id, #enc, #out, __config))
        }
        _ => {
            let value = ser::value(c, f);
            quote!(#p::encode_exact_with(#out, __config, |__s| #p::encode_serde(#value, #enc, __s)))
        }
    };
    quote! {
        match const { #p::layout::fixed_field(__LAYOUT, #i) } {
            #p::core::option::Option::None => true,
            #p::core::option::Option::Some((__o, __w)) => match __fixed.get_mut(__o..__o + __w) {
                #p::core::option::Option::Some(__out) => #exact,
                #p::core::option::Option::None => false,
            },
        }
    }
}

/// The start of a struct body that reads its leading fixed-width fields at constant offsets (the
/// offsets its layout states, from where the first field starts), `None` when the struct is
/// generic (its layout is then not a constant here).
///
/// `__fixed` holds those fields' bytes when the input has them all, so that each field is read
/// from a constant range of an array, with no bounds check. `__fast` stays true while every field
/// read so far was exactly its layout's bytes; the first field that is not (or the first one
/// past the fixed part) moves the deserializer to where it starts and is read the usual way,
/// and so is every field after it: the errors are the field-by-field path's own.
fn fixed_prefix(c: &Container<'_>, layout: Option<&TokenStream>) -> Option<TokenStream> {
    let k = &c.krate;
    let p = quote!(#k::__private);
    let layout = layout?;
    Some(quote! {
        #layout
        let __base = #p::B2Deserializer::position(__d);
        let __fixed = #p::B2Deserializer::remaining_input(__d).first_chunk::<__PREFIX>();
        let mut __fast = __PREFIX > 0 && __fixed.is_some();
    })
}

/// Reads one field into its local: at its constant offset when `fixed` (its index) is given and
/// the fields before it were all read there, else straight from its type's code (no `Result` in
/// between, so the value is not copied through one), naming the field in an error.
fn decode_field(c: &Container<'_>, f: &Field<'_>, fixed: Option<usize>) -> TokenStream {
    let k = &c.krate;
    let p = quote!(#k::__private);
    let name = f.name();
    let ty = f.ty;
    let enc = encoding(c, f);
    let local = local(f);
    let read = quote! {
        let __at = #p::B2Deserializer::position(__d);
        match (&&#p::Probe::<#ty>::new()).decode_value(#enc, __d) {
            #p::core::result::Result::Ok(__v) => (__v, __at),
            #p::core::result::Result::Err(__e) => {
                return #p::core::result::Result::Err(#p::field_error(__e, __at, #name, __d, __open));
            }
        }
    };
    let read = match fixed {
        Some(i) => quote! {
            'read: {
                if __fast {
                    match (const { #p::layout::fixed_field(__LAYOUT, #i) }, __fixed) {
                        (#p::core::option::Option::Some((__o, __w)), #p::core::option::Option::Some(__bytes)) => {
                            let __exact = __bytes
                                .get(__o..__o + __w)
                                .and_then(|__in| (&&#p::Probe::<#ty>::new()).decode_exact_value(#enc, __in));
                            if let #p::core::option::Option::Some(__v) = __exact {
                                break 'read (__v, __base + __o);
                            }
                            #p::resume(__d, __base + __o);
                        }
                        _ => #p::resume(__d, __base + __PREFIX),
                    }
                    __fast = false;
                }
                #read
            }
        },
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
    let k = &c.krate;
    let p = quote!(#k::__private);
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

/// `encode`, `packed_len` and `encode_packed` of a packed struct: its fields as bare bytes, under
/// the field's byte framing, in one piece.
fn encode_packed(c: &Container<'_>) -> TokenStream {
    let k = &c.krate;
    let p = quote!(#k::__private);
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
    quote! {
        #[inline]
        fn encode<__O: #p::Output>(
            &self,
            __enc: #p::core::option::Option<#p::Encoding>,
            __s: &mut #p::B2Serializer<__O>,
        ) -> #p::B2Result<()> {
            #p::encode_bytes_framed(self, #p::packed_encoding(__enc), __enc, #n, __s)
        }

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
    }
}
