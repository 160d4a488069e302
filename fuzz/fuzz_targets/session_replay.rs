//! Fuzz session files: any bytes read as a session file (`session_file::parse`) for a small
//! program of eight branches and a division, and its frontier replayed with a node
//! limit of 64. Nothing may panic, and the replay stops at the limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use symdbg::base::SourceMap;
use symdbg::engine::Config;
use symdbg::session::Session;
use symdbg::tui::session_file;

const PROGRAM: &str = "x0: int\nx1: int\nx2: int\nx3: int\nx4: int\nx5: int\nx6: int\nx7: int\nif x0 > 0:\n    y = 0\nif x1 > 0:\n    y = 1\nif x2 > 0:\n    y = 2\nif x3 > 0:\n    y = 3\nif x4 > 0:\n    y = 4\nif x5 > 0:\n    y = 5\nif x6 > 0:\n    y = 6\nif x7 > 0:\n    y = 7\nz = 1 // x0\n";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let source = SourceMap::new("p.py", PROGRAM);
    let mut config = Config::default();
    config.timeout_ms = Some(100);
    let Ok(restore) = session_file::parse(text, &source, &config, None) else {
        return;
    };
    let Ok(mut session) = Session::open(source, None, config) else {
        return;
    };
    let r = session.replay_frontier(&restore.frontier, 64, &|_| {});
    // One step past the limit at most, and a step makes a few children.
    assert!(session.tree().len() < 64 + 16, "{r:?}");
    let _ = session.follow(&restore.selected);
});
