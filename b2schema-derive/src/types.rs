//! What the derive can tell of a field type from its tokens (it sees tokens, not types): borrowed
//! bytes, nested options, the primitive a path names, the elements of arrays and containers.

use syn::{GenericArgument, PathArguments, Type};

/// The type inside groups and parentheses.
fn bare(ty: &Type) -> &Type {
    match ty {
        Type::Group(g) => bare(&g.elem),
        Type::Paren(p) => bare(&p.elem),
        _ => ty,
    }
}

/// The last segment's name and its type arguments (`Vec<T>` gives `("Vec", [T])`).
pub fn path_args(ty: &Type) -> Option<(String, Vec<&Type>)> {
    let Type::Path(p) = bare(ty) else { return None };
    if p.qself.is_some() {
        return None;
    }
    let seg = p.path.segments.last()?;
    let args = match &seg.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some((seg.ident.to_string(), args))
}

/// The single type argument of `Name<T>` when the type is that container.
pub fn inner_of<'t>(ty: &'t Type, name: &str) -> Option<&'t Type> {
    match path_args(ty) {
        Some((n, args)) if n == name && args.len() == 1 => Some(args[0]),
        _ => None,
    }
}

/// The name of the primitive a one-segment path names (`i32`, `f64`, `bool`, `String`...).
pub fn primitive(ty: &Type) -> Option<String> {
    let Type::Path(p) = bare(ty) else { return None };
    let id = p.path.get_ident()?.to_string();
    const PRIMS: &[&str] = &[
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64",
        "bool", "char", "String",
    ];
    PRIMS.contains(&id.as_str()).then_some(id)
}

/// Whether the type is an integer primitive.
pub fn is_int(name: &str) -> bool {
    matches!(
        name,
        "u8" | "u16" | "u32" | "u64" | "i8" | "i16" | "i32" | "i64" | "usize" | "isize" | "u128" | "i128"
    )
}

/// `&[u8]` (any lifetime), or an `Option` of it: borrowed bytes, which serde reads as bytes.
pub fn is_borrowed_bytes(ty: &Type) -> bool {
    match bare(ty) {
        Type::Reference(r) => matches!(bare(&r.elem), Type::Slice(s) if is_u8(&s.elem)),
        other => inner_of(other, "Option").is_some_and(is_borrowed_bytes),
    }
}

/// A reference to anything but `str` or `[u8]` (at the top or in an `Option`), which serde can
/// write but never read back.
pub fn borrowed_other(ty: &Type) -> Option<&syn::TypeReference> {
    match bare(ty) {
        Type::Reference(r) => {
            let lendable = match bare(&r.elem) {
                Type::Slice(s) => is_u8(&s.elem),
                Type::Path(p) => p.path.is_ident("str"),
                _ => false,
            };
            (!lendable).then_some(r)
        }
        other => inner_of(other, "Option").and_then(borrowed_other),
    }
}

/// `u8`.
pub fn is_u8(ty: &Type) -> bool {
    matches!(bare(ty), Type::Path(p) if p.path.is_ident("u8"))
}

/// A `&[u8]` nested in an array or a sequence (`Vec<&[u8]>`, `[&[u8]; 2]`): written as an array
/// of fixints, read as bytes. Returns the offending element type.
pub fn nested_borrowed_bytes(ty: &Type) -> Option<&Type> {
    if is_borrowed_bytes(ty) { None } else { borrowed_bytes_inside(ty) }
}

fn borrowed_bytes_inside(ty: &Type) -> Option<&Type> {
    let elems: Vec<&Type> = match bare(ty) {
        Type::Array(a) => vec![&*a.elem],
        Type::Slice(s) => vec![&*s.elem],
        Type::Reference(r) => return borrowed_bytes_inside(&r.elem),
        Type::Tuple(t) => t.elems.iter().collect(),
        other => path_args(other).map(|(_, args)| args).unwrap_or_default(),
    };
    elems.into_iter().find_map(|e| if is_borrowed_bytes(e) { Some(e) } else { borrowed_bytes_inside(e) })
}

/// An `Option<Option<_>>` anywhere in the type: `Some(None)` and `None` are both `c0`.
pub fn option_in_option(ty: &Type) -> Option<&Type> {
    if let Some(inner) = inner_of(ty, "Option")
        && inner_of(inner, "Option").is_some()
    {
        return Some(ty);
    }
    match bare(ty) {
        Type::Array(a) => option_in_option(&a.elem),
        Type::Slice(s) => option_in_option(&s.elem),
        Type::Reference(r) => option_in_option(&r.elem),
        Type::Tuple(t) => t.elems.iter().find_map(option_in_option),
        other => path_args(other)?.1.into_iter().find_map(option_in_option),
    }
}

/// The length of `[T; N]` when `N` is an integer literal.
pub fn array_len(ty: &Type) -> Option<(usize, &Type)> {
    let Type::Array(a) = bare(ty) else { return None };
    let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. }) = &a.len else { return None };
    Some((n.base10_parse().ok()?, &a.elem))
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn borrowed_bytes_and_nested_options() {
        assert!(is_borrowed_bytes(&parse_quote!(&'a [u8])));
        assert!(is_borrowed_bytes(&parse_quote!(Option<&'a [u8]>)));
        assert!(!is_borrowed_bytes(&parse_quote!(Vec<u8>)));
        assert!(nested_borrowed_bytes(&parse_quote!(Vec<&'a [u8]>)).is_some());
        assert!(nested_borrowed_bytes(&parse_quote!(&'a [u8])).is_none());
        assert!(option_in_option(&parse_quote!(Option<Option<i32>>)).is_some());
        assert!(option_in_option(&parse_quote!(Vec<Option<Option<i32>>>)).is_some());
        assert!(option_in_option(&parse_quote!(Option<Vec<Option<i32>>>)).is_none());
        assert_eq!(array_len(&parse_quote!([u8; 3])).map(|(n, _)| n), Some(3));
    }
}
