//! pest errors → readable diagnostics: "expected `:`, found end of line".

use pest::error::{Error, ErrorVariant, InputLocation};

use super::Rule;
use crate::base::span::Span;
use crate::diagnostics::Diagnostic;

enum Desc {
    /// A concrete token, listed by name: "`:`".
    Token(&'static str),
    /// A class of things: "an expression".
    Class(&'static str),
    /// A token mentioned only when nothing else is expected (`(` also starts a call).
    Weak(&'static str),
    Ignore,
}

fn describe(rule: Rule) -> Desc {
    use Desc::*;
    match rule {
        Rule::colon => Token("`:`"),
        Rule::comma => Token("`,`"),
        Rule::rparen => Token("`)`"),
        Rule::lparen => Weak("`(`"),
        Rule::rbracket => Token("`]`"),
        Rule::lbracket => Weak("`[`"),
        Rule::assign_op => Token("`=`"),
        Rule::arrow => Token("`->`"),
        Rule::EOI => Class("end of line"),
        Rule::ident => Class("a name"),
        Rule::type_ann => Class("a type (`int`, `bool` or `tuple`)"),
        Rule::params | Rule::param | Rule::star_param => Class("a parameter"),
        Rule::expr
        | Rule::expr_list
        | Rule::or_test
        | Rule::and_test
        | Rule::not_test
        | Rule::comparison
        | Rule::bitwise
        | Rule::arith
        | Rule::term
        | Rule::factor
        | Rule::power
        | Rule::postfix
        | Rule::int_lit
        | Rule::float_lit
        | Rule::kw_true
        | Rule::kw_false
        | Rule::paren
        | Rule::arg
        | Rule::not_op
        | Rule::unary_op => Class("an expression"),
        Rule::comp_op
        | Rule::bit_op
        | Rule::add_op
        | Rule::mul_op
        | Rule::pow_op
        | Rule::and_op
        | Rule::or_op
        | Rule::aug_op
        | Rule::call_args
        | Rule::subscript
        | Rule::attribute
        | Rule::conditional_tail => Class("an operator"),
        Rule::simple_stmts | Rule::line => Class("a statement"),
        Rule::kw_in => Token("`in`"),
        _ => Ignore,
    }
}

/// What stands at `pos`: "`)`", "`foo`", "end of line".
fn found(text: &str, pos: usize) -> String {
    let rest = &text[pos.min(text.len())..];
    let rest = rest.trim_start_matches([' ', '\t']);
    let Some(c) = rest.chars().next() else {
        return "end of line".to_string();
    };
    if c == '\n' || c == '\r' {
        return "end of line".to_string();
    }
    if c.is_alphanumeric() || c == '_' {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        return format!("`{word}`");
    }
    let op: String = rest
        .chars()
        .take_while(|c| "=<>!+-*/%&|^~@:.;,".contains(*c))
        .take(3)
        .collect();
    if op.is_empty() {
        format!("`{c}`")
    } else {
        format!("`{op}`")
    }
}

fn join(items: &[&str]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// Convert a pest error on the line starting at byte `offset` of `src`.
pub(super) fn from_pest(src: &str, offset: usize, e: Error<Rule>) -> Diagnostic {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let text = &src[offset..];
    if let ErrorVariant::CustomError { message } = &e.variant {
        // pest's own guard: "stack limit reached" / "call limit reached".
        return Diagnostic::error(
            "this line is nested too deeply to parse",
            Span::new(offset, offset),
        )
        .with_label(format!("the parser gave up here ({message})"))
        .with_note("help: split the expression into several assignments");
    }
    let (mut tokens, mut classes, mut weak): (Vec<&str>, Vec<&str>, Vec<&str>) =
        (Vec::new(), Vec::new(), Vec::new());
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        for r in positives {
            match describe(*r) {
                Desc::Token(t) if !tokens.contains(&t) => tokens.push(t),
                Desc::Class(c) if !classes.contains(&c) => classes.push(c),
                Desc::Weak(w) if !weak.contains(&w) => weak.push(w),
                _ => {}
            }
        }
    }
    // Concrete tokens are the most useful hint; keep "an expression" beside them (it is
    // what an argument list or a tuple display also accepts), drop vaguer classes.
    let mut expected: Vec<&str> = tokens.clone();
    if !tokens.is_empty() {
        expected.extend(classes.iter().filter(|c| **c == "an expression"));
    } else if !classes.is_empty() {
        expected = classes;
    } else {
        expected = weak;
    }
    let what = found(text, pos);
    let at = offset + pos.min(text.len());
    // Point at the offending token (or one column for end of line).
    let width = if what == "end of line" {
        0
    } else {
        what.trim_matches('`').len()
    };
    let skip = text[pos.min(text.len())..].len()
        - text[pos.min(text.len())..]
            .trim_start_matches([' ', '\t'])
            .len();
    let start = at + skip;
    let message = if expected.is_empty() {
        format!("unexpected {what}")
    } else {
        format!("expected {}, found {what}", join(&expected))
    };
    Diagnostic::error(message, Span::new(start, start + width))
        .with_label(format!("expected {} here", join(&expected)))
}
