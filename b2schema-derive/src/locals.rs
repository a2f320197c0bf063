//! A `computed` expression over the direct decoder's locals: each `self.field` becomes the local
//! the field was read into, so that the expression is checked before the struct exists and the
//! struct is then built once, where it is returned.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::quote;

use crate::ast::{Container, Field};

/// The checks of the computed fields on the locals the fields were read into (what the serde
/// impl's `__b2schema_check` checks on the struct, with each `self.field` read from its local);
/// `None` when an expression needs the struct itself.
pub fn checks(c: &Container<'_>, local: &impl Fn(&Field<'_>) -> syn::Ident) -> Option<TokenStream> {
    let p = &c.private;
    let mut out = TokenStream::new();
    for f in &c.fields {
        let Some(computed) = &f.attrs.computed else { continue };
        let expr = over_locals(&computed.value, &c.fields, local)?;
        let text = crate::tokens::expr_text(&computed.value);
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

/// `expr` with each `self.field` (a field access, not a method call) replaced by `local(field)`;
/// `None` when `self` appears in any other form (a method of the struct, `self` itself), which
/// needs the struct.
pub fn over_locals(
    expr: &TokenStream,
    fields: &[Field<'_>],
    local: &impl Fn(&Field<'_>) -> syn::Ident,
) -> Option<TokenStream> {
    let tokens: Vec<TokenTree> = expr.clone().into_iter().collect();
    let mut out = TokenStream::new();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Ident(id) if id == "self" => {
                let field = match (tokens.get(i + 1), tokens.get(i + 2), tokens.get(i + 3)) {
                    (Some(TokenTree::Punct(dot)), Some(TokenTree::Ident(name)), next)
                        if dot.as_char() == '.' && !is_call_or_path(next) =>
                    {
                        fields.iter().find(|f| f.ident == name)?
                    }
                    _ => return None,
                };
                out.extend([TokenTree::Ident(local(field))]);
                i += 3;
            }
            TokenTree::Group(g) => {
                let mut inner = Group::new(g.delimiter(), over_locals(&g.stream(), fields, local)?);
                inner.set_span(g.span());
                out.extend([TokenTree::Group(inner)]);
                i += 1;
            }
            other => {
                out.extend([other.clone()]);
                i += 1;
            }
        }
    }
    Some(out)
}

/// Whether the token after `self.name` makes it a method call (`(`) or a turbofish (`::`).
fn is_call_or_path(next: Option<&TokenTree>) -> bool {
    match next {
        Some(TokenTree::Group(g)) => g.delimiter() == Delimiter::Parenthesis,
        Some(TokenTree::Punct(p)) => p.as_char() == ':',
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::{format_ident, quote};

    fn rewrite(expr: TokenStream) -> Option<String> {
        let input: syn::DeriveInput = syn::parse_quote! {
            struct S { a: u8, dims: Vec<u8>, len: u8 }
        };
        let mut errors = crate::attr::Errors::default();
        let c = crate::ast::container(&input, &mut errors);
        errors.finish().unwrap();
        over_locals(&expr, &c.fields, &|f| format_ident!("__field_{}", f.ident)).map(|t| t.to_string())
    }

    #[test]
    fn field_accesses_become_locals() {
        assert_eq!(rewrite(quote!(self.dims.len())).unwrap(), quote!(__field_dims.len()).to_string());
        assert_eq!(
            rewrite(quote!(K + (self.a as usize) * [self.len][0])).unwrap(),
            quote!(K + (__field_a as usize) * [__field_len][0]).to_string()
        );
        assert_eq!(rewrite(quote!(f(&self.a))).unwrap(), quote!(f(&__field_a)).to_string());
    }

    #[test]
    fn anything_else_on_self_keeps_the_struct() {
        assert_eq!(rewrite(quote!(self.len())), None, "a method named like a field");
        assert_eq!(rewrite(quote!(self.total())), None);
        assert_eq!(rewrite(quote!(helper(self))), None);
        assert_eq!(rewrite(quote!(self.missing)), None);
        assert_eq!(rewrite(quote!(self.a::<u8>)), None);
    }
}
