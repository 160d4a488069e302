//! The shared vocabulary every client names: node ids, outcomes, loop and fold modes,
//! limits, the engine's configuration, concrete values. Clients import these from
//! `session` (the one boundary, `tests/it/architecture.rs`), never from the stages below.

pub use crate::base::Outcome;
/// The concrete interpreter's settings (step budget, ...).
pub use crate::concrete::Config as RunConfig;
pub use crate::concrete::Value;
pub use crate::concrete::{outcome_text, RunResult};
pub use crate::engine::explain::Verdict as ExplainVerdict;
pub use crate::engine::fold::FoldMode;
pub use crate::engine::live::Live;
pub use crate::engine::{
    CallMode, Config, Limits, LoopMode, NoModel, Node, NodeId, NodeKind, NodeModel, Stats, Stop,
    Strategy, Tree,
};
pub use crate::lang::Type;
/// The reason of a solver answer that Esc cut short.
pub use crate::solver::INTERRUPTED;
/// The start of every "the model is too large" reason.
pub use crate::term::model::TOO_LARGE;
pub use crate::term::{Model, MODEL_TUPLE_LIMIT};
