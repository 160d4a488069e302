//! Pretty printer: AST → minipy source.
//!
//! The output parses back to the same AST (modulo spans): parentheses are inserted exactly
//! where precedence or associativity needs them, tuples are always parenthesised, blocks are
//! indented by four spaces. Used for round-trip tests, and by the engine and the UI to show
//! expressions and statements.

use super::ast::*;

/// Print a whole program.
pub fn program(p: &Program) -> String {
    let mut out = String::new();
    block(&mut out, &p.body, 0);
    out
}

/// Print one expression.
pub fn expr(e: &Expr) -> String {
    let mut out = String::new();
    write_expr(&mut out, e, 0);
    out
}

/// The header line of a statement as it would be printed (`if x < 0:`, `y = 2 * x`).
pub fn stmt_header(s: &Stmt) -> String {
    let mut out = String::new();
    write_stmt(&mut out, s, 0);
    out.lines().next().unwrap_or("").trim().to_string()
}

/// Python's precedence levels, lowest first; shared with the engine's term printer so a
/// formula prints like the source it came from.
pub mod prec {
    /// `a if c else b`: below `or`, so only a top-level position leaves it bare.
    pub const IFEXP: u8 = 0;
    pub const OR: u8 = 1;
    pub const AND: u8 = 2;
    pub const NOT: u8 = 3;
    pub const CMP: u8 = 4;
    pub const ARITH: u8 = 5;
    pub const TERM: u8 = 6;
    pub const UNARY: u8 = 7;
    pub const POSTFIX: u8 = 8;
    pub const ATOM: u8 = 9;
}

use prec::*;

fn prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::BoolOp { op: BoolOp::Or, .. } => OR,
        ExprKind::BoolOp {
            op: BoolOp::And, ..
        } => AND,
        ExprKind::Unary {
            op: UnaryOp::Not, ..
        } => NOT,
        ExprKind::Compare { .. } => CMP,
        ExprKind::Binary {
            op: BinOp::Add | BinOp::Sub,
            ..
        } => ARITH,
        ExprKind::Binary { .. } => TERM,
        ExprKind::Unary { .. } => UNARY,
        ExprKind::Index { .. }
        | ExprKind::Slice { .. }
        | ExprKind::Call { .. }
        | ExprKind::Quantifier { .. } => POSTFIX,
        ExprKind::IfExp { .. } => IFEXP,
        // A negative literal prints as `-n`, which parses as a unary minus.
        ExprKind::Int(n) if n.sign() == num_bigint::Sign::Minus => UNARY,
        _ => ATOM,
    }
}

/// Write `e`, parenthesised if its precedence is below `min`.
fn write_expr(out: &mut String, e: &Expr, min: u8) {
    let p = prec(e);
    if p < min {
        out.push('(');
        write_bare(out, e);
        out.push(')');
    } else {
        write_bare(out, e);
    }
}

fn write_bare(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Int(n) => out.push_str(&n.to_string()),
        ExprKind::Bool(b) => out.push_str(if *b { "True" } else { "False" }),
        ExprKind::Name(n) => out.push_str(n),
        ExprKind::Tuple(items) => {
            out.push('(');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_expr(out, item, 0);
            }
            if items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        ExprKind::Unary { op, operand } => {
            out.push_str(op.symbol());
            if *op == UnaryOp::Not {
                out.push(' ');
                write_expr(out, operand, NOT);
            } else {
                write_expr(out, operand, UNARY);
            }
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let p = prec(e);
            write_expr(out, lhs, p);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            write_expr(out, rhs, p + 1);
        }
        ExprKind::BoolOp { op, lhs, rhs } => {
            // A chain in the parser's shape prints flat (see `chain`); any other shape
            // keeps its grouping with parentheses on both sides.
            let p = prec(e);
            let items = if super::chain::is_canonical(*op, e) {
                super::chain::operands(*op, e)
            } else {
                vec![&**lhs, &**rhs]
            };
            for (i, item) in items.into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                    out.push_str(op.symbol());
                    out.push(' ');
                }
                write_expr(out, item, p + 1);
            }
        }
        ExprKind::Compare { first, rest } => {
            write_expr(out, first, ARITH);
            for (op, operand) in rest {
                out.push(' ');
                out.push_str(op.symbol());
                out.push(' ');
                write_expr(out, operand, ARITH);
            }
        }
        ExprKind::Index { base, index } => {
            write_expr(out, base, POSTFIX);
            out.push('[');
            write_expr(out, index, 0);
            out.push(']');
        }
        ExprKind::Slice { base, lo, hi, step } => {
            write_expr(out, base, POSTFIX);
            out.push('[');
            if let Some(lo) = lo {
                write_expr(out, lo, 0);
            }
            out.push(':');
            if let Some(hi) = hi {
                write_expr(out, hi, 0);
            }
            if let Some(step) = step {
                out.push(':');
                write_expr(out, step, 0);
            }
            out.push(']');
        }
        ExprKind::IfExp { cond, then, orelse } => {
            write_expr(out, then, OR);
            out.push_str(" if ");
            write_expr(out, cond, OR);
            out.push_str(" else ");
            write_expr(out, orelse, IFEXP);
        }
        ExprKind::Call { func, args } => {
            out.push_str(&func.name);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_expr(out, a, 0);
            }
            out.push(')');
        }
        ExprKind::Quantifier {
            kind,
            var,
            lo,
            hi,
            body,
        } => {
            out.push_str(kind.name());
            out.push('(');
            write_expr(out, body, 0);
            out.push_str(" for ");
            out.push_str(&var.name);
            out.push_str(" in range(");
            if let Some(lo) = lo {
                write_expr(out, lo, 0);
                out.push_str(", ");
            }
            write_expr(out, hi, 0);
            out.push_str("))");
        }
    }
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("    ");
    }
}

fn block(out: &mut String, body: &[Stmt], level: usize) {
    for (i, s) in body.iter().enumerate() {
        let is_def = matches!(s.kind, StmtKind::FunctionDef(_));
        if is_def && i > 0 && level == 0 {
            out.push('\n');
        }
        write_stmt(out, s, level);
        if is_def && level == 0 && i + 1 < body.len() {
            out.push('\n');
        }
    }
}

/// A `while` or `for` statement: its header line, the `invariant` lines that start its body,
/// the body, and its `else:` block.
fn loop_stmt(
    out: &mut String,
    level: usize,
    head: &str,
    invariants: &[Expr],
    body: &[Stmt],
    orelse: Option<&[Stmt]>,
) {
    indent(out, level);
    out.push_str(head);
    out.push('\n');
    for inv in invariants {
        indent(out, level + 1);
        out.push_str(&format!("invariant {}\n", expr(inv)));
    }
    if body.is_empty() && invariants.is_empty() {
        indent(out, level + 1);
        out.push_str("pass\n");
    }
    block(out, body, level + 1);
    if let Some(body) = orelse {
        header(out, level, "else:", body);
    }
}

fn header(out: &mut String, level: usize, text: &str, body: &[Stmt]) {
    indent(out, level);
    out.push_str(text);
    out.push('\n');
    if body.is_empty() {
        // Never produced by the parser; keep the output valid Python anyway.
        indent(out, level + 1);
        out.push_str("pass\n");
    } else {
        block(out, body, level + 1);
    }
}

fn write_stmt(out: &mut String, s: &Stmt, level: usize) {
    let simple = |out: &mut String, text: String| {
        indent(out, level);
        out.push_str(&text);
        out.push('\n');
    };
    match &s.kind {
        StmtKind::Declare { name, ty } => simple(out, format!("{}: {}", name.name, ty)),
        StmtKind::Assign { target, ann, value } => match ann {
            Some(t) => simple(out, format!("{}: {} = {}", target.name, t, expr(value))),
            None => simple(out, format!("{} = {}", target.name, expr(value))),
        },
        StmtKind::AugAssign { target, op, value } => simple(
            out,
            format!("{} {}= {}", target.name, op.symbol(), expr(value)),
        ),
        StmtKind::Expr(e) => simple(out, expr(e)),
        StmtKind::Print(args) => simple(
            out,
            format!(
                "print({})",
                args.iter().map(expr).collect::<Vec<_>>().join(", ")
            ),
        ),
        StmtKind::Pass => simple(out, "pass".into()),
        StmtKind::Break => simple(out, "break".into()),
        StmtKind::Continue => simple(out, "continue".into()),
        StmtKind::Return(None) => simple(out, "return".into()),
        StmtKind::Return(Some(e)) => simple(out, format!("return {}", expr(e))),
        StmtKind::Assert(e) => simple(out, format!("assert {}", expr(e))),
        StmtKind::Havoc(x) => simple(out, format!("havoc {}", x.name)),
        StmtKind::Assume(e) => simple(out, format!("assume {}", expr(e))),
        StmtKind::If { branches, orelse } => {
            for (i, (cond, body)) in branches.iter().enumerate() {
                let kw = if i == 0 { "if" } else { "elif" };
                header(out, level, &format!("{kw} {}:", expr(cond)), body);
            }
            if let Some(body) = orelse {
                header(out, level, "else:", body);
            }
        }
        StmtKind::While {
            cond,
            invariants,
            body,
            orelse,
        } => {
            let head = format!("while {}:", expr(cond));
            loop_stmt(out, level, &head, invariants, body, orelse.as_deref());
        }
        StmtKind::For {
            target,
            iter,
            invariants,
            body,
            orelse,
        } => {
            let head = format!("for {} in {}:", target.name, expr(iter));
            loop_stmt(out, level, &head, invariants, body, orelse.as_deref());
        }
        StmtKind::Try { body, handlers } => {
            header(out, level, "try:", body);
            for h in handlers {
                let text = match &h.class {
                    Some(c) => format!("except {}:", c.name),
                    None => "except:".to_string(),
                };
                header(out, level, &text, &h.body);
            }
        }
        StmtKind::FunctionDef(f) => {
            if f.predicate {
                indent(out, level);
                out.push_str("@predicate\n");
            }
            let params: Vec<String> = f
                .params
                .iter()
                .map(|p| format!("{}: {}", p.name.name, p.ty))
                .collect();
            let ret = f.ret.map_or(String::new(), |t| format!(" -> {t}"));
            indent(out, level);
            out.push_str(&format!(
                "def {}({}){}:\n",
                f.name.name,
                params.join(", "),
                ret
            ));
            let lines = [
                ("requires", &f.contract.requires),
                ("ensures", &f.contract.ensures),
            ];
            for (kw, es) in lines {
                for e in es {
                    indent(out, level + 1);
                    out.push_str(&format!("{kw} {}\n", expr(e)));
                }
            }
            if f.body.is_empty() {
                indent(out, level + 1);
                out.push_str("pass\n");
            } else {
                block(out, &f.body, level + 1);
            }
        }
        StmtKind::MethodFrame { result, body } => header(
            out,
            level,
            &format!("method-frame(result={}):", result.name),
            body,
        ),
        StmtKind::LoopScope { inv, body } => {
            header(out, level, &format!("loop-scope(inv={}):", expr(inv)), body)
        }
    }
}
