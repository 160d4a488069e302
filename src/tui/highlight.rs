//! Syntax highlighting of minipy source for the code pane, with syntect.
//!
//! The grammar is `syntaxes/minipy.sublime-syntax` (embedded with `include_str!`): Python's
//! keywords, numbers, strings, comments, `def`s and built-ins, plus minipy's `havoc`,
//! `assume`, `invariant`, the tree labels `method-frame(result=...)` / `loop-scope(inv=...)`
//! and decorators such as `@predicate`. syntect runs with its pure-Rust regex engine
//! (fancy-regex): no C library to build.
//!
//! [`Highlighter::highlight`] turns a whole source text into one `Vec` of styled spans per
//! line (as `str::lines` splits it, line terminators dropped). Spans carry the theme's
//! foreground and font style only (a background only where the theme gives a scope its own
//! one), so the pane's background, the selection and the current-line mark show through.
//! Highlighting is done once per source and theme; the caller keeps the result.

use std::sync::Arc;

use ratatui::style::{Color, Modifier, Style};
use syntect::easy::HighlightLines;
use syntect::highlighting::{Color as SynColor, FontStyle, Style as SynStyle, Theme};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

use crate::tui::syntax::MINIPY;
use crate::tui::theme::Themes;

/// One line of highlighted text: (style, text) pieces in order.
pub type StyledLine = Vec<(Style, String)>;

/// Highlights minipy source with one theme.
#[derive(Clone)]
pub struct Highlighter {
    syntaxes: Arc<SyntaxSet>,
    theme: Theme,
}

impl Highlighter {
    /// A highlighter for theme `idx` of `themes`.
    pub fn new(themes: &Themes, idx: usize) -> Self {
        Highlighter {
            syntaxes: themes.syntaxes(),
            theme: themes.theme(idx).clone(),
        }
    }

    /// One `Vec` of styled spans per line of `source` (empty lines give empty `Vec`s).
    /// Adjacent spans of the same style are merged.
    pub fn highlight(&self, source: &str) -> Vec<StyledLine> {
        let syntax = self
            .syntaxes
            .find_syntax_by_name(MINIPY)
            .unwrap_or_else(|| self.syntaxes.find_syntax_plain_text());
        let mut lines = HighlightLines::new(syntax, &self.theme);
        let default_bg = self.theme.settings.background;
        let mut failed = false;
        let mut out = Vec::new();
        for line in LinesWithEndings::from(source) {
            let text = line.strip_suffix('\n').unwrap_or(line);
            let text = text.strip_suffix('\r').unwrap_or(text);
            let ranges = if failed {
                None
            } else {
                lines.highlight_line(line, &self.syntaxes).ok()
            };
            let Some(ranges) = ranges else {
                // syntect gave up (it does not on our grammar; be safe): plain text from here.
                failed = true;
                out.push(plain(text));
                continue;
            };
            let mut spans: StyledLine = Vec::new();
            let mut len = 0;
            for (style, piece) in ranges {
                let piece = &piece[..piece.len().min(text.len().saturating_sub(len))];
                len += piece.len();
                if piece.is_empty() {
                    continue;
                }
                let style = convert(style, default_bg);
                match spans.last_mut() {
                    Some((last, s)) if *last == style => s.push_str(piece),
                    _ => spans.push((style, piece.to_string())),
                }
            }
            out.push(spans);
        }
        out
    }
}

fn plain(text: &str) -> StyledLine {
    if text.is_empty() {
        Vec::new()
    } else {
        vec![(Style::default(), text.to_string())]
    }
}

fn rgb(c: SynColor, under: Option<SynColor>) -> Color {
    let bg = under.unwrap_or(SynColor::BLACK);
    let a = f64::from(c.a) / 255.0;
    let m = |x: u8, y: u8| (f64::from(x) * a + f64::from(y) * (1.0 - a)).round() as u8;
    Color::Rgb(m(c.r, bg.r), m(c.g, bg.g), m(c.b, bg.b))
}

/// A syntect style as a ratatui style: foreground and font style; the background only when
/// it differs from the theme's own.
fn convert(s: SynStyle, default_bg: Option<SynColor>) -> Style {
    let mut style = Style::default().fg(rgb(s.foreground, default_bg));
    if Some(s.background) != default_bg && s.background.a > 0 {
        style = style.bg(rgb(s.background, default_bg));
    }
    let mut m = Modifier::empty();
    if s.font_style.contains(FontStyle::BOLD) {
        m |= Modifier::BOLD;
    }
    if s.font_style.contains(FontStyle::ITALIC) {
        m |= Modifier::ITALIC;
    }
    if s.font_style.contains(FontStyle::UNDERLINE) {
        m |= Modifier::UNDERLINED;
    }
    style.add_modifier(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use syntect::easy::ScopeRangeIterator;
    use syntect::parsing::{ParseState, ScopeStack};

    /// The scope stack (as strings) of the first piece of `source` whose text is `token`.
    fn scopes_of(source: &str, token: &str) -> Vec<String> {
        let ss = crate::tui::syntax::minipy_syntax_set();
        let syntax = ss.find_syntax_by_name(MINIPY).unwrap();
        let mut parse = ParseState::new(syntax);
        let mut stack = ScopeStack::new();
        for line in LinesWithEndings::from(source) {
            let ops = parse.parse_line(line, &ss).unwrap();
            for (range, op) in ScopeRangeIterator::new(&ops, line) {
                stack.apply(op).unwrap();
                if line[range].trim() == token {
                    return stack.as_slice().iter().map(|s| s.build_string()).collect();
                }
            }
        }
        panic!("token {token:?} not found as one piece in {source:?}")
    }

    fn innermost(source: &str, token: &str) -> String {
        scopes_of(source, token).last().cloned().unwrap_or_default()
    }

    const EXAMPLE: &str = "\
# find with an invariant
needle: int
haystack: tuple


@predicate
def not_found_before(i: int, needle: int, haystack: tuple) -> bool:
    return all(haystack[k] != needle for k in range(0, i))


def find(needle: int, haystack: tuple) -> int:
    i = 0
    while i < len(haystack):
        invariant 0 <= i <= len(haystack)
        havoc i
        assume i >= 0 and abs(i) == i
        if haystack[i] == needle:
            break
        i = i + 1
    else:
        return -1
    loop-scope(inv=i >= 0 and i <= len(t)):
        continue
    method-frame(result=r):
        r = max(min(1, 2), 3)
    return i
";

    #[test]
    fn minipy_tokens_get_their_scopes() {
        let cases = [
            ("havoc", "keyword.control.verification.minipy"),
            ("assume", "keyword.control.verification.minipy"),
            ("invariant", "keyword.control.verification.minipy"),
            ("loop-scope", "keyword.control.tree.minipy"),
            ("method-frame", "keyword.control.tree.minipy"),
            ("inv", "variable.parameter.tree.minipy"),
            ("result", "variable.parameter.tree.minipy"),
            ("predicate", "entity.name.function.decorator.minipy"),
            ("@", "punctuation.definition.decorator.minipy"),
            ("def", "storage.type.function.minipy"),
            ("find", "entity.name.function.minipy"),
            ("while", "keyword.control.flow.minipy"),
            ("return", "keyword.control.flow.minipy"),
            ("and", "keyword.operator.logical.minipy"),
            ("len", "support.function.builtin.minipy"),
            ("abs", "support.function.builtin.minipy"),
            ("min", "support.function.builtin.minipy"),
            ("max", "support.function.builtin.minipy"),
            ("all", "support.function.builtin.minipy"),
            ("range", "support.function.builtin.minipy"),
            ("tuple", "support.type.minipy"),
            ("0", "constant.numeric.minipy"),
            ("find with an invariant", "comment.line.number-sign.minipy"),
        ];
        for (token, scope) in cases {
            assert_eq!(innermost(EXAMPLE, token), scope, "token {token:?}");
        }
        assert_eq!(
            innermost("any(x)\nx = 0x1F + 1_000 + 2.5e3\n", "0x1F"),
            "constant.numeric.integer.minipy"
        );
        assert_eq!(innermost("x = True\n", "True"), "constant.language.minipy");
        assert_eq!(innermost("f(x)\n", "f"), "variable.function.minipy");
        // Plain names stay plain.
        assert_eq!(innermost("needle = 1\n", "needle"), "source.minipy");
        // A dash between two names is a subtraction, not a tree label.
        assert_eq!(innermost("z = a-loop-scope\n", "loop"), "source.minipy");
    }

    fn style_of(lines: &[StyledLine], token: &str) -> Style {
        lines
            .iter()
            .flatten()
            .find(|(_, text)| text.trim() == token)
            .map(|(style, _)| *style)
            .unwrap_or_else(|| panic!("no span {token:?} in {lines:?}"))
    }

    #[test]
    fn special_tokens_are_styled_in_every_embedded_theme() {
        let themes = Themes::load_from(None);
        for idx in 0..themes.len() {
            let h = Highlighter::new(&themes, idx);
            let lines = h.highlight(EXAMPLE);
            assert_eq!(lines.len(), EXAMPLE.lines().count());
            let plain = style_of(&lines, "needle:").fg;
            let fg = themes.palette(idx).fg;
            for token in [
                "havoc",
                "assume",
                "invariant",
                "loop-scope",
                "method-frame",
                "@predicate",
                "def",
                "while",
                "len",
                "abs",
                "range",
                "0",
            ] {
                let style = style_of(&lines, token);
                assert!(
                    style.fg.is_some_and(|c| c != fg) || !style.add_modifier.is_empty(),
                    "theme {idx}: {token:?} is unstyled: {style:?}"
                );
            }
            assert_eq!(plain, Some(fg), "theme {idx}: plain text is the theme's fg");
            // minipy's statements stand out from ordinary keywords.
            assert_ne!(style_of(&lines, "havoc"), style_of(&lines, "while"));
            assert_ne!(style_of(&lines, "loop-scope"), style_of(&lines, "while"));
            assert!(style_of(&lines, "loop-scope")
                .add_modifier
                .contains(Modifier::BOLD));
        }
    }

    #[test]
    fn lines_keep_their_text_without_terminators() {
        let themes = Themes::load_from(None);
        let h = Highlighter::new(&themes, 0);
        let source = "x: int\r\n\nif x > 1:  # c\n    pass";
        let lines = h.highlight(source);
        let texts: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|(_, t)| t.as_str()).collect())
            .collect();
        assert_eq!(texts, vec!["x: int", "", "if x > 1:  # c", "    pass"]);
        assert!(lines[1].is_empty());
        assert!(h.highlight("").is_empty());
        // Adjacent same-style pieces are merged: no two neighbours share a style.
        for line in &lines {
            for pair in line.windows(2) {
                assert_ne!(pair[0].0, pair[1].0, "{line:?}");
            }
        }
    }

    #[test]
    fn themes_change_the_colours_not_the_text() {
        let themes = Themes::load_from(None);
        let dark = Highlighter::new(&themes, 0).highlight(EXAMPLE);
        let light = Highlighter::new(&themes, 1).highlight(EXAMPLE);
        let text = |ls: &[StyledLine]| -> Vec<String> {
            ls.iter()
                .map(|l| l.iter().map(|(_, t)| t.as_str()).collect())
                .collect()
        };
        assert_eq!(text(&dark), text(&light));
        assert_ne!(style_of(&dark, "havoc"), style_of(&light, "havoc"));
        // No span carries the theme's background: the pane paints it.
        for (style, _) in dark.iter().flatten() {
            assert_eq!(style.bg, None, "{style:?}");
        }
    }

    #[test]
    fn every_example_highlights_with_scoped_keywords() {
        let themes = Themes::load_from(None);
        let h = Highlighter::new(&themes, 0);
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|x| x != "py") {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            let lines = h.highlight(&source);
            assert_eq!(lines.len(), source.lines().count(), "{}", path.display());
            let styles: std::collections::HashSet<Style> =
                lines.iter().flatten().map(|(s, _)| *s).collect();
            assert!(styles.len() >= 3, "{}: {styles:?}", path.display());
            seen += 1;
        }
        assert!(seen >= 10, "only {seen} examples");
    }
}
