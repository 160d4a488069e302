//! Variables as DAP shows them: references to containers (a scope, a tuple's elements),
//! handed out while the program is stopped and dropped when it moves on; tuple texts
//! split into their elements.

use crate::session::NodeId;

/// What a `variablesReference` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Container {
    /// A frame's variables: the node and the frame (`up` frames out from the innermost).
    Locals(NodeId, usize),
    /// The module frame's variables.
    Globals(NodeId),
    /// The path condition, one variable per conjunct.
    PathCondition(NodeId),
    /// A model that reaches the node (computed when asked for).
    Model(NodeId),
    /// Elements, already as text: (name, value) (a tuple's, a value's origins).
    Elements(Vec<(String, String)>),
    /// A source line, for the `locations` request (a value's origin).
    Line(usize),
}

/// The references handed out since the program last moved (1-based; 0 is "none").
#[derive(Debug, Default)]
pub struct Refs {
    list: Vec<Container>,
}

impl Refs {
    pub fn add(&mut self, c: Container) -> i64 {
        if let Some(i) = self.list.iter().position(|x| *x == c) {
            return i as i64 + 1;
        }
        self.list.push(c);
        self.list.len() as i64
    }

    pub fn get(&self, r: i64) -> Option<&Container> {
        usize::try_from(r - 1).ok().and_then(|i| self.list.get(i))
    }

    pub fn clear(&mut self) {
        self.list.clear();
    }
}

/// The elements of a tuple's text (`(1, x + 1, (2, 3))` → `1`, `x + 1`, `(2, 3)`; `(4,)`
/// → `4`; `()` → none), or `None` when the text is no tuple display (a parenthesised
/// expression, a name, a slice).
pub fn tuple_elements(text: &str) -> Option<Vec<String>> {
    let t = text.trim();
    let inner = t.strip_prefix('(')?.strip_suffix(')')?;
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut comma = false;
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                // The first `(` closes before the end: `(a) + (b)`.
                if depth < 0 {
                    return None;
                }
            }
            ',' if depth == 0 => {
                parts.push(inner[start..i].trim().to_string());
                start = i + 1;
                comma = true;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return None;
    }
    let last = inner[start..].trim();
    if !last.is_empty() {
        parts.push(last.to_string());
    }
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    comma.then_some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuples_split_into_elements_and_other_texts_do_not() {
        let s = |v: &[&str]| Some(v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(
            tuple_elements("(1, x + 1, (2, 3))"),
            s(&["1", "x + 1", "(2, 3)"])
        );
        assert_eq!(tuple_elements("(4,)"), s(&["4"]));
        assert_eq!(tuple_elements("()"), s(&[]));
        assert_eq!(
            tuple_elements("(t[1:2], f(a, b))"),
            s(&["t[1:2]", "f(a, b)"])
        );
        assert_eq!(tuple_elements("(x + 1)"), None);
        assert_eq!(tuple_elements("(a) + (b, c)"), None);
        assert_eq!(tuple_elements("t"), None);
        assert_eq!(tuple_elements("-1"), None);
    }

    #[test]
    fn references_are_stable_while_stopped() {
        let mut r = Refs::default();
        let a = r.add(Container::Globals(NodeId(3)));
        let b = r.add(Container::PathCondition(NodeId(3)));
        assert_ne!(a, b);
        assert_eq!(r.add(Container::Globals(NodeId(3))), a);
        assert_eq!(r.get(b), Some(&Container::PathCondition(NodeId(3))));
        assert_eq!(r.get(0), None);
        r.clear();
        assert_eq!(r.get(a), None);
    }
}
