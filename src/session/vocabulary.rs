//! The shared vocabulary clients name, re-exported so that a front-end imports it from the
//! session and never from the stages below: node ids and kinds, the engine's settings
//! (configuration, limits, loop and fold modes), a node's model and the concrete values
//! it holds, and the two reasons a client tells apart by their text.

pub use crate::base::Outcome;
/// The concrete interpreter's settings (step budget, ...).
pub use crate::concrete::Config as RunConfig;
pub use crate::concrete::{outcome_text, RunResult, Value};
pub use crate::engine::fold::FoldMode;
pub use crate::engine::{Config, Limits, LoopMode, NodeId, NodeKind, NodeModel};
/// The reason of a solver answer that Esc cut short.
pub use crate::solver::INTERRUPTED;
/// The start of every "the model is too large" reason.
pub use crate::term::model::TOO_LARGE;
