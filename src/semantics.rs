//! The operator rules of minipy, in one place, shared by the concrete interpreter and the
//! symbolic engine: Python's flooring `//` and `%`, index normalisation, the builtins
//! `abs`/`min`/`max`, and Python's exception classes with their hierarchy.
//!
//! The rules are small pure functions over [`BigInt`]; an operation that raises in Python
//! returns `Err(ExcClass)`. The symbolic engine mirrors them as formulas; the doc comment of
//! each function says how (SMT-LIB's `div`/`mod` are Euclidean, Python's are flooring).

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, Zero};

use crate::base::exc::ExcClass;
use crate::base::Span;
use crate::lang::ast::{BinOp, CmpOp, Expr, ExprKind, UnaryOp};

/// The largest int minipy computes with: 2^18 bits, about 79,000 decimal digits (CPython
/// itself refuses to print ints of more than 4,300 digits by default). The concrete
/// interpreter stops a run that builds a longer one (`step_limit`), the engine ends the
/// path as an `unknown` leaf; neither multiplies nor divides longer ones.
pub const MAX_INT_BITS: u64 = 1 << 18;

/// `a // b` with Python's semantics: the quotient rounded towards negative infinity
/// (`1 // -2 == -1`, `-7 // 2 == -4`). `b == 0` raises `ZeroDivisionError`.
///
/// Mirror with Euclidean division (SMT-LIB `div`, remainder `0 <= r < |b|`):
/// `b > 0: a div b`, `b < 0: (-a) div (-b)`.
pub fn floor_div(a: &BigInt, b: &BigInt) -> Result<BigInt, ExcClass> {
    if b.is_zero() {
        return Err(ExcClass::ZeroDivisionError);
    }
    Ok(a.div_floor(b))
}

/// `a % b` with Python's semantics: the result has the sign of `b` (`1 % -2 == -1`,
/// `-7 % 2 == 1`), and `a == (a // b) * b + a % b`. `b == 0` raises `ZeroDivisionError`.
///
/// Mirror with Euclidean modulo (SMT-LIB `mod`, always `>= 0`):
/// `b > 0: a mod b`, `b < 0: -((-a) mod (-b))`.
pub fn floor_mod(a: &BigInt, b: &BigInt) -> Result<BigInt, ExcClass> {
    if b.is_zero() {
        return Err(ExcClass::ZeroDivisionError);
    }
    Ok(a.mod_floor(b))
}

/// An arithmetic operator on two ints: `+ - * // %`.
pub fn int_binop(op: BinOp, a: &BigInt, b: &BigInt) -> Result<BigInt, ExcClass> {
    match op {
        BinOp::Add => Ok(a + b),
        BinOp::Sub => Ok(a - b),
        BinOp::Mul => Ok(a * b),
        BinOp::FloorDiv => floor_div(a, b),
        BinOp::Mod => floor_mod(a, b),
    }
}

/// A comparison operator on two ints.
pub fn int_compare(op: CmpOp, a: &BigInt, b: &BigInt) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
        CmpOp::In | CmpOp::NotIn => unreachable!("`in` compares an int with a tuple"),
    }
}

/// `x in t` on a tuple of ints: some element equals `x` (`False` on `()`).
///
/// Mirror: `any(t[k] == x for k in range(0, len(t)))` (see `Term::member`).
pub fn member(x: &BigInt, t: &[BigInt]) -> bool {
    t.contains(x)
}

/// Python's `t[lo:hi:step]` on a tuple of length `len`: the first position, the step and
/// the number of elements (CPython's `PySlice_Unpack` + `PySlice_AdjustIndices`). A missing
/// part is `None`; bounds are clamped, never an `IndexError`; a zero step raises
/// `ValueError` ("slice step cannot be zero").
///
/// Mirror: with `step > 0` a bound `b` becomes `b < 0: max(b + len, 0)`, else `min(b, len)`
/// (missing: `lo = 0`, `hi = len`), and the count is `max(0, (hi - lo + step - 1) // step)`;
/// with `step < 0` a bound becomes `b < 0: max(b + len, -1)`, else `min(b, len - 1)`
/// (missing: `lo = len - 1`, `hi = -1`), and the count is
/// `max(0, (lo - hi - step - 1) // -step)`. Element `k` is `t[lo + k * step]`.
pub fn slice_indices(
    len: usize,
    lo: Option<&BigInt>,
    hi: Option<&BigInt>,
    step: Option<&BigInt>,
) -> Result<(BigInt, BigInt, usize), ExcClass> {
    let one = BigInt::from(1);
    let step = step.cloned().unwrap_or_else(|| one.clone());
    if step.is_zero() {
        return Err(ExcClass::ValueError);
    }
    let n = BigInt::from(len);
    let down = step.is_negative();
    let clamp = |b: &BigInt| -> BigInt {
        if b.is_negative() {
            let p = b + &n;
            let floor = if down { -&one } else { BigInt::zero() };
            p.max(floor)
        } else {
            let ceil = if down { &n - &one } else { n.clone() };
            b.clone().min(ceil)
        }
    };
    let lo = match lo {
        Some(b) => clamp(b),
        None if down => &n - &one,
        None => BigInt::zero(),
    };
    let hi = match hi {
        Some(b) => clamp(b),
        None if down => -&one,
        None => n.clone(),
    };
    let count = if down {
        (&lo - &hi - &step - &one).div_floor(&-&step)
    } else {
        (&hi - &lo + &step - &one).div_floor(&step)
    };
    let count = usize::try_from(count.max(BigInt::zero()))
        .unwrap_or(0)
        .min(len);
    Ok((lo, step, count))
}

/// `t[lo:hi:step]` (see [`slice_indices`]).
pub fn slice<T: Clone>(
    t: &[T],
    lo: Option<&BigInt>,
    hi: Option<&BigInt>,
    step: Option<&BigInt>,
) -> Result<Vec<T>, ExcClass> {
    let (start, step, count) = slice_indices(t.len(), lo, hi, step)?;
    Ok((0..count)
        .map(|k| {
            let pos = &start + &step * BigInt::from(k);
            t[usize::try_from(pos).expect("a clamped slice stays in range")].clone()
        })
        .collect())
}

/// The position `t[i]` reads in a tuple of length `len`, as Python: a negative `i` counts
/// from the end (`t[-1]` is the last element). Out of range (`i >= len` or `i < -len`)
/// raises `IndexError`.
///
/// Mirror: `0 <= i < len: i`, `-len <= i < 0: len + i`, otherwise `IndexError`.
pub fn normalize_index(i: &BigInt, len: usize) -> Result<usize, ExcClass> {
    let len_big = BigInt::from(len);
    let pos = if i.is_negative() {
        &len_big + i
    } else {
        i.clone()
    };
    if pos.is_negative() || pos >= len_big {
        return Err(ExcClass::IndexError);
    }
    usize::try_from(pos).map_err(|_| ExcClass::IndexError)
}

/// The builtin `abs(x)`.
/// Where a failed `assert cond` at statement `stmt` is reported: where CPython 3.11's
/// traceback marks it. Its compiler gives the raise the location last set while compiling
/// the jumps on `cond`: through `and`/`or` operands (in order) and `not`, each comparison
/// sets its own; other conditions (a call, a name) set none. So `assert x < 5 and x != 3`
/// marks `x != 3` whichever operand decided, `assert f(x) and x > 9` marks `x > 9`, and
/// `assert f(x)` marks the whole statement.
pub fn assert_position(cond: &Expr, stmt: Span) -> Span {
    fn last_compare(e: &Expr) -> Option<Span> {
        match &e.kind {
            ExprKind::BoolOp { lhs, rhs, .. } => last_compare(rhs).or_else(|| last_compare(lhs)),
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => last_compare(operand),
            ExprKind::Compare { .. } => Some(e.span),
            // CPython compiles the jumps on the condition, then on each side.
            ExprKind::IfExp { cond, then, orelse } => last_compare(orelse)
                .or_else(|| last_compare(then))
                .or_else(|| last_compare(cond)),
            _ => None,
        }
    }
    last_compare(cond).unwrap_or(stmt)
}

pub fn abs(x: &BigInt) -> BigInt {
    x.abs()
}

/// The builtin `min(a, b)` (Python returns the first of equal arguments; for ints that is
/// the same value).
pub fn min(a: &BigInt, b: &BigInt) -> BigInt {
    if b < a {
        b.clone()
    } else {
        a.clone()
    }
}

/// The builtin `max(a, b)`.
pub fn max(a: &BigInt, b: &BigInt) -> BigInt {
    if b > a {
        b.clone()
    } else {
        a.clone()
    }
}

/// One line of `print(a, b, ...)` with the default `sep=' '` and `end='\n'`: the items'
/// `str`s (for ints, bools and tuples of ints, their `repr`s) joined by spaces, then a
/// newline; `print()` writes just the newline.
pub fn print_line<I: IntoIterator<Item = String>>(items: I) -> String {
    let mut line = items.into_iter().collect::<Vec<_>>().join(" ");
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(x: i64) -> BigInt {
        BigInt::from(x)
    }

    /// `(a, b, a // b, a % b)`, printed by CPython 3.11.
    const DIVISIONS: &[(&str, &str, &str, &str)] = &[
        ("1", "-2", "-1", "-1"),
        ("-7", "2", "-4", "1"),
        ("7", "-2", "-4", "-1"),
        ("-7", "-2", "3", "-1"),
        ("7", "2", "3", "1"),
        ("0", "5", "0", "0"),
        ("0", "-5", "0", "0"),
        ("5", "-5", "-1", "0"),
        ("-5", "5", "-1", "0"),
        ("6", "3", "2", "0"),
        ("-6", "3", "-2", "0"),
        ("6", "-3", "-2", "0"),
        (
            "1000000000000000000000000000007",
            "-3",
            "-333333333333333333333333333336",
            "-1",
        ),
        (
            "-1000000000000000000000000000007",
            "3",
            "-333333333333333333333333333336",
            "1",
        ),
    ];

    #[test]
    fn floor_div_and_mod_match_cpython() {
        for (a, b, q, r) in DIVISIONS {
            let (a, b): (BigInt, BigInt) = (a.parse().unwrap(), b.parse().unwrap());
            assert_eq!(floor_div(&a, &b), Ok(q.parse().unwrap()), "{a} // {b}");
            assert_eq!(floor_mod(&a, &b), Ok(r.parse().unwrap()), "{a} % {b}");
            assert_eq!(int_binop(BinOp::FloorDiv, &a, &b), floor_div(&a, &b));
            assert_eq!(int_binop(BinOp::Mod, &a, &b), floor_mod(&a, &b));
        }
    }

    #[test]
    fn division_by_zero_raises() {
        assert_eq!(
            floor_div(&big(3), &big(0)),
            Err(ExcClass::ZeroDivisionError)
        );
        assert_eq!(
            floor_mod(&big(0), &big(0)),
            Err(ExcClass::ZeroDivisionError)
        );
        assert_eq!(
            int_binop(BinOp::Mod, &big(-1), &big(0)),
            Err(ExcClass::ZeroDivisionError)
        );
    }

    /// The mirror formulas in the doc comments, written with Euclidean division.
    #[test]
    fn euclidean_mirror_agrees() {
        fn ediv(a: &BigInt, b: &BigInt) -> BigInt {
            let (q, r) = a.div_mod_floor(b);
            if r.is_negative() {
                q + 1
            } else {
                q
            }
        }
        fn emod(a: &BigInt, b: &BigInt) -> BigInt {
            a - b * ediv(a, b)
        }
        for a in -9..=9 {
            for b in (-4..=4).filter(|b| *b != 0) {
                let (a, b) = (big(a), big(b));
                let (q, r) = if b.is_positive() {
                    (ediv(&a, &b), emod(&a, &b))
                } else {
                    (ediv(&-&a, &-&b), -emod(&-&a, &-&b))
                };
                assert_eq!(floor_div(&a, &b), Ok(q), "{a} // {b}");
                assert_eq!(floor_mod(&a, &b), Ok(r), "{a} % {b}");
            }
        }
    }

    #[test]
    fn arithmetic_and_comparisons() {
        assert_eq!(int_binop(BinOp::Add, &big(2), &big(-5)), Ok(big(-3)));
        assert_eq!(int_binop(BinOp::Sub, &big(2), &big(-5)), Ok(big(7)));
        assert_eq!(int_binop(BinOp::Mul, &big(-3), &big(4)), Ok(big(-12)));
        assert!(int_compare(CmpOp::Lt, &big(-1), &big(0)));
        assert!(int_compare(CmpOp::Le, &big(0), &big(0)));
        assert!(!int_compare(CmpOp::Gt, &big(0), &big(0)));
        assert!(int_compare(CmpOp::Ge, &big(1), &big(0)));
        assert!(int_compare(CmpOp::Eq, &big(7), &big(7)));
        assert!(int_compare(CmpOp::Ne, &big(7), &big(8)));
    }

    #[test]
    fn indices_match_cpython() {
        // t = (10, 20, 30): t[-1] == 30, t[-3] == 10, t[3] and t[-4] raise IndexError.
        assert_eq!(normalize_index(&big(0), 3), Ok(0));
        assert_eq!(normalize_index(&big(2), 3), Ok(2));
        assert_eq!(normalize_index(&big(-1), 3), Ok(2));
        assert_eq!(normalize_index(&big(-3), 3), Ok(0));
        assert_eq!(normalize_index(&big(3), 3), Err(ExcClass::IndexError));
        assert_eq!(normalize_index(&big(-4), 3), Err(ExcClass::IndexError));
        assert_eq!(normalize_index(&big(0), 0), Err(ExcClass::IndexError));
        assert_eq!(normalize_index(&big(-1), 0), Err(ExcClass::IndexError));
        let huge: BigInt = "100000000000000000000000".parse().unwrap();
        assert_eq!(normalize_index(&huge, 3), Err(ExcClass::IndexError));
        assert_eq!(normalize_index(&-huge, 3), Err(ExcClass::IndexError));
    }

    #[test]
    fn builtins_match_cpython() {
        // abs(-5) == 5, min(3, -2) == -2, max(3, -2) == 3, abs(-10**30) == 10**30.
        assert_eq!(abs(&big(-5)), big(5));
        assert_eq!(abs(&big(0)), big(0));
        assert_eq!(min(&big(3), &big(-2)), big(-2));
        assert_eq!(max(&big(3), &big(-2)), big(3));
        assert_eq!(min(&big(4), &big(4)), big(4));
        let e30: BigInt = "1000000000000000000000000000000".parse().unwrap();
        assert_eq!(abs(&-e30.clone()), e30);
    }

    #[test]
    fn hierarchy_matches_cpython() {
        use ExcClass::*;
        assert!(ZeroDivisionError.is_subclass_of(ArithmeticError));
        assert!(IndexError.is_subclass_of(LookupError));
        assert!(IndexError.is_subclass_of(Exception));
        assert!(RecursionError.is_subclass_of(RuntimeError));
        assert!(!IndexError.is_subclass_of(ArithmeticError));
        assert!(AssertionError.is_subclass_of(BaseException));
        for c in ExcClass::ALL {
            assert_eq!(ExcClass::from_name(c.name()), Some(*c));
        }
    }
}
