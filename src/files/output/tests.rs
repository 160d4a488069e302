use std::os::unix::fs::PermissionsExt;

use super::*;

const OURS: &[u8] = b"# written by the test\n";

fn kind() -> Kind {
    Kind {
        what: "test file",
        ours: |h| h.starts_with(OURS),
    }
}

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("symdbg-output-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn target<'a>(path: &'a Path, program: Option<&'a Path>, force: bool) -> Target<'a> {
    Target {
        path,
        kind: kind(),
        program,
        force,
    }
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

/// The names in `d` (no temporary file may be left behind).
fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn ours_text(rest: &str) -> Vec<u8> {
    [OURS, rest.as_bytes()].concat()
}

#[test]
fn a_new_file_gets_the_mode_file_create_gives() {
    let d = dir("new");
    let plain = d.join("plain");
    std::fs::File::create(&plain).unwrap();
    let out = d.join("out.py");
    write(&target(&out, None, false), b"hello").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), b"hello");
    assert_eq!(mode(&out), mode(&plain));
    assert_eq!(names(&d), ["out.py", "plain"]);
}

#[test]
fn the_program_is_never_replaced_under_any_name() {
    let d = dir("program");
    let program = d.join("p.py");
    std::fs::write(&program, "x = 1\n").unwrap();
    let hard = d.join("hard.py");
    std::fs::hard_link(&program, &hard).unwrap();
    let dotted = d.join(".").join("p.py");
    for (path, force) in [(&program, false), (&dotted, true), (&hard, true)] {
        let e = write(&target(path, Some(&program), force), &ours_text("")).unwrap_err();
        assert!(e.to_string().contains("is the program itself"), "{e}");
        assert!(!e.forceable());
    }
    assert_eq!(std::fs::read_to_string(&program).unwrap(), "x = 1\n");
    assert_eq!(names(&d), ["hard.py", "p.py"]);
}

#[test]
fn a_symbolic_link_is_not_written_through_nor_replaced() {
    let d = dir("link");
    let program = d.join("clamp.py");
    std::fs::write(&program, "x = 1\n").unwrap();
    let link = d.join("test_clamp.py");
    std::os::unix::fs::symlink("clamp.py", &link).unwrap();
    let e = write(&target(&link, None, true), &ours_text("")).unwrap_err();
    assert!(e.to_string().contains("symbolic link to `clamp.py`"), "{e}");
    assert!(!e.forceable());
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&program).unwrap(), "x = 1\n");
}

#[test]
fn a_file_symdbg_did_not_write_is_kept_unless_forced() {
    let d = dir("foreign");
    let out = d.join("test_fact.py");
    std::fs::write(&out, "def test_mine(): pass\n").unwrap();
    let e = write(&target(&out, None, false), &ours_text("new")).unwrap_err();
    assert!(
        e.to_string().contains("not a test file symdbg wrote"),
        "{e}"
    );
    assert!(e.forceable());
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "def test_mine(): pass\n"
    );
    write(&target(&out, None, true), &ours_text("new")).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), ours_text("new"));
    assert_eq!(names(&d), ["test_fact.py"]);
}

#[test]
fn an_empty_file_or_one_symdbg_wrote_is_replaced_keeping_its_mode() {
    let d = dir("ours");
    let empty = d.join("empty.py");
    std::fs::write(&empty, "").unwrap();
    std::fs::set_permissions(&empty, std::fs::Permissions::from_mode(0o640)).unwrap();
    write(&target(&empty, None, false), b"a").unwrap();
    assert_eq!(std::fs::read(&empty).unwrap(), b"a");
    assert_eq!(mode(&empty), 0o640);
    let old = d.join("old.py");
    std::fs::write(&old, ours_text("old")).unwrap();
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o600)).unwrap();
    write(&target(&old, None, false), &ours_text("new")).unwrap();
    assert_eq!(std::fs::read(&old).unwrap(), ours_text("new"));
    assert_eq!(mode(&old), 0o600, "0600 stays 0600");
}

#[test]
fn a_read_only_file_is_kept_unless_forced_and_stays_read_only() {
    let d = dir("readonly");
    let out = d.join("s.json");
    std::fs::write(&out, ours_text("old")).unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o444)).unwrap();
    let e = write(&target(&out, None, false), &ours_text("new")).unwrap_err();
    assert!(e.to_string().contains("read-only"), "{e}");
    assert_eq!(std::fs::read(&out).unwrap(), ours_text("old"));
    write(&target(&out, None, true), &ours_text("new")).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), ours_text("new"));
    assert_eq!(mode(&out), 0o444);
}

#[test]
fn a_directory_is_not_a_file_to_replace() {
    let d = dir("dir");
    let sub = d.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let e = write(&target(&sub, None, true), b"x").unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    assert!(sub.is_dir());
}

#[test]
fn a_missing_directory_is_a_system_error_naming_the_file() {
    let d = dir("missing");
    let out = d.join("no").join("t.py");
    let e = write(&target(&out, None, false), b"x").unwrap_err();
    assert!(matches!(e, WriteError::Io { .. }), "{e:?}");
    assert!(e.to_string().starts_with("cannot write `"), "{e}");
}
