//! Parsing of `#[b2(...)]` attributes, with errors that point at the offending tokens.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{Attribute, LitInt, LitStr, Token};

/// One field encoding, as written in an attribute.
pub struct EncodingAttr {
    /// The key (`fixstr`).
    pub key: &'static str,
    /// The `Encoding` variant it names (`FixStr`).
    pub variant: &'static str,
    /// The argument it may take, as written inside its parentheses (`len = N`).
    pub arg: Option<&'static str>,
}

const fn enc(key: &'static str, variant: &'static str) -> EncodingAttr {
    EncodingAttr { key, variant, arg: None }
}

/// The field encodings: the one table the parser reads and every message that lists them is
/// made from (adding an encoding here adds it to both).
pub const ENCODINGS: &[EncodingAttr] = &[
    enc("fixint", "FixInt"),
    enc("uint8", "Uint8"),
    enc("uint16", "Uint16"),
    enc("uint32", "Uint32"),
    enc("uint64", "Uint64"),
    enc("int8", "Int8"),
    enc("int16", "Int16"),
    enc("int32", "Int32"),
    enc("int64", "Int64"),
    enc("float32", "Float32"),
    enc("float64", "Float64"),
    EncodingAttr { key: "fixstr", variant: "FixStr", arg: Some("len = N") },
    enc("str32", "Str32"),
    enc("bin32", "Bin32"),
    enc("fixarray", "FixArray"),
    enc("array16", "Array16"),
    enc("counted", "Counted"),
    enc("map16", "Map16"),
    enc("fixext16", "FixExt16"),
    enc("raw", "Raw"),
];

/// The field keys other than encodings, and how each is written.
const FIELD_KEYS: &[(&str, &str)] =
    &[("magic", "magic = ..."), ("computed", "computed = ..."), ("offset", "offset = N")];

/// The container keys, and how each is written (`array16` is also a field encoding).
const CONTAINER_KEYS: &[(&str, &str)] = &[
    ("crate", "crate = \"...\""),
    ("minimal", "minimal"),
    ("map", "map"),
    ("array16", "array16"),
    ("packed", "packed"),
];

/// The encoding an attribute key names.
fn encoding(key: &str) -> Option<&'static EncodingAttr> {
    ENCODINGS.iter().find(|e| e.key == key)
}

/// Whether `key` is a container key and no field key (an `array16` on a field is its encoding).
fn is_container_key(key: &str) -> bool {
    CONTAINER_KEYS.iter().any(|(k, _)| *k == key) && encoding(key).is_none()
}

/// `a`, `a or b`, `a, b or c`.
fn one_of(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// What a field attribute can be, as an error lists it: every encoding of [`ENCODINGS`] (with
/// its argument, for those that take one), then the other keys.
fn field_keys() -> String {
    let mut encodings = Vec::new();
    for e in ENCODINGS {
        encodings.push(e.key.to_string());
        if let Some(arg) = e.arg {
            encodings.push(format!("{}({arg})", e.key));
        }
    }
    let others: Vec<String> = FIELD_KEYS.iter().map(|(_, written)| format!("`{written}`")).collect();
    format!("an encoding ({}), {}", encodings.join(", "), one_of(&others))
}

/// What a container attribute can be, as an error lists it.
fn container_keys() -> String {
    let keys: Vec<String> = CONTAINER_KEYS.iter().map(|(_, written)| format!("`{written}`")).collect();
    keys.join(", ")
}

/// The encodings that take an argument, as an error lists them (`fixstr(len = N)`).
fn with_args() -> String {
    let forms: Vec<String> =
        ENCODINGS.iter().filter_map(|e| e.arg.map(|arg| format!("`{}({arg})`", e.key))).collect();
    one_of(&forms)
}

/// A value with the span it was written at.
#[derive(Clone)]
pub struct Spanned_<T> {
    pub value: T,
    pub span: Span,
}

/// Container attributes.
#[derive(Default)]
pub struct Container {
    pub krate: Option<syn::Path>,
    pub minimal: Option<Span>,
    pub map: Option<Span>,
    pub array16: Option<Span>,
    pub packed: Option<Span>,
}

/// Field attributes.
#[derive(Default)]
pub struct Field {
    /// The `Encoding` variant name.
    pub encoding: Option<Spanned_<&'static str>>,
    /// `fixstr(len = N)`.
    pub len: Option<Spanned_<usize>>,
    pub magic: Option<Spanned_<TokenStream>>,
    pub computed: Option<Spanned_<TokenStream>>,
    pub offset: Option<Spanned_<usize>>,
}

/// Collects every error instead of stopping at the first.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn push(&mut self, e: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }

    pub fn error(&mut self, span: Span, msg: impl std::fmt::Display) {
        self.push(syn::Error::new(span, msg));
    }

    pub fn finish(self) -> syn::Result<()> {
        match self.0 {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

fn b2_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("b2"))
}

fn key_name(meta: &ParseNestedMeta) -> String {
    let path = &meta.path;
    path.get_ident()
        .map(|i| i.to_string())
        .unwrap_or_else(|| quote::quote!(#path).to_string().replace(' ', ""))
}

fn set_once<T>(slot: &mut Option<T>, value: T, span: Span, what: &str, errors: &mut Errors) {
    if slot.is_some() {
        errors.error(span, format!("duplicate `{what}`"));
    } else {
        *slot = Some(value);
    }
}

/// Parses the container's `#[b2(...)]` attributes.
pub fn container(attrs: &[Attribute], errors: &mut Errors) -> Container {
    let mut c = Container::default();
    for attr in b2_attrs(attrs) {
        let r = attr.parse_nested_meta(|meta| {
            let key = key_name(&meta);
            let span = meta.path.span();
            match key.as_str() {
                "crate" => {
                    let lit: LitStr = meta.value()?.parse()?;
                    let path: syn::Path = lit.parse()?;
                    set_once(&mut c.krate, path, lit.span(), "crate", errors);
                }
                "minimal" => set_once(&mut c.minimal, span, span, "minimal", errors),
                "map" => set_once(&mut c.map, span, span, "map", errors),
                "array16" => set_once(&mut c.array16, span, span, "array16", errors),
                "packed" => set_once(&mut c.packed, span, span, "packed", errors),
                _ if is_field_key(&key) => {
                    let written =
                        if meta.input.peek(Token![=]) { format!("{key} = ...") } else { key.clone() };
                    skip_value(&meta)?;
                    errors.error(
                        span,
                        format!(
                            "`{key}` applies to a field, not to the struct: put #[b2({written})] on the field"
                        ),
                    );
                }
                _ => {
                    skip_value(&meta)?;
                    errors.error(
                        span,
                        format!("unknown container attribute `{key}`; expected one of {}", container_keys()),
                    );
                }
            }
            Ok(())
        });
        if let Err(e) = r {
            errors.push(e);
        }
    }
    conflict(
        errors,
        c.map,
        c.array16,
        "map",
        "array16",
        "a struct is written as a map or as an array16, not both",
    );
    conflict(errors, c.packed, c.map, "packed", "map", "a packed struct is bare bytes");
    conflict(errors, c.packed, c.array16, "packed", "array16", "a packed struct is bare bytes");
    conflict(errors, c.packed, c.minimal, "packed", "minimal", "a packed struct is bare bytes");
    c
}

fn conflict(errors: &mut Errors, a: Option<Span>, b: Option<Span>, an: &str, bn: &str, why: &str) {
    if let (Some(_), Some(b)) = (a, b) {
        errors.error(b, format!("conflicting attributes: both `{an}` and `{bn}` ({why})"));
    }
}

fn is_field_key(key: &str) -> bool {
    (encoding(key).is_some() && !CONTAINER_KEYS.iter().any(|(k, _)| *k == key))
        || FIELD_KEYS.iter().any(|(k, _)| *k == key)
        || ENCODINGS.iter().filter_map(|e| e.arg).any(|arg| arg.split(' ').next() == Some(key))
}

/// Skips `= value` or `(...)` after a key we reject, so one mistake gives one error.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let v = meta.value()?;
        tokens_until_comma(v)?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|m| skip_value(&m))?;
    }
    Ok(())
}

/// The tokens of an expression, up to the next top-level comma.
fn tokens_until_comma(input: ParseStream) -> syn::Result<TokenStream> {
    let mut ts = TokenStream::new();
    while !input.is_empty() && !input.peek(Token![,]) {
        let tt: TokenTree = input.parse()?;
        ts.extend([tt]);
    }
    if ts.is_empty() {
        return Err(input.error("expected an expression"));
    }
    Ok(ts)
}

/// Parses a field's `#[b2(...)]` attributes.
pub fn field(attrs: &[Attribute], errors: &mut Errors) -> Field {
    let mut f = Field::default();
    for attr in b2_attrs(attrs) {
        let r = attr.parse_nested_meta(|meta| {
            let key = key_name(&meta);
            let span = meta.path.span();
            if let Some(e) = encoding(&key) {
                let variant = e.variant;
                if let Some(prev) = &f.encoding {
                    errors.error(
                        span,
                        format!(
                            "conflicting encodings: `{}` and `{key}`; a field has one encoding",
                            attr_name(prev.value)
                        ),
                    );
                } else {
                    f.encoding = Some(Spanned_ { value: variant, span });
                }
                if meta.input.peek(syn::token::Paren) {
                    meta.parse_nested_meta(|inner| {
                        if inner.path.is_ident("len") && e.arg.is_some() {
                            let lit: LitInt = inner.value()?.parse()?;
                            let n: usize = lit.base10_parse()?;
                            if n > 31 {
                                errors.error(lit.span(), format!("a fixstr holds at most 31 bytes, not {n}"));
                            }
                            set_once(
                                &mut f.len,
                                Spanned_ { value: n, span: lit.span() },
                                lit.span(),
                                "len",
                                errors,
                            );
                        } else {
                            skip_value(&inner)?;
                            errors.error(
                                inner.path.span(),
                                format!(
                                    "`{key}` takes no `{}`; only {} takes a length",
                                    key_name(&inner),
                                    with_args()
                                ),
                            );
                        }
                        Ok(())
                    })?;
                }
                return Ok(());
            }
            match key.as_str() {
                "magic" => {
                    let ts = tokens_until_comma(meta.value()?)?;
                    set_once(&mut f.magic, Spanned_ { value: ts, span }, span, "magic", errors);
                }
                "computed" => {
                    let ts = tokens_until_comma(meta.value()?)?;
                    set_once(&mut f.computed, Spanned_ { value: ts, span }, span, "computed", errors);
                }
                "offset" => {
                    let lit: LitInt = meta.value()?.parse()?;
                    let n: usize = lit.base10_parse()?;
                    set_once(&mut f.offset, Spanned_ { value: n, span: lit.span() }, span, "offset", errors);
                }
                "len" => {
                    skip_value(&meta)?;
                    errors.error(span, format!("write the length inside the encoding: {}", with_args()));
                }
                _ if is_container_key(&key) => {
                    skip_value(&meta)?;
                    errors.error(
                        span,
                        format!(
                            "`{key}` applies to the struct, not to a field: put #[b2({key})] on the struct"
                        ),
                    );
                }
                _ => {
                    skip_value(&meta)?;
                    errors.error(span, format!("unknown field attribute `{key}`; expected {}", field_keys()));
                }
            }
            Ok(())
        });
        if let Err(e) = r {
            errors.push(e);
        }
    }
    if let (Some(m), Some(c)) = (&f.magic, &f.computed) {
        let _ = m;
        errors.error(
            c.span,
            "conflicting attributes: both `magic` and `computed` (a constant is not computed)",
        );
    }
    f
}

/// The attribute spelling of an `Encoding` variant.
pub fn attr_name(variant: &str) -> &'static str {
    ENCODINGS.iter().find(|e| e.variant == variant).map(|e| e.key).unwrap_or("?")
}

/// The first line of the doc comment.
pub fn doc(attrs: &[Attribute]) -> String {
    for a in attrs {
        if a.path().is_ident("doc")
            && let syn::Meta::NameValue(nv) = &a.meta
            && let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value
        {
            return s.value().trim().to_string();
        }
    }
    String::new()
}
