//! Why the solver could not decide ([`Unknown`]): the reasons callers branch on are
//! variants, Z3's own words are kept as text. The text of each is what every printer shows
//! (`timeout`, `interrupted`, `model too large: ...`), and what the solver process's wire
//! format carries ([`Unknown::from`] reads it back).

use std::fmt;

use super::INTERRUPTED;

/// Why a check or a model query was not decided.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Unknown {
    /// The time limit struck.
    Timeout,
    /// The cancel flag interrupted it (see [`super::interruptible`]), not the problem.
    Interrupted,
    /// A model exists, but a value of it is too large to materialise: its description
    /// (`model too large: t = ... (len N), x = 3`).
    TooLarge(String),
    /// Anything else, in Z3's or the solver's words (`(incomplete quantifiers)`).
    Other(String),
}

impl Unknown {
    /// The reason's text.
    pub fn text(&self) -> &str {
        match self {
            Unknown::Timeout => "timeout",
            Unknown::Interrupted => INTERRUPTED,
            Unknown::TooLarge(s) | Unknown::Other(s) => s,
        }
    }
}

impl From<&str> for Unknown {
    /// A reason's text as the variant it names (the inverse of [`Unknown::text`]).
    fn from(text: &str) -> Unknown {
        match text {
            "timeout" => Unknown::Timeout,
            INTERRUPTED => Unknown::Interrupted,
            t if t.starts_with(crate::term::model::TOO_LARGE) => Unknown::TooLarge(t.into()),
            t => Unknown::Other(t.into()),
        }
    }
}

impl From<String> for Unknown {
    fn from(text: String) -> Unknown {
        Unknown::from(text.as_str())
    }
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

#[cfg(test)]
mod tests {
    use super::Unknown;

    #[test]
    fn every_reason_reads_back_as_the_same_variant() {
        for u in [
            Unknown::Timeout,
            Unknown::Interrupted,
            Unknown::TooLarge("model too large: t = (0, …, 0) (len 9)".into()),
            Unknown::Other("(incomplete quantifiers)".into()),
        ] {
            assert_eq!(Unknown::from(u.to_string()), u);
        }
    }
}
