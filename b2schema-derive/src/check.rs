//! Checks across attributes: what no single `#[b2(...)]` shows wrong alone, but the struct does
//! (a field's encoding against the container's representation, a length against the field's
//! type, a constant against its encoding, an offset against the generics). As in serde_derive's
//! `internals/check.rs`, what one attribute list shows alone (an unknown key, a duplicate, two
//! container representations) is refused where it is parsed, in `attr`.
//!
//! Every error points at the offending tokens; all of them are collected, not only the first.

use syn::Type;
use syn::spanned::Spanned;

use crate::ast::{Container, Field, Repr};
use crate::attr::{self, Errors};
use crate::types;

/// Runs every check on the parsed struct, in the order of the fields, so that the errors come
/// out in the order of the source.
pub fn check(c: &Container<'_>, errors: &mut Errors) {
    check_field_count(c, errors);
    for f in &c.fields {
        check_packed_encoding(c, f, errors);
        check_len_type(f, errors);
        check_magic_bytes(c, f, errors);
        check_offset_generics(c, f, errors);
        check_distinct_values(f, errors);
        check_encoding_fits_type(c, f, errors);
        check_packed_field_type(c, f, errors);
    }
}

/// Types that cannot tell two values apart, or write what they cannot read back.
fn check_distinct_values(f: &Field<'_>, errors: &mut Errors) {
    if let Some(ty) = types::option_in_option(f.ty) {
        errors.error(
            ty.span(),
            format!(
                "`Option<Option<_>>` in field `{}`: `Some(None)` and `None` are both written `c0` and \
                 read back as `None`; use one `Option` (or an enum-like integer field beside it)",
                f.name()
            ),
        );
    }
    if let Some(r) = types::borrowed_other(f.ty) {
        errors.error(
            r.span(),
            format!(
                "field `{}` borrows `{}`: a decoder can lend only `&str` and `&[u8]` from its input; \
                 hold the value itself (`{}`), or a `Box` of it",
                f.name(),
                crate::ast::type_text(r),
                crate::ast::type_text(&r.elem),
            ),
        );
    }
    if let Some(ty) = types::nested_borrowed_bytes(f.ty) {
        errors.error(
            ty.span(),
            format!(
                "`&[u8]` inside a container in field `{}`: serde writes it as an array of fixints but \
                 reads it as bytes; use `Vec<u8>` (an array of fixints) or make it a field of its own \
                 (written as bin32)",
                f.name()
            ),
        );
    }
}

/// An encoding of another family than the field's primitive type (`#[b2(float64)]` on an
/// `i32`), or a `fixstr(len = N)` on an array of another length, can never encode.
fn check_encoding_fits_type(c: &Container<'_>, f: &Field<'_>, errors: &mut Errors) {
    if let (Some(len), Some((n, _))) = (&f.attrs.len, types::array_len(f.ty))
        && len.value != n
    {
        errors.error(
            len.span,
            format!(
                "`fixstr(len = {})` on `{}`: the array holds {n} bytes; write `fixstr(len = {n})` or `fixstr`",
                len.value,
                f.type_string()
            ),
        );
    }
    let (Some(e), Some(prim)) = (&f.attrs.encoding, types::primitive(f.ty)) else { return };
    // A byte-string constant on a non-byte type has its own error, at the constant.
    let bytes_magic = f.attrs.magic.as_ref().is_some_and(|m| crate::tokens::byte_string(&m.value).is_some());
    if c.repr() == Repr::Packed || bytes_magic {
        return;
    }
    let int_encs = ["FixInt", "Uint8", "Uint16", "Uint32", "Uint64", "Int8", "Int16", "Int32", "Int64"];
    let (fits, instead) = if types::is_int(&prim) {
        (
            int_encs.contains(&e.value) || (e.value == "Raw" && matches!(prim.as_str(), "u8" | "i8")),
            "an integer encoding (fixint, uint8 ... uint64, int8 ... int64)",
        )
    } else if prim == "f32" || prim == "f64" {
        (matches!(e.value, "Float32" | "Float64"), "`float32` or `float64`")
    } else if prim == "bool" {
        (false, "no attribute (a bool is `c2`/`c3`)")
    } else if prim == "String" {
        (matches!(e.value, "FixStr" | "Str32" | "Bin32"), "`fixstr`, `str32` or `bin32`")
    } else {
        (true, "")
    };
    if !fits {
        errors.error(
            e.span,
            format!(
                "`{}` cannot encode field `{}` of type `{prim}`: write {instead}",
                attr::attr_name(e.value),
                f.name()
            ),
        );
    }
}

/// A packed struct holds bare bytes: a field whose type has no byte form (`i32`, `f64`, text,
/// a `Vec`, an `Option`) can never be written there.
fn check_packed_field_type(c: &Container<'_>, f: &Field<'_>, errors: &mut Errors) {
    if c.repr() != Repr::Packed {
        return;
    }
    let bad = match types::primitive(f.ty) {
        Some(p) => !matches!(p.as_str(), "u8" | "i8" | "bool"),
        None => {
            matches!(types::path_args(f.ty), Some((n, _)) if matches!(n.as_str(), "Vec" | "Option" | "Cow" | "BTreeMap" | "HashMap" | "Box"))
                || matches!(f.ty, Type::Reference(_) | Type::Slice(_) | Type::Tuple(_))
        }
    };
    if bad {
        errors.error(
            f.ty.span(),
            format!(
                "field `{}` of a packed struct is `{}`, which has no form as bare bytes: a packed struct \
                 holds `u8`, `i8`, `bool`, `[u8; N]` and packed structs (write `[u8; N]` and convert, or \
                 remove `packed`)",
                f.name(),
                f.type_string()
            ),
        );
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
