//! The fixed part of a struct written as an array: its leading fields of fixed width, which sit
//! at the constant offsets its layout states. The direct encoder writes them into a stack buffer
//! at those offsets and appends it in one piece; the direct decoder checks once that the input
//! holds them and reads each at its offset, as a decoder written by hand for the layout would.
//!
//! Either way, a field that is not exactly its layout's bytes (a value its encoding cannot hold,
//! a wrong marker, a short input) sends the struct back to the field-by-field path, from the
//! start of the struct when writing and from that field when reading, so that the bytes and the
//! errors are the field-by-field path's own.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Container, Field};
use crate::bound;
use crate::source::{Source, encoding, source};

/// `__LAYOUT` and `__PREFIX`, the struct's layout and the bytes of its fixed part from the first
/// field, `None` when the struct is generic (its layout is then not a constant here).
pub fn layout(c: &Container<'_>) -> Option<TokenStream> {
    let p = &c.private;
    let ty = bound::static_type(c.ident, c.generics)?;
    Some(quote! {
        const __LAYOUT: &#p::Layout = <#ty as #p::B2Layout>::LAYOUT;
        const __PREFIX: usize = #p::layout::fixed_prefix_len(__LAYOUT);
    })
}

/// The start of an encoder body: `__fast` when the fixed part fits the output and every field of
/// it was written exactly into `__fixed`, which is then appended.
pub fn encode_part(c: &Container<'_>, layout: &TokenStream) -> TokenStream {
    let p = &c.private;
    let exact = c.fields.iter().enumerate().map(|(i, f)| exact_write(c, f, i));
    quote! {
        #layout
        let __config = #p::B2Serializer::config(__s);
        let mut __fixed = [0u8; __PREFIX];
        let __fast = __PREFIX > 0 && #p::fits(__s, __PREFIX) #(&& #exact)*;
        if __fast {
            #p::write_fixed(__s, &__fixed)?;
        }
    }
}

/// `write`, the field-by-field write of field `i`, unless the fixed part holding it was written.
pub fn unless_written(c: &Container<'_>, i: usize, write: TokenStream) -> TokenStream {
    let p = &c.private;
    quote! {
        if !(__fast && const { #p::layout::fixed_field(__LAYOUT, #i).is_some() }) {
            #write
        }
    }
}

/// Whether field `i`, written into its range of `__fixed`, is exactly the bytes its own encoder
/// writes (`true` for a field outside the fixed part). Each kind of field gives its encoder the
/// value the field-by-field path gives it.
fn exact_write(c: &Container<'_>, f: &Field<'_>, i: usize) -> TokenStream {
    let p = &c.private;
    let ty = f.ty;
    let enc = encoding(c, f);
    let probe = quote!((&&#p::Probe::<#ty>::new()));
    let exact = match source(c, f) {
        Source::Computed(method) => quote! {
            match self.#method() {
                #p::core::result::Result::Ok(__v) => #probe.encode_exact_value(&__v, #enc, __out, __config),
                #p::core::result::Result::Err(_) => false,
            }
        },
        Source::Value { binding, value, check } => {
            let check = check.map(|check| quote!(#check.is_ok() &&));
            quote!({ #binding #check #probe.encode_exact_value(&#value, #enc, __out, __config) })
        }
        Source::Serde(value) => {
            quote!(#p::encode_exact_with(__out, __config, |__s| #p::encode_serde(#value, #enc, __s)))
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

/// The start of a decoder body. `__fixed` holds the fixed part's bytes, so that each field is read
/// from a constant range of an array, with no bounds check; `__fast` starts true when the input
/// has them all (else `__fixed` is zeros, never read) and stays true while every field read so
/// far was exactly its layout's bytes.
pub fn decode_start(c: &Container<'_>, layout: &TokenStream) -> TokenStream {
    let p = &c.private;
    quote! {
        #layout
        let __base = #p::B2Deserializer::position(__d);
        let (__fixed, mut __fast) = match #p::B2Deserializer::remaining_input(__d).first_chunk::<__PREFIX>() {
            #p::core::option::Option::Some(__bytes) => (__bytes, __PREFIX > 0),
            #p::core::option::Option::None => (&[0u8; __PREFIX], false),
        };
    }
}

/// The end of a decoder's reads: when every field was in the fixed part and read there, the
/// deserializer moves past it.
pub fn decode_end(c: &Container<'_>) -> TokenStream {
    let p = &c.private;
    quote! {
        if __fast {
            #p::resume(__d, __base + __PREFIX);
        }
    }
}

/// Reads field `i` (its value and offset) at its constant offset while `__fast` holds, else with
/// `read`, its field-by-field read. The first field that is not exactly its layout's bytes, or
/// the first one past the fixed part, moves the deserializer to where it starts and clears
/// `__fast`, so that it and every field after it are read from the input.
pub fn read(c: &Container<'_>, f: &Field<'_>, i: usize, read: TokenStream) -> TokenStream {
    let p = &c.private;
    let ty = f.ty;
    let enc = encoding(c, f);
    quote! {
        'read: {
            if __fast {
                match const { #p::layout::fixed_field(__LAYOUT, #i) } {
                    #p::core::option::Option::Some((__o, __w)) => {
                        let __exact = __fixed
                            .get(__o..__o + __w)
                            .and_then(|__in| (&&#p::Probe::<#ty>::new()).decode_exact_value(#enc, __in));
                        if let #p::core::option::Option::Some(__v) = __exact {
                            break 'read (__v, __base + __o);
                        }
                        #p::resume(__d, __base + __o);
                    }
                    #p::core::option::Option::None => #p::resume(__d, __base + __PREFIX),
                }
                __fast = false;
            }
            #read
        }
    }
}
