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

/// A source file: its name as given by the user and its text, with a line index.
#[derive(Debug, Clone)]
pub struct SourceMap {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
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
        }
    }

    /// 1-based line and 1-based column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
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

    /// The source text of a span.
    pub fn snippet(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let m = SourceMap::new("t.py", "x = 1\nif x:\n    y = 2\n");
        assert_eq!(m.line_col(0), (1, 1));
        assert_eq!(m.line_col(6), (2, 1));
        assert_eq!(m.line_col(16), (3, 5));
        assert_eq!(m.line_text(2), "if x:");
        assert_eq!(m.line_text(9), "");
    }
}
