//! Where a breakpoint typed as text goes (gdb's `break 12`, `break f`): a line number, or
//! a function's name (its first statement). A node can only sit at a line where a
//! statement starts (a `while` header, an `except` line), so a line without one moves to
//! the next that has one, as gdb moves a breakpoint to the next line with code.

use std::collections::BTreeSet;

use super::Session;
use crate::lang::ast::{Stmt, StmtKind};

/// A resolved breakpoint location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The 1-based line the breakpoint goes on.
    pub line: usize,
    /// How the text was read, for the status line: `line 12`, `function f (line 3)`,
    /// `line 12 (line 10 has no statement)`.
    pub what: String,
}

impl Session {
    /// Read `text` (a line number or a function's name) as a breakpoint location; `Err`
    /// says why it is none.
    pub fn locate(&self, text: &str) -> Result<Location, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("break at: type a line number or a function's name".to_string());
        }
        let stops = self.stoppable_lines();
        if text.bytes().all(|b| b.is_ascii_digit()) {
            let lines = self.source().text.lines().count().max(1);
            let n: usize = text.parse().unwrap_or(usize::MAX);
            if n == 0 || n > lines {
                return Err(format!("no line {text}: the file has {lines} lines"));
            }
            let Some(&line) = stops.range(n..).next() else {
                return Err(format!("no statement on line {n} or after it"));
            };
            let what = if line == n {
                format!("line {line}")
            } else {
                format!("line {line} (line {n} has no statement; the next one)")
            };
            return Ok(Location { line, what });
        }
        let program = self.program();
        let Some(f) = program.function(text) else {
            let names: Vec<String> = program
                .functions()
                .filter(|f| !f.predicate)
                .map(|f| f.name.name.clone())
                .collect();
            return Err(if names.is_empty() {
                format!("no function `{text}` (the program defines none); type a line number")
            } else {
                format!("no function `{text}`; functions: {}", names.join(", "))
            });
        };
        if f.predicate {
            return Err(format!(
                "`{text}` is a @predicate: a formula, never stepped; break on a line that uses it"
            ));
        }
        let mut body = BTreeSet::new();
        collect(&f.body, self, &mut body);
        match body.first() {
            Some(&line) => Ok(Location {
                line,
                what: format!("function {text} (line {line})"),
            }),
            None => Err(format!("function `{text}` has no statement to stop at")),
        }
    }

    /// The lines where a node can sit: where a statement that is a step starts (not a
    /// `def`, not an input declaration, nothing inside a predicate), and `except` lines.
    fn stoppable_lines(&self) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        collect(&self.program().body, self, &mut out);
        for f in self.program().functions().filter(|f| !f.predicate) {
            collect(&f.body, self, &mut out);
        }
        out
    }
}

/// The stoppable lines of a block (see [`Session::stoppable_lines`]), nested blocks
/// included, function bodies not.
fn collect(block: &[Stmt], session: &Session, out: &mut BTreeSet<usize>) {
    let line = |s: crate::base::Span| session.source().line(s.start);
    for s in block {
        match &s.kind {
            StmtKind::FunctionDef(_) | StmtKind::Declare { .. } => continue,
            StmtKind::Try { handlers, .. } => out.extend(handlers.iter().map(|h| line(h.span))),
            _ => {}
        }
        out.insert(line(s.span));
        for b in s.nested_blocks() {
            collect(b, session, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::SourceMap;
    use crate::engine::Config;

    const SRC: &str = "\
x: int
@predicate
def p(n: int) -> bool:
    return n > 0

def f(a: int) -> int:
    # first a comment
    b = a + 1
    try:
        b = 10 // b
    except ZeroDivisionError:
        b = 0
    return b

y = f(x)
";

    #[test]
    fn lines_and_functions() {
        let s = Session::open(SourceMap::new("t.py", SRC), None, Config::default()).unwrap();
        let at = |t: &str| s.locate(t).map(|l| l.line);
        assert_eq!(at("15"), Ok(15));
        assert_eq!(at(" f "), Ok(8), "its first statement");
        assert_eq!(at("7"), Ok(8), "a comment: the next statement");
        assert_eq!(at("11"), Ok(11), "an except line is a stop");
        assert_eq!(at("1"), Ok(8), "a declaration and a predicate are no stops");
        assert!(s
            .locate("7")
            .unwrap()
            .what
            .contains("line 7 has no statement"));
        for (text, says) in [
            ("", "type a line number"),
            ("0", "no line 0"),
            ("16", "no line 16: the file has 15 lines"),
            ("99999999999999999999999", "no line"),
            ("g", "no function `g`; functions: f"),
            ("p", "`p` is a @predicate"),
        ] {
            let e = s.locate(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
