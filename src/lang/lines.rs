//! Logical lines and indentation (stub; being written).
