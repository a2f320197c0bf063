//! The frame header's fields for the viewer's layout diagram, each with the bytes it covers: the
//! fixarray marker, the fixed fields, and the metalayers section broken into its parts (its
//! index size and name count, one entry per name with the offset it records, the contents'
//! count, and each metalayer's content under its name and size), so that the diagram draws the
//! whole header with a name in every box. The parts follow the section's encoding (as c-blosc2
//! writes it, which opening the frame checks); a part is never placed past the header's end.

use b2schema::frame::{FrameHeader, HEADER_FIXED_LEN};
use b2schema::layout::B2Layout;
use serde::Serialize;

/// One box of the diagram: a field (or a part of the metalayers section) and its bytes.
#[derive(Serialize, Debug)]
pub struct Field {
    /// What it is (`codec_flags`, `→ b2nd`, `b2nd (40 B)`).
    pub name: String,
    /// Its first byte in the header.
    pub start: usize,
    /// Its bytes.
    pub len: usize,
    /// What it holds, in a sentence.
    pub doc: String,
}

/// The fields of a header of `header_len` bytes whose metalayers are `layers` (name, content).
pub fn fields(header_len: usize, layers: &[(&str, &[u8])]) -> Vec<Field> {
    let mut out = vec![Field {
        name: "fixarray".into(),
        start: 0,
        len: 1,
        doc: "The header's fixarray(14) marker.".into(),
    }];
    for f in FrameHeader::LAYOUT.fields {
        let Some(start) = f.marker_offset else { continue };
        if f.width.is_none() && start == HEADER_FIXED_LEN {
            continue; // The metalayers section: its parts below.
        }
        let len = f.width.unwrap_or(header_len.saturating_sub(start));
        out.push(Field { name: f.name.into(), start, len, doc: f.doc.into() });
    }
    let mut at = HEADER_FIXED_LEN;
    let mut push = |name: String, len: usize, doc: String| {
        let len = len.min(header_len.saturating_sub(at));
        if len > 0 {
            out.push(Field { name, start: at, len, doc });
        }
        at += len;
    };
    push(
        "metalayers".into(),
        7,
        format!(
            "The metalayers section: its fixarray(3) marker, the uint16 size of its index, and the map16 \
             marker with the number of names ({}).",
            layers.len()
        ),
    );
    for (name, _) in layers {
        push(
            format!("→ {name}"),
            6 + name.len(),
            format!(
                "The index entry of metalayer {name:?}: its name (fixstr) and the int32 offset of its content."
            ),
        );
    }
    push("contents".into(), 3, "The array16 marker and the number of metalayer contents.".into());
    for (name, content) in layers {
        push(
            format!("{name} ({} B)", content.len()),
            5 + content.len(),
            format!("The content of metalayer {name:?}: a bin32 of {} bytes (its msgpack).", content.len()),
        );
    }
    // Bytes after the metalayers (none in a header c-blosc2 wrote).
    push("(rest)".into(), usize::MAX, "Bytes of the header after the metalayers.".into());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metalayers_fill_the_header_to_its_end() {
        let layers: [(&str, &[u8]); 2] = [("b2nd", &[0u8; 40]), ("x", &[1, 2])];
        let len = HEADER_FIXED_LEN + 7 + (6 + 4) + (6 + 1) + 3 + (5 + 40) + (5 + 2);
        let f = fields(len, &layers);
        let ends: Vec<usize> = f.iter().map(|f| f.start + f.len).collect();
        assert_eq!(*ends.last().unwrap(), len);
        for w in f.windows(2) {
            assert!(w[0].start + w[0].len <= w[1].start, "{w:?}");
        }
        let names: Vec<&str> = f.iter().map(|f| f.name.as_str()).collect();
        assert!(
            names.ends_with(&["metalayers", "→ b2nd", "→ x", "contents", "b2nd (40 B)", "x (2 B)"]),
            "{names:?}"
        );
        // A header that ends early cuts the parts, never placing one past it.
        let short = fields(HEADER_FIXED_LEN + 9, &layers);
        assert!(short.iter().all(|f| f.start + f.len <= HEADER_FIXED_LEN + 9));
    }
}
