//! The `T` key: write pytest tests ([`crate::testgen`]) next to the program: on a leaf, that
//! leaf's test (`test_<stem>_leaf<N>.py`), or no file and the reason it has none (a
//! `bound` leaf claims no ending, ...); elsewhere one per explored leaf (`test_<stem>.py`).
//! The answer is the status-line message.

use std::path::Path;

use crate::session::{NodeId, Session};
use crate::testgen::{self, Header};

/// Write the file and say where (or why not).
pub fn write(session: &mut Session, id: NodeId) -> String {
    let program = session.program();
    let source = session.source().clone();
    let source = &source;
    if let Err(d) = testgen::refuse_non_python(program) {
        return format!("no tests: {}", d.message);
    }
    if testgen::has_invariants(program) {
        return "no tests here: the loops have invariants; `symdbg testgen FILE` writes tests of the program without them".to_string();
    }
    let path = Path::new(&source.name);
    let (Some(stem), Some(file)) = (
        path.file_stem().and_then(|s| s.to_str()),
        path.file_name().and_then(|s| s.to_str()),
    ) else {
        return "no tests: the program has no file name".to_string();
    };
    if !path.is_file() {
        return format!("no tests: cannot find `{}` to write beside it", source.name);
    }
    // On a leaf, that leaf's test (whatever its outcome); elsewhere every explored leaf's.
    let one = session.tree().node(id).is_leaf();
    let suite = if one {
        testgen::collect_nodes(session, &[id], false)
    } else {
        testgen::collect(session, false)
    };
    if one && suite.tests.is_empty() {
        let why = suite.skipped.first().map_or("", |s| s.reason.as_str());
        return format!("no test for leaf {}: {why}", id.0);
    }
    let name = if one {
        format!("test_{stem}_leaf{}.py", id.0)
    } else {
        format!("test_{stem}.py")
    };
    let config = session.config();
    let mut command = format!("symdbg {}", source.name);
    for a in &source.assumptions {
        command.push_str(&format!(" --assume {a:?}"));
    }
    if let Some(f) = session.entry() {
        command.push_str(&format!(" --entry {f}"));
    }
    let header = Header {
        command: format!("{command} (key T in the debugger)"),
        bounds: format!(
            "--unroll {} --recursion {}",
            config.unroll, config.recursion
        ),
        program_path: file.to_string(),
        invariants: false,
        contracts: testgen::contracts::has_contracts(session.program()),
        ..Header::default()
    };
    let out = path.with_file_name(&name);
    let text = testgen::pytest::render(&suite, &header);
    let target = crate::tui::output::Target {
        path: &out,
        kind: crate::tui::output::PYTEST,
        program: Some(path),
        force: false,
    };
    if let Err(e) = crate::tui::output::write(&target, text.as_bytes()) {
        return format!(
            "no tests: {e}; `symdbg testgen {} -o OUT` writes them to another file",
            crate::tui::program_file::display_name(path)
        );
    }
    let n = suite.tests.len();
    let mut msg = format!(
        "wrote {n} test{} to {}",
        if n == 1 { "" } else { "s" },
        crate::tui::program_file::display_name(&out)
    );
    if !suite.skipped.is_empty() {
        msg.push_str(&format!(
            "; {} without a test (see its header)",
            suite.skipped.len()
        ));
    }
    if suite.disagreements().next().is_some() {
        msg.push_str("; engine bug: a leaf disagrees with the concrete run (see the file)");
    }
    msg
}
