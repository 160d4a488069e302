//! The concrete interpreter (stub; being written).
