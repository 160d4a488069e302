//! The symbolic engine (issue 3).

pub mod term;
