//! A stand-in for the theme helper's `theme` and `highlight` modules (same API, see the
//! shared brief): two fixed palettes and no syntax colouring. When `src/tui/theme.rs` and
//! `src/tui/highlight.rs` land, `src/tui.rs` declares those modules instead of this one.

pub mod theme {
    use ratatui::style::Color;

    /// The UI's colours.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Palette {
        pub bg: Color,
        pub fg: Color,
        pub dim: Color,
        pub accent: Color,
        pub selection: Color,
        pub border: Color,
        pub focus_border: Color,
        pub normal_leaf: Color,
        pub return_leaf: Color,
        pub exception_leaf: Color,
        pub infeasible_leaf: Color,
        pub halt_leaf: Color,
        pub bound_leaf: Color,
        pub unknown_leaf: Color,
        pub open_node: Color,
        pub breakpoint: Color,
        pub current_line: Color,
    }

    /// All themes, in order.
    pub struct Themes {
        names: Vec<&'static str>,
    }

    impl Themes {
        pub fn load() -> Themes {
            Themes {
                names: vec!["dark", "light"],
            }
        }

        pub fn names(&self) -> Vec<&str> {
            self.names.clone()
        }

        pub fn get(&self, name: &str) -> Option<usize> {
            self.names.iter().position(|n| *n == name)
        }

        pub fn palette(&self, idx: usize) -> Palette {
            if self.names.get(idx) == Some(&"light") {
                Palette {
                    bg: Color::White,
                    fg: Color::Black,
                    dim: Color::Gray,
                    accent: Color::Blue,
                    selection: Color::Rgb(0xd0, 0xe0, 0xff),
                    border: Color::Gray,
                    focus_border: Color::Blue,
                    normal_leaf: Color::Blue,
                    return_leaf: Color::Blue,
                    exception_leaf: Color::Red,
                    infeasible_leaf: Color::Green,
                    halt_leaf: Color::Cyan,
                    bound_leaf: Color::Magenta,
                    unknown_leaf: Color::Yellow,
                    open_node: Color::DarkGray,
                    breakpoint: Color::Red,
                    current_line: Color::Rgb(0xff, 0xf4, 0xc0),
                }
            } else {
                Palette {
                    bg: Color::Reset,
                    fg: Color::Reset,
                    dim: Color::DarkGray,
                    accent: Color::Cyan,
                    selection: Color::Rgb(0x2a, 0x3a, 0x5a),
                    border: Color::DarkGray,
                    focus_border: Color::Cyan,
                    normal_leaf: Color::LightBlue,
                    return_leaf: Color::LightBlue,
                    exception_leaf: Color::LightRed,
                    infeasible_leaf: Color::LightGreen,
                    halt_leaf: Color::LightCyan,
                    bound_leaf: Color::LightMagenta,
                    unknown_leaf: Color::Yellow,
                    open_node: Color::Gray,
                    breakpoint: Color::LightRed,
                    current_line: Color::Rgb(0x3a, 0x3a, 0x20),
                }
            }
        }
    }
}

pub mod highlight {
    use super::theme::Themes;
    use ratatui::style::Style;

    /// Plain text, one span per line.
    pub struct Highlighter;

    impl Highlighter {
        pub fn new(_themes: &Themes, _idx: usize) -> Self {
            Highlighter
        }

        pub fn highlight(&self, source: &str) -> Vec<Vec<(Style, String)>> {
            source
                .lines()
                .map(|l| vec![(Style::default(), l.to_string())])
                .collect()
        }
    }
}
