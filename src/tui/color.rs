//! Colour depth: themes are 24-bit, and terminals without 24-bit colour get the nearest
//! colour they have.
//!
//! [`ColorDepth::detect`] reads the environment the way most terminal programs do:
//! `COLORTERM=truecolor` (or `24bit`) means 24-bit colour; otherwise a `TERM` naming 256
//! colours (`xterm-256color`, `tmux-256color`, ...) gets the xterm 256-colour palette, and
//! any other terminal the 16 ANSI colours. `--colors` overrides the guess. The frame is
//! drawn in 24-bit colour and [`fit_buffer`] maps each cell's colours just before it is
//! written, so no pane needs to know the depth.

use ratatui::buffer::Buffer;
use ratatui::style::Color;

/// How many colours the terminal shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorDepth {
    #[default]
    TrueColor,
    Ansi256,
    Ansi16,
}

impl ColorDepth {
    /// Guess from `COLORTERM` and `TERM`.
    pub fn detect() -> ColorDepth {
        let get = |k| std::env::var(k).unwrap_or_default();
        ColorDepth::from_env(&get("COLORTERM"), &get("TERM"))
    }

    pub fn from_env(colorterm: &str, term: &str) -> ColorDepth {
        let colorterm = colorterm.to_ascii_lowercase();
        if colorterm == "truecolor" || colorterm == "24bit" {
            ColorDepth::TrueColor
        } else if term.contains("256") || term.contains("direct") {
            ColorDepth::Ansi256
        } else {
            ColorDepth::Ansi16
        }
    }

    /// The colour this depth shows for `c`.
    pub fn fit(self, c: Color) -> Color {
        match (self, c) {
            (ColorDepth::TrueColor, c) => c,
            (ColorDepth::Ansi256, Color::Rgb(r, g, b)) => Color::Indexed(nearest_256(r, g, b)),
            (ColorDepth::Ansi16, Color::Rgb(r, g, b)) => nearest_16(r, g, b),
            (ColorDepth::Ansi16, Color::Indexed(i)) => {
                let (r, g, b) = xterm_rgb(i);
                nearest_16(r, g, b)
            }
            (_, c) => c,
        }
    }
}

/// Map every cell's colours to `depth`.
pub fn fit_buffer(buf: &mut Buffer, depth: ColorDepth) {
    if depth == ColorDepth::TrueColor {
        return;
    }
    // A frame has a few dozen distinct colours: map each once (the 256-colour search
    // looks at 240 palette entries).
    let mut seen: Vec<(Color, Color)> = Vec::new();
    let mut fit = |c: Color| match seen.iter().find(|(from, _)| *from == c) {
        Some(&(_, to)) => to,
        None => {
            let to = depth.fit(c);
            seen.push((c, to));
            to
        }
    };
    for cell in buf.content.iter_mut() {
        let (fg, bg) = (fit(cell.fg), fit(cell.bg));
        // Two colours that differ may map to the same one, or (16 colours) to two that
        // hardly differ: keep the text readable in white or black.
        let weak = fg == bg
            || (depth == ColorDepth::Ansi16 && contrast(rgb_of(fg), rgb_of(bg)) < MIN_CONTRAST);
        cell.fg = if weak && cell.fg != cell.bg && bg != Color::Reset && fg != Color::Reset {
            if contrast((255, 255, 255), rgb_of(bg)) >= contrast((0, 0, 0), rgb_of(bg)) {
                Color::White
            } else {
                Color::Black
            }
        } else {
            fg
        };
        cell.bg = bg;
    }
}

/// Below this contrast ratio (WCAG) text in the 16 ANSI colours becomes white or black.
const MIN_CONTRAST: f32 = 2.2;

/// The RGB value xterm shows for a (mapped) colour.
fn rgb_of(c: Color) -> (u8, u8, u8) {
    match c {
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(i) => xterm_rgb(i),
        named => NAMES
            .iter()
            .position(|&n| n == named)
            .map_or((0, 0, 0), |i| xterm_rgb(i as u8)),
    }
}

/// WCAG contrast ratio of two colours (1 to 21).
fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f32 {
    fn lum((r, g, b): (u8, u8, u8)) -> f32 {
        let ch = |v: u8| {
            let c = f32::from(v) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b)
    }
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

fn dist((r1, g1, b1): (u8, u8, u8), (r2, g2, b2): (u8, u8, u8)) -> u32 {
    // Weighted Euclidean distance ("redmean" weights are overkill here; green counts most).
    let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2) as u32;
    2 * d(r1, r2) + 4 * d(g1, g2) + 3 * d(b1, b2)
}

/// The RGB value of an xterm palette index (xterm's default colours; the
/// `ansi_colours` crate's table).
fn xterm_rgb(i: u8) -> (u8, u8, u8) {
    ansi_colours::rgb_from_ansi256(i)
}

/// The nearest colour of the cube or the grey ramp (indices 16..=255; the first 16 vary
/// between terminals, so they are not used), by [`dist`]. (`ansi_colours`'s own
/// perceptual match would draw 4 of the 39 colours of the built-in themes with other
/// palette entries.)
fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    (16..=255u8)
        .min_by_key(|&i| dist(xterm_rgb(i), (r, g, b)))
        .unwrap_or(16)
}

/// The 16 ANSI colours by name, in index order.
const NAMES: [Color; 16] = [
    Color::Black,
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
    Color::Gray,
    Color::DarkGray,
    Color::LightRed,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightBlue,
    Color::LightMagenta,
    Color::LightCyan,
    Color::White,
];

/// The ANSI colour of the same hue (nearest distance would turn pastel theme colours such
/// as One Dark's red into grey): greys go to the nearest of the four ANSI greys, other
/// colours to the hue's colour, bright when the colour is light or pastel.
fn nearest_16(r: u8, g: u8, b: u8) -> Color {
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let chroma = f32::from(max - min);
    if chroma < 0.25 * f32::from(max) || max - min < 32 {
        let grey = [(0u8, 0usize), (127, 8), (229, 7), (255, 15)]
            .into_iter()
            .min_by_key(|&(v, _)| (i32::from(v) - i32::from(max)).abs())
            .map_or(0, |(_, i)| i);
        return NAMES[grey];
    }
    let (rf, gf, bf) = (f32::from(r), f32::from(g), f32::from(b));
    let hue = if max == r {
        60.0 * ((gf - bf) / chroma).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((bf - rf) / chroma + 2.0)
    } else {
        60.0 * ((rf - gf) / chroma + 4.0)
    };
    // Sectors of 60° centred on red, yellow, green, cyan, blue, magenta.
    let base = match ((hue + 30.0) / 60.0) as u32 % 6 {
        0 => 1,
        1 => 3,
        2 => 2,
        3 => 6,
        4 => 4,
        _ => 5,
    };
    let bright = max >= 240 || min >= 90;
    NAMES[if bright { base + 8 } else { base }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_follows_colorterm_then_term() {
        use ColorDepth::*;
        assert_eq!(ColorDepth::from_env("truecolor", "xterm"), TrueColor);
        assert_eq!(ColorDepth::from_env("24bit", "screen"), TrueColor);
        assert_eq!(ColorDepth::from_env("", "xterm-256color"), Ansi256);
        assert_eq!(ColorDepth::from_env("", "tmux-256color"), Ansi256);
        assert_eq!(ColorDepth::from_env("", "xterm"), Ansi16);
        assert_eq!(ColorDepth::from_env("", "linux"), Ansi16);
        assert_eq!(ColorDepth::from_env("", ""), Ansi16);
    }

    #[test]
    fn palette_colours_map_to_themselves() {
        for i in 16..=255u8 {
            let (r, g, b) = xterm_rgb(i);
            assert_eq!(
                ColorDepth::Ansi256.fit(Color::Rgb(r, g, b)),
                Color::Indexed(i)
            );
        }
        for i in 0..16u8 {
            let (r, g, b) = xterm_rgb(i);
            let name = NAMES[i as usize];
            assert_eq!(ColorDepth::Ansi16.fit(Color::Rgb(r, g, b)), name, "{i}");
            assert_eq!(ColorDepth::Ansi16.fit(Color::Indexed(i)), name);
        }
    }

    #[test]
    fn near_colours_stay_near() {
        // One Dark's background: a dark grey, not black-blue noise.
        assert_eq!(
            ColorDepth::Ansi256.fit(Color::Rgb(0x28, 0x2c, 0x34)),
            Color::Indexed(236)
        );
        assert_eq!(
            ColorDepth::Ansi16.fit(Color::Rgb(0x28, 0x2c, 0x34)),
            Color::Black
        );
        assert_eq!(
            ColorDepth::Ansi16.fit(Color::Rgb(0xe0, 0x6c, 0x75)),
            Color::LightRed
        );
        assert_eq!(
            ColorDepth::Ansi16.fit(Color::Rgb(0x98, 0xc3, 0x79)),
            Color::LightGreen
        );
        assert_eq!(
            ColorDepth::Ansi16.fit(Color::Rgb(0x40, 0x78, 0xf2)),
            Color::LightBlue
        );
        assert_eq!(
            ColorDepth::Ansi16.fit(Color::Rgb(0xfa, 0xfa, 0xfa)),
            Color::White
        );
        // Named and reset colours are left alone.
        assert_eq!(ColorDepth::Ansi256.fit(Color::Reset), Color::Reset);
        assert_eq!(ColorDepth::Ansi16.fit(Color::Red), Color::Red);
    }

    #[test]
    fn text_never_vanishes_into_its_background() {
        use ratatui::layout::Rect;
        let mut buf = Buffer::empty(Rect::new(0, 0, 2, 1));
        // One Dark's dim grey on its selection grey: both DarkGray in 16 colours.
        buf.content[0].fg = Color::Rgb(0x7f, 0x84, 0x8e);
        buf.content[0].bg = Color::Rgb(0x7a, 0x80, 0x8a);
        // The same colour on purpose (a blank cell) stays as it is.
        buf.content[1].fg = Color::Rgb(9, 9, 9);
        buf.content[1].bg = Color::Rgb(9, 9, 9);
        fit_buffer(&mut buf, ColorDepth::Ansi16);
        assert_eq!(buf.content[0].bg, Color::DarkGray);
        assert_eq!(
            buf.content[0].fg,
            Color::Black,
            "black beats white on xterm's grey"
        );
        assert_eq!(buf.content[1].fg, buf.content[1].bg);
    }

    #[test]
    fn sixteen_colour_text_keeps_a_minimum_contrast() {
        use ratatui::layout::Rect;
        let themes = crate::tui::theme::Themes::embedded();
        for idx in 0..themes.names().len() {
            let p = themes.palette(idx);
            let mut buf = Buffer::empty(Rect::new(0, 0, 14, 3));
            let fgs = [
                p.fg,
                p.dim,
                p.accent,
                p.open_node,
                p.normal_leaf,
                p.return_leaf,
                p.exception_leaf,
                p.infeasible_leaf,
                p.halt_leaf,
                p.bound_leaf,
                p.unknown_leaf,
                p.breakpoint,
                p.border,
                p.focus_border,
            ];
            for (row, bg) in [p.bg, p.selection, p.current_line].into_iter().enumerate() {
                for (col, fg) in fgs.iter().enumerate() {
                    let cell = &mut buf.content[row * 14 + col];
                    cell.fg = *fg;
                    cell.bg = bg;
                }
            }
            fit_buffer(&mut buf, ColorDepth::Ansi16);
            for cell in &buf.content {
                let c = contrast(rgb_of(cell.fg), rgb_of(cell.bg));
                assert!(c >= MIN_CONTRAST, "{}: {cell:?} {c}", themes.names()[idx]);
            }
        }
        // Strong colours keep their hue: One Dark's red on its background stays red.
        assert_eq!(
            ColorDepth::Ansi16.fit(Color::Rgb(0xe0, 0x6c, 0x75)),
            Color::LightRed
        );
    }

    #[test]
    fn fit_buffer_maps_every_cell() {
        use ratatui::layout::Rect;
        let mut buf = Buffer::empty(Rect::new(0, 0, 3, 1));
        for cell in buf.content.iter_mut() {
            cell.fg = Color::Rgb(255, 0, 0);
            cell.bg = Color::Rgb(0, 0, 0);
        }
        fit_buffer(&mut buf, ColorDepth::Ansi256);
        assert!(buf
            .content
            .iter()
            .all(|c| c.fg == Color::Indexed(196) && c.bg == Color::Indexed(16)));
    }

    /// In every depth, each built-in theme keeps what the UI needs told apart: text,
    /// the selected row and the exception leaf against the background, and the exception
    /// leaf against a normal one.
    #[test]
    fn built_in_themes_stay_readable_in_every_depth() {
        let themes = crate::tui::theme::Themes::embedded();
        for idx in 0..themes.names().len() {
            let p = themes.palette(idx);
            for depth in [
                ColorDepth::TrueColor,
                ColorDepth::Ansi256,
                ColorDepth::Ansi16,
            ] {
                let f = |c| depth.fit(c);
                let name = themes.names()[idx];
                let show = format!("{name} in {depth:?}: {p:?}");
                assert_ne!(f(p.fg), f(p.bg), "{show}");
                assert_ne!(f(p.selection), f(p.bg), "{show}");
                assert_ne!(f(p.exception_leaf), f(p.bg), "{show}");
                assert_ne!(f(p.exception_leaf), f(p.normal_leaf), "{show}");
                assert_ne!(f(p.exception_leaf), f(p.selection), "{show}");
                assert_ne!(f(p.open_node), f(p.bg), "{show}");
                assert_ne!(f(p.dim), f(p.bg), "{show}");
            }
        }
    }
}
