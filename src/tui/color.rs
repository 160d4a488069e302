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
    for cell in buf.content.iter_mut() {
        cell.fg = depth.fit(cell.fg);
        cell.bg = depth.fit(cell.bg);
    }
}

/// The six levels of each channel in xterm's 6×6×6 colour cube (indices 16..=231).
const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

/// The 16 ANSI colours as xterm draws them, in index order.
const ANSI: [(u8, u8, u8); 16] = [
    (0, 0, 0),
    (205, 0, 0),
    (0, 205, 0),
    (205, 205, 0),
    (0, 0, 238),
    (205, 0, 205),
    (0, 205, 205),
    (229, 229, 229),
    (127, 127, 127),
    (255, 0, 0),
    (0, 255, 0),
    (255, 255, 0),
    (92, 92, 255),
    (255, 0, 255),
    (0, 255, 255),
    (255, 255, 255),
];

fn dist((r1, g1, b1): (u8, u8, u8), (r2, g2, b2): (u8, u8, u8)) -> u32 {
    // Weighted Euclidean distance ("redmean" weights are overkill here; green counts most).
    let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2) as u32;
    2 * d(r1, r2) + 4 * d(g1, g2) + 3 * d(b1, b2)
}

/// The RGB value of an xterm palette index.
fn xterm_rgb(i: u8) -> (u8, u8, u8) {
    match i {
        0..=15 => ANSI[i as usize],
        16..=231 => {
            let k = i - 16;
            (
                CUBE[(k / 36) as usize],
                CUBE[(k / 6 % 6) as usize],
                CUBE[(k % 6) as usize],
            )
        }
        _ => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
    }
}

/// The nearest colour of the cube or the grey ramp (indices 16..=255; the first 16 vary
/// between terminals, so they are not used).
fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    (16..=255u8)
        .min_by_key(|&i| dist(xterm_rgb(i), (r, g, b)))
        .unwrap_or(16)
}

fn nearest_16(r: u8, g: u8, b: u8) -> Color {
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
    let k = (0..16)
        .min_by_key(|&i| dist(ANSI[i], (r, g, b)))
        .unwrap_or(0);
    NAMES[k]
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
        for (i, &(r, g, b)) in ANSI.iter().enumerate() {
            let c = ColorDepth::Ansi16.fit(Color::Rgb(r, g, b));
            assert_eq!(ColorDepth::Ansi16.fit(Color::Indexed(i as u8)), c);
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
            ColorDepth::Ansi16.fit(Color::Rgb(0xfa, 0xfa, 0xfa)),
            Color::White
        );
        // Named and reset colours are left alone.
        assert_eq!(ColorDepth::Ansi256.fit(Color::Reset), Color::Reset);
        assert_eq!(ColorDepth::Ansi16.fit(Color::Red), Color::Red);
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
}
