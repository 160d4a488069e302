//! What several test modules share: running the real binary, the list of examples, python3
//! with pytest.

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

/// Every `examples/*.py`, as `examples/NAME.py` (relative to the repository root), sorted.
pub fn examples() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .expect("examples/")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .map(|p| format!("examples/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    out.sort();
    out
}

/// A python3 that has pytest: `python3`, else Debian's `/usr/bin/python3` (where
/// `apt-get install python3-pytest` puts it when `python3` is another build, e.g. pyenv's).
pub fn python_with_pytest() -> &'static str {
    static PY: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();
    PY.get_or_init(|| {
        ["python3", "/usr/bin/python3"]
            .into_iter()
            .find(|py| {
                Command::new(py)
                    .args(["-m", "pytest", "--version"])
                    .output()
                    .is_ok_and(|o| o.status.success())
            })
            .expect("no python3 with pytest: `apt-get install python3-pytest` (.ci/run does)")
    })
}

/// `python3 -` with `src` on its standard input: its finished output.
pub fn python_stdin(src: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new("python3")
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(src.as_bytes())
        .expect("write");
    child.wait_with_output().expect("python3 ran")
}
