//! Assignments end to end: the sample key seals, its answers stay out of the sealed file, bad
//! files are refused at their field and line, and `locksim grade` grades a class of 30
//! generated hand-ins by re-running them — a win a hand-in claims but did not earn is graded
//! lost, and a corrupt hand-in is named with its position.

use std::path::Path;
use std::process::Command;

use locksim::assignment::{self, Assignment, Form, HandIn, hidden};

const KEY: &str = include_str!("../docs/assignment-key.toml");
const SEALED: &str = include_str!("../docs/assignment.toml");

fn sealed() -> Assignment {
    Assignment::parse(SEALED, Form::Sealed).expect("docs/assignment.toml reads")
}

#[test]
fn the_shipped_sample_is_the_key_sealed() {
    assert_eq!(
        assignment::seal(KEY).expect("the key seals"),
        SEALED,
        "docs/assignment.toml is out of date: run `locksim assignment seal \
         docs/assignment-key.toml > docs/assignment.toml`"
    );
    let kinds: Vec<_> = sealed().tasks.iter().map(|t| t.kind).collect();
    for kind in [
        assignment::TaskKind::Course,
        assignment::TaskKind::Challenge,
        assignment::TaskKind::Predict,
        assignment::TaskKind::Break,
    ] {
        assert!(kinds.contains(&kind), "the sample uses every task kind");
    }
}

#[test]
fn no_answer_hint_or_feedback_is_readable_in_the_sealed_file() {
    let key = Assignment::parse(KEY, Form::Key).expect("the key reads");
    let mut secrets: Vec<String> = Vec::new();
    for task in &key.tasks {
        secrets.extend(task.hint.clone());
        secrets.extend(task.impossible.clone());
        secrets.extend(task.options.iter().filter_map(|c| c.feedback.clone()));
        if let Some(n) = task.answer {
            secrets.push(format!("answer = {n}"));
        }
        for fault in &task.solution {
            secrets.push(format!("at_ms = {}", fault.at_ms));
        }
    }
    assert!(secrets.len() >= 8, "the sample has answers to hide");
    for secret in &secrets {
        // Any run of eight words of it would give it away.
        let words: Vec<&str> = secret.split_whitespace().collect();
        for window in words.windows(8.min(words.len())) {
            let phrase = window.join(" ");
            assert!(
                !SEALED.contains(&phrase),
                "readable in the sealed file: {phrase:?}"
            );
        }
    }
    // The sealed predict task still knows its answer, and only its answer.
    let a = sealed();
    let task = a.task("predict-fenced").expect("the predict task");
    let salt = a.salt.as_deref().expect("a salt");
    let hash = task.answer_hash.as_deref().expect("a hash");
    assert!(hidden::matches(salt, &task.id, "1", hash));
    assert!(!hidden::matches(salt, &task.id, "2", hash));
}

#[test]
fn a_solution_that_does_not_win_is_refused_at_its_line() {
    let key = KEY.replace(
        "solution = [{ at_ms = 1000, kind = \"pause\", node = \"A\", for_ms = 35000 }]",
        "solution = [{ at_ms = 1000, kind = \"pause\", node = \"A\", for_ms = 1000 }]",
    );
    let e = assignment::seal(&key).unwrap_err();
    assert_eq!(e.field, "task[3].solution");
    let line = key
        .lines()
        .position(|l| {
            l.starts_with(
                "solution = [{ at_ms = 1000, kind = \"pause\", node = \"A\", for_ms = 1000",
            )
        })
        .map(|i| i + 1);
    assert_eq!(e.line, line);
    assert!(
        e.message.starts_with("does not win the task: Not yet"),
        "{}",
        e.message
    );
}

#[test]
fn bad_assignments_name_the_field_and_line() {
    let cases = [
        // (what is changed, to what, the field named)
        ("step = \"3\"", "step = \"33\"", "task[0].step"),
        (
            "kind = \"course\"\ntitle = \"Step 3",
            "kind = \"lesson\"\ntitle = \"Step 3",
            "task[0].kind",
        ),
        (
            "goal = [\"stale_write\"]\nbudget = { faults = 1, kinds = { pause = 1 }, pause_ms",
            "goal = [\"stale_writ\"]\nbudget = { faults = 1, kinds = { pause = 1 }, pause_ms",
            "task[3].goal[0]",
        ),
        (
            "design = \"scenarios/step5-longer-ttl\"",
            "design = \"scenarios/step5-longer\"",
            "task[3].design",
        ),
        ("answer = 1", "answer = 4", "task[2].answer"),
        (
            "id = \"fenced-holds\"",
            "id = \"longer-lease\"",
            "task[4].id",
        ),
        (
            "kinds = { pause = 1 } }\nimpossible",
            "kinds = { pauses = 1 } }\nimpossible",
            "task[4].budget.kinds.pauses",
        ),
    ];
    for (from, to, field) in cases {
        assert!(KEY.contains(from), "{from:?} is in the key");
        let bad = KEY.replacen(from, to, 1);
        let e = Assignment::parse(&bad, Form::Key).unwrap_err();
        assert_eq!(e.field, field, "{to:?}: {e}");
        let offset = KEY.find(from).expect("the change is in the file");
        let line = bad[..offset].matches('\n').count() + 1;
        let got = e.line.expect("a line");
        // The field is on the changed text's first line, or the line of its key within it.
        assert!(
            (line..line + to.matches('\n').count() + 1).contains(&got),
            "{to:?}: line {got}, expected {line}: {e}"
        );
    }
    // A key handed out as if sealed, and a sealed file with a plain answer put back.
    let e = Assignment::parse(KEY, Form::Sealed).unwrap_err();
    assert_eq!(e.field, "salt");
    let leaked = SEALED.replacen("answer_hash = ", "answer = 1\nanswer_hash = ", 1);
    let e = Assignment::parse(&leaked, Form::Sealed).unwrap_err();
    assert_eq!(e.field, "task[2].answer");
    assert!(e.line.is_some());
}

/// A hand-in: the course calls, the prediction, and one attempt at each challenge and break
/// task, winning or not; `claims` is what it says about winning.
fn hand_in(student: &str, right: bool, claims: bool) -> String {
    let (first, last, choice) = if right { (2, 4, 1) } else { (1, 3, 2) };
    let (pause_ms, fenced_ms) = if right {
        (35_000, 12_000)
    } else {
        (2_000, 2_000)
    };
    format!(
        r#"version = 1
student = "{student}"
assignment = "Week 6: the lock that lies"

[[answer]]
task = "lease"
first = {first}
final = {last}

[[answer]]
task = "fencing"
first = 1
final = {fencing}

[[answer]]
task = "predict-fenced"
choice = {choice}

[[answer]]
task = "longer-lease"
won = {claims}
fault = [{{ at_ms = 1000, kind = "pause", node = "A", for_ms = {pause_ms} }}]

[[answer]]
task = "fenced-holds"
won = false
fault = [{{ at_ms = 1000, kind = "pause", node = "A", for_ms = {fenced_ms} }}]

[[answer]]
task = "break-owner-token"
won = {claims}
fault = [{{ at_ms = 1000, kind = "pause", node = "A", for_ms = {pause_ms} }}]
"#,
        fencing = if right { 3 } else { 4 },
    )
}

#[test]
fn hand_ins_are_graded_by_re_running_them() {
    let a = sealed();
    let full = assignment::grade(&a, &HandIn::parse(&hand_in("Ada", true, true), &a).unwrap());
    // Every task but the impossible one.
    assert_eq!(full.score(), full.max_score() - 1.0, "{full:#?}");
    let none = assignment::grade(
        &a,
        &HandIn::parse(&hand_in("Bo", false, false), &a).unwrap(),
    );
    assert_eq!(none.score(), 0.0, "{none:#?}");
    let liar = assignment::grade(&a, &HandIn::parse(&hand_in("Cy", false, true), &a).unwrap());
    let lease = liar
        .tasks
        .iter()
        .find(|t| t.task == "longer-lease")
        .unwrap();
    assert_eq!(lease.score, 0.0);
    assert!(
        lease
            .output
            .contains("says it won; the re-run says it did not"),
        "{}",
        lease.output
    );
    let predicted = &full.tasks[2];
    assert!(
        predicted
            .output
            .contains("right. The resource keeps the highest"),
        "{}",
        predicted.output
    );
}

#[test]
fn a_bad_hand_in_names_the_field_and_line() {
    let a = sealed();
    let good = hand_in("Ada", true, true);
    for (from, to, field) in [
        ("task = \"lease\"", "task = \"leases\"", "answer[0].task"),
        ("final = 4", "final = 5", "answer[0].final"),
        ("choice = 1", "choice = 1\nfirst = 1", "answer[2].first"),
        (
            "node = \"A\", for_ms = 35000",
            "node = \"Z\", for_ms = 35000",
            "answer[3].fault[0].node",
        ),
        ("student = \"Ada\"", "student = 7", "student"),
    ] {
        let bad = good.replacen(from, to, 1);
        let e = HandIn::parse(&bad, &a).unwrap_err();
        assert_eq!(e.field, field, "{to:?}: {e}");
        assert!(e.line.is_some(), "{e}");
    }
}

/// Writes 30 hand-ins into `dir`: 12 winning, 16 losing, one losing that claims its wins,
/// one corrupt. Returns the file names of the one that lies and the corrupt one.
fn class(dir: &Path) -> (String, String) {
    for i in 0..28 {
        let text = hand_in(&format!("Student {i:02}"), i % 7 < 3, i % 7 < 3);
        std::fs::write(dir.join(format!("s{i:02}.toml")), text).unwrap();
    }
    std::fs::write(dir.join("s28.toml"), hand_in("Liar", false, true)).unwrap();
    let corrupt = hand_in("Broken", true, true).replacen("final = 4", "final = [4", 1);
    std::fs::write(dir.join("s29.toml"), corrupt).unwrap();
    ("s28".to_string(), "s29.toml".to_string())
}

#[test]
fn grade_writes_the_sheet_and_gradescope_results_for_a_class() {
    let dir = tempfile::tempdir().unwrap();
    let (liar, corrupt) = class(dir.path());
    let mut files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 30);
    let out = dir.path().join("grades");
    let run = Command::new(env!("CARGO_BIN_EXE_locksim"))
        .arg("grade")
        .arg("--assignment")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/assignment.toml"))
        .arg("--out")
        .arg(&out)
        .args(&files)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        run.status.code(),
        Some(2),
        "the corrupt one: {stdout}{stderr}"
    );
    // The corrupt one is named with its line, and nothing panicked.
    assert!(
        stderr.contains(&format!(
            "{corrupt}:10:1: answer[0]: this is not valid TOML"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stdout.contains("graded 29 hand-in(s) of 30: mean") && stdout.contains("1 invalid"),
        "{stdout}"
    );

    let sheet = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(sheet.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "student",
            "file",
            "lease",
            "fencing",
            "predict-fenced",
            "longer-lease",
            "fenced-holds",
            "break-owner-token",
            "total",
            "max"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 29, "one row per valid hand-in");
    let winners = rows.iter().filter(|r| &r[8] == "8").count();
    assert_eq!(winners, 12);
    assert!(rows.iter().all(|r| &r[9] == "9"));
    let liar_row = rows.iter().find(|r| r[1] == *liar).expect("the liar's row");
    assert_eq!(&liar_row[5], "0", "a claimed win not earned is lost");
    assert_eq!(&liar_row[7], "0");

    // Gradescope's autograder specification: top-level score and tests, each test with a
    // name, score, max_score, output and visibility.
    let json = std::fs::read_to_string(out.join("results").join(format!("{liar}.json"))).unwrap();
    let results: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(results["score"], 0.0);
    let tests = results["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 6);
    for test in tests {
        for key in ["name", "output", "visibility", "status"] {
            assert!(test[key].is_string(), "{key} in {test}");
        }
        assert!(test["score"].is_number() && test["max_score"].is_number());
        assert!(
            ["visible", "hidden", "after_due_date", "after_published"]
                .contains(&test["visibility"].as_str().unwrap())
        );
    }
    assert_eq!(tests[3]["max_score"], 2.0);
    assert!(
        tests[3]["output"]
            .as_str()
            .unwrap()
            .contains("Re-run on seed")
    );
}

#[test]
fn one_hand_in_gives_one_results_json() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ada.toml");
    std::fs::write(&file, hand_in("Ada", true, true)).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_locksim"))
        .args(["grade", "--assignment"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/assignment.toml"))
        .arg("--out")
        .arg(dir.path())
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("results.json")).unwrap())
            .unwrap();
    assert_eq!(results["score"], 8.0);
}

#[test]
fn the_readme_hand_in_reads_and_is_graded() {
    let readme = include_str!("../README.md");
    let section = &readme[readme.find("### Hand-ins").expect("the section")..];
    let start = section.find("```toml\n").expect("its example") + "```toml\n".len();
    let example = &section[start..start + section[start..].find("```").unwrap()];
    let a = sealed();
    let graded = assignment::grade(&a, &HandIn::parse(example, &a).expect("it reads"));
    // The fencing call, the prediction and the challenge: 2 + 1 + 2 points.
    assert_eq!(graded.score(), 5.0, "{graded:#?}");
}

#[test]
fn a_teachers_own_scenario_is_a_design() {
    let scenario = include_str!("../assets/scenarios/step5-pause-unfenced.toml");
    assert!(!scenario.contains("'''"));
    let key = format!(
        "version = 1\ntitle = \"Own design\"\n\n[[task]]\nid = \"own\"\nkind = \"challenge\"\n\
         goal = [\"stale_write\"]\nbudget = {{ faults = 1, kinds = {{ pause = 1 }} }}\n\
         solution = [{{ at_ms = 1000, kind = \"pause\", node = \"A\", for_ms = 12000 }}]\n\
         scenario = '''\n{scenario}'''\n"
    );
    let sealed = assignment::seal(&key).expect("it seals");
    assert!(sealed.contains("Paused past the lease, no fencing"));
    let bad = key.replace("until_ms = 20000", "until_ms = 0");
    assert_ne!(bad, key);
    let e = assignment::seal(&bad).unwrap_err();
    assert_eq!(e.field, "task[0].scenario");
    assert!(e.message.contains("until_ms"), "{e}");
}
