//! The terminal UI (`symdbg FILE`). Theme branch stand-in: only the theme and highlighting
//! modules; the tui helper's branch owns this file.

pub mod highlight;
pub mod theme;
