//! The terminal UI's themes: syntect `.tmTheme` files and the UI colours derived from them.
//!
//! Where themes come from ([`Themes::load`]):
//! 1. the themes embedded in the binary (`themes/symdbg-dark.tmTheme`, then
//!    `themes/symdbg-light.tmTheme`, via `include_str!`), so `symdbg` works from any directory;
//! 2. then every `*.tmTheme` file in the directory `themes/` of the current working directory,
//!    if there is one, in file-name order. A theme's name is its file stem; a file whose stem
//!    is the name of an embedded theme replaces that theme in place (so editing
//!    `themes/symdbg-dark.tmTheme` in a checkout takes effect when symdbg runs from there).
//!    A file that does not parse is skipped and reported in [`Themes::warnings`].
//!
//! The UI's own colours follow the theme ([`Palette`]): background, foreground, selection and
//! current-line colours come from the theme's global settings; the outcome colours (exception
//! red, normal green, ...) are taken from the theme's own scope colours where it has them
//! (`markup.deleted`, `markup.inserted`, ...) and otherwise from a fixed hue, and are then made
//! readable on the theme's background (WCAG contrast ratio at least 4.5, see [`contrast`]).
//! Open nodes take the theme's caret colour, so they differ from every leaf.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ratatui::style::Color;
use syntect::highlighting::{Color as SynColor, Highlighter as SynHighlighter, Theme, ThemeSet};
use syntect::parsing::{Scope, SyntaxSet};

use crate::session::Outcome;

/// The themes compiled into the binary: (name, tmTheme text). The first is the default.
const EMBEDDED: &[(&str, &str)] = &[
    (
        "symdbg-dark",
        include_str!("../../themes/symdbg-dark.tmTheme"),
    ),
    (
        "symdbg-light",
        include_str!("../../themes/symdbg-light.tmTheme"),
    ),
];

/// The directory, relative to the current working directory, searched for extra themes.
pub const THEMES_DIR: &str = "themes";

/// Where a loaded theme came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThemeSource {
    Embedded,
    File(PathBuf),
}

struct Entry {
    name: String,
    source: ThemeSource,
    theme: Theme,
}

/// All loaded themes, in order (embedded first), plus the minipy syntax they highlight.
pub struct Themes {
    entries: Vec<Entry>,
    syntaxes: Arc<SyntaxSet>,
    warnings: Vec<String>,
}

impl Themes {
    /// The embedded themes plus `./themes/*.tmTheme` (see the module docs for the rule).
    pub fn load() -> Themes {
        Themes::load_from(Some(Path::new(THEMES_DIR)))
    }

    /// The embedded themes plus the `*.tmTheme` files of `dir` (none when `dir` is `None` or
    /// does not exist).
    pub fn load_from(dir: Option<&Path>) -> Themes {
        let mut themes = Themes::embedded();
        if let Some(dir) = dir {
            themes.add_dir(dir);
        }
        themes
    }

    /// Only the themes compiled into the binary.
    pub fn embedded() -> Themes {
        let entries = EMBEDDED
            .iter()
            .map(|(name, text)| Entry {
                name: name.to_string(),
                source: ThemeSource::Embedded,
                theme: parse_theme(text)
                    .unwrap_or_else(|e| panic!("embedded theme {name} does not parse: {e}")),
            })
            .collect();
        Themes {
            entries,
            syntaxes: Arc::new(crate::tui::syntax::minipy_syntax_set()),
            warnings: Vec::new(),
        }
    }

    fn add_dir(&mut self, dir: &Path) {
        let Ok(read) = std::fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = read
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.is_file()
                    && p.extension()
                        .is_some_and(|x| x.eq_ignore_ascii_case("tmTheme"))
            })
            .collect();
        paths.sort();
        for path in paths {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let theme = match std::fs::read_to_string(&path)
                .map_err(|e| e.to_string())
                .and_then(|text| parse_theme(&text))
            {
                Ok(theme) => theme,
                Err(e) => {
                    // (user text: shown escaped, see `base::escape`)
                    let shown = format!("theme {} skipped: {e}", path.display());
                    self.warnings
                        .push(crate::base::escape::escape(&shown).into_owned());
                    continue;
                }
            };
            let entry = Entry {
                name,
                source: ThemeSource::File(path),
                theme,
            };
            match self.entries.iter_mut().find(|e| e.name == entry.name) {
                Some(slot) => *slot = entry,
                None => self.entries.push(entry),
            }
        }
    }

    /// The themes' names, in order (index = position).
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }

    /// The index of the theme called `name` (exact, else ASCII case-insensitive, else the
    /// unique theme whose name ends with `-name`, so `dark` finds `symdbg-dark`).
    pub fn get(&self, name: &str) -> Option<usize> {
        if let Some(i) = self.entries.iter().position(|e| e.name == name) {
            return Some(i);
        }
        if let Some(i) = self
            .entries
            .iter()
            .position(|e| e.name.eq_ignore_ascii_case(name))
        {
            return Some(i);
        }
        let suffix = format!("-{}", name.to_ascii_lowercase());
        let mut hits = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.name.to_ascii_lowercase().ends_with(&suffix));
        match (hits.next(), hits.next()) {
            (Some((i, _)), None) => Some(i),
            _ => None,
        }
    }

    /// How many themes there are (at least the embedded ones).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Never true: the embedded themes are always there.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The theme after `idx`, wrapping around (the `t` key).
    pub fn next(&self, idx: usize) -> usize {
        (idx + 1) % self.entries.len()
    }

    /// Where theme `idx` came from.
    pub fn source(&self, idx: usize) -> &ThemeSource {
        &self.entries[idx].source
    }

    /// Problems met while loading (unreadable or malformed theme files), for the status line.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The syntect theme `idx`.
    pub fn theme(&self, idx: usize) -> &Theme {
        &self.entries[idx].theme
    }

    pub(crate) fn syntaxes(&self) -> Arc<SyntaxSet> {
        Arc::clone(&self.syntaxes)
    }

    /// True when theme `idx` has a dark background.
    pub fn is_dark(&self, idx: usize) -> bool {
        luminance(self.palette(idx).bg) < 0.5
    }

    /// The UI colours for theme `idx`.
    pub fn palette(&self, idx: usize) -> Palette {
        Palette::from_theme(&self.entries[idx].theme)
    }
}

fn parse_theme(text: &str) -> Result<Theme, String> {
    let mut cursor = std::io::Cursor::new(text.as_bytes());
    ThemeSet::load_from_reader(&mut cursor).map_err(|e| e.to_string())
}

/// The UI's colours, derived from a theme (all `Color::Rgb`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Background of every pane.
    pub bg: Color,
    /// Plain text.
    pub fg: Color,
    /// Secondary text: line numbers, hints, labels.
    pub dim: Color,
    /// Highlights: titles, the key-hint keys, the spinner.
    pub accent: Color,
    /// Background of the selected row (tree, search hits).
    pub selection: Color,
    /// Pane borders.
    pub border: Color,
    /// Border of the focused pane.
    pub focus_border: Color,
    pub normal_leaf: Color,
    pub return_leaf: Color,
    pub exception_leaf: Color,
    pub infeasible_leaf: Color,
    pub halt_leaf: Color,
    pub bound_leaf: Color,
    pub unknown_leaf: Color,
    /// Nodes not stepped yet.
    pub open_node: Color,
    /// Breakpoint marks in the code pane's gutter.
    pub breakpoint: Color,
    /// Background of the code line of the selected node's statement.
    pub current_line: Color,
}

/// Minimum contrast of text colours (outcomes, dim, accent) against the background.
pub const MIN_TEXT_CONTRAST: f64 = 4.5;

impl Palette {
    /// The palette of `theme`; themes without global colours get a dark default.
    pub fn from_theme(theme: &Theme) -> Palette {
        let s = &theme.settings;
        let bg = s.background.map(rgb).unwrap_or((0x1e, 0x21, 0x27));
        let fg = s
            .foreground
            .map(|c| over(c, bg))
            .unwrap_or(if rel_luminance(bg) < 0.18 {
                (0xd7, 0xda, 0xe0)
            } else {
                (0x38, 0x3a, 0x42)
            });
        let fg = readable(fg, bg, MIN_TEXT_CONTRAST);
        let scope = |names: &[&str]| scope_fg(theme, names).map(|c| over(c, bg));
        let pick = |names: &[&str], fallback: (u8, u8, u8)| {
            let c = scope(names).unwrap_or(fallback);
            readable(c, bg, MIN_TEXT_CONTRAST)
        };
        let dim = s
            .gutter_foreground
            .map(|c| over(c, bg))
            .or_else(|| scope(&["comment"]))
            .unwrap_or_else(|| mix(fg, bg, 0.55));
        let dim = readable(dim, bg, MIN_TEXT_CONTRAST);
        let accent = s
            .accent
            .or(s.caret)
            .map(|c| over(c, bg))
            .or_else(|| scope(&["entity.name.function"]))
            .unwrap_or((0x61, 0xaf, 0xef));
        let accent = readable(accent, bg, MIN_TEXT_CONTRAST);
        let selection = s
            .selection
            .map(|c| over(c, bg))
            .filter(|&c| c != bg)
            .unwrap_or_else(|| mix(fg, bg, 0.2));
        let current_line = s
            .line_highlight
            .map(|c| over(c, bg))
            .filter(|&c| c != bg)
            .unwrap_or_else(|| mix(fg, bg, 0.1));
        let border = s
            .guide
            .map(|c| over(c, bg))
            .filter(|&c| contrast_rgb(c, bg) >= 1.5)
            .unwrap_or_else(|| mix(fg, bg, 0.4));
        let exception = pick(
            &["markup.deleted", "invalid", "keyword.control.verification"],
            (0xe0, 0x4b, 0x4b),
        );
        let leaves = [
            pick(&["markup.inserted", "string"], (0x4c, 0xb0, 0x4c)),
            pick(
                &["support.function", "keyword.operator"],
                (0x2a, 0xa1, 0x98),
            ),
            exception,
            dim,
            pick(
                &["entity.name.function", "variable.function"],
                (0x42, 0x85, 0xf4),
            ),
            pick(&["markup.changed", "constant.numeric"], (0xd0, 0x9a, 0x2a)),
            pick(&["storage.type", "keyword"], (0xb0, 0x50, 0xd0)),
        ];
        // Open nodes: the caret colour (else the accent), unless a leaf already has it.
        let open = [s.caret, s.accent]
            .into_iter()
            .flatten()
            .map(|c| readable(over(c, bg), bg, MIN_TEXT_CONTRAST))
            .find(|c| !leaves.contains(c))
            .unwrap_or(fg);
        let [normal, ret, exception, infeasible, halt, bound, unknown] = leaves;
        Palette {
            bg: color(bg),
            fg: color(fg),
            dim: color(dim),
            accent: color(accent),
            selection: color(selection),
            border: color(border),
            focus_border: color(accent),
            normal_leaf: color(normal),
            return_leaf: color(ret),
            exception_leaf: color(exception),
            infeasible_leaf: color(infeasible),
            halt_leaf: color(halt),
            bound_leaf: color(bound),
            unknown_leaf: color(unknown),
            open_node: color(open),
            breakpoint: color(exception),
            current_line: color(current_line),
        }
    }

    /// The colour of a leaf with outcome `outcome`.
    pub fn outcome(&self, outcome: Outcome) -> Color {
        match outcome {
            Outcome::Normal => self.normal_leaf,
            Outcome::Return => self.return_leaf,
            Outcome::Exception(_) => self.exception_leaf,
            Outcome::Infeasible => self.infeasible_leaf,
            Outcome::Halt => self.halt_leaf,
            Outcome::Bound => self.bound_leaf,
            Outcome::Unknown | Outcome::StepLimit => self.unknown_leaf,
        }
    }
}

type Rgb = (u8, u8, u8);

fn rgb(c: SynColor) -> Rgb {
    (c.r, c.g, c.b)
}

/// `c` with its alpha composited over the opaque `bg`.
fn over(c: SynColor, bg: Rgb) -> Rgb {
    let a = f64::from(c.a) / 255.0;
    mix((c.r, c.g, c.b), bg, a)
}

/// `a·t + b·(1−t)` per channel.
fn mix(a: Rgb, b: Rgb, t: f64) -> Rgb {
    let m = |x: u8, y: u8| (f64::from(x) * t + f64::from(y) * (1.0 - t)).round() as u8;
    (m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

pub(crate) fn color(c: Rgb) -> Color {
    Color::Rgb(c.0, c.1, c.2)
}

/// The foreground colour the theme gives to the first of `scopes` it styles explicitly.
fn scope_fg(theme: &Theme, scopes: &[&str]) -> Option<SynColor> {
    let h = SynHighlighter::new(theme);
    let default = h.get_default().foreground;
    scopes.iter().find_map(|name| {
        let scope = Scope::new(name).ok()?;
        let modifier = h.style_mod_for_stack(&[scope]);
        modifier.foreground.filter(|&c| c != default)
    })
}

/// WCAG relative luminance of an sRGB colour, 0 (black) to 1 (white).
fn rel_luminance(c: Rgb) -> f64 {
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.0) + 0.7152 * lin(c.1) + 0.0722 * lin(c.2)
}

/// Relative luminance of a ratatui colour (`Rgb` only; other colours count as mid-grey).
pub fn luminance(c: Color) -> f64 {
    match c {
        Color::Rgb(r, g, b) => rel_luminance((r, g, b)),
        _ => 0.5,
    }
}

/// WCAG contrast ratio of two colours, 1 (same) to 21 (black on white).
fn contrast_rgb(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (rel_luminance(a), rel_luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// WCAG contrast ratio of two `Color::Rgb` colours (1 when either is not `Rgb`).
pub fn contrast(a: Color, b: Color) -> f64 {
    match (a, b) {
        (Color::Rgb(r1, g1, b1), Color::Rgb(r2, g2, b2)) => {
            contrast_rgb((r1, g1, b1), (r2, g2, b2))
        }
        _ => 1.0,
    }
}

/// `c`, darkened (on a light background) or lightened (on a dark one) just enough to reach
/// contrast `min` against `bg`, keeping its hue as far as possible.
fn readable(c: Rgb, bg: Rgb, min: f64) -> Rgb {
    if contrast_rgb(c, bg) >= min {
        return c;
    }
    let target = if rel_luminance(bg) < 0.18 {
        (255, 255, 255)
    } else {
        (0, 0, 0)
    };
    // The smallest step towards black/white that is readable (contrast grows monotonically).
    (1..=20)
        .map(|i| mix(target, c, f64::from(i) / 20.0))
        .find(|&m| contrast_rgb(m, bg) >= min)
        .unwrap_or(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUTCOMES: [Outcome; 6] = [
        Outcome::Normal,
        Outcome::Return,
        Outcome::Infeasible,
        Outcome::Halt,
        Outcome::Bound,
        Outcome::Unknown,
    ];

    fn leaf_colours(p: &Palette) -> Vec<(&'static str, Color)> {
        vec![
            ("normal", p.normal_leaf),
            ("return", p.return_leaf),
            ("exception", p.exception_leaf),
            ("infeasible", p.infeasible_leaf),
            ("halt", p.halt_leaf),
            ("bound", p.bound_leaf),
            ("unknown", p.unknown_leaf),
        ]
    }

    #[test]
    fn embedded_themes_are_a_dark_and_a_light_one() {
        let themes = Themes::load_from(None);
        assert_eq!(themes.names(), vec!["symdbg-dark", "symdbg-light"]);
        assert!(themes.is_dark(0));
        assert!(!themes.is_dark(1));
        assert!(themes.warnings().is_empty());
        assert_eq!(themes.source(0), &ThemeSource::Embedded);
    }

    #[test]
    fn get_finds_names_exactly_case_insensitively_and_by_suffix() {
        let themes = Themes::load_from(None);
        assert_eq!(themes.get("symdbg-light"), Some(1));
        assert_eq!(themes.get("SYMDBG-DARK"), Some(0));
        assert_eq!(themes.get("light"), Some(1));
        assert_eq!(themes.get("dark"), Some(0));
        assert_eq!(themes.get("solarized"), None);
        assert_eq!(themes.next(1), 0);
        assert_eq!(themes.next(0), 1);
    }

    #[test]
    fn palettes_follow_the_theme() {
        let themes = Themes::load_from(None);
        let (dark, light) = (themes.palette(0), themes.palette(1));
        // Straight from the files' global settings.
        assert_eq!(dark.bg, Color::Rgb(0x1e, 0x21, 0x27));
        assert_eq!(dark.fg, Color::Rgb(0xd7, 0xda, 0xe0));
        assert_eq!(dark.selection, Color::Rgb(0x3e, 0x44, 0x51));
        assert_eq!(dark.current_line, Color::Rgb(0x2c, 0x31, 0x3a));
        assert_eq!(light.bg, Color::Rgb(0xfa, 0xfa, 0xfa));
        assert_eq!(light.selection, Color::Rgb(0xe5, 0xe5, 0xe6));
        assert_ne!(dark.exception_leaf, light.exception_leaf);
        assert!(luminance(dark.bg) < luminance(dark.fg));
        assert!(luminance(light.bg) > luminance(light.fg));
    }

    #[test]
    fn text_colours_are_readable_and_outcomes_distinct() {
        let themes = Themes::load_from(None);
        for idx in 0..themes.len() {
            let p = themes.palette(idx);
            let mut text = leaf_colours(&p);
            text.extend([("fg", p.fg), ("dim", p.dim), ("accent", p.accent)]);
            text.push(("open", p.open_node));
            for (what, c) in &text {
                let ratio = contrast(*c, p.bg);
                assert!(
                    ratio >= MIN_TEXT_CONTRAST,
                    "theme {idx}: {what} {c:?} on {:?} has contrast {ratio:.2}",
                    p.bg
                );
            }
            let mut leaves = leaf_colours(&p);
            leaves.push(("open", p.open_node));
            for (i, (a, ca)) in leaves.iter().enumerate() {
                for (b, cb) in &leaves[i + 1..] {
                    assert_ne!(ca, cb, "theme {idx}: {a} and {b} share a colour");
                }
            }
            assert_ne!(p.selection, p.bg);
            assert_ne!(p.current_line, p.bg);
            assert!(contrast(p.border, p.bg) >= 1.5);
            for o in OUTCOMES {
                assert_ne!(p.outcome(o), p.bg);
            }
        }
    }

    #[test]
    fn unreadable_theme_colours_are_adjusted_towards_contrast() {
        // A light theme whose "inserted" green is far too pale for its white background.
        let text = EMBEDDED[1]
            .1
            .replace("#50A14F", "#C8F0C8")
            .replace("#FAFAFA", "#FFFFFF");
        let theme = parse_theme(&text).unwrap();
        let p = Palette::from_theme(&theme);
        assert!(contrast(p.normal_leaf, p.bg) >= MIN_TEXT_CONTRAST);
        // Still a green: the green channel dominates.
        let Color::Rgb(r, g, b) = p.normal_leaf else {
            panic!("not rgb")
        };
        assert!(g > r && g > b, "{:?}", p.normal_leaf);
    }

    #[test]
    fn a_theme_without_colours_gets_a_usable_palette() {
        let p = Palette::from_theme(&Theme::default());
        assert!(contrast(p.fg, p.bg) >= MIN_TEXT_CONTRAST);
        assert!(contrast(p.exception_leaf, p.bg) >= MIN_TEXT_CONTRAST);
        assert_ne!(p.selection, p.bg);
    }

    #[test]
    fn themes_dir_adds_files_replaces_same_names_and_reports_broken_ones() {
        let dir = std::env::temp_dir().join(format!("symdbg-themes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let solar = EMBEDDED[1].1.replace("#FAFAFA", "#FDF6E3");
        std::fs::write(dir.join("solar.tmTheme"), &solar).unwrap();
        let darker = EMBEDDED[0].1.replace("#1E2127", "#000000");
        std::fs::write(dir.join("symdbg-dark.tmTheme"), darker).unwrap();
        std::fs::write(dir.join("broken.tmTheme"), "<plist><dict>").unwrap();
        std::fs::write(dir.join("notes.txt"), "not a theme").unwrap();

        let themes = Themes::load_from(Some(&dir));
        std::fs::remove_dir_all(&dir).unwrap();

        assert_eq!(themes.names(), vec!["symdbg-dark", "symdbg-light", "solar"]);
        assert_eq!(themes.palette(0).bg, Color::Rgb(0, 0, 0));
        assert!(matches!(themes.source(0), ThemeSource::File(_)));
        assert_eq!(themes.palette(2).bg, Color::Rgb(0xfd, 0xf6, 0xe3));
        assert_eq!(themes.warnings().len(), 1, "{:?}", themes.warnings());
        assert!(themes.warnings()[0].contains("broken.tmTheme"));
    }

    #[test]
    fn missing_themes_dir_is_not_an_error() {
        let themes = Themes::load_from(Some(Path::new("/nonexistent/symdbg/themes")));
        assert_eq!(themes.len(), 2);
        assert!(themes.warnings().is_empty());
    }
}
