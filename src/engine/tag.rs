//! Successor tags: which way a step went.
//!
//! Every successor [`super::step::Stepper::step`] builds carries a [`Tag`], and the node it
//! becomes keeps it ([`super::Node::tag`]). A tag names the alternative independently of
//! its position among the successors (which shifts when evaluation drops an alternative
//! whose condition folded to `false`), so the alternatives of a step that did not become
//! children can be listed ([`super::Engine::pruned`]) and every path-condition conjunct can
//! say how it got there ([`super::Engine::provenance`]).

use std::rc::Rc;

use super::LoopMode;
use crate::base::{ExcClass, SourceMap, Span};

/// Which way a step went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tag {
    /// A straight-line instruction completed normally (assignment, expression, `pass`,
    /// `break`, `continue`, `def`, a defined callee looked up). Its condition, if any, is
    /// that none of the instruction's exceptions happened.
    Next,
    /// `if`: the then-branch / the else-branch.
    Then,
    Else,
    /// A loop guard (also the loop-scope form's guard): enter the body / leave the loop.
    Enter,
    Leave,
    /// The path is cut: `--unroll` (a loop body would start once more) or `--recursion`.
    Bound(Cut),
    /// `assert`: holds / fails (AssertionError raised at the span).
    AssertHolds,
    AssertFails(Span),
    /// An exception raised while evaluating an expression, at its span.
    Raise(ExcClass, Span),
    /// `assume`: the assumption holds (where it fails, the path is dropped, or ends as
    /// the one visible `infeasible` leaf).
    Assume,
    /// `havoc x` (also a loop-scope form's).
    Havoc,
    /// The loop-scope form's `assume Inv`.
    AssumeInvariant,
    /// A contract's clause assumed (issue 28): `ensures` where a call uses the contract,
    /// `requires` at the start of a contract's proof.
    AssumeClause(crate::lang::Clause),
    /// A check of invariant lines: all hold.
    InvariantHolds(Check),
    /// A check of invariant lines: one fails (AssertionError) or raises while evaluated
    /// (`class`), at `at`: an invariant failure, not a Python exception.
    InvariantFails(Check, ExcClass, Span),
    /// At a loop with invariants: which transition (apply the invariant, unroll, once).
    Loop(LoopMode),
    /// Call a user function: its frame is entered.
    Call(Rc<str>),
    /// A call of a contracted function that uses the contract instead of the body.
    UseContract(Rc<str>),
    /// `return` (its value computed without an exception).
    Return,
    /// A caught exception: its handler starts.
    Handler,
    /// The step would build a term past the engine's limits: it did not happen (an
    /// `unknown` leaf with the parent's state).
    Limit,
    /// A folded loop (issue 15): the path repeats forever (a `bound` leaf).
    Forever,
    /// A fold whose leaf was undecided (issue 31): its head again, stepped classically
    /// (the loop unrolled up to `--unroll` instead of folded).
    Fallback,
}

/// Which bound cut a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// `--unroll`: a loop body would start once more.
    Unroll,
    /// `--recursion`: a function would have one frame too many.
    Recursion,
    /// A loop whose guard is true as a constant (decided without the solver) would start
    /// its [`crate::engine::CONCRETE_LOOP_LIMIT`]+1-th such iteration (`while True:`).
    Concrete,
}

/// Which check of invariant lines a step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The loop-scope form's first step: is the invariant initially valid?
    Initially,
    /// End of the form's arbitrary iteration: does the body preserve the invariant?
    Preserved,
    /// An unrolled loop with invariants checks them before every test of its guard.
    BeforeTest,
    /// A contracted function's `requires` lines, checked when it is entered (inline).
    Requires,
    /// A contracted function's `requires` lines under the arguments, where a call uses its
    /// contract.
    UseRequires,
    /// A contracted function's `ensures` lines, checked when it returns.
    Ensures,
}

impl Check {
    /// The contract clause this check is, if it is one.
    pub fn clause(self) -> Option<crate::lang::Clause> {
        match self {
            Check::Requires | Check::UseRequires => Some(crate::lang::Clause::Requires),
            Check::Ensures => Some(crate::lang::Clause::Ensures),
            _ => None,
        }
    }
}

/// `line:column` of a span's start.
pub(crate) fn at(src: &SourceMap, span: Span) -> String {
    let (l, c) = src.line_col(span.start);
    format!("{l}:{c}")
}

impl Tag {
    /// A short text for people: "then", "enter the loop", "IndexError at 5:12", ...
    pub fn text(&self, src: &SourceMap) -> String {
        self.text_in(src, None)
    }

    /// [`Tag::text`], naming the contracted function `func` (the step's function) in the
    /// steps of its contract (issue 28): "precondition of gcd violated at 15:14",
    /// "postcondition of power assumed (use contract)".
    pub fn text_in(&self, src: &SourceMap, func: Option<&str>) -> String {
        let text = self.plain_text(src);
        let contract =
            matches!(self, Tag::AssumeClause(_)) || self.check().and_then(Check::clause).is_some();
        match func {
            Some(f) if contract => {
                for word in ["precondition", "postcondition"] {
                    if let Some(rest) = text.strip_prefix(word) {
                        return format!("{word} of {f}{rest}");
                    }
                }
                text
            }
            _ => text,
        }
    }

    fn plain_text(&self, src: &SourceMap) -> String {
        match self {
            Tag::Next => "normal completion".to_string(),
            Tag::Then => "then".to_string(),
            Tag::Else => "else".to_string(),
            Tag::Enter => "enter the loop".to_string(),
            Tag::Leave => "leave the loop".to_string(),
            Tag::Bound(Cut::Unroll) => "unrolling bound".to_string(),
            Tag::Bound(Cut::Recursion) => "recursion bound".to_string(),
            Tag::Bound(Cut::Concrete) => format!(
                "limit of {} iterations of a loop whose condition is a constant",
                crate::diagnostics::thousands(crate::engine::CONCRETE_LOOP_LIMIT.into())
            ),
            Tag::AssertHolds => "assert holds".to_string(),
            Tag::AssertFails(s) => format!("assert fails at {}", at(src, *s)),
            Tag::Raise(class, s) => format!("{class} at {}", at(src, *s)),
            Tag::Assume => "assume".to_string(),
            Tag::Havoc => "havoc".to_string(),
            Tag::AssumeInvariant => "invariant assumed".to_string(),
            Tag::AssumeClause(crate::lang::Clause::Ensures) => {
                "postcondition assumed (use contract)".to_string()
            }
            Tag::AssumeClause(crate::lang::Clause::Requires) => {
                "precondition assumed (proof of the contract)".to_string()
            }
            Tag::InvariantHolds(Check::Initially) => "invariant initially valid".to_string(),
            Tag::InvariantHolds(Check::Preserved) => "invariant preserved".to_string(),
            Tag::InvariantHolds(Check::BeforeTest) => "invariant holds".to_string(),
            Tag::InvariantHolds(Check::Requires | Check::UseRequires) => {
                "precondition holds".to_string()
            }
            Tag::InvariantHolds(Check::Ensures) => "postcondition holds".to_string(),
            Tag::InvariantFails(check, class, s) => {
                let what = match check {
                    Check::Initially => "invariant not initially valid",
                    Check::Preserved => "invariant not preserved",
                    Check::BeforeTest => "invariant broken",
                    Check::Requires | Check::UseRequires => "precondition violated",
                    Check::Ensures => "postcondition violated",
                };
                match class {
                    ExcClass::AssertionError => format!("{what} at {}", at(src, *s)),
                    _ => format!("{what}: {class} at {}", at(src, *s)),
                }
            }
            Tag::Loop(LoopMode::Invariant) => "apply the invariant".to_string(),
            Tag::Loop(LoopMode::Unroll) => "unroll the loop".to_string(),
            Tag::Loop(LoopMode::UnrollOnce) => "unroll one iteration".to_string(),
            Tag::Call(f) => format!("call {f}"),
            Tag::UseContract(f) => format!("use contract of {f}"),
            Tag::Return => "return".to_string(),
            Tag::Handler => "enter the handler".to_string(),
            Tag::Limit => "past the engine's limits".to_string(),
            Tag::Forever => "the folded loop repeats forever".to_string(),
            Tag::Fallback => "a fold leaf undecided: unrolled instead".to_string(),
        }
    }

    /// The contract clause this step checks or assumes, if it is a contract's step
    /// (issue 28).
    pub fn contract_clause(&self) -> Option<crate::lang::Clause> {
        match self {
            Tag::AssumeClause(c) => Some(*c),
            _ => self.check().and_then(Check::clause),
        }
    }

    /// The clause whose failure this step is (a contract check's failing alternative).
    pub fn contract_failure(&self) -> Option<crate::lang::Clause> {
        match self {
            Tag::InvariantFails(c, ..) => c.clause(),
            _ => None,
        }
    }

    /// The check of invariant lines this step is, if it is one.
    pub fn check(&self) -> Option<Check> {
        match self {
            Tag::InvariantHolds(c) | Tag::InvariantFails(c, ..) => Some(*c),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_name_lines_and_columns() {
        let src = SourceMap::new("t.py", "x = 1\ny = t[i]\n");
        let raise = Tag::Raise(ExcClass::IndexError, Span::new(10, 14));
        assert_eq!(raise.text(&src), "IndexError at 2:5");
        let fails =
            Tag::InvariantFails(Check::Preserved, ExcClass::AssertionError, Span::new(6, 7));
        assert_eq!(fails.text(&src), "invariant not preserved at 2:1");
        let raised = Tag::InvariantFails(Check::Initially, ExcClass::IndexError, Span::new(6, 7));
        assert_eq!(
            raised.text(&src),
            "invariant not initially valid: IndexError at 2:1"
        );
        assert_eq!(Tag::Call(Rc::from("f")).text(&src), "call f");
        assert_eq!(fails.check(), Some(Check::Preserved));
        // Contract steps name their function (issue 28).
        let pre = Tag::InvariantFails(
            Check::UseRequires,
            ExcClass::AssertionError,
            Span::new(6, 7),
        );
        assert_eq!(
            pre.text_in(&src, Some("gcd")),
            "precondition of gcd violated at 2:1"
        );
        assert_eq!(pre.text(&src), "precondition violated at 2:1");
        let post = Tag::AssumeClause(crate::lang::Clause::Ensures);
        assert_eq!(
            post.text_in(&src, Some("power")),
            "postcondition of power assumed (use contract)"
        );
        assert_eq!(
            Tag::InvariantHolds(Check::Ensures).text_in(&src, Some("f")),
            "postcondition of f holds"
        );
        // Other steps ignore the function.
        assert_eq!(
            fails.text_in(&src, Some("f")),
            "invariant not preserved at 2:1"
        );
        assert_eq!(
            Tag::UseContract(Rc::from("f")).text(&src),
            "use contract of f"
        );
        assert_eq!(Tag::Then.check(), None);
    }
}
