//! Logical lines and indentation: the layer under the pest grammar.
//!
//! Python's block structure is indentation; its line structure is "a newline ends a
//! statement unless a bracket is open". This module handles both, with exact byte offsets,
//! so the pest grammar only ever sees one logical line:
//!
//! - [`scan`] splits the source into [`LogicalLine`]s: comments and blank lines vanish,
//!   brackets (and `\` at the end of a line) continue a line, strings are rejected ("strings
//!   are not supported in minipy"), unbalanced brackets are reported where CPython reports them.
//! - [`blocks`] turns the indentation of those lines into a tree of [`LineNode`]s: each node is
//!   a line and the indented block under it; inconsistent indentation is reported.

use crate::base::escape::is_printable;
use crate::base::span::Span;
use crate::diagnostics::Diagnostic;

/// CPython's tokenizer refuses more than 200 nested brackets; so do we (it also bounds the
/// recursion depth of everything downstream).
pub const MAX_NESTING: usize = 200;

/// CPython's limit on nested blocks.
pub const MAX_INDENT_LEVELS: usize = 100;

/// One logical line: `start..end` is its text without indentation, trailing comment or
/// line break (it may contain newlines inside brackets).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogicalLine {
    /// Byte offset where the line's indentation begins (start of the physical line).
    pub line_start: usize,
    /// The indentation characters (spaces and tabs; after the last form feed if any).
    pub indent: String,
    pub span: Span,
}

/// A logical line with the indented block that follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineNode {
    pub line: LogicalLine,
    pub children: Vec<LineNode>,
}

/// `src` with Python's universal newlines: a `\r` not followed by `\n` (old Mac line ends)
/// ends a line as CPython reads it, so it becomes `\n` (one byte for one: offsets stay).
pub fn universal_newlines(src: &str) -> std::borrow::Cow<'_, str> {
    let bytes = src.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return std::borrow::Cow::Borrowed(src);
    }
    let out: String = src
        .char_indices()
        .map(|(i, c)| if c == '\r' && lone(i) { '\n' } else { c })
        .collect();
    std::borrow::Cow::Owned(out)
}

/// Split `src` into logical lines.
pub fn scan(src: &str) -> Result<Vec<LogicalLine>, Diagnostic> {
    let src = &*universal_newlines(src);
    let bytes = src.as_bytes();
    // CPython refuses a NUL byte anywhere, comments included.
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(Diagnostic::error(
            "source code cannot contain null bytes",
            Span::new(at, at + 1),
        )
        .with_label("a NUL byte"));
    }
    let mut lines = Vec::new();
    let mut i = 0;
    // The bracket stack: (byte, offset).
    let mut stack: Vec<(u8, usize)> = Vec::new();
    // Start of the current physical line, and where the current logical line's content began.
    let mut line_start = 0;
    let mut content_start: Option<usize> = None;
    let mut content_end = 0;
    let mut indent_start = 0;
    let mut indent_end = 0;
    let mut at_line_start = true;

    while i < bytes.len() {
        let b = bytes[i];
        if at_line_start && stack.is_empty() && content_start.is_none() {
            // Measure the indentation of a new logical line.
            // A form feed resets the count (CPython's tokenizer: column 0 again), so the
            // indentation is what follows the last one.
            line_start = i;
            indent_start = i;
            while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\x0C') {
                if bytes[i] == b'\x0C' {
                    indent_start = i + 1;
                }
                i += 1;
            }
            indent_end = i;
            at_line_start = false;
            continue;
        }
        at_line_start = false;
        match b {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'\n' => {
                if stack.is_empty() {
                    if let Some(start) = content_start.take() {
                        lines.push(LogicalLine {
                            line_start,
                            indent: src[indent_start..indent_end].to_string(),
                            span: Span::new(start, content_end),
                        });
                    }
                    at_line_start = true;
                }
                i += 1;
            }
            b'\\' if next_is_newline(bytes, i + 1) => {
                // Explicit line joining.
                i += 1;
                if bytes.get(i) == Some(&b'\r') {
                    i += 1;
                }
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0C' => i += 1,
            b'"' | b'\'' => {
                let what = if looks_like_docstring(bytes, i) {
                    "strings (and docstrings)"
                } else {
                    "strings"
                };
                return Err(Diagnostic::error(
                    format!("{what} are not supported in minipy"),
                    Span::new(i, i + 1),
                )
                .with_label("string literal starts here")
                .with_note("minipy values are int, bool and tuples of ints"));
            }
            _ => {
                if content_start.is_none() {
                    content_start = Some(i);
                }
                match b {
                    b'(' | b'[' | b'{' => {
                        stack.push((b, i));
                        if stack.len() > MAX_NESTING {
                            return Err(Diagnostic::error(
                                "too many nested parentheses",
                                Span::new(i, i + 1),
                            )
                            .with_label(format!("more than {MAX_NESTING} brackets are open here"))
                            .with_note("CPython refuses this too; split the expression up"));
                        }
                    }
                    b')' | b']' | b'}' => {
                        let open = match b {
                            b')' => b'(',
                            b']' => b'[',
                            _ => b'{',
                        };
                        match stack.pop() {
                            None => {
                                return Err(Diagnostic::error(
                                    format!("unmatched `{}`", b as char),
                                    Span::new(i, i + 1),
                                )
                                .with_label("no bracket to close here"))
                            }
                            Some((o, at)) if o != open => {
                                return Err(Diagnostic::error(
                                    format!(
                                        "closing `{}` does not match opening `{}`",
                                        b as char, o as char
                                    ),
                                    Span::new(i, i + 1),
                                )
                                .with_label(format!(
                                    "expected `{}` to close the `{}` at byte {at}",
                                    closer(o),
                                    o as char
                                )))
                            }
                            Some(_) => {}
                        }
                    }
                    _ => {}
                }
                // Advance over one whole UTF-8 character; outside comments (and strings,
                // which minipy refuses) a non-printable one is refused as CPython does.
                let ch = src[i..].chars().next().unwrap_or(' ');
                if !is_printable(ch) {
                    return Err(Diagnostic::error(
                        format!("invalid non-printable character U+{:04X}", ch as u32),
                        Span::new(i, i + ch.len_utf8()),
                    )
                    .with_label("this character")
                    .with_note("control and format characters may appear in comments only"));
                }
                i += ch.len_utf8();
                content_end = i;
            }
        }
    }
    if let Some(&(o, at)) = stack.last() {
        return Err(Diagnostic::error(
            format!("`{}` was never closed", o as char),
            Span::new(at, at + 1),
        )
        .with_label(format!(
            "this `{}` has no matching `{}`",
            o as char,
            closer(o)
        )));
    }
    if let Some(start) = content_start {
        lines.push(LogicalLine {
            line_start,
            indent: src[indent_start..indent_end].to_string(),
            span: Span::new(start, content_end),
        });
    }
    Ok(lines)
}

fn closer(open: u8) -> char {
    match open {
        b'(' => ')',
        b'[' => ']',
        _ => '}',
    }
}

fn next_is_newline(bytes: &[u8], i: usize) -> bool {
    match bytes.get(i) {
        Some(b'\n') => true,
        Some(b'\r') => bytes.get(i + 1) == Some(&b'\n'),
        _ => false,
    }
}

fn looks_like_docstring(bytes: &[u8], i: usize) -> bool {
    bytes
        .get(i..i + 3)
        .is_some_and(|s| s == b"\"\"\"" || s == b"'''")
}

/// Group logical lines into blocks by indentation.
pub fn blocks(lines: Vec<LogicalLine>) -> Result<Vec<LineNode>, Diagnostic> {
    let mut iter = lines.into_iter().peekable();
    let Some(first) = iter.peek() else {
        return Ok(Vec::new());
    };
    if !first.indent.is_empty() {
        return Err(unexpected_indent(first));
    }
    block(&mut iter, "", &[])
}

fn unexpected_indent(line: &LogicalLine) -> Diagnostic {
    Diagnostic::error(
        "unexpected indent",
        Span::new(line.line_start, line.span.start),
    )
    .with_label("this line is indented more than the block it belongs to")
}

/// Read lines indented exactly `indent` (with deeper lines as their children) until a line
/// indented less.
fn block<I: Iterator<Item = LogicalLine>>(
    iter: &mut std::iter::Peekable<I>,
    indent: &str,
    outer: &[&str],
) -> Result<Vec<LineNode>, Diagnostic> {
    let mut nodes: Vec<LineNode> = Vec::new();
    while let Some(next) = iter.peek() {
        if next.indent == indent {
            let line = iter.next().expect("peeked");
            nodes.push(LineNode {
                line,
                children: Vec::new(),
            });
        } else if next.indent.starts_with(indent) {
            // Deeper: the block of the previous line.
            let deeper = next.indent.clone();
            let Some(parent) = nodes.last_mut() else {
                return Err(unexpected_indent(next));
            };
            if !parent.children.is_empty() {
                return Err(unexpected_indent(next));
            }
            if outer.len() >= MAX_INDENT_LEVELS {
                return Err(Diagnostic::error(
                    "too many levels of indentation",
                    Span::new(next.line_start, next.span.start),
                )
                .with_label(format!("more than {MAX_INDENT_LEVELS} nested blocks"))
                .with_note("CPython refuses this too; move code into functions"));
            }
            let mut levels = outer.to_vec();
            levels.push(indent);
            let children = block(iter, &deeper, &levels)?;
            parent.children = children;
        } else if outer.contains(&next.indent.as_str()) {
            // Back to an enclosing level: end of this block.
            return Ok(nodes);
        } else {
            let bad = next;
            let tabs_and_spaces = (bad.indent.contains('\t') || indent.contains('\t'))
                && (bad.indent.contains(' ') || indent.contains(' '));
            let mut d = Diagnostic::error(
                if tabs_and_spaces {
                    "inconsistent use of tabs and spaces in indentation"
                } else {
                    "unindent does not match any outer indentation level"
                },
                Span::new(bad.line_start, bad.span.start),
            )
            .with_label("this indentation matches no enclosing block");
            if tabs_and_spaces {
                d = d.with_note("indent with spaces only (or tabs only)");
            }
            return Err(d);
        }
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<String> {
        scan(src)
            .unwrap()
            .iter()
            .map(|l| src[l.span.start..l.span.end].to_string())
            .collect()
    }

    #[test]
    fn comments_blank_lines_and_brackets() {
        let src = "x = (1,  # one\n     2)\n\n   # just a comment\ny = 3 # c\n";
        assert_eq!(texts(src), vec!["x = (1,  # one\n     2)", "y = 3"]);
    }

    #[test]
    fn backslash_continuation() {
        assert_eq!(texts("x = 1 + \\\n  2\n"), vec!["x = 1 + \\\n  2"]);
    }

    #[test]
    fn strings_are_rejected() {
        let e = scan("x = 'a'\n").unwrap_err();
        assert_eq!(e.message, "strings are not supported in minipy");
        assert_eq!(e.span, Some(Span::new(4, 5)));
    }

    #[test]
    fn unclosed_and_unmatched() {
        assert_eq!(
            scan("x = (1,\n").unwrap_err().message,
            "`(` was never closed"
        );
        assert_eq!(scan("x = 1)\n").unwrap_err().message, "unmatched `)`");
        assert!(scan("x = (1]\n")
            .unwrap_err()
            .message
            .contains("does not match"));
    }

    #[test]
    fn deep_nesting_is_refused() {
        let src = format!("x = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
        assert_eq!(
            scan(&src).unwrap_err().message,
            "too many nested parentheses"
        );
    }

    #[test]
    fn blocks_follow_indentation() {
        let src = "if a:\n  b = 1\n  if c:\n     d = 2\n  e = 3\nf = 4\n";
        let tree = blocks(scan(src).unwrap()).unwrap();
        assert_eq!(tree.len(), 2);
        assert_eq!(tree[0].children.len(), 3);
        assert_eq!(tree[0].children[1].children.len(), 1);
    }

    #[test]
    fn a_form_feed_resets_the_indentation() {
        let src = "if a:\n\x0c    b = 1\n    \x0cc = 2\n\x0c\x0cd = 3\n";
        let lines = scan(src).unwrap();
        let indents: Vec<&str> = lines.iter().map(|l| l.indent.as_str()).collect();
        assert_eq!(indents, ["", "    ", "", ""]);
        let tree = blocks(lines).unwrap();
        assert_eq!(tree.len(), 3);
        assert_eq!(tree[0].children.len(), 1);
    }

    #[test]
    fn non_printable_characters_outside_comments_are_refused() {
        let e = scan("x = 1\x1b]0;t\x07\n").unwrap_err();
        assert_eq!(e.message, "invalid non-printable character U+001B");
        assert_eq!(e.span, Some(Span::new(5, 6)));
        let e = scan("x = (1,\n  \u{202e}2)\n").unwrap_err();
        assert_eq!(e.message, "invalid non-printable character U+202E");
        assert_eq!(e.span, Some(Span::new(10, 13)));
        assert_eq!(texts("x = 1  # \x1b]0;t\x07 \u{202e}\n"), ["x = 1"]);
        let e = scan("x = 1  # \0\n").unwrap_err();
        assert_eq!(e.message, "source code cannot contain null bytes");
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line() {
        assert_eq!(universal_newlines("a\rb\r\nc\r"), "a\nb\r\nc\n");
        assert!(matches!(
            universal_newlines("a\r\nb\n"),
            std::borrow::Cow::Borrowed(_)
        ));
        // The code after it is not part of the comment.
        assert_eq!(texts("x = 1  # c\ry = 2\n"), ["x = 1", "y = 2"]);
    }

    #[test]
    fn bad_dedent() {
        let src = "if a:\n    b = 1\n  c = 2\n";
        let e = blocks(scan(src).unwrap()).unwrap_err();
        assert_eq!(
            e.message,
            "unindent does not match any outer indentation level"
        );
        let e = blocks(scan("  x = 1\n").unwrap()).unwrap_err();
        assert_eq!(e.message, "unexpected indent");
    }
}
