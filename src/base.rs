//! The shared vocabulary at the bottom of the pipeline: source positions ([`Span`],
//! [`SourceMap`]), the escaping every display of user text goes through, the exception
//! classes and how a path or run ends ([`Outcome`]). It imports nothing from the crate; every stage may import it.

pub mod bindings;
pub mod escape;
pub mod exc;
pub mod fasthash;
pub mod natural;
pub mod outcome;
pub mod rng;
pub mod span;

pub use exc::ExcClass;
pub use fasthash::{FastMap, FastSet};
pub use outcome::Outcome;
pub use span::{SourceMap, Span};
