//! [`Outcome`]: how a path or a run ends, one type for the engine's leaves, the concrete
//! interpreter's runs, `check`'s behaviours and every printer.

use super::ExcClass;

/// How a leaf or a run ended (the book's colours: normal/return blue, exception red,
/// infeasible green; plus halt, bound, unknown and step_limit). The engine's leaves never
/// end `StepLimit`; concrete runs never end `Bound` or `Unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A module run completed.
    Normal,
    /// An entry run's function returned (or a procedure completed).
    Return,
    /// An uncaught exception (also a failed `assert`, or a violated invariant).
    Exception(ExcClass),
    /// An `assume` did not hold.
    Infeasible,
    /// A loop scope's invariant was preserved: the path ends successfully.
    Halt,
    /// Engine: cut off by `--unroll` or `--recursion`.
    Bound,
    /// Engine: the solver could not decide feasibility.
    Unknown,
    /// Concrete interpreter: the run used up its step budget (or built a huge value) and
    /// was stopped.
    StepLimit,
}

impl Outcome {
    /// The JSON name: `normal`, `return`, `exception`, `infeasible`, `halt`, `bound`,
    /// `unknown`, `step_limit`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Normal => "normal",
            Outcome::Return => "return",
            Outcome::Exception(_) => "exception",
            Outcome::Infeasible => "infeasible",
            Outcome::Halt => "halt",
            Outcome::Bound => "bound",
            Outcome::Unknown => "unknown",
            Outcome::StepLimit => "step_limit",
        }
    }

    /// The exception class of an `Exception` outcome.
    pub fn exception(self) -> Option<ExcClass> {
        match self {
            Outcome::Exception(c) => Some(c),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_json_strings() {
        let all = [
            Outcome::Normal,
            Outcome::Return,
            Outcome::Exception(ExcClass::ZeroDivisionError),
            Outcome::Infeasible,
            Outcome::Halt,
            Outcome::Bound,
            Outcome::Unknown,
            Outcome::StepLimit,
        ];
        let names: Vec<&str> = all.iter().map(|o| o.name()).collect();
        assert_eq!(
            names,
            [
                "normal",
                "return",
                "exception",
                "infeasible",
                "halt",
                "bound",
                "unknown",
                "step_limit"
            ]
        );
        assert_eq!(all[2].exception(), Some(ExcClass::ZeroDivisionError));
        assert_eq!(all[7].exception(), None);
    }
}
