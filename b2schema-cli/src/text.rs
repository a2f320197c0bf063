//! Text from input made safe for a terminal: the one place that decides what a file's names,
//! dtype strings, values and file names may put on a screen.
//!
//! A file can name a metalayer `"\x1b]0;title\x07"` (sets the window title), `"\x1b[2J"` (clears
//! the screen), `"\u{9b}31m"` (C1 CSI: colours), `"ok\r"` or `"x\nb2schema: forged line"` (forged
//! report lines), or `"\u{202e}"` (reverses what follows). Every such character is written as a
//! visible escape instead, whatever `--color` says: C0 controls and DEL as `\xNN` (`\n`, `\r` and
//! `\t` as themselves, escaped), C1 controls and the bidirectional and invisible formatting
//! characters as `\u{NNNN}`, and a literal backslash stays one backslash (the escapes are for
//! reading, not for parsing back).

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;

/// `true` for a character that must not reach a terminal as itself.
fn needs_escape(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}' | '\u{80}'..='\u{9f}'
        // Bidirectional overrides, embeddings, isolates and marks; zero-width and invisible
        // formatting characters that change what a line seems to say.
        | '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}'
        | '\u{feff}'
    )
}

fn escape_char(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x80 => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

fn escape_where(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    let escaped_at = |c: char| needs_escape(c) && !(keep_newlines && c == '\n');
    if !s.chars().any(escaped_at) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if escaped_at(c) {
            escape_char(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One piece of text from input (a name, a dtype, a value, a message about them), on one line:
/// every control or formatting character escaped, line breaks included.
pub fn escape(s: &str) -> Cow<'_, str> {
    escape_where(s, false)
}

/// A report made of lines this program wrote: every control or formatting character escaped but the line breaks
/// (the backstop behind [`escape`] at every place input text is put into a report).
pub fn escape_lines(s: &str) -> Cow<'_, str> {
    escape_where(s, true)
}

/// A JSON value as one line of JSON text: serde_json's text (C0 controls already `\uNNNN` or
/// `\n`...), with every other character [`escape`] would escape (DEL, C1 controls, the
/// bidirectional and invisible formatting characters) written `\uNNNN` too. Still valid JSON,
/// parsing back to the same value; nothing in it acts on a terminal. Every JSON the command
/// writes of a file's content goes through here.
pub fn json(v: &serde_json::Value) -> String {
    json_text(&v.to_string())
}

/// [`json`] of JSON text already written (the characters it escapes only occur in strings).
pub fn json_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if needs_escape(c) {
            // Every such character is in the Basic Multilingual Plane: one `\uNNNN`.
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// A file name as text: its bytes that are not UTF-8 as `\xNN`, then [`escape`]d.
pub fn path(p: &Path) -> String {
    #[cfg(unix)]
    let text = {
        use std::os::unix::ffi::OsStrExt;
        let mut t = String::new();
        for chunk in p.as_os_str().as_bytes().utf8_chunks() {
            t.push_str(chunk.valid());
            for b in chunk.invalid() {
                let _ = write!(t, "\\x{b:02x}");
            }
        }
        t
    };
    #[cfg(not(unix))]
    let text = p.to_string_lossy().into_owned();
    escape(&text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_c1_and_bidi_become_visible_escapes() {
        assert_eq!(escape("b2nd"), "b2nd");
        assert!(matches!(escape("plain ü é 数"), Cow::Borrowed(_)));
        assert_eq!(escape("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
        assert_eq!(escape("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(escape("a\rb\nc\td\x7f"), "a\\rb\\nc\\td\\x7f");
        assert_eq!(escape("\u{202e}txt.exe"), "\\u{202e}txt.exe");
        assert_eq!(escape_lines("line 1\nline\x1b 2\r\n"), "line 1\nline\\x1b 2\\r\n");
    }

    #[test]
    fn no_control_character_survives_either_escape() {
        for c in (0u32..0x3000).filter_map(char::from_u32) {
            let s = format!("a{c}b");
            assert!(!escape(&s).chars().any(needs_escape), "{c:?}");
            assert!(!escape_lines(&s).chars().any(|c| needs_escape(c) && c != '\n'), "{c:?}");
        }
    }

    #[test]
    fn json_escapes_every_terminal_character_and_parses_back() {
        for c in (0u32..0x3000).filter_map(char::from_u32) {
            let v = serde_json::json!({ format!("k{c}"): [format!("a{c}b"), 1] });
            let text = json(&v);
            assert!(!text.chars().any(needs_escape), "{c:?}: {text}");
            assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), v, "{c:?}");
        }
        assert_eq!(json(&serde_json::json!("\u{9b}\u{202e}")), "\"\\u009b\\u202e\"");
    }

    #[cfg(unix)]
    #[test]
    fn file_names_keep_their_bytes_visible() {
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let p = Path::new(OsStr::from_bytes(b"dir/\x1b[2J\xff.b2nd"));
        assert_eq!(path(p), "dir/\\x1b[2J\\xff.b2nd");
    }
}
