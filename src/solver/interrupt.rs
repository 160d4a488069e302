//! Interrupting a running Z3 check from another thread (the TUI's Esc).
//!
//! Z3 checks run on the engine's thread, in its thread-local Z3 context. [`interruptible`]
//! runs a closure on that thread while a scoped watchdog thread polls a cancel flag and,
//! once it is set, interrupts the context (`Z3_interrupt`): the check in progress returns
//! `unknown`, which the solver reports as [`INTERRUPTED`] (never cached) when the flag is
//! set. Interrupting a context that is not checking is harmless: later checks run normally.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The reason of an `Unknown` answer cut short by the cancel flag.
pub const INTERRUPTED: &str = "interrupted";

/// How often the watchdog looks at the flag.
const POLL: Duration = Duration::from_millis(5);

/// Run `f`; while it runs, a Z3 check on this thread stops soon after `cancel` is set.
pub fn interruptible<R>(cancel: &AtomicBool, f: impl FnOnce() -> R) -> R {
    let ctx = z3::Context::thread_local();
    let done = AtomicBool::new(false);
    // Sets `done` also when `f` panics, so the scope never waits for the watchdog forever.
    struct Done<'a>(&'a AtomicBool);
    impl Drop for Done<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Release);
        }
    }
    std::thread::scope(|s| {
        let handle = ctx.handle();
        let done = &done;
        s.spawn(move || {
            while !done.load(Ordering::Acquire) {
                if cancel.load(Ordering::Relaxed) {
                    handle.interrupt();
                }
                std::thread::sleep(POLL);
            }
        });
        let _done = Done(done);
        f()
    })
}
