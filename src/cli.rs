//! The command line (stub; being written).

/// Run the command line; returns the process exit code.
pub fn main() -> i32 {
    0
}
