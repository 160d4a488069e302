//! Fuzz session files: any bytes read as a session file (`session_file::parse`) for a small
//! program of eight branches and a division, and its frontier replayed with a node
//! limit of 64. Nothing may panic, and the replay stops at the limit. The body is
//! `symdbg::tui::harness::fuzz_session_replay`, which `tests/it/hostile_caps.rs` runs on
//! hostile frontiers (so it is compiled and exercised without nightly).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = symdbg::tui::harness::fuzz_session_replay(data);
});
