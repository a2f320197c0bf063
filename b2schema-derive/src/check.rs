//! Checks across attributes: what no single `#[b2(...)]` shows wrong alone, but the struct does
//! (a field's encoding against the container's representation, a length against the field's
//! type, a constant against its encoding, an offset against the generics). As in serde_derive's
//! `internals/check.rs`, what one attribute list shows alone (an unknown key, a duplicate, two
//! container representations) is refused where it is parsed, in `attr`.
//!
//! Every error points at the offending tokens; all of them are collected, not only the first.

use syn::Type;

use crate::ast::{Container, Field, Repr};
use crate::attr::{self, Errors};

/// Runs every check on the parsed struct, in the order of the fields, so that the errors come
/// out in the order of the source.
pub fn check(c: &Container<'_>, errors: &mut Errors) {
    check_field_count(c, errors);
    for f in &c.fields {
        check_packed_encoding(c, f, errors);
        check_len_type(f, errors);
        check_magic_bytes(c, f, errors);
        check_offset_generics(c, f, errors);
    }
}

/// A fixarray (and a minimal map's fixmap) holds at most 15 fields.
fn check_field_count(c: &Container<'_>, errors: &mut Errors) {
    let n = c.fields.len();
    if c.repr() == Repr::Array && n > 15 {
        errors.error(
            c.ident.span(),
            format!("a fixarray holds at most 15 fields and this struct has {n}: add #[b2(array16)]"),
        );
    }
    if c.repr() == Repr::Map && n > 15 && c.minimal() {
        errors.error(c.ident.span(), format!(
                "a fixmap holds at most 15 fields and this struct has {n}: remove `minimal` to write it as a map16"
            ));
    }
}

/// A packed struct's fields are bare bytes: no encoding but `raw`.
fn check_packed_encoding(c: &Container<'_>, f: &Field<'_>, errors: &mut Errors) {
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
}

/// A length applies to text and bytes; another type (a packed struct) has its own.
fn check_len_type(f: &Field<'_>, errors: &mut Errors) {
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
}

/// A byte-string constant written as an array of fixints (the default of `[u8; N]`, or
/// fixarray, array16, counted) must hold bytes 0..=127.
fn check_magic_bytes(c: &Container<'_>, f: &Field<'_>, errors: &mut Errors) {
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
}

/// Offsets are checked at compile time, which needs the field types known.
fn check_offset_generics(c: &Container<'_>, f: &Field<'_>, errors: &mut Errors) {
    if let Some(o) = &f.attrs.offset
        && c.generics.type_params().next().is_some()
    {
        errors.error(
            o.span,
            "`offset = N` needs a struct without type parameters (offsets are checked at compile time)",
        );
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
