//! Reading the tokens of attribute values: byte-string literals and expressions as text.

use proc_macro2::TokenStream;

/// The literal if `tokens` is a single byte-string literal (`b"b2frame\0"`).
pub fn byte_string(tokens: &TokenStream) -> Option<syn::LitByteStr> {
    syn::parse2::<syn::LitByteStr>(tokens.clone()).ok()
}

/// The length in bytes of a constant written as a byte-string or string literal.
pub fn literal_len(tokens: &TokenStream) -> Option<usize> {
    match byte_string(tokens) {
        Some(lit) => Some(lit.value().len()),
        None => syn::parse2::<syn::LitStr>(tokens.clone()).ok().map(|s| s.value().len()),
    }
}

/// An expression's tokens as text without the spaces token streams put around `::`, `.` and
/// parentheses (`self.shape.len()`, not `self . shape . len ()`).
pub fn expr_text(tokens: &TokenStream) -> String {
    let mut s = tokens.to_string();
    for (from, to) in [(" :: ", "::"), (" . ", "."), (" (", "("), ("( ", "("), (" )", ")")] {
        s = s.replace(from, to);
    }
    s
}
