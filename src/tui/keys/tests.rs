use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{lookup, Action, Context, Key, ROWS};

fn ev(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, mods)
}

#[test]
fn no_key_is_bound_twice_in_one_context() {
    for ctx in [
        Context::Normal,
        Context::Breakpoints,
        Context::Prompt,
        Context::Overlay,
    ] {
        let keys: Vec<Key> = ROWS
            .iter()
            .filter(|r| r.context == ctx || r.context == Context::Any)
            .flat_map(|r| r.keys.iter().map(|(k, _)| *k))
            .collect();
        for (n, k) in keys.iter().enumerate() {
            assert!(
                !keys[n + 1..].contains(k),
                "{} bound twice in {ctx:?}",
                k.name()
            );
        }
    }
}

#[test]
fn lookup_prefers_the_key_with_its_modifiers() {
    let n = Context::Normal;
    assert_eq!(
        lookup(n, &ev(KeyCode::Left, KeyModifiers::SHIFT)),
        Some(Action::ScrollLeft)
    );
    assert_eq!(
        lookup(n, &ev(KeyCode::Left, KeyModifiers::NONE)),
        Some(Action::CollapseOrParent)
    );
    assert_eq!(
        lookup(n, &ev(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Some(Action::Quit)
    );
    assert_eq!(
        lookup(n, &ev(KeyCode::Char('c'), KeyModifiers::NONE)),
        Some(Action::Continue)
    );
    // A terminal sends `G` with Shift held.
    assert_eq!(
        lookup(n, &ev(KeyCode::Char('G'), KeyModifiers::SHIFT)),
        Some(Action::Last)
    );
    assert_eq!(
        lookup(n, &ev(KeyCode::BackTab, KeyModifiers::SHIFT)),
        Some(Action::FocusPrev)
    );
    assert_eq!(lookup(n, &ev(KeyCode::Char('y'), KeyModifiers::NONE)), None);
    // The breakpoint list has its own `c`; Ctrl-C quits there too.
    let b = Context::Breakpoints;
    assert_eq!(
        lookup(b, &ev(KeyCode::Char('c'), KeyModifiers::NONE)),
        Some(Action::ListCondition)
    );
    assert_eq!(
        lookup(b, &ev(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Some(Action::Quit)
    );
    assert_eq!(lookup(b, &ev(KeyCode::Char('s'), KeyModifiers::NONE)), None);
}

#[test]
fn key_names_as_the_help_writes_them() {
    let label = |first: char| {
        ROWS.iter()
            .find(|r| r.keys.first().is_some_and(|(k, _)| *k == Key::ch(first)))
            .map(|r| r.label())
            .unwrap_or_default()
    };
    assert_eq!(label('j'), "j k ↓ ↑");
    assert_eq!(label('1'), "1–6");
    assert_eq!(label('<'), "< > S-← S-→");
    assert_eq!(Key::ctrl('c').name(), "Ctrl-C");
    assert_eq!(
        super::plain("`--bfs`: breadth-first"),
        "--bfs: breadth-first"
    );
}

/// The busy rule's keys (issue 24: a property of the action, no second key list).
#[test]
fn the_keys_that_need_the_worker() {
    let mut keys: Vec<String> = ROWS
        .iter()
        .filter(|r| r.context == Context::Normal)
        .flat_map(|r| r.keys.iter())
        .filter(|(_, a)| a.needs_worker())
        .map(|(k, _)| k.name())
        .collect();
    keys.sort();
    let mut want: Vec<String> = [
        "Enter", "s", "u", "n", "f", "c", "r", "C", "m", "R", "T", "w", "a", "A", ":", "W", "L",
        "S", "F", "=", "H", "i", "o",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    want.sort();
    assert_eq!(keys, want);
}
