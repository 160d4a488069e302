//! Concrete minipy values: unbounded ints, bools, flat tuples of ints.

use std::fmt;
use std::sync::Arc;

use num_bigint::BigInt;

use crate::lang::ast::{Expr, ExprKind, Type, UnaryOp};

/// A run-time value. Tuples share their elements (`Arc`), so copying a value is cheap and values cross
/// threads (`check --jobs` sends them back from its workers as they are).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    Int(BigInt),
    Bool(bool),
    Tuple(Arc<[BigInt]>),
}

impl Value {
    /// The minipy type of the value.
    pub fn ty(&self) -> Type {
        match self {
            Value::Int(_) => Type::Int,
            Value::Bool(_) => Type::Bool,
            Value::Tuple(_) => Type::Tuple,
        }
    }

    /// The value a fresh variable of type `ty` gets when nothing else is known
    /// (`0`, `False`, `()`).
    pub fn default_of(ty: Type) -> Value {
        match ty {
            Type::Int => Value::Int(BigInt::from(0)),
            Type::Bool => Value::Bool(false),
            Type::Tuple => Value::Tuple(Arc::from(Vec::new())),
        }
    }

    /// A tuple from its elements.
    pub fn tuple(elems: Vec<BigInt>) -> Value {
        Value::Tuple(Arc::from(elems))
    }

    /// The value written as a Python literal: `3`, `-2`, `True`, `()`, `(1,)`, `(1, -2)`
    /// (parentheses, `+`/`-` signs and `tuple()` included). `None` for anything else.
    pub fn from_literal(e: &Expr) -> Option<Value> {
        match &e.kind {
            ExprKind::Bool(b) => Some(Value::Bool(*b)),
            ExprKind::Tuple(elems) => elems
                .iter()
                .map(int_literal)
                .collect::<Option<Vec<_>>>()
                .map(Value::tuple),
            _ => int_literal(e).map(Value::Int),
        }
    }

    /// JSON: ints are numbers (exact, however large), bools booleans, tuples arrays.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Int(i) => int_json(i),
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Tuple(t) => serde_json::Value::Array(t.iter().map(int_json).collect()),
        }
    }
}

fn int_literal(e: &Expr) -> Option<BigInt> {
    match &e.kind {
        ExprKind::Int(i) => Some(i.clone()),
        ExprKind::Unary {
            op: UnaryOp::Neg,
            operand,
        } => int_literal(operand).map(|i| -i),
        ExprKind::Unary {
            op: UnaryOp::Pos,
            operand,
        } => int_literal(operand),
        _ => None,
    }
}

fn int_json(i: &BigInt) -> serde_json::Value {
    // With serde_json's `arbitrary_precision` any integer literal is a valid Number.
    match i.to_string().parse::<serde_json::Number>() {
        Ok(n) => serde_json::Value::Number(n),
        Err(_) => serde_json::Value::String(i.to_string()),
    }
}

/// Python's `repr`: `3`, `True`, `()`, `(1,)`, `(1, 2)`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Bool(true) => f.write_str("True"),
            Value::Bool(false) => f.write_str("False"),
            Value::Tuple(t) => {
                f.write_str("(")?;
                for (k, x) in t.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                if t.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Span;

    fn e(kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::default(),
        }
    }
    fn int(i: i64) -> Expr {
        e(ExprKind::Int(BigInt::from(i)))
    }
    fn neg(x: Expr) -> Expr {
        e(ExprKind::Unary {
            op: UnaryOp::Neg,
            operand: Box::new(x),
        })
    }

    #[test]
    fn literals() {
        assert_eq!(Value::from_literal(&int(3)), Some(Value::Int(3.into())));
        assert_eq!(
            Value::from_literal(&neg(int(2))),
            Some(Value::Int((-2).into()))
        );
        assert_eq!(
            Value::from_literal(&e(ExprKind::Bool(true))),
            Some(Value::Bool(true))
        );
        assert_eq!(
            Value::from_literal(&e(ExprKind::Tuple(vec![int(1), neg(int(2))]))),
            Some(Value::tuple(vec![1.into(), (-2).into()]))
        );
        assert_eq!(
            Value::from_literal(&e(ExprKind::Tuple(vec![e(ExprKind::Bool(true))]))),
            None
        );
        assert_eq!(Value::from_literal(&e(ExprKind::Name("x".into()))), None);
        assert_eq!(Value::from_literal(&neg(e(ExprKind::Bool(true)))), None);
    }

    #[test]
    fn display_is_python_repr() {
        assert_eq!(Value::Int((-3).into()).to_string(), "-3");
        assert_eq!(Value::Bool(false).to_string(), "False");
        assert_eq!(Value::tuple(vec![]).to_string(), "()");
        assert_eq!(Value::tuple(vec![1.into()]).to_string(), "(1,)");
        assert_eq!(
            Value::tuple(vec![1.into(), (-2).into()]).to_string(),
            "(1, -2)"
        );
    }

    #[test]
    fn json_keeps_huge_ints_exact() {
        let huge: BigInt = "-123456789012345678901234567890".parse().unwrap();
        let v = Value::tuple(vec![huge, 2.into()]);
        assert_eq!(
            serde_json::to_string(&v.to_json()).unwrap(),
            "[-123456789012345678901234567890,2]"
        );
        assert_eq!(Value::Bool(true).to_json(), serde_json::Value::Bool(true));
        assert_eq!(Value::default_of(Type::Tuple).to_json().to_string(), "[]");
    }
}
