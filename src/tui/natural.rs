//! The debugger's panes list names in the one natural order of [`crate::base::natural`]
//! (`a2` before `a10`), as `run --tree` does.

pub use crate::base::natural::{cmp, sort};
