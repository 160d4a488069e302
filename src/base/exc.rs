//! The exception classes of minipy, with CPython's hierarchy: vocabulary shared by the
//! type checker, the interpreters and the engine.

/// The exception classes minipy programs can raise or name in `except` clauses, with
/// CPython's hierarchy (see [`ExcClass::parent`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExcClass {
    BaseException,
    Exception,
    ArithmeticError,
    ZeroDivisionError,
    OverflowError,
    LookupError,
    IndexError,
    KeyError,
    AssertionError,
    RuntimeError,
    RecursionError,
    NameError,
    UnboundLocalError,
    TypeError,
    ValueError,
}

impl ExcClass {
    pub const ALL: &'static [ExcClass] = &[
        ExcClass::BaseException,
        ExcClass::Exception,
        ExcClass::ArithmeticError,
        ExcClass::ZeroDivisionError,
        ExcClass::OverflowError,
        ExcClass::LookupError,
        ExcClass::IndexError,
        ExcClass::KeyError,
        ExcClass::AssertionError,
        ExcClass::RuntimeError,
        ExcClass::RecursionError,
        ExcClass::NameError,
        ExcClass::UnboundLocalError,
        ExcClass::TypeError,
        ExcClass::ValueError,
    ];

    /// Python's name of the class.
    pub fn name(self) -> &'static str {
        match self {
            ExcClass::BaseException => "BaseException",
            ExcClass::Exception => "Exception",
            ExcClass::ArithmeticError => "ArithmeticError",
            ExcClass::ZeroDivisionError => "ZeroDivisionError",
            ExcClass::OverflowError => "OverflowError",
            ExcClass::LookupError => "LookupError",
            ExcClass::IndexError => "IndexError",
            ExcClass::KeyError => "KeyError",
            ExcClass::AssertionError => "AssertionError",
            ExcClass::RuntimeError => "RuntimeError",
            ExcClass::RecursionError => "RecursionError",
            ExcClass::NameError => "NameError",
            ExcClass::UnboundLocalError => "UnboundLocalError",
            ExcClass::TypeError => "TypeError",
            ExcClass::ValueError => "ValueError",
        }
    }

    pub fn from_name(name: &str) -> Option<ExcClass> {
        ExcClass::ALL.iter().copied().find(|c| c.name() == name)
    }

    /// The direct base class, as in CPython; `None` for `BaseException`.
    pub fn parent(self) -> Option<ExcClass> {
        use ExcClass::*;
        Some(match self {
            BaseException => return None,
            Exception => BaseException,
            ArithmeticError | LookupError | AssertionError | RuntimeError | NameError
            | TypeError | ValueError => Exception,
            ZeroDivisionError | OverflowError => ArithmeticError,
            IndexError | KeyError => LookupError,
            RecursionError => RuntimeError,
            UnboundLocalError => NameError,
        })
    }

    /// Whether `except handler:` catches an exception of class `self`.
    pub fn is_subclass_of(self, handler: ExcClass) -> bool {
        let mut c = Some(self);
        while let Some(k) = c {
            if k == handler {
                return true;
            }
            c = k.parent();
        }
        false
    }
}

impl std::fmt::Display for ExcClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
