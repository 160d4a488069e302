//! What a recursion template adds to a loop template (issue 27; see [`super::recursion`]).

use std::rc::Rc;

use crate::base::Span;
use crate::term::Term;

/// What a recursion template adds to a loop template.
#[derive(Clone, Debug)]
pub struct Recursion {
    pub func: Rc<str>,
    /// The `def` line.
    pub def: Span,
    /// The recursive call on the folded path.
    pub call: Span,
    /// The index in the body where the fold happens (the entry, after silent bindings).
    pub start: usize,
    /// The return phase: `None`: `r ↦ r`; `Some(e)`: `r ↦ r + e` per return (over head
    /// symbols of parameters the call phase does not change), so κ returns add `κ·e`.
    pub add: Option<Term>,
}
