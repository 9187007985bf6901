//! The app driven headless through its accessibility tree (egui_kittest): the course walked
//! by clicking what a learner clicks, keys pressed, progress saved and restored.

use crate::support::drive::{click, go_to_step, press, settle};
use crate::support::memory::Memory;
use crate::support::screen::{shows, shows_exactly};

use eframe::egui::{self, Key};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use locksim::app::LocksimApp;
use locksim::course::{Grading, STEPS};
use locksim::scenario::FaultKind;

/// The window size the desktop app opens at.
const WINDOW: [f32; 2] = [1280.0, 800.0];

/// A harness showing `app`. Runs play (and ask for repaints) until they end, so frames are
/// stepped by count rather than "until idle".
fn harness(app: LocksimApp) -> Harness<'static, LocksimApp> {
    let mut h = Harness::builder()
        .with_size(WINDOW)
        .build_ui_state(|ui, app: &mut LocksimApp| app.show(ui), app);
    settle(&mut h);
    h
}

/// Whether an option button carries its "right" or "wrong" chip (at the end of its label).
fn chip_shows(h: &Harness<'_, LocksimApp>) -> bool {
    h.query_all_by(|node| {
        node.label()
            .is_some_and(|l| l.trim_end().ends_with(" right") || l.trim_end().ends_with(" wrong"))
    })
    .next()
    .is_some()
}

/// Clicks option `i` of step `n` by its text, then skips its run to the end.
fn choose_and_watch(h: &mut Harness<'_, LocksimApp>, n: usize, i: usize) {
    h.get_by_label_contains(STEPS[n].options[i].label).click();
    settle(h);
    press(h, Key::End);
}

fn fresh() -> Harness<'static, LocksimApp> {
    harness(LocksimApp::restore(None))
}

/// The index in `STEPS` of the step numbered `number`.
fn step(number: &str) -> usize {
    STEPS.iter().position(|s| s.number == number).unwrap()
}

/// The index of `STEPS[n]`'s right call.
fn right_of(n: usize) -> usize {
    STEPS[n].options.iter().position(|c| c.right).unwrap()
}

#[test]
fn the_whole_course_walked_by_clicking() {
    let mut h = fresh();
    assert!(
        shows(&h, "Locks across machines"),
        "the app opens on the intro"
    );
    click(&mut h, "Begin");
    for (n, step) in STEPS.iter().enumerate() {
        let no = step.number;
        assert!(shows(&h, step.question), "step {no}: the question");
        assert!(
            !shows(&h, step.explanation),
            "step {no}: no explanation before a choice"
        );
        if step.grading == Grading::Framing {
            // No right or wrong: the answer's run, and what it means for that answer.
            choose_and_watch(&mut h, n, 1);
            assert!(shows_exactly(&h, "UNSAFE"), "step {no}: the silent failure");
            assert!(shows(&h, "What this run means for you"), "step {no}");
            assert!(!shows(&h, "right call"), "step {no}: no right call");
            assert!(!chip_shows(&h), "step {no}: no chip");
        } else {
            // A wrong call first: it is played out and fails, and only then is it marked.
            let wrong = step.options.iter().position(|c| !c.right).unwrap();
            choose_and_watch(&mut h, n, wrong);
            if matches!(
                step.grading,
                Grading::Throughput | Grading::LostWork | Grading::Latency
            ) {
                // A wrong call here may be safe and live: its cost is work or waiting, which
                // its feedback tells; the panel counts the work done.
                assert!(
                    shows(&h, "critical sections done by"),
                    "step {no}: the price is shown as work done"
                );
            } else {
                assert!(
                    shows_exactly(&h, "UNSAFE") || shows_exactly(&h, "NOT LIVE"),
                    "step {no}: the wrong call fails"
                );
            }
            assert!(shows(&h, "Not the right call"), "step {no}");
            assert!(shows(&h, step.options[wrong].feedback), "step {no}");
            // Then the right one: it holds up, or, for the diagnosis, shows both flaws.
            choose_and_watch(&mut h, n, right_of(n));
            if step.grading == Grading::Diagnosis {
                assert!(shows_exactly(&h, "UNSAFE") && shows_exactly(&h, "NOT LIVE"));
            } else {
                assert!(
                    shows_exactly(&h, "SAFE"),
                    "step {no}: the right call is safe"
                );
                assert!(shows_exactly(&h, "LIVE"), "step {no}: and live");
            }
            assert!(shows(&h, "The right call"), "step {no}");
        }
        assert!(shows(&h, step.explanation), "step {no}: explained");
        assert!(shows(&h, step.insight.0), "step {no}: insight");
        let next = if n + 1 == STEPS.len() {
            "Recap →"
        } else {
            "Next step →"
        };
        click(&mut h, next);
    }
    assert!(shows(&h, "The lock you built"));
    assert!(shows(&h, "The ladder of fixes"));
    assert!(shows_exactly(
        &h,
        "Wrong first time, then found the right call"
    ));
    assert!(
        shows(&h, "You said: It keeps data correct"),
        "the recap returns to what the lock is for"
    );
    assert!(
        !shows(&h, "Right first time") && !shows(&h, "Not answered yet"),
        "every first call was wrong, and every step was then got right"
    );
}

#[test]
fn step5_a_wrong_call_is_unsafe_and_the_fence_is_safe() {
    let mut h = fresh();
    go_to_step(&mut h, step("5"));
    // "A checks its lease is still valid right before writing".
    h.get_by_label_contains("A checks its lease").click();
    settle(&mut h);
    assert!(shows(&h, "Playing…"), "the run plays from the start");
    assert!(
        !shows_exactly(&h, "UNSAFE") && !shows(&h, "Not the right call"),
        "the verdict and the mark wait for the end of the run"
    );
    press(&mut h, Key::End);
    assert!(shows_exactly(&h, "UNSAFE"));
    assert!(shows(&h, "stale_write"), "the violation is named");
    assert!(shows(&h, "Watch A's bar outlive its lease"));

    h.get_by_label_contains("Number each grant").click();
    settle(&mut h);
    press(&mut h, Key::End);
    assert!(shows_exactly(&h, "SAFE"));
    assert!(!shows_exactly(&h, "UNSAFE"));
    assert!(shows(&h, "the resource refuse its write"));
}

/// The line above a step's title names its topic only once a call has been made: before,
/// "STEP 5 · FENCING TOKENS" would hand the learner the answer.
#[test]
fn the_topic_waits_for_the_first_call() {
    let mut h = fresh();
    for number in ["5", "7a"] {
        let n = step(number);
        go_to_step(&mut h, n);
        let topic = format!("STEP {number} · {}", STEPS[n].topic.to_uppercase());
        assert!(
            shows_exactly(&h, &format!("STEP {number}")),
            "step {number}"
        );
        assert!(
            !shows(&h, &topic),
            "step {number}: the topic before any call"
        );
        let wrong = STEPS[n].options.iter().position(|c| !c.right).unwrap();
        choose_and_watch(&mut h, n, wrong);
        assert!(
            shows_exactly(&h, &topic),
            "step {number}: the topic after the call"
        );
    }
}

#[test]
fn digits_pick_options_and_space_pauses() {
    let mut h = fresh();
    go_to_step(&mut h, step("5"));
    press(&mut h, Key::Num5);
    assert!(shows(&h, "Your call: The owner token from step 4"));
    assert!(shows(&h, "Playing…"));
    press(&mut h, Key::Space);
    let playhead = |h: &Harness<'_, LocksimApp>| {
        h.query_all_by(|n| n.value().is_some_and(|v| v.starts_with("Playing…")))
            .next()
            .and_then(|n| n.value())
    };
    let before = playhead(&h);
    settle(&mut h);
    let after = playhead(&h);
    assert_eq!(before, after, "Space paused the playhead");
    press(&mut h, Key::Num3);
    assert!(shows(&h, "Your call: Number each grant"));
    press(&mut h, Key::Num9);
    assert!(
        shows(&h, "Your call: Number each grant"),
        "a digit with no option does nothing"
    );
}

#[test]
fn page_keys_walk_the_course() {
    let mut h = fresh();
    press(&mut h, Key::PageDown);
    assert!(shows(&h, STEPS[0].question));
    press(&mut h, Key::PageDown);
    assert!(shows(&h, STEPS[1].question));
    press(&mut h, Key::PageUp);
    press(&mut h, Key::PageUp);
    assert!(shows(&h, "Locks across machines"));
    press(&mut h, Key::PageUp);
    assert!(
        shows(&h, "Locks across machines"),
        "nothing before the intro"
    );
}

#[test]
fn presenter_mode_hides_the_answer_until_revealed() {
    let mut h = fresh();
    click(&mut h, "Presenter");
    let n = step("2");
    go_to_step(&mut h, n);
    choose_and_watch(&mut h, n, right_of(n));
    assert!(
        shows_exactly(&h, "SAFE"),
        "the run and its verdict still show"
    );
    assert!(!shows(&h, STEPS[n].explanation), "the answer waits");
    assert!(!shows(&h, "right call"), "no feedback gives it away");
    assert!(!chip_shows(&h), "no chip gives it away");
    click(&mut h, "Reveal the answer  (R)");
    assert!(shows(&h, STEPS[n].explanation));
    assert!(chip_shows(&h), "the chip shows");
    assert!(shows(&h, STEPS[n].insight.1));
}

#[test]
fn on_a_phone_the_keys_and_presenter_mode_work_in_one_column() {
    let mut h = Harness::builder()
        .with_size([390.0, 844.0])
        .with_pixels_per_point(3.0)
        .build_ui_state(
            |ui, app: &mut LocksimApp| app.show(ui),
            LocksimApp::restore(None),
        );
    settle(&mut h);
    click(&mut h, "Presenter");
    let n = step("5");
    go_to_step(&mut h, n);
    assert!(
        shows(&h, "Make your call above"),
        "the run's place says where"
    );
    press(&mut h, Key::Num3);
    assert!(shows(&h, "Your call: Number each grant"));
    assert!(shows(&h, STEPS[n].options[4].label), "every option stays");
    press(&mut h, Key::End);
    assert!(shows_exactly(&h, "SAFE"));
    assert!(!shows(&h, STEPS[n].explanation), "the answer waits");
    press(&mut h, Key::R);
    assert!(shows(&h, STEPS[n].explanation));
    press(&mut h, Key::PageDown);
    assert!(shows(&h, STEPS[n + 1].question));
}

#[test]
fn typing_in_a_text_field_triggers_no_shortcut() {
    let mut h = Harness::builder().with_size(WINDOW).build_ui_state(
        |ui, (app, text): &mut (LocksimApp, String)| {
            // A text field the learner types into, as the sandbox will have.
            egui::Panel::top("typing").show(ui, |ui| {
                ui.add(egui::TextEdit::singleline(text).hint_text("type here"));
            });
            app.show(ui);
        },
        (LocksimApp::restore(None), String::new()),
    );
    h.run_steps(2);
    h.get_by_label("Begin").click();
    h.run_steps(2);
    h.get_by_role(egui::Role::TextInput).focus();
    h.run_steps(2);
    h.key_press(Key::Num2);
    h.event(egui::Event::Text("2".to_string()));
    h.key_press(Key::PageDown);
    h.run_steps(3);
    assert_eq!(h.state().1, "2", "the digit went into the field");
    assert!(
        h.query_all_by(|n| n.value().is_some_and(|v| v.contains(STEPS[0].question)))
            .next()
            .is_some(),
        "Page Down did not turn the page"
    );
    assert!(
        h.query_all_by(|n| n.value().is_some_and(|v| v.starts_with("Your call:")))
            .next()
            .is_none(),
        "2 did not pick an option"
    );
}

#[test]
fn progress_survives_a_restart() {
    let mut h = fresh();
    click(&mut h, "Dark");
    let n = step("6");
    go_to_step(&mut h, n);
    let right = right_of(n);
    choose_and_watch(&mut h, n, right);
    assert!(shows_exactly(&h, "SAFE"));

    let mut storage = Memory::default();
    eframe::App::save(h.state_mut(), &mut storage);
    drop(h);

    let h = harness(LocksimApp::restore(Some(&storage)));
    assert!(shows(&h, STEPS[n].question), "back on step 6");
    assert!(
        shows_exactly(&h, "SAFE") && shows(&h, STEPS[n].explanation),
        "the watched run reopens at its end, with the answer"
    );
    assert!(
        h.query_all_by_label_contains(STEPS[n].options[right].label)
            .any(|n| n
                .accesskit_node()
                .label()
                .is_some_and(|l| l.ends_with(" right "))),
        "the call is still marked"
    );
    assert_eq!(h.ctx.theme(), egui::Theme::Dark, "the theme is kept");
}

#[test]
fn a_save_from_another_version_is_ignored_not_fatal() {
    let mut storage = Memory::default();
    eframe::Storage::set_string(&mut storage, "locksim-progress", "(not: valid".to_string());
    let h = harness(LocksimApp::restore(Some(&storage)));
    assert!(shows(&h, "Locks across machines"), "a fresh start");
}

/// The Sandbox's form, edited and not run, survives leaving the page and a restart; a run
/// edit too, with what it started from.
#[test]
fn the_sandbox_s_edit_survives_leaving_the_page_and_a_restart() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    type_into(&mut h, "ttl_ms", "4321");
    assert_eq!(h.state().sandbox_draft().unwrap().lock.ttl_ms, 4_321);
    click(&mut h, "1");
    click(&mut h, "Sandbox");
    assert_eq!(
        h.state().sandbox_draft().unwrap().lock.ttl_ms,
        4_321,
        "left and back"
    );

    let mut storage = Memory::default();
    eframe::App::save(h.state_mut(), &mut storage);
    drop(h);
    let mut h = harness(LocksimApp::restore(Some(&storage)));
    assert!(h.state().on_tool_page(), "back on the Sandbox");
    assert!(shows(&h, "The form is as you left it last time."));
    assert_eq!(h.state().sandbox_draft().unwrap().lock.ttl_ms, 4_321);
    // "Compare with…" still offers what the edit started from.
    click(&mut h, "Compare with…");
    assert!(
        !h.get_by_label("The scenario this edit started from")
            .accesskit_node()
            .is_disabled(),
        "the form is still an edit of step 5's design"
    );
    h.key_press(Key::Escape);
    settle(&mut h);
    click(&mut h, "Run");
    let mut storage = Memory::default();
    eframe::App::save(h.state_mut(), &mut storage);
    drop(h);
    let h = harness(LocksimApp::restore(Some(&storage)));
    assert_eq!(
        h.state().sandbox_draft().unwrap().lock.ttl_ms,
        4_321,
        "run, then restarted"
    );
}

/// A Sandbox form saved by a damaged record starts on step 5's design and says why.
#[test]
fn a_damaged_sandbox_save_is_told() {
    let mut storage = Memory::default();
    eframe::Storage::set_string(&mut storage, "locksim-sandbox", "(junk".to_string());
    let mut h = harness(LocksimApp::restore(Some(&storage)));
    click(&mut h, "Sandbox");
    assert!(shows(&h, "could not be read"));
    assert!(
        h.state()
            .sandbox_draft()
            .is_some_and(|d| d.name.starts_with("Step 5"))
    );
}

/// A save from a newer course revision is kept as it was: the app starts afresh beside it.
#[test]
fn a_save_from_a_newer_revision_is_not_overwritten() {
    let newer = "(course:99,place:Step(5),dark:true)".to_string();
    let mut storage = Memory::default();
    eframe::Storage::set_string(&mut storage, "locksim-progress", newer.clone());
    let notice = LocksimApp::storage_notice(Some(&storage)).unwrap_or_default();
    assert!(notice.contains("newer locksim"), "{notice}");
    let mut h = harness(LocksimApp::restore(Some(&storage)));
    assert!(shows(&h, "Locks across machines"), "a fresh start");
    let n = step("1");
    go_to_step(&mut h, n);
    eframe::App::save(h.state_mut(), &mut storage);
    assert_eq!(storage.0.get("locksim-progress"), Some(&newer));
    let h = harness(LocksimApp::restore(Some(&storage)));
    assert!(
        shows(&h, STEPS[n].question),
        "this revision carries on from its own save"
    );
}

#[test]
fn more_to_explore_plays_a_steps_extra_scenario() {
    let mut h = fresh();
    let n = step("5");
    go_to_step(&mut h, n);
    assert!(
        !shows(&h, "More to explore"),
        "offered once a choice has been played out"
    );
    choose_and_watch(&mut h, n, 0);
    click(&mut h, "More to explore (3)");
    click(&mut h, "Fencing only the writes: a lost update");
    press(&mut h, Key::End);
    assert!(
        shows(&h, "Step 5 · Fencing only the writes: a lost update"),
        "its run is on screen"
    );
    assert!(shows(&h, "interleaved_writes"), "the lost update is named");
    assert!(shows_exactly(&h, "UNSAFE"));
    assert!(shows(&h, STEPS[n].explanation), "the answer stays");
}

#[test]
fn the_library_opens_runs_and_hands_scenarios_to_the_sandbox() {
    let mut h = fresh();
    click(&mut h, "Library");
    h.get_all_by_label("Open").next().unwrap().click();
    settle(&mut h);
    assert!(shows(&h, "Playing…"), "the opened scenario runs");
    h.get_all_by_label("Edit").next().unwrap().click();
    settle(&mut h);
    assert!(shows(&h, "Ready to run."), "the sandbox's form holds it");
    click(&mut h, "Run");
    press(&mut h, Key::End);
    assert!(
        shows_exactly(&h, "SAFE") || shows_exactly(&h, "UNSAFE"),
        "and runs it"
    );
}

#[test]
fn the_recap_sends_the_learner_to_break_the_design() {
    let mut h = fresh();
    click(&mut h, "Recap");
    click(&mut h, "Break it →");
    assert!(
        shows(&h, "Each change is made to this scenario"),
        "the Break it panel is open"
    );
    press(&mut h, Key::End);
    assert!(
        shows(&h, "Recap · The lock you built"),
        "on the design the course built"
    );
    assert!(shows_exactly(&h, "SAFE"));
    assert!(!shows(&h, "Changed by Break it"), "nothing changed yet");
    click(&mut h, "Remove fencing");
    press(&mut h, Key::End);
    assert!(
        shows_exactly(&h, "UNSAFE"),
        "without fencing the paused holder's write lands"
    );
    assert!(
        shows(
            &h,
            "Changed by Break it: the resource stopped checking fencing tokens"
        ),
        "the header says the run is not the scenario as written"
    );
}

/// The scenario a link to the current view carries, parsed back as the app would read it.
fn linked_scenario(h: &Harness<'_, LocksimApp>) -> locksim::scenario::Scenario {
    let link = h.state().link();
    locksim::view::link::decode(&link)
        .expect("the app reads its own link")
        .scenario
        .expect("the link carries the scenario on screen")
}

#[test]
fn a_break_it_change_is_one_new_scenario_that_verifies_wherever_it_goes() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    let written = linked_scenario(&h);
    click(&mut h, "Break it");
    press(&mut h, Key::End);
    click(&mut h, "Remove fencing");
    press(&mut h, Key::End);
    assert!(shows_exactly(&h, "UNSAFE"));

    let shared = linked_scenario(&h);
    assert_eq!(shared.name, format!("Edited from “{}”", written.name));
    assert!(
        shows(&h, &shared.name),
        "the run's title says it is an edit"
    );
    assert!(
        shared
            .description
            .contains("resource.fencing: true → false"),
        "{}",
        shared.description
    );
    assert_eq!(shared.source, written.source);
    // The file a learner saves or copies is this scenario: it reads back the same, and its
    // `[expect]` is what its own run gives, where the original's said safe.
    let saved = locksim::scenario::parse(&locksim::scenario::to_toml(&shared)).unwrap();
    assert_eq!(saved, shared);
    assert_eq!(written.expect.as_ref().unwrap().safe, Some(true));
    let run = locksim::run(&saved, saved.seed);
    assert!(!run.verdict.safe);
    let expect = saved
        .expect
        .as_ref()
        .expect("the edit states its own verdict");
    assert_eq!(run.verdict.unmet(expect), Vec::<String>::new());
    assert_eq!(expect.safe, Some(false));

    // The form holds the same scenario: running it keeps the change, and says nothing differs.
    assert_eq!(h.state().sandbox_draft(), Some(&shared));
    click(&mut h, "Edit");
    assert!(!shows(&h, "The form differs from the run shown"));
    click(&mut h, "Run");
    press(&mut h, Key::End);
    assert!(shows_exactly(&h, "UNSAFE"), "Run did not drop the change");
    assert_eq!(linked_scenario(&h), shared);

    // Undo in Break it puts the scenario as written back, its title and [expect] with it.
    click(&mut h, "Break it");
    click(&mut h, "Undo");
    press(&mut h, Key::End);
    assert!(shows_exactly(&h, "SAFE"));
    assert_eq!(linked_scenario(&h), written);
    assert_eq!(h.state().sandbox_draft(), Some(&written));
}

#[test]
fn across_seeds_says_its_runs_are_of_the_scenario_break_it_changed() {
    let mut h = fresh();
    // The sandbox opens on step 5's fencing design.
    click(&mut h, "Sandbox");
    click(&mut h, "Break it");
    press(&mut h, Key::End);
    click(&mut h, "Remove fencing");
    press(&mut h, Key::End);
    click(&mut h, "Across seeds");
    click(&mut h, "Seeds: 100");
    h.get_all_by_label("Run").last().unwrap().click();
    let mut frames = 0;
    while !shows_exactly(&h, "100 seeds") && frames < 20_000 {
        h.run_steps(10);
        frames += 10;
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(shows_exactly(&h, "100 seeds"), "the sweep ended");
    assert!(
        shows(
            &h,
            "Fencing token: the resource turns the stale holder away”\" changed by Break it \
             (the resource stopped checking fencing tokens), seeds 1 to 100."
        ),
        "the runs are not of the scenario as written"
    );
    // The fencing rung checks tokens again: its runs are safe and live, only the lock
    // overlapped in them. That is no bad run, and its button says what it opens.
    let opens = |row: &str| -> Vec<String> {
        let of = format!(" of {row}");
        h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("open seed ")))
            .filter_map(|n| n.accesskit_node().label())
            .filter(|l| l.contains(&of))
            .collect()
    };
    let fencing = opens("fencing");
    assert_eq!(fencing.len(), 1, "{fencing:?}");
    assert!(
        fencing[0].ends_with(" of fencing, its first overlap; none of its runs was bad"),
        "{fencing:?}"
    );
    // A run of the changed scenario opened from the table is told as changed too.
    let this = opens("this scenario");
    assert_eq!(this, ["open seed 1 of this scenario"]);
    click(&mut h, &this[0]);
    press(&mut h, Key::End);
    assert!(shows_exactly(&h, "UNSAFE"));
    assert!(shows(
        &h,
        "Changed by Break it: the resource stopped checking fencing tokens"
    ));
}

#[test]
fn the_legend_says_attempt_ids_are_not_fencing_tokens() {
    let mut h = fresh();
    let n = step("5");
    go_to_step(&mut h, n);
    choose_and_watch(&mut h, n, right_of(n));
    assert!(shows(&h, locksim::app::timeline::ATTEMPT_NOTE));
}

#[test]
fn a_run_without_fencing_tokens_does_not_explain_one() {
    let mut h = fresh();
    let n = step("4");
    go_to_step(&mut h, n);
    choose_and_watch(&mut h, n, right_of(n));
    assert!(shows_exactly(
        &h,
        locksim::app::timeline::ATTEMPT_NOTE_UNFENCED
    ));
    assert!(!shows(&h, "\"fence 4\""));
}

#[test]
fn across_seeds_shows_each_rungs_cost_beside_its_safety_even_on_a_phone() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    click(&mut h, "Across seeds");
    click(&mut h, "Seeds: 100");
    h.get_all_by_label("Run").last().unwrap().click();
    // The sweep runs on a thread of its own; the page counts what it sends each frame.
    let mut frames = 0;
    while !shows_exactly(&h, "100 seeds") && frames < 20_000 {
        h.run_steps(10);
        frames += 10;
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(shows_exactly(&h, "100 seeds"), "the sweep ended");
    // Each row's "open seed" button is named with its row: rows often share a first bad seed.
    let opens: Vec<String> = h
        .query_all_by(|n| n.label().is_some_and(|l| l.starts_with("open seed ")))
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    assert!(!opens.is_empty(), "some rung fails");
    let mut distinct = opens.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), opens.len(), "{opens:?}");
    assert!(
        opens.iter().all(|o| o.contains(" of ")),
        "each says its row: {opens:?}"
    );
    // A screen reader hears the outcome after the run's own words.
    let spoken = h.state().announcement();
    assert!(
        spoken.contains("\nAcross seeds, 100 seeds: exclusive in "),
        "{spoken}"
    );
    for width in [WINDOW[0], 320.0] {
        h.set_size(egui::vec2(width, WINDOW[1]));
        settle(&mut h);
        for heading in [
            "Safety vs cost",
            "acquire p50 / p99",
            "sections/s",
            "available",
        ] {
            assert!(shows(&h, heading), "{heading} at {width} points");
        }
    }
}

/// Steps frames until `text` shows (a search ending), at most `frames` of them, with a
/// moment between every ten for the search's own thread.
fn wait_for(h: &mut Harness<'_, LocksimApp>, text: &str, frames: usize) -> bool {
    let mut waited = 0;
    while !shows(h, text) && waited < frames {
        h.run_steps(10);
        waited += 10;
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    shows(h, text)
}

#[test]
fn find_a_failure_searches_the_fenced_lock_in_vain_and_says_what_it_tried() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    click(&mut h, "Find a failure");
    assert!(shows(&h, "Draw random fault schedules"));
    click(&mut h, "Search");
    assert!(
        shows(&h, "of 10 000 schedules"),
        "a progress bar while it runs"
    );
    assert!(h.query_by_label("Cancel").is_some(), "and a way to stop it");
    assert!(
        wait_for(&mut h, "None found in 10 000 schedules", 5_000),
        "the fenced lock survives the whole budget"
    );
    assert!(shows(&h, "evidence, not proof"));
    assert!(
        shows(&h, "Each schedule had 1 to 3 faults"),
        "it says what it tried"
    );
    assert!(
        shows(&h, "Step 5 · Fencing token"),
        "the fenced run stays on screen"
    );
}

#[test]
fn find_a_failure_breaks_redlock_and_shows_the_shrunk_run_on_the_timeline() {
    let mut h = fresh();
    click(&mut h, "Library");
    h.get_by_role(egui::Role::TextInput).focus();
    h.run_steps(2);
    h.event(egui::Event::Text("one node's clock jump".to_string()));
    settle(&mut h);
    h.get_all_by_label("Edit").next().unwrap().click();
    settle(&mut h);
    click(&mut h, "Run");
    click(&mut h, "Find a failure");
    click(&mut h, "Budget: 1 000 schedules");
    click(&mut h, "Search");
    assert!(
        wait_for(&mut h, "Found an unsafe run at schedule", 5_000),
        "Redlock without its faults breaks within 1 000 schedules"
    );
    assert!(shows(&h, "1. at "), "the story is numbered");
    assert!(shows(&h, "double_grant"), "the story ends with what broke");
    press(&mut h, Key::End);
    assert!(
        shows(&h, "Failure found by search in: "),
        "the shrunk run is on the timeline"
    );
    assert!(shows_exactly(&h, "UNSAFE"));
    click(&mut h, "Edit it in the sandbox");
    assert!(
        shows(&h, "Ready to run."),
        "the form holds the counterexample"
    );
}

#[test]
fn a_course_step_offers_to_break_its_right_call() {
    let mut h = fresh();
    let n = step("5");
    go_to_step(&mut h, n);
    assert!(
        !shows(&h, "Break the right call"),
        "offered once the answer is shown"
    );
    choose_and_watch(&mut h, n, right_of(n));
    click(&mut h, "Break the right call");
    assert!(shows(&h, "Draw random fault schedules"), "the search panel");
    assert!(shows(&h, "of 10 000 schedules"), "already searching");
    assert!(
        wait_for(&mut h, "None found in 10 000 schedules", 5_000),
        "the right call holds"
    );
}

#[test]
fn edits_not_yet_run_are_told_apart_from_the_run_shown() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    assert!(shows(&h, "Ready to run."), "the form holds the run shown");
    // Below the fold of the form: clicked through the accessibility tree.
    h.get_by_label("Add worker").click_accesskit();
    settle(&mut h);
    assert_eq!(h.state().sandbox_draft().unwrap().workers.len(), 3);
    assert!(shows(
        &h,
        "The form differs from the run shown; Run to see it."
    ));
    for tab in ["Break it", "Across seeds", "Find a failure"] {
        click(&mut h, tab);
        assert!(
            shows(&h, "Your form edits are not in this run yet."),
            "{tab}"
        );
    }
    click(&mut h, "Run the form's scenario");
    assert!(
        !shows(&h, "Your form edits are not in this run yet"),
        "the edits are run"
    );
    click(&mut h, "Edit");
    assert!(shows(&h, "Ready to run."));
}

/// Types `text` into the number or text field named `label`, replacing what it held (focus
/// selects the field's text), and presses Enter.
fn type_into(h: &mut Harness<'_, LocksimApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    settle(h);
    h.get_by_label(label).type_text(text);
    press(h, Key::Enter);
}

/// Asserts each input is found by its accessible name, with the role given.
fn found_as(h: &Harness<'_, LocksimApp>, inputs: &[(&str, egui::Role)]) {
    for &(label, role) in inputs {
        assert_eq!(
            h.get_by_label(label).accesskit_node().role(),
            role,
            "{label}"
        );
    }
}

/// Whether any input is named by a unit alone, as a number field left to name itself is.
fn named_by_a_unit(h: &Harness<'_, LocksimApp>) -> bool {
    h.query_all_by(|n| matches!(n.label().as_deref(), Some("ms" | "ppm")))
        .next()
        .is_some()
}

#[test]
fn the_sandbox_form_s_fields_are_found_and_typed_into_by_their_labels() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    // Found as a screen reader names them: by the label beside each (the label itself is not
    // what is found), the two ends of a range each by the label and a word of its own.
    found_as(
        &h,
        &[
            ("source", egui::Role::TextInput),
            ("seed", egui::Role::SpinButton),
            ("delay_ms min", egui::Role::SpinButton),
            ("delay_ms max", egui::Role::SpinButton),
            ("design", egui::Role::ComboBox),
            ("reentrant", egui::Role::CheckBox),
            ("ttl_ms", egui::Role::SpinButton),
            ("transport", egui::Role::ComboBox),
        ],
    );
    // Every worker's fields too, one of each per worker.
    let workers = h.state().sandbox_draft().unwrap().workers.len();
    for label in ["start_ms", "work_ms", "clock_drift_ppm", "lease_clock"] {
        assert_eq!(h.get_all_by_label(label).count(), workers, "{label}");
    }
    assert!(
        !named_by_a_unit(&h),
        "no field is named just \"ms\" or \"ppm\""
    );
    // Focus selects the field's text, so typing replaces it.
    h.get_by_label("ttl_ms").focus();
    settle(&mut h);
    h.get_by_label("ttl_ms").type_text("4321");
    h.key_press(Key::Enter);
    settle(&mut h);
    assert_eq!(h.state().sandbox_draft().unwrap().lock.ttl_ms, 4_321);
    assert!(shows(
        &h,
        "The form differs from the run shown; Run to see it."
    ));
}

/// Where the left panel ends, points: the leftmost splitter taller than it is wide is its
/// resize handle.
fn left_panel_edge(h: &Harness<'_, LocksimApp>) -> f64 {
    let pixels_per_point = f64::from(h.ctx.pixels_per_point());
    h.query_all_by(|n| n.role() == egui::Role::Splitter)
        .filter_map(|n| n.accesskit_node().bounding_box())
        .filter(|b| b.height() > b.width())
        .map(|b| b.x0 / pixels_per_point)
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn a_huge_number_in_the_form_is_shown_as_kept_and_its_error_wraps_in_the_panel() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    let edge = left_panel_edge(&h);
    assert!(
        edge.is_finite() && edge < f64::from(WINDOW[0]) / 2.0,
        "{edge}"
    );
    type_into(&mut h, "until_ms", "99999999999999999999999");
    settle(&mut h);
    // The field shows what the draft holds, and the error echoes the same number.
    let kept = h.state().sandbox_draft().unwrap().until_ms;
    let field = h.get_by_label("until_ms").value().unwrap_or_default();
    assert_eq!(
        field,
        format!("{kept} ms"),
        "the field shows the value kept"
    );
    assert!(shows(&h, &format!("got {kept}")), "the error echoes {kept}");
    // (A wrapped message is a node per line.)
    for text in h
        .query_all_by(|n| n.value().is_some())
        .filter_map(|n| n.value())
    {
        for (at, _) in text.match_indices("got ") {
            let number: String = text[at + 4..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            assert!(
                number.is_empty() || number == kept.to_string(),
                "{text:?} echoes a number other than the field's {field:?}"
            );
        }
    }
    // The message under the field wraps inside the panel, which keeps its width.
    assert_eq!(
        left_panel_edge(&h),
        edge,
        "an error does not widen the panel"
    );
    let pixels_per_point = f64::from(h.ctx.pixels_per_point());
    for node in h.query_all_by(|n| n.value().is_some_and(|v| v.contains("must be from 1 to"))) {
        let b = node.accesskit_node().bounding_box().unwrap();
        assert!(
            b.x1 / pixels_per_point <= edge + 1.0,
            "{:?} ends at {} points, past the panel's edge at {edge}",
            node.value(),
            b.x1 / pixels_per_point
        );
    }
    type_into(&mut h, "until_ms", "20000");
    settle(&mut h);
    assert_eq!(h.state().sandbox_draft().unwrap().until_ms, 20_000);
    assert!(shows(&h, "Ready to run."));
    assert_eq!(left_panel_edge(&h), edge, "the panel's width is as it was");
}

#[test]
fn a_refused_paste_is_the_sandbox_s_one_status() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    click(&mut h, "TOML");
    let toml = h
        .query_all_by(|n| {
            n.role() == egui::Role::MultilineTextInput && n.label().as_deref() == Some("TOML")
        })
        .next()
        .expect("the TOML box");
    toml.focus();
    settle(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("not a scenario".to_string()));
    settle(&mut h);
    h.get_by_label("Use this TOML").click_accesskit();
    settle(&mut h);
    assert!(shows(&h, "That TOML is not a scenario yet"));
    assert!(
        !shows(&h, "Ready to run."),
        "no all-clear beside the refusal"
    );
    // An edit of the form makes the refusal old news: the form's own status is back.
    type_into(&mut h, "ttl_ms", "4321");
    assert!(!shows(&h, "That TOML is not a scenario yet"));
    assert!(shows(
        &h,
        "The form differs from the run shown; Run to see it."
    ));
}

/// Turns the mouse wheel by `dy` points (negative: to see what is below) with the pointer at
/// `at`, a notch a frame, `notches` times.
fn wheel(h: &mut Harness<'_, LocksimApp>, at: egui::Pos2, dy: f32, notches: usize) {
    for _ in 0..notches {
        h.hover_at(at);
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, dy),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.run_steps(2);
    }
    settle(h);
}

/// The top and bottom of the node named `label`, points.
fn top_and_bottom(h: &Harness<'_, LocksimApp>, label: &str) -> (f64, f64) {
    let pixels_per_point = f64::from(h.ctx.pixels_per_point());
    let b = h
        .get_by_label(label)
        .accesskit_node()
        .bounding_box()
        .unwrap();
    (b.y0 / pixels_per_point, b.y1 / pixels_per_point)
}

#[test]
fn a_long_toml_box_scrolls_its_text_and_the_wheel_still_reaches_its_buttons() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    click(&mut h, "TOML");
    let text: String = (1..=300).map(|n| format!("# line {n}\n")).collect();
    h.query_all_by(|n| {
        n.role() == egui::Role::MultilineTextInput && n.label().as_deref() == Some("TOML")
    })
    .next()
    .unwrap()
    .focus();
    settle(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text(text));
    settle(&mut h);
    // Its buttons stay by it: the text scrolls inside a box of its own height.
    let (_, top) = top_and_bottom(&h, "Run");
    let (use_top, _) = top_and_bottom(&h, "Use this TOML");
    assert!(use_top > top, "Use this TOML is in view");
    let shown = top_and_bottom(&h, "Use this TOML");
    let (next, _) = top_and_bottom(&h, "Scenario");
    assert!(
        next - shown.1 <= f64::from(WINDOW[1]) / 2.0,
        "the box is {} points tall",
        next - shown.1
    );
    // The wheel over the box scrolls its text, then the form, and back.
    let pointer = egui::pos2(180.0, shown.1 as f32 + 80.0);
    wheel(&mut h, pointer, -300.0, 40);
    let (_, use_bottom) = top_and_bottom(&h, "Use this TOML");
    assert!(use_bottom < top, "the form scrolled on past the box");
    wheel(&mut h, pointer, 300.0, 40);
    let (use_top, _) = top_and_bottom(&h, "Use this TOML");
    assert!(
        use_top > top,
        "the wheel brings the box's buttons back: {use_top} under {top}"
    );
}

#[test]
fn break_it_s_fields_are_found_and_typed_into_by_their_names() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    click(&mut h, "Break it");
    // Named by the words around each ("Pause for"), or by what it is where none say it.
    found_as(
        &h,
        &[
            ("At (when each fault below starts)", egui::Role::SpinButton),
            ("restart it after", egui::Role::CheckBox),
            ("restart the store after", egui::Role::SpinButton),
            ("worker to pause or cut off", egui::Role::ComboBox),
            ("Pause for", egui::Role::SpinButton),
            ("heal after", egui::Role::CheckBox),
            ("heal the cut after", egui::Role::SpinButton),
            ("store node to jump or drift", egui::Role::ComboBox),
            ("Jump a store clock by", egui::Role::SpinButton),
            ("Drift a store clock by", egui::Role::SpinButton),
        ],
    );
    // The playback bar's speed: the slider and the number beside it, one name for both.
    for role in [egui::Role::Slider, egui::Role::SpinButton] {
        h.get_by_role_and_label(role, "speed");
    }
    assert!(
        !named_by_a_unit(&h),
        "no field is named just \"ms\" or \"ppm\""
    );
    type_into(&mut h, "At (when each fault below starts)", "2500");
    type_into(&mut h, "Pause for", "1234");
    click(&mut h, "Pause");
    assert!(
        shows(&h, "1. paused A at 2 500 ms for 1 234 ms"),
        "the pause made is the one typed"
    );
}

#[test]
fn find_a_failure_s_settings_are_found_and_set_by_their_names() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    click(&mut h, "Find a failure");
    // Each choice by its line's words and its own: "unsafe" alone says not what is chosen.
    found_as(
        &h,
        &[
            ("Look for a run that is unsafe", egui::Role::RadioButton),
            ("Look for a run that is not live", egui::Role::RadioButton),
            ("Faults per schedule: up to", egui::Role::SpinButton),
            ("Budget: 1 000 schedules", egui::Role::RadioButton),
            ("Budget: 10 000 schedules", egui::Role::RadioButton),
            ("Leave out the scenario's own faults", egui::Role::CheckBox),
        ],
    );
    type_into(&mut h, "Faults per schedule: up to", "2");
    click(&mut h, "Budget: 1 000 schedules");
    click(&mut h, "Search");
    assert!(
        wait_for(&mut h, "None found in 1 000 schedules", 5_000),
        "the budget chosen is the one searched"
    );
    assert!(
        shows(&h, "Each schedule had 1 to 2 faults"),
        "and the faults per schedule typed"
    );
}

#[test]
fn across_seeds_sizes_are_found_and_chosen_by_their_names() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    click(&mut h, "Across seeds");
    let chosen = |h: &Harness<'_, LocksimApp>, size: &str| {
        let name = format!("Seeds: {size}");
        let node = h.get_by_label(&name);
        assert_eq!(node.accesskit_node().role(), egui::Role::RadioButton);
        node.accesskit_node().toggled() == Some(egui::accesskit::Toggled::True)
    };
    assert!(chosen(&h, "1 000"), "a thousand by default");
    assert!(!chosen(&h, "100") && !chosen(&h, "10 000"));
    click(&mut h, "Seeds: 100");
    assert!(chosen(&h, "100") && !chosen(&h, "1 000"));
    h.get_all_by_label("Run").last().unwrap().click();
    settle(&mut h);
    let spoken = h.state().announcement().to_string();
    assert!(
        spoken.contains("Across seeds: running 100 seeds.")
            || spoken.contains("Across seeds, 100 seeds: "),
        "the sweep is of the size chosen: {spoken}"
    );
    if let Some(cancel) = h.query_by_label("Cancel") {
        cancel.click();
        settle(&mut h);
    }
}

#[test]
fn the_sandbox_s_remove_buttons_each_say_what_they_remove() {
    let mut h = fresh();
    click(&mut h, "Library");
    h.get_by_label("Find:").focus();
    h.run_steps(2);
    h.event(egui::Event::Text("one node's clock runs fast".to_string()));
    settle(&mut h);
    h.get_all_by_label("Edit").next().unwrap().click();
    settle(&mut h);
    let draft = |h: &Harness<'_, LocksimApp>| h.state().sandbox_draft().unwrap().clone();
    assert_eq!(draft(&h).name, "Redlock: one node's clock runs fast");
    // One of each: a screen reader's list of buttons tells them apart.
    for label in [
        "Remove store3's clock",
        "Remove worker A",
        "Remove worker B",
        "Remove fault 1 (partition at 0 ms)",
        "Remove fault 2 (partition at 0 ms)",
        "remove group 1 of fault 1",
        "remove group 2 of fault 2",
        "store4 in group 2 of fault 1",
        "B in group 1 of fault 2",
        "retry_jitter_ms own jitter",
    ] {
        h.get_by_label(label);
    }
    // A checkbox beside a row's value is named by the row's label and its own words.
    assert_eq!(
        h.get_all_by_label("retry_ms own back-off").count(),
        draft(&h).workers.len()
    );
    h.get_by_label("remove group 2 of fault 1")
        .click_accesskit();
    settle(&mut h);
    match &draft(&h).faults[0].kind {
        FaultKind::Partition { groups, .. } => {
            assert_eq!(groups, &vec![vec!["A".to_string()]], "the group named")
        }
        other => panic!("{other:?}"),
    }
    h.get_by_label("Remove store3's clock").click_accesskit();
    settle(&mut h);
    assert!(draft(&h).store_clocks.is_empty());
}

#[test]
fn a_search_can_be_cancelled_and_says_how_far_it_got() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    click(&mut h, "Find a failure");
    click(&mut h, "Search");
    click(&mut h, "Cancel");
    assert!(shows(&h, "Stopped after"), "it says where it stopped");
    assert!(shows(&h, "none found so far"));
    assert!(
        h.query_by_label("Search").is_some(),
        "and it can start again"
    );
}

/// The text of the first node whose text starts with `prefix`, with the non-breaking spaces
/// that keep numbers whole read as spaces.
fn line_starting(h: &Harness<'_, LocksimApp>, prefix: &str) -> Option<String> {
    let plain = |text: String| text.replace('\u{A0}', " ");
    h.query_all_by(|n| {
        n.value().is_some_and(|v| plain(v).starts_with(prefix))
            || n.label().is_some_and(|l| plain(l).starts_with(prefix))
    })
    .next()
    .and_then(|n| n.value().or_else(|| n.accesskit_node().label()))
    .map(plain)
}

/// What each side's line under its timeline says at the playhead, upper side first.
fn at_playhead(h: &Harness<'_, LocksimApp>, tags: [&str; 2]) -> [String; 2] {
    tags.map(|tag| {
        line_starting(h, &format!("{tag}, at the playhead ("))
            .unwrap_or_else(|| panic!("{tag}'s line at the playhead is shown"))
    })
}

/// Home, then the next moment, then End (whose line shows `end_label`, the horizon): each
/// time both sides' lines follow the one playhead to the same time.
fn one_playhead_moves_both(h: &mut Harness<'_, LocksimApp>, tags: [&str; 2], end_label: &str) {
    press(h, Key::Space);
    press(h, Key::Home);
    let start = at_playhead(h, tags);
    for line in &start {
        assert!(line.contains("at the playhead (0 ms)"), "{line}");
    }
    press(h, Key::ArrowRight);
    press(h, Key::ArrowRight);
    let stepped = at_playhead(h, tags);
    let time = |line: &str| line.split(['(', ')']).nth(1).unwrap().to_string();
    assert_ne!(stepped, start, "the playhead moved");
    assert_eq!(time(&stepped[0]), time(&stepped[1]), "{stepped:?}");
    press(h, Key::End);
    let end = at_playhead(h, tags);
    assert_eq!(time(&end[0]), time(&end[1]), "{end:?}");
    assert!(end[0].contains(end_label), "{end:?}");
}

#[test]
fn a_wrong_call_side_by_side_with_the_right_one() {
    let mut h = fresh();
    let n = step("5");
    go_to_step(&mut h, n);
    assert!(
        !shows(&h, "Compare with"),
        "offered once the verdict is told"
    );
    // "A checks its lease is still valid right before writing".
    choose_and_watch(&mut h, n, 0);
    click(&mut h, "Compare with the right call");
    assert!(shows(&h, "Your call: A checks its lease"));
    assert!(shows(&h, "The right call: Number each grant"));
    assert!(
        line_starting(&h, "UNSAFE · LIVE.").is_some(),
        "your call's verdict"
    );
    assert!(
        line_starting(&h, "SAFE · LIVE.").is_some(),
        "the right call's verdict"
    );
    assert!(
        shows(&h, "First difference at "),
        "the divergence is captioned"
    );
    // What each side did there, as the view model tells it.
    let model = locksim::view::compare::of_options(&STEPS[n], 0, right_of(n))
        .unwrap()
        .unwrap();
    let at = model.divergence.as_ref().unwrap().at_ms;
    assert!(shows(&h, &model.caption()));
    for detail in model.details().unwrap() {
        let at = format!("At the first difference ({}): ", locksim::text::fmt_ms(at));
        assert!(
            line_starting(&h, &format!("{at}{detail}")).is_some(),
            "{detail}"
        );
    }
    one_playhead_moves_both(&mut h, ["Your call", "The right call"], "(60 000 ms)");

    click(&mut h, "← Back to the step");
    assert!(
        shows(&h, "Not the right call"),
        "back on the step, the call's verdict"
    );
    assert!(!shows(&h, "First difference at "));
}

#[test]
fn the_right_call_side_by_side_with_a_wrong_one_of_the_learners_choosing() {
    let mut h = fresh();
    let n = step("5");
    go_to_step(&mut h, n);
    choose_and_watch(&mut h, n, right_of(n));
    assert!(
        !shows(&h, "Compare with the right call"),
        "it is the right call"
    );
    click(&mut h, "Compare with a wrong call…");
    click(&mut h, &format!("5  {}", STEPS[n].options[4].label));
    assert!(shows(&h, "Your call: Number each grant"));
    assert!(shows(&h, "Another call: The owner token from step 4"));
    assert!(line_starting(&h, "SAFE · LIVE.").is_some());
    assert!(line_starting(&h, "UNSAFE · LIVE.").is_some());
    // The runs part where one resource accepts A's stale write and the other refuses it.
    assert!(shows(&h, "First difference at 44 011 ms"));
    // A page key leaves the comparison with the page.
    press(&mut h, Key::PageDown);
    assert!(shows(&h, STEPS[n + 1].question));
    press(&mut h, Key::PageUp);
    assert!(
        !shows(&h, "First difference at "),
        "the step shows its own run again"
    );
}

#[test]
fn the_sandbox_side_by_side_with_a_library_scenario() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    click(&mut h, "Compare with…");
    assert!(
        h.get_by_label("The scenario this edit started from")
            .accesskit_node()
            .is_disabled(),
        "nothing edited yet"
    );
    click(&mut h, "Step 5 · The safety hole");
    click(&mut h, "step5-pause-unfenced.toml");
    assert!(shows(
        &h,
        "Sandbox: Step 5 · Fencing token: the resource turns the stale holder away"
    ));
    assert!(shows(
        &h,
        "Library: Step 5 · Paused past the lease, no fencing"
    ));
    assert!(
        line_starting(&h, "SAFE · LIVE.").is_some(),
        "the fenced design's verdict"
    );
    assert!(
        line_starting(&h, "UNSAFE · LIVE.").is_some(),
        "the unfenced one's"
    );
    assert!(shows(&h, "First difference at 17 007 ms"));
    let at = "At the first difference (17 007 ms): resource write by A#1";
    assert!(line_starting(&h, &format!("{at} (fence 1) rejected: stale fencing token")).is_some());
    assert!(line_starting(&h, &format!("{at} accepted")).is_some());
    one_playhead_moves_both(&mut h, ["Sandbox", "Library"], "(20 000 ms)");
    click(&mut h, "← Back to the run");
    assert!(shows(&h, "Ready to run."), "the sandbox's form is back");
}

/// The top of the lowest node named `label`: a tab's heading, under the tab of its name.
fn heading_top(h: &Harness<'_, LocksimApp>, label: &str) -> f32 {
    h.get_all_by_label(label)
        .map(|n| n.rect().top())
        .fold(f32::MIN, f32::max)
}

/// Break it's buttons stay where they are as the note on form edits not yet run comes and
/// goes: a click aimed at one never lands on its neighbour. The note takes the place of the
/// panel's introduction, so no tab keeps an empty band for it.
#[test]
fn break_it_s_buttons_stay_put_as_the_note_on_form_edits_comes_and_goes() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    click(&mut h, "Break it");
    let buttons = [
        "Kill the store",
        "Remove fencing",
        "Cut off from the store",
        "Force-release the lock",
        "Undo",
    ];
    let rects = |h: &Harness<'_, LocksimApp>| buttons.map(|b| h.get_by_label(b).rect());
    let placed = rects(&h);
    let note = "Your form edits are not in this run yet.";
    assert!(!shows(&h, note));
    assert!(shows(&h, "Each change is made to this scenario"));
    click(&mut h, "Kill the store");
    assert_eq!(rects(&h), placed, "after a change");
    click(&mut h, "Undo");
    assert_eq!(rects(&h), placed, "after Undo");
    click(&mut h, "Edit");
    // Below the fold of the form: clicked through the accessibility tree.
    h.get_by_label("Add worker").click_accesskit();
    settle(&mut h);
    click(&mut h, "Break it");
    assert!(shows(&h, note), "the note is shown");
    assert!(
        !shows(&h, "Each change is made to this scenario"),
        "in the introduction's place"
    );
    assert!(
        h.get_by_label("Kill the store")
            .accesskit_node()
            .is_disabled(),
        "Break it waits for the form's edits"
    );
    assert_eq!(rects(&h), placed, "with the note shown");
    click(&mut h, "Run the form's scenario");
    assert!(!shows(&h, note));
    assert!(
        !h.get_by_label("Kill the store")
            .accesskit_node()
            .is_disabled()
    );
    assert_eq!(rects(&h), placed, "once the note is gone");
    // With nothing to note, every tab's heading sits right under the tabs.
    let top = heading_top(&h, "Break it");
    for tab in ["Across seeds", "Find a failure"] {
        click(&mut h, tab);
        assert_eq!(heading_top(&h, tab), top, "{tab}'s heading");
    }
}

/// A newcomer's Sandbox session on the desktop survives closing the app: a field edited and
/// run, then a crash placed on the timeline. The app reopens on the Sandbox with that
/// scenario in the form and its run on screen, not step 5 as written.
#[test]
fn a_run_sandbox_edit_and_a_placed_fault_survive_closing_the_app() {
    let mut h = fresh();
    click(&mut h, "Sandbox");
    type_into(&mut h, "ttl_ms", "20000");
    click(&mut h, "Run");
    press(&mut h, Key::End);
    click(&mut h, "lane B");
    press(&mut h, Key::C);
    let edited = h.state().sandbox_draft().unwrap().clone();
    assert_eq!(edited.lock.ttl_ms, 20_000);
    assert!(
        matches!(&edited.faults[..], [.., f] if f.kind == FaultKind::Crash { node: "B".into() }),
        "the crash is in the form: {:?}",
        edited.faults
    );

    let mut storage = Memory::default();
    eframe::App::save(h.state_mut(), &mut storage);
    drop(h);
    let mut h = harness(LocksimApp::restore(Some(&storage)));
    press(&mut h, Key::End);
    assert!(h.state().on_tool_page(), "back on the Sandbox");
    assert_eq!(
        h.state().sandbox_draft(),
        Some(&edited),
        "the form as it was"
    );
    let shown = locksim::view::link::decode(&h.state().link())
        .unwrap()
        .scenario;
    assert_eq!(shown.as_ref(), Some(&edited), "and its run on screen");
    assert!(shows(&h, "Edited from"), "titled as an edit");
}
