//! Non-printable characters: which ones the front-end refuses in code (CPython's rule), and
//! how user text (file names, source lines, snippets) is shown so that no byte of it reaches
//! the terminal as a control sequence (an OSC sequence in a comment would retitle the window).

use std::borrow::Cow;

/// CPython's `str.isprintable()`, except for unassigned code points (no Unicode tables
/// here): false for control characters (Cc), format characters (Cf), separators other
/// than the space (Zs, Zl, Zp) and private-use characters (Co).
pub fn is_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(c as u32,
        // Cf
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF
        | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F
        // Co
        | 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD
        // noncharacters (Cn)
        | 0xFDD0..=0xFDEF)
        && (c as u32) & 0xFFFE != 0xFFFE
}

/// How one non-printable character is shown: `\x1b`, `\u202e`, `\U000e0001` (as Python's
/// `repr` writes them).
fn push_escaped(out: &mut String, c: char) {
    use std::fmt::Write;
    let n = c as u32;
    let _ = match n {
        0..=0xFF => write!(out, "\\x{n:02x}"),
        0x100..=0xFFFF => write!(out, "\\u{n:04x}"),
        _ => write!(out, "\\U{n:08x}"),
    };
}

/// `text` with every non-printable character escaped, line breaks and tabs included: for
/// one-line things such as file names and source snippets.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_keeping(text, |_, _| false)
}

/// `text` with every non-printable character escaped except line breaks (`\n`, `\r\n`) and
/// tabs: for source text and multi-line messages.
pub fn escape_text(text: &str) -> Cow<'_, str> {
    escape_keeping(text, keeps_layout)
}

fn keeps_layout(c: char, next: Option<char>) -> bool {
    c == '\n' || c == '\t' || (c == '\r' && next == Some('\n'))
}

fn escape_keeping(text: &str, keep: impl Fn(char, Option<char>) -> bool) -> Cow<'_, str> {
    let mut chars = text.chars().peekable();
    if text
        .chars()
        .zip(text.chars().skip(1).map(Some).chain([None]))
        .all(|(c, next)| is_printable(c) || keep(c, next))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    while let Some(c) = chars.next() {
        if is_printable(c) || keep(c, chars.peek().copied()) {
            out.push(c);
        } else {
            push_escaped(&mut out, c);
        }
    }
    Cow::Owned(out)
}

/// Source text escaped as by [`escape_text`], with a map from byte offsets in the original
/// to byte offsets in the escaped text (spans move with the text they cover).
pub struct Escaped {
    pub text: String,
    /// `offsets[i]`: where original byte `i` (a character boundary) starts in `text`;
    /// `offsets[len]` is the end. Empty when nothing was escaped.
    offsets: Vec<usize>,
}

impl Escaped {
    pub fn new(src: &str) -> Escaped {
        let text = escape_text(src);
        let Cow::Owned(text) = text else {
            return Escaped {
                text: src.to_string(),
                offsets: Vec::new(),
            };
        };
        let mut offsets = vec![0; src.len() + 1];
        let mut at = 0;
        let mut chars = src.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let next = chars.peek().map(|&(_, n)| n);
            for slot in &mut offsets[i..i + c.len_utf8()] {
                *slot = at;
            }
            at += if is_printable(c) || keeps_layout(c, next) {
                c.len_utf8()
            } else {
                let mut s = String::new();
                push_escaped(&mut s, c);
                s.len()
            };
        }
        offsets[src.len()] = at;
        Escaped { text, offsets }
    }

    /// The escaped offset of original byte offset `i` (clamped to the end).
    pub fn offset(&self, i: usize) -> usize {
        if self.offsets.is_empty() {
            return i.min(self.text.len());
        }
        self.offsets[i.min(self.offsets.len() - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_as_cpython() {
        for c in ['a', ' ', 'é', '€', '∀', '字', '😀'] {
            assert!(is_printable(c), "{c:?}");
        }
        for c in [
            '\0',
            '\x1b',
            '\x07',
            '\t',
            '\n',
            '\x0b',
            '\x7f',
            '\u{85}',
            '\u{9b}',
            '\u{a0}',
            '\u{ad}',
            '\u{200b}',
            '\u{202e}',
            '\u{2028}',
            '\u{3000}',
            '\u{feff}',
            '\u{e000}',
            '\u{e0001}',
            '\u{ffff}',
        ] {
            assert!(!is_printable(c), "{c:?}");
        }
    }

    #[test]
    fn escapes_like_python_repr() {
        assert_eq!(escape("a\x1b]0;t\x07b"), "a\\x1b]0;t\\x07b");
        assert_eq!(escape("x\u{202e}y\u{e0001}"), "x\\u202ey\\U000e0001");
        assert_eq!(escape("a\nb\tc"), "a\\x0ab\\x09c");
        assert_eq!(escape_text("a\r\nb\tc\rd\n"), "a\r\nb\tc\\x0dd\n");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn offsets_follow_the_escapes() {
        let src = "x = 1 # \x1b]0;t\x07\ny = é\n";
        let e = Escaped::new(src);
        let y = src.find('y').unwrap();
        assert_eq!(&e.text[e.offset(y)..e.offset(y) + 1], "y");
        let bel = src.find('\x07').unwrap();
        assert_eq!(&e.text[e.offset(bel)..e.offset(bel + 1)], "\\x07");
        assert_eq!(e.offset(src.len()), e.text.len());
        let plain = Escaped::new("x = 1\n");
        assert_eq!(plain.offset(3), 3);
    }
}
