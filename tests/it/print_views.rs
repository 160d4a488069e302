//! Issue 25's `print` in the views (see `print.rs` for the differential tests).
