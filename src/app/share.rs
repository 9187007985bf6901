//! The app's side of a shared link ([`crate::view::link`] reads and writes the format): what
//! the view on screen is, and opening the view a link names. Only the web build calls these
//! (`web.rs`), but they are compiled and tested natively too, so a change to the app that
//! breaks links fails `cargo test`.
//!
//! `choices[n]` is the option whose run step n+1 shows (an extra scenario on screen is not
//! carried). `scenario` is the run on screen on the sandbox or library page, and `seed`, if
//! given, replaces that scenario's own. Two runs side by side are carried as the step's two
//! options, or on a tool page as `scenario` (the upper run) and the one beside it.

use super::compare_view::CompareView;
use crate::course::STEPS;
use crate::course::progress::{Pick, Place};
use crate::view::link::{Compared, SharedState, page_number, place_of};

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl super::LocksimApp {
    /// What a link to the current view carries.
    pub(super) fn shared_state(&self) -> SharedState {
        let place = self.progress.place;
        let mut choices: Vec<Option<usize>> = self
            .progress
            .steps
            .iter()
            .map(|record| match record.shown {
                Some(Pick::Option(i)) => Some(i),
                _ => None,
            })
            .collect();
        while choices.last() == Some(&None) {
            choices.pop();
        }
        let (scenario, compare) = match &self.compare {
            Some(compare) => {
                let (upper, carried) = compare.carried();
                (upper, Some(carried))
            }
            None => (self.tools.shown(place).cloned(), None),
        };
        let mut state = SharedState {
            step: page_number(place),
            choices,
            scenario,
            seed: None,
            compare,
            challenge: None,
        };
        if place == Place::Challenges
            && let Some((id, attempt)) = self.challenges.shown()
        {
            state.challenge = Some(id.to_string());
            state.scenario = Some(attempt.clone());
        }
        state
    }

    /// The app as the learner left it in this browser (`storage`), then turned to the view
    /// `state` describes. Settings such as the theme stay the learner's own.
    pub(super) fn from_shared(state: SharedState, storage: Option<&dyn eframe::Storage>) -> Self {
        let mut app = Self::restore(storage);
        let place = place_of(state.step).unwrap_or_default();
        for n in 0..app.progress.steps.len() {
            app.progress.steps[n].shown = None;
            // An option the step does not have is ignored.
            if let Some(i) = state.choices.get(n).copied().flatten() {
                app.course.choose(&mut app.progress, n, i);
            }
        }
        if place == Place::Challenges
            && let Some(id) = &state.challenge
        {
            let faults = state.scenario.as_ref().map_or(&[][..], |s| &s.faults);
            app.challenges.open(&mut app.progress, id, faults);
        }
        let mut upper = None;
        if let Some(mut scenario) = state.scenario
            && matches!(place, Place::Sandbox | Place::Library)
        {
            if let Some(seed) = state.seed {
                scenario.seed = seed;
            }
            upper = Some(scenario.clone());
            app.tools.open(place, scenario);
        }
        // A comparison the page cannot hold (options the step does not have, a tool page
        // without its own scenario) is ignored.
        app.compare = match (state.compare, place, upper) {
            (Some(Compared::Options(a, b)), Place::Step(n), _) => CompareView::of_options(n, a, b),
            (Some(Compared::Against(other)), _, Some(upper)) => {
                Some(CompareView::of_scenarios(place, upper, *other))
            }
            _ => None,
        };
        app.progress.place = place;
        app
    }

    /// The app opened on the view a web link's fragment (`#v=2&…`, the `#` optional) names,
    /// as the web build opens a link, with no saved progress; or why the link cannot be read.
    pub fn open_link(fragment: &str) -> Result<Self, crate::view::link::ShareError> {
        Ok(Self::from_shared(
            crate::view::link::decode(fragment)?,
            None,
        ))
    }

    /// The fragment of a link to the current view (without the `#`), as the web build writes
    /// it into the address bar: see [`Self::written_link`].
    pub fn link(&self) -> String {
        self.written_link().0
    }

    /// The fragment the web build writes for the current view, and, when the scenario on
    /// screen is too large for a link to carry, what to tell the learner. Such a link is
    /// never written, as the app could not read it back: the fragment then names the page
    /// alone (the Sandbox's own form is saved apart, with the progress), and the notice
    /// offers the scenario as a file instead.
    pub fn written_link(&self) -> (String, Option<String>) {
        Self::link_of(self.shared_state())
    }

    /// [`Self::written_link`] for the view `state` describes.
    pub(super) fn link_of(state: SharedState) -> (String, Option<String>) {
        match crate::view::link::encode_readable(&state) {
            Ok(fragment) => (fragment, None),
            Err(too_large) => {
                let page = SharedState {
                    scenario: None,
                    seed: None,
                    compare: state.compare.filter(|c| matches!(c, Compared::Options(..))),
                    ..state
                };
                let notice = format!(
                    "This scenario is too large to share as a link ({too_large}), so the \
                     address names this page without it. To share it, save it as a file: \
                     Export › Scenario file (TOML), under the verdict."
                );
                (crate::view::link::encode(&page), Some(notice))
            }
        }
    }

    /// Shows `notice` (from [`Self::written_link`]) over the page until the next one.
    pub(super) fn set_link_notice(&mut self, notice: Option<String>) {
        self.link_notice = notice;
    }

    /// The page title for the current view.
    pub(super) fn title(&self) -> String {
        let page = self.page_title();
        match &self.compare {
            Some(_) => format!("{page} · side by side"),
            None => page,
        }
    }

    /// The page title for the page on screen, without a comparison over it.
    fn page_title(&self) -> String {
        let place = self.progress.place;
        let shown = self.tools.shown(place).map(|s| s.name.as_str());
        match (place, shown) {
            (Place::Intro, _) => "locksim".to_string(),
            (Place::Step(n), _) => match STEPS.get(n) {
                Some(step) => format!("locksim · Step {} · {}", step.number, step.title),
                None => "locksim".to_string(),
            },
            (Place::Recap, _) => "locksim · Recap".to_string(),
            (Place::Sandbox, None) => "locksim · Sandbox".to_string(),
            (Place::Sandbox, Some(name)) => format!("locksim · Sandbox · {name}"),
            (Place::Library, None) => "locksim · Library".to_string(),
            (Place::Library, Some(name)) => format!("locksim · Library · {name}"),
            (Place::Glossary, _) => "locksim · Glossary".to_string(),
            (Place::Challenges, _) => match self.challenges.shown() {
                Some((id, _)) => format!(
                    "locksim · Challenges · {}",
                    crate::challenge::find(id).map_or(id, |c| c.title.as_str())
                ),
                None => "locksim · Challenges".to_string(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use crate::view::link::{decode, encode};

    const STEP5: &str = crate::scenario::library::text(
        crate::scenario::library::COURSE,
        "step5-pause-unfenced.toml",
    );

    #[test]
    fn the_app_restores_the_view_a_link_names() {
        use super::super::LocksimApp;

        let start = LocksimApp::restore(None);
        assert_eq!(start.shared_state(), SharedState::default());
        assert_eq!(start.title(), "locksim");

        // A course step with choices made on it and before it.
        let state = SharedState {
            step: 3,
            choices: vec![Some(1), None, Some(0)],
            scenario: None,
            seed: None,
            compare: None,
            challenge: None,
        };
        let app = LocksimApp::from_shared(decode(&encode(&state)).unwrap(), None);
        assert_eq!(app.progress.place, Place::Step(2));
        assert_eq!(app.shared_state(), state);
        assert!(
            app.title().starts_with("locksim · Step 2 · "),
            "{}",
            app.title()
        );

        // The sandbox with a scenario of the learner's, run with another seed.
        let state = SharedState {
            step: STEPS.len() + 2,
            choices: Vec::new(),
            scenario: Some(scenario::parse(STEP5).unwrap()),
            seed: Some(9),
            compare: None,
            challenge: None,
        };
        let app = LocksimApp::from_shared(decode(&encode(&state)).unwrap(), None);
        assert_eq!(app.progress.place, Place::Sandbox);
        let mut reseeded = scenario::parse(STEP5).unwrap();
        reseeded.seed = 9;
        let shared = app.shared_state();
        assert_eq!(shared.scenario, Some(reseeded));
        assert_eq!(
            LocksimApp::from_shared(shared.clone(), None).shared_state(),
            shared
        );
        assert_eq!(
            app.title(),
            "locksim · Sandbox · Step 5 · Paused past the lease, no fencing"
        );

        // Out-of-range numbers and options open the start instead of failing.
        let app = LocksimApp::from_shared(
            SharedState {
                step: 999,
                choices: vec![Some(999)],
                ..SharedState::default()
            },
            None,
        );
        assert_eq!(app.shared_state(), SharedState::default());
    }

    #[test]
    fn the_app_restores_two_runs_side_by_side() {
        use super::super::LocksimApp;
        use crate::course;

        // Step 5: the learner's call (option 0) beside the right one.
        let n = STEPS.iter().position(|s| s.number == "5").unwrap();
        let right = STEPS[n].options.iter().position(|c| c.right).unwrap();
        let state = SharedState {
            step: page_number(Place::Step(n)),
            choices: vec![None, None, None, None, None, Some(0)],
            compare: Some(Compared::Options(0, right)),
            ..SharedState::default()
        };
        let app = LocksimApp::from_shared(decode(&encode(&state)).unwrap(), None);
        assert_eq!(app.progress.place, Place::Step(n));
        assert!(app.compare.is_some());
        assert_eq!(app.shared_state(), state);
        assert_eq!(
            app.title(),
            "locksim · Step 5 · The safety hole · side by side"
        );

        // The sandbox's scenario, on the link's seed, beside the right call of step 5.
        let fenced = course::right_call(&STEPS[n]).unwrap().scenario().unwrap();
        let state = SharedState {
            step: page_number(Place::Sandbox),
            scenario: Some(scenario::parse(STEP5).unwrap()),
            seed: Some(9),
            compare: Some(Compared::Against(Box::new(fenced))),
            ..SharedState::default()
        };
        let app = LocksimApp::from_shared(decode(&encode(&state)).unwrap(), None);
        let shared = app.shared_state();
        assert_eq!(shared.compare, state.compare);
        assert_eq!(shared.scenario.as_ref().map(|s| s.seed), Some(9));
        assert_eq!(
            LocksimApp::from_shared(shared.clone(), None).shared_state(),
            shared
        );

        // Options the step does not have, or a tool page with nothing to compare, open the
        // page alone.
        for state in [
            SharedState {
                step: page_number(Place::Step(n)),
                compare: Some(Compared::Options(0, 99)),
                ..SharedState::default()
            },
            SharedState {
                step: page_number(Place::Library),
                compare: state.compare.clone(),
                ..SharedState::default()
            },
        ] {
            let app = LocksimApp::from_shared(state, None);
            assert!(app.compare.is_none());
            assert_eq!(app.shared_state().compare, None);
        }
    }

    /// A scenario of `n` pauses of two workers (the shape of the learner's 64 KB scenario the
    /// app once wrote a link for that it then refused), described by `description`.
    fn paused(n: usize, description: &str) -> String {
        let mut toml = format!(
            "version = 1\nname = \"many pauses\"\ndescription = \"{description}\"\n\
             until_ms = 100000\n[[worker]]\nname = \"A\"\n[[worker]]\nname = \"B\"\n"
        );
        for i in 0..n {
            let node = ["A", "B"][i % 2];
            toml.push_str(&format!(
                "[[fault]]\nat_ms = {}\nkind = \"pause\"\nnode = \"{node}\"\nfor_ms = {}\n",
                (i * 7_919) % 100_000,
                100 + (i * 31) % 4_000
            ));
        }
        toml
    }

    /// `bytes` letters of words that deflate poorly (a seeded LCG's picks).
    fn babble(bytes: usize) -> String {
        let mut x: u64 = 7;
        let mut out = String::new();
        while out.len() < bytes {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            out.push(if x >> 60 == 0 {
                ' '
            } else {
                (b'a' + (x >> 40) as u8 % 26) as char
            });
        }
        out
    }

    /// A link the app writes is a link it reads: for scenarios up to the largest the app
    /// accepts (1 000 faults, a 1 MB file), the address either carries the scenario and opens
    /// it again, or leaves it out, names the page, and the app says why and offers the file.
    #[test]
    fn the_app_writes_only_links_it_reads() {
        let sandbox = page_number(Place::Sandbox);
        let room = scenario::MAX_BYTES - paused(1_000, "").len();
        let cases = [
            paused(0, ""),
            paused(10, ""),
            paused(600, ""),
            paused(900, ""),
            paused(1_000, ""),
            paused(10, &babble(12_000)),
            paused(10, &babble(30_000)),
            paused(1_000, &"a".repeat(room)),
            paused(1_000, &babble(room)),
        ];
        let mut told = 0;
        for text in cases {
            let n = text.len();
            assert!(n <= scenario::MAX_BYTES);
            let shown = scenario::parse(&text).unwrap();
            let state = SharedState {
                step: sandbox,
                scenario: Some(shown.clone()),
                ..SharedState::default()
            };
            let (fragment, notice) = super::super::LocksimApp::link_of(state);
            let read = decode(&fragment).unwrap_or_else(|e| panic!("{n} bytes: {e}"));
            assert_eq!(read.step, sandbox, "{n} bytes");
            match notice {
                None => assert_eq!(read.scenario, Some(shown), "{n} bytes"),
                Some(notice) => {
                    told += 1;
                    assert_eq!(read.scenario, None, "{n} bytes");
                    assert!(
                        notice.starts_with("This scenario is too large to share as a link")
                            && notice.contains("Export › Scenario file (TOML)"),
                        "{notice}"
                    );
                }
            }
        }
        assert_eq!(told, 4, "the learner's 64 KB scenario and larger are told");
        // The learner's 64 KB scenario: its TOML spelled out is past what a link unpacks.
        let state = SharedState {
            step: sandbox,
            scenario: Some(scenario::parse(&paused(1_000, "")).unwrap()),
            ..SharedState::default()
        };
        let (_, notice) = super::super::LocksimApp::link_of(state);
        assert!(notice.is_some_and(|n| n.contains("bytes of TOML, and a link carries at most 65")),);
    }

    /// A reload of the Sandbox page, whose address carries the last run, keeps the form's
    /// edit that was not run yet.
    #[test]
    fn a_reload_keeps_the_form_s_edit_not_yet_run() {
        use super::super::saved::{self, tests::Memory};
        let run = scenario::parse(STEP5).unwrap();
        let mut edit = run.clone();
        edit.name = "MYEDIT".to_string();
        let mut storage = Memory::default();
        eframe::Storage::set_string(
            &mut storage,
            super::super::SANDBOX_KEY,
            saved::draft_record(&edit, &run),
        );
        let state = SharedState {
            step: page_number(Place::Sandbox),
            scenario: Some(run.clone()),
            ..SharedState::default()
        };
        let app = super::super::LocksimApp::from_shared(state.clone(), Some(&storage));
        assert_eq!(app.sandbox_draft(), Some(&edit));
        assert_eq!(
            app.shared_state().scenario,
            Some(run.clone()),
            "the run is the link's"
        );
        // A form not edited takes the link's scenario.
        let mut storage = Memory::default();
        eframe::Storage::set_string(
            &mut storage,
            super::super::SANDBOX_KEY,
            saved::draft_record(&edit, &edit),
        );
        let app = super::super::LocksimApp::from_shared(state, Some(&storage));
        assert_eq!(app.sandbox_draft(), Some(&run));
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 256,
            failure_persistence: None,
            ..Default::default()
        })]

        /// The app opens from any state a link decodes to, however hostile the link.
        #[test]
        fn the_app_opens_from_any_link(fragment in crate::view::link::tests::hostile()) {
            if let Ok(state) = decode(&fragment) {
                let app = super::super::LocksimApp::from_shared(state, None);
                let _ = app.title();
            }
        }
    }
}
