//! One minimal program per root cause the position audit found, compared with python3.
