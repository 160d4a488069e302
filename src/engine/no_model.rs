//! Why a node has no model ([`NoModel`]), as a value clients branch on: the path is
//! infeasible, the solver could not decide, or the model is too large to materialise.

use std::fmt;

use crate::solver::Unknown;

/// Why a node has no model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoModel {
    /// The path is infeasible.
    Infeasible,
    /// There is a model, but a value of it is too large to materialise: its description
    /// (`model too large: t = ... (len N), x = 3`).
    TooLarge(String),
    /// The solver could not decide, or the node is an `unknown` leaf: why.
    Unknown(Unknown),
}

impl NoModel {
    /// The reason in words (`infeasible`, `timeout`, `model too large: ...`): the text
    /// every printer shows.
    pub fn text(&self) -> &str {
        match self {
            NoModel::Infeasible => "infeasible",
            NoModel::TooLarge(s) => s,
            NoModel::Unknown(u) => u.text(),
        }
    }
}

impl From<Unknown> for NoModel {
    fn from(u: Unknown) -> NoModel {
        match u {
            Unknown::TooLarge(s) => NoModel::TooLarge(s),
            other => NoModel::Unknown(other),
        }
    }
}

impl fmt::Display for NoModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

#[cfg(test)]
mod tests {
    use super::NoModel;
    use crate::solver::Unknown;

    #[test]
    fn solver_reasons_become_typed_and_print_unchanged() {
        let large = "model too large: t = (0, …, 0) (len 9)".to_string();
        assert_eq!(
            NoModel::from(Unknown::TooLarge(large.clone())),
            NoModel::TooLarge(large.clone())
        );
        assert_eq!(
            NoModel::from(Unknown::TooLarge(large.clone())).to_string(),
            large
        );
        assert_eq!(
            NoModel::from(Unknown::Timeout),
            NoModel::Unknown(Unknown::Timeout)
        );
        assert_eq!(NoModel::from(Unknown::Timeout).to_string(), "timeout");
        assert_eq!(NoModel::Infeasible.to_string(), "infeasible");
    }
}
