//! The minipy grammar for syntect (`syntaxes/minipy.sublime-syntax`, embedded), shared by
//! the themes (which carry the syntax set) and the highlighter.

use syntect::parsing::{SyntaxDefinition, SyntaxSet, SyntaxSetBuilder};

/// The minipy grammar, compiled into the binary.
pub const MINIPY_SYNTAX: &str = include_str!("../../syntaxes/minipy.sublime-syntax");

/// The syntax's name in the syntax set.
pub const MINIPY: &str = "minipy";

/// A syntax set holding only the minipy grammar.
pub(crate) fn minipy_syntax_set() -> SyntaxSet {
    let def = SyntaxDefinition::load_from_str(MINIPY_SYNTAX, true, None)
        .unwrap_or_else(|e| panic!("embedded minipy syntax does not parse: {e}"));
    let mut builder = SyntaxSetBuilder::new();
    builder.add(def);
    builder.build()
}
