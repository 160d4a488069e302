//! Session files: round trips, hostile files, the text form.
use super::*;

const SRC: &str = "x: int\nif x > 0:\n    y = 1\n";

fn source() -> SourceMap {
    SourceMap::new("t.py", SRC)
}

fn sample() -> SessionFile {
    let carry = Carry {
        breakpoints: vec![Breakpoint {
            line: 3,
            enabled: false,
            condition: Some("x > 5".to_string()),
        }],
        exceptions: ExcStop::Class(ExcClass::from_name("ZeroDivisionError").unwrap()),
        watches: vec!["x + 1".to_string()],
        assumptions: vec!["x < 100".to_string()],
    };
    let frontier = vec![
        FrontierStep {
            at: None,
            step: StepKind::Default,
        },
        FrontierStep {
            at: Some((0, 1)),
            step: StepKind::Loop(LoopMode::UnrollOnce),
        },
    ];
    build(
        &source(),
        &Config::default(),
        None,
        CallMode::Inline,
        &carry,
        &frontier,
        vec![1, 0],
    )
}

#[test]
fn a_written_file_reads_back_as_it_was() {
    let file = sample();
    assert_eq!(file.breakpoints[0].text, "y = 1");
    let text = serde_json::to_string_pretty(&file).unwrap();
    let r = parse(&text, &source(), &Config::default(), None).unwrap();
    assert!(!r.changed);
    assert!(r.other_options.is_empty());
    assert_eq!(r.ignored, 0);
    assert_eq!(r.carry.breakpoints[0].condition.as_deref(), Some("x > 5"));
    assert!(!r.carry.breakpoints[0].enabled);
    assert_eq!(r.carry.watches, vec!["x + 1"]);
    assert_eq!(r.carry.assumptions, vec!["x < 100"]);
    assert!(matches!(r.carry.exceptions, ExcStop::Class(_)));
    assert_eq!(r.frontier[1].at, Some((0, 1)));
    assert_eq!(r.frontier[1].step, StepKind::Loop(LoopMode::UnrollOnce));
    assert_eq!(r.selected, vec![1, 0]);
    // The root's entry has no `from`/`child` keys at all.
    assert!(
        to_text(&file).unwrap().contains("{\"step\":\"step\"}"),
        "{text}"
    );
}

#[test]
fn the_text_has_one_step_per_line_and_parses_back() {
    let file = sample();
    let text = to_text(&file).unwrap();
    assert!(
        text.contains("\n    {\"from\":0,\"child\":1,\"step\":\"unroll_once\"}\n"),
        "{text}"
    );
    assert!(text.contains("\n  \"version\": 1,\n"), "{text}");
    let back: SessionFile = serde_json::from_str(&text).unwrap();
    assert_eq!(back, file);
    let empty = SessionFile {
        breakpoints: Vec::new(),
        frontier: Vec::new(),
        ..file
    };
    let back: SessionFile = serde_json::from_str(&to_text(&empty).unwrap()).unwrap();
    assert_eq!(back, empty);
}

#[test]
fn another_program_text_or_other_options_are_noticed() {
    let text = serde_json::to_string(&sample()).unwrap();
    let other = SourceMap::new("t.py", "x: int\n");
    assert!(
        parse(&text, &other, &Config::default(), None)
            .unwrap()
            .changed
    );
    let config = Config {
        unroll: 7,
        ..Config::default()
    };
    let r = parse(&text, &source(), &config, Some("f")).unwrap();
    assert_eq!(r.other_options, vec!["no --entry", "--unroll 3"]);
}

#[test]
fn the_calls_mode_in_effect_is_saved_and_applies_without_the_option() {
    // Issue 28: the mode is written (the default too), applies when the command line
    // names none, and is named as another option when it names another.
    let inline = sample();
    assert_eq!(inline.options.calls.as_deref(), Some("inline"));
    let file = SessionFile {
        options: SavedOptions {
            calls: Some("contract".to_string()),
            ..inline.options.clone()
        },
        ..inline
    };
    let text = to_text(&file).unwrap();
    assert!(text.contains("\"calls\":\"contract\""), "{text}");
    let r = parse(&text, &source(), &Config::default(), None).unwrap();
    assert_eq!(r.calls, Some(CallMode::Contract));
    assert!(r.other_options.is_empty(), "{:?}", r.other_options);
    let given = Config {
        calls: Some(CallMode::Inline),
        ..Config::default()
    };
    let r = parse(&text, &source(), &given, None).unwrap();
    assert_eq!(r.calls, None);
    assert_eq!(r.other_options, vec!["--calls contract"]);
    // The same mode on the command line: nothing to say or apply.
    let same = Config {
        calls: Some(CallMode::Contract),
        ..Config::default()
    };
    let r = parse(&text, &source(), &same, None).unwrap();
    assert_eq!((r.calls, r.other_options.len()), (None, 0));
}

#[test]
fn a_file_from_before_calls_were_saved_still_loads() {
    let mut v = serde_json::to_value(sample()).unwrap();
    v["options"]
        .as_object_mut()
        .unwrap()
        .remove("calls")
        .expect("written");
    let r = parse(&v.to_string(), &source(), &Config::default(), None).unwrap();
    assert_eq!((r.calls, r.ignored), (None, 0));
    assert!(r.other_options.is_empty());
    // An unknown mode is an entry that makes no sense: counted, the rest restored.
    v["options"]["calls"] = "sideways".into();
    let r = parse(&v.to_string(), &source(), &Config::default(), None).unwrap();
    assert_eq!((r.calls, r.ignored), (None, 1));
    assert_eq!(r.frontier.len(), 2);
}

#[test]
fn hostile_files_are_errors_with_a_reason() {
    let ok = serde_json::to_value(sample()).unwrap();
    let with = |k: &str, v: serde_json::Value| {
        let mut o = ok.clone();
        o[k] = v;
        o.to_string()
    };
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "not a session file"),
        ("{".to_string(), "not a session file"),
        ("[1, 2]".to_string(), "not a session file"),
        ("null".to_string(), "not a session file"),
        ("{}".to_string(), "no \"format\""),
        (with("format", "other".into()), "no \"format\""),
        (with("version", 2.into()), "newer symdbg (format version 2"),
        (with("version", 0.into()), "format version 0 is not read"),
        (with("version", "1".into()), "no format version"),
        (with("frontier", "x".into()), "damaged"),
        (with("selected", serde_json::json!([-1])), "damaged"),
        (with("selected", serde_json::json!([1e30])), "damaged"),
        (
            with("breakpoints", serde_json::json!([{"line": 1}])),
            "damaged",
        ),
        ("[".repeat(100_000), "not a session file"),
    ];
    for (text, want) in cases {
        let err = parse(&text, &source(), &Config::default(), None).unwrap_err();
        assert!(err.contains(want), "{text:.80}: {err}");
    }
}

#[test]
fn unknown_steps_and_classes_are_ignored_in_place() {
    let mut file = sample();
    file.exceptions = "NoSuchError".to_string();
    file.frontier[0].step = "leap".to_string();
    file.frontier.push(SavedStep {
        from: Some(0),
        child: None,
        step: "step".to_string(),
    });
    let text = serde_json::to_string(&file).unwrap();
    let r = parse(&text, &source(), &Config::default(), None).unwrap();
    assert_eq!(r.ignored, 3);
    assert_eq!(r.carry.exceptions, ExcStop::Off);
    // Entries keep their places: entry 1 still refers to entry 0.
    assert_eq!(r.frontier.len(), 3);
    assert_eq!(r.frontier[1].at, Some((0, 1)));
}

#[test]
fn only_regular_files_are_read() {
    let config = Config::default();
    for p in ["/dev/zero", "/dev/null", "/tmp"] {
        let err = read(Path::new(p), &source(), &config, None).unwrap_err();
        assert_eq!(err, "not a regular file", "{p}");
    }
    let dir = std::env::temp_dir().join(format!("symdbg-sf-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let err = read(&fifo, &source(), &config, None).unwrap_err();
        assert_eq!(err, "not a regular file");
    }
    // Too large: refused after reading at most MAX_BYTES + 1 bytes.
    let big = dir.join("big");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(MAX_BYTES + 1).unwrap();
    let err = read(&big, &source(), &config, None).unwrap_err();
    assert!(err.contains("larger than 64 MiB"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_hash_is_fnv1a() {
    // The FNV-1a 64 test vectors.
    assert_eq!(program_hash(""), "fnv1a64:cbf29ce484222325");
    assert_eq!(program_hash("a"), "fnv1a64:af63dc4c8601ec8c");
    assert_eq!(
        default_path(Path::new("dir/p.py")),
        PathBuf::from("dir/p.py.symdbg-session")
    );
}

#[test]
fn write_replaces_the_file_whole() {
    let dir = std::env::temp_dir().join(format!("symdbg-sf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("p.py.symdbg-session");
    // Not a session file: refused, left as it was.
    std::fs::write(&p, "old").unwrap();
    let e = write(&p, &sample(), None).unwrap_err();
    assert!(e.contains("is not a session file symdbg wrote"), "{e}");
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
    // An earlier session file (of any version) is replaced whole.
    std::fs::write(
        &p,
        r#"{"format": "symdbg-session", "version": 0, "frontier": "junk"}"#,
    )
    .unwrap();
    write(&p, &sample(), None).unwrap();
    let r = read(&p, &source(), &Config::default(), None).unwrap();
    assert_eq!(r.selected, vec![1, 0]);
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "no temporary left"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(read(&p, &source(), &Config::default(), None)
        .unwrap_err()
        .contains("no such file"));
}
