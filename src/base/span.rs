//! Source positions: byte-offset spans and the map from offsets to line/column.

/// A half-open byte range `start..end` into the source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// Spans at or above this offset are not in the file: they belong to the `--assume`
/// expressions (preconditions given on the command line, see [`SourceMap::assumptions`]).
/// Assumption `k` (1-based) occupies `VIRTUAL_BASE + (k - 1) * VIRTUAL_STRIDE ..`.
pub const VIRTUAL_BASE: usize = usize::MAX / 2 + 1;
/// The room each `--assume` expression has in the span space.
pub const VIRTUAL_STRIDE: usize = usize::MAX / 8192;
/// The "line" of the `--assume` expression `k` is `VIRTUAL_LINE + k`: far beyond any file,
/// so it never meets a breakpoint or a line of the file; [`line_name`] names it.
pub const VIRTUAL_LINE: usize = 1 << 30;

/// What a 1-based line number ([`SourceMap::line`]) stands for: a line of the file, or
/// the virtual line of `--assume` expression `k` (1-based). Code that treats the two
/// differently matches on this instead of comparing numbers with [`VIRTUAL_LINE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    File(usize),
    Assume(usize),
}

impl Line {
    /// The place line number `line` stands for.
    pub fn of(line: usize) -> Line {
        if line > VIRTUAL_LINE {
            Line::Assume(line - VIRTUAL_LINE)
        } else {
            Line::File(line)
        }
    }

    /// The line of the file, `None` for an `--assume` expression's.
    pub fn in_file(self) -> Option<usize> {
        match self {
            Line::File(l) => Some(l),
            Line::Assume(_) => None,
        }
    }

    /// The `--assume` expression (1-based), `None` for a line of the file.
    pub fn assumption(self) -> Option<usize> {
        match self {
            Line::Assume(k) => Some(k),
            Line::File(_) => None,
        }
    }
}

/// "line 5", or "--assume #2" for the line of an `--assume` expression.
pub fn line_name(line: usize) -> String {
    match Line::of(line) {
        Line::Assume(k) => format!("--assume #{k}"),
        Line::File(l) => format!("line {l}"),
    }
}

/// "5", or "--assume #2": a line number where a number stands alone (`5: x = 1`, `L5`).
pub fn line_number(line: usize) -> String {
    match Line::of(line) {
        Line::Assume(k) => format!("--assume #{k}"),
        Line::File(l) => l.to_string(),
    }
}

/// A short tag for a line in a narrow pane: "L5", or "A2" for `--assume #2`.
pub fn line_tag(line: usize) -> String {
    match Line::of(line) {
        Line::Assume(k) => format!("A{k}"),
        Line::File(l) => format!("L{l}"),
    }
}

/// The `--assume` expression (1-based) a line belongs to, if it is one's
/// ([`Line::assumption`]).
pub fn assumption_of_line(line: usize) -> Option<usize> {
    Line::of(line).assumption()
}

/// The span of bytes `start..end` of the `--assume` expression `k` (1-based).
pub fn assumption_span(k: usize, start: usize, end: usize) -> Span {
    let base = VIRTUAL_BASE + (k - 1) * VIRTUAL_STRIDE;
    Span::new(base + start, base + end)
}

/// The `--assume` expression (1-based) an offset is in, and the offset inside its text.
pub fn assumption_of_offset(offset: usize) -> Option<(usize, usize)> {
    let rel = offset.checked_sub(VIRTUAL_BASE)?;
    Some((rel / VIRTUAL_STRIDE + 1, rel % VIRTUAL_STRIDE))
}

/// A source file: its name as given by the user and its text, with a line index.
#[derive(Debug, Clone)]
pub struct SourceMap {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
    /// The `--assume` expressions of the run, in order (`#1` first): spans at
    /// [`VIRTUAL_BASE`] and above point into them.
    pub assumptions: Vec<String>,
}

impl SourceMap {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceMap {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceMap {
            name: name.into(),
            text,
            line_starts,
            assumptions: Vec::new(),
        }
    }

    /// The text of `--assume` expression `k` (1-based).
    pub fn assumption(&self, k: usize) -> Option<&str> {
        self.assumptions.get(k.wrapping_sub(1)).map(String::as_str)
    }

    /// 1-based line and 1-based column (in characters) of a byte offset. An offset in an
    /// `--assume` expression `k` has the line `VIRTUAL_LINE + k` (see [`line_name`]) and its
    /// column in the expression's text.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        if let Some((k, rel)) = assumption_of_offset(offset) {
            let text = self.assumption(k).unwrap_or("");
            let col = text
                .get(..rel.min(text.len()))
                .map_or(rel, |s| s.chars().count());
            return (VIRTUAL_LINE + k, col + 1);
        }
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// 1-based line of a byte offset.
    pub fn line(&self, offset: usize) -> usize {
        self.line_col(offset).0
    }

    /// The text of 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        if let Line::Assume(k) = Line::of(line) {
            return self.assumption(k).unwrap_or("");
        }
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// The text of 1-based line `line` for display: control characters escaped
    /// ([`super::escape::escape_text`]), so a comment cannot send the terminal a sequence.
    pub fn shown_line(&self, line: usize) -> std::borrow::Cow<'_, str> {
        super::escape::escape_text(self.line_text(line))
    }

    /// The statement on a line for display, trimmed (see [`SourceMap::shown_line`]); an
    /// `--assume` expression's "line" shows as the statement it runs as, `assume EXPR`.
    pub fn shown_statement(&self, line: usize) -> String {
        let text = self.shown_line(line);
        match Line::of(line) {
            Line::Assume(_) => format!("assume {}", text.trim()),
            Line::File(_) => text.trim().to_string(),
        }
    }

    /// The source text of a span.
    pub fn snippet(&self, span: Span) -> &str {
        if let Some((k, rel)) = assumption_of_offset(span.start) {
            let len = span.end.saturating_sub(span.start);
            return self
                .assumption(k)
                .and_then(|t| t.get(rel..rel + len))
                .unwrap_or("");
        }
        self.text.get(span.start..span.end).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_the_files_or_an_assume_expressions() {
        assert_eq!(Line::of(5), Line::File(5));
        assert_eq!(Line::of(VIRTUAL_LINE), Line::File(VIRTUAL_LINE));
        assert_eq!(Line::of(VIRTUAL_LINE + 2), Line::Assume(2));
        assert_eq!(Line::of(VIRTUAL_LINE + 2).in_file(), None);
        assert_eq!(Line::of(7).assumption(), None);
        let m = SourceMap::new("t.py", "x: int\n");
        let assume = m.line(assumption_span(1, 0, 1).start);
        assert_eq!(Line::of(assume), Line::Assume(1));
        assert_eq!(
            (line_name(assume), line_number(3), line_tag(assume)),
            ("--assume #1".to_string(), "3".to_string(), "A1".to_string())
        );
    }

    #[test]
    fn line_col_counts_from_one() {
        let m = SourceMap::new("t.py", "x = 1\nif x:\n    y = 2\n");
        assert_eq!(m.line_col(0), (1, 1));
        assert_eq!(m.line_col(6), (2, 1));
        assert_eq!(m.line_col(16), (3, 5));
        assert_eq!(m.line_text(2), "if x:");
        assert_eq!(m.line_text(9), "");
    }

    #[test]
    fn assumption_spans_have_lines_of_their_own() {
        let mut m = SourceMap::new("t.py", "x = 1\n");
        m.assumptions = vec!["x > 0".into(), "y < 2".into()];
        let s = assumption_span(2, 4, 5);
        assert_eq!(m.line_col(s.start), (VIRTUAL_LINE + 2, 5));
        assert_eq!(m.snippet(s), "2");
        assert_eq!(m.line_text(m.line(s.start)), "y < 2");
        assert_eq!(line_name(m.line(s.start)), "--assume #2");
        assert_eq!(line_name(1), "line 1");
        assert_eq!(assumption_of_offset(s.start), Some((2, 4)));
        assert_eq!(assumption_of_offset(5), None);
    }
}
