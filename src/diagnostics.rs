//! Diagnostics as plain data, rendered rustc-style (file:line:col, the source line, a caret).
//!
//! Every stage reports user mistakes as [`Diagnostic`]s, never as panics. Rendering happens
//! at the edge (the CLI) through `codespan-reporting`.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};

use crate::base::escape::{escape, escape_text, Escaped};
use crate::base::span::assumption_of_offset;
use crate::base::{SourceMap, Span};

/// One error about the program or the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The headline, e.g. "expected an expression".
    pub message: String,
    /// Where; `None` for errors that are not about a place in the source.
    pub span: Option<Span>,
    /// Text under the caret, e.g. "expected `:` here". May be empty.
    pub label: String,
    /// Extra lines: "help: declare the input with `x: int`".
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span: Some(span),
            label: String::new(),
            notes: Vec::new(),
        }
    }

    /// An error without a source position.
    pub fn global(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span: None,
            label: String::new(),
            notes: Vec::new(),
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Render for a terminal (or a test): `error: ...` / `--> file:line:col` / source / caret.
    pub fn render(&self, source: &SourceMap, color: bool) -> String {
        render_all(std::slice::from_ref(self), source, color)
    }
}

/// Render several diagnostics, one after the other.
///
/// User text never reaches the terminal raw: the file name, the source lines and the
/// messages are shown with their control characters escaped (`\x1b`), spans moved to match.
pub fn render_all(diags: &[Diagnostic], source: &SourceMap, color: bool) -> String {
    // A diagnostic about an `--assume` expression is shown against that expression.
    if diags.iter().any(|d| {
        d.span
            .is_some_and(|s| assumption_of_offset(s.start).is_some())
    }) {
        return diags
            .iter()
            .map(|d| {
                match d
                    .span
                    .and_then(|s| Some((s, assumption_of_offset(s.start)?)))
                {
                    Some((span, (k, rel))) => {
                        let text = source.assumption(k).unwrap_or("");
                        let expr = SourceMap::new(format!("--assume #{k}"), text);
                        let len = span.end.saturating_sub(span.start);
                        let d = Diagnostic {
                            span: Some(Span::new(rel, rel + len)),
                            ..d.clone()
                        };
                        render_all(&[d], &expr, color)
                    }
                    None => render_all(std::slice::from_ref(d), source, color),
                }
            })
            .collect();
    }
    let escaped = Escaped::new(&source.text);
    let source = &SourceMap::new(escape(&source.name), escaped.text.as_str());
    let diags: Vec<Diagnostic> = diags.iter().map(|d| shown(d, &escaped)).collect();
    let file = SimpleFile::new(source.name.as_str(), source.text.as_str());
    let config = term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    };
    let mut out = String::new();
    for d in &diags {
        if let Some(text) = render_long_line(d, source) {
            out.push_str(&text);
            continue;
        }
        let mut cs = CsDiagnostic::error().with_message(&d.message);
        if let Some(span) = d.span {
            let end = span.end.max(span.start).min(source.text.len());
            let start = span.start.min(end);
            cs = cs.with_labels(vec![
                Label::primary((), start..end).with_message(d.label.as_str())
            ]);
        }
        cs = cs.with_notes(d.notes.clone());
        let mut buf = if color {
            termcolor::Buffer::ansi()
        } else {
            termcolor::Buffer::no_color()
        };
        if term::emit(&mut buf, &config, &file, &cs).is_ok() {
            out.push_str(&String::from_utf8_lossy(buf.as_slice()));
        } else {
            // codespan only fails on bad spans; fall back to a plain line.
            let (l, c) = d.span.map_or((0, 0), |s| source.line_col(s.start));
            out.push_str(&format!(
                "error: {}\n --> {}:{}:{}\n\n",
                d.message, source.name, l, c
            ));
        }
    }
    out
}

/// `d` as shown over the escaped source: its span moved, its texts escaped.
fn shown(d: &Diagnostic, escaped: &Escaped) -> Diagnostic {
    Diagnostic {
        message: escape_text(&d.message).into_owned(),
        span: d
            .span
            .map(|s| Span::new(escaped.offset(s.start), escaped.offset(s.end))),
        label: escape_text(&d.label).into_owned(),
        notes: d
            .notes
            .iter()
            .map(|n| escape_text(n).into_owned())
            .collect(),
    }
}

/// Lines longer than this are shown as a window around the error.
const MAX_SHOWN_LINE: usize = 120;

/// A diagnostic on a very long line (generated code, 5000 parentheses): show a window of
/// the line around the spot instead of the whole line.
fn render_long_line(d: &Diagnostic, source: &SourceMap) -> Option<String> {
    let span = d.span?;
    let (line, col) = source.line_col(span.start);
    let text = source.line_text(line);
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= MAX_SHOWN_LINE {
        return None;
    }
    let half = MAX_SHOWN_LINE / 2;
    let from = (col - 1).saturating_sub(half);
    let to = (from + MAX_SHOWN_LINE).min(chars.len());
    let mut shown: String = chars[from..to].iter().collect();
    let mut caret_at = col - 1 - from;
    if from > 0 {
        shown.insert_str(0, "...");
        caret_at += 3;
    }
    if to < chars.len() {
        shown.push_str("...");
    }
    let width = source
        .snippet(span)
        .chars()
        .count()
        .clamp(1, to - (col - 1).min(to) + 1);
    let gutter = line.to_string().len();
    let pad = " ".repeat(gutter);
    let mut out = format!(
        "error: {}\n{pad} --> {}:{}:{}\n{pad} |\n{line} | {shown}\n{pad} | {}{} {}\n",
        d.message,
        source.name,
        line,
        col,
        " ".repeat(caret_at),
        "^".repeat(width),
        d.label
    );
    for n in &d.notes {
        out.push_str(&format!("{pad} = {n}\n"));
    }
    out.push('\n');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_windowed() {
        let text = format!("x = {}1{}\n", "(".repeat(300), ")".repeat(300));
        let map = SourceMap::new("deep.py", text);
        let d = Diagnostic::error("too many nested parentheses", Span::new(204, 205))
            .with_label("here");
        let out = d.render(&map, false);
        assert!(out.contains("--> deep.py:1:205"), "{out}");
        assert!(out.lines().all(|l| l.len() < 200), "{out}");
        let caret_line = out.lines().find(|l| l.contains('^')).unwrap();
        let code_line = out.lines().find(|l| l.starts_with("1 |")).unwrap();
        // The caret sits under the 205th character of the original line.
        let caret_col = caret_line.find('^').unwrap();
        assert_eq!(&code_line[caret_col..caret_col + 1], "(");
    }
}

/// `n` and the noun in the number that agrees with it: `1 leaf`, `2 leaves`, `0 nodes`.
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {}", agree(n, noun))
}

/// The noun in the number that agrees with `n`: `leaf` for 1, `leaves` otherwise.
pub fn agree(n: usize, noun: &str) -> String {
    if n == 1 {
        return noun.to_string();
    }
    match noun {
        "leaf" => "leaves".to_string(),
        _ if noun.ends_with("ch") || noun.ends_with('s') => format!("{noun}es"),
        _ => format!("{noun}s"),
    }
}

/// `12345` as `12,345` (digits grouped by three).
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod count_tests {
    #[test]
    fn thousands_are_grouped() {
        use super::thousands;
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn nouns_agree_with_their_number() {
        use super::count;
        assert_eq!(count(1, "leaf"), "1 leaf");
        assert_eq!(count(0, "leaf"), "0 leaves");
        assert_eq!(count(2, "branch"), "2 branches");
        assert_eq!(count(1, "node"), "1 node");
        assert_eq!(count(3, "solver check"), "3 solver checks");
    }
}
