//! Reading the tokens of attribute values: byte-string literals and expressions as text.

use proc_macro2::TokenStream;

/// The literal if `tokens` is a single byte-string literal (`b"b2frame\0"`).
pub fn byte_string(tokens: &TokenStream) -> Option<syn::LitByteStr> {
    syn::parse2::<syn::LitByteStr>(tokens.clone()).ok()
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
