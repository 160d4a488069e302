//! What several test modules share: running the real binary.

use std::process::{Command, Output};

/// (exit code, stdout, stderr) of a finished run (-1: ended by a signal).
pub fn triple(out: Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `symdbg ARGS...` from the repository root: (exit code, stdout, stderr).
pub fn symdbg(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_symdbg"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run symdbg");
    triple(out)
}
