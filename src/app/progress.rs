//! What the learner has done and chosen, kept between runs through eframe's persistence (a
//! file on the desktop, localStorage on the web). Plain data: no egui, no runs.

use serde::{Deserialize, Serialize};

use crate::course::{Judge, STEPS};

/// A page of the app.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    /// The introduction, before step 1.
    #[default]
    Intro,
    /// Course step `n`, counted from 0.
    Step(usize),
    /// The ladder of fixes and the learner's calls, after step 8.
    Recap,
    /// Edit, break and sweep a scenario.
    Sandbox,
    /// Every shipped scenario.
    Library,
    /// Every term the course uses, defined.
    Glossary,
}

impl Place {
    /// The course's pages in reading order; the tools are outside it.
    pub fn course() -> impl Iterator<Item = Place> {
        std::iter::once(Place::Intro)
            .chain((0..STEPS.len()).map(Place::Step))
            .chain(std::iter::once(Place::Recap))
    }

    /// The course page after this one (PageDown), if any.
    pub fn next(self) -> Option<Place> {
        Place::course().skip_while(|p| *p != self).nth(1)
    }

    /// The course page before this one (PageUp), if any.
    pub fn prev(self) -> Option<Place> {
        Place::course()
            .zip(Place::course().skip(1))
            .find_map(|(before, p)| (p == self).then_some(before))
    }
}

/// Which run of a step is on screen: one of its options, or one of its extra scenarios.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Pick {
    /// Option `i` of the step's decision.
    Option(usize),
    /// Extra scenario `i` of the step ("more to explore").
    Extra(usize),
}

/// One step's record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StepProgress {
    /// Options chosen, each once, in the order first chosen: the first is the learner's call.
    pub chosen: Vec<usize>,
    /// Options whose run has been watched to its end. Only these are marked right or
    /// wrong, and the step's explanation waits for the first of them.
    pub judged: Vec<usize>,
    /// The run on screen when the learner left the step.
    pub shown: Option<Pick>,
}

impl StepProgress {
    /// Records that option `i` was chosen and is on screen.
    pub fn choose(&mut self, i: usize) {
        if !self.chosen.contains(&i) {
            self.chosen.push(i);
        }
        self.shown = Some(Pick::Option(i));
    }

    /// Records that option `i`'s run was watched to the end.
    pub fn judge(&mut self, i: usize) {
        if !self.judged.contains(&i) {
            self.judged.push(i);
        }
    }

    /// Whether option `i` has been judged, so its mark may show.
    pub fn is_judged(&self, i: usize) -> bool {
        self.judged.contains(&i)
    }

    /// Whether any choice has been played out to its end: the answer may be shown.
    pub fn answered(&self) -> bool {
        !self.judged.is_empty()
    }
}

/// The course's revision. A save from another revision numbers its steps and options
/// differently, so its choices cannot be carried over. Revision 2 added the first question
/// and split step 7 into four decisions; saves from before carry no revision.
pub const COURSE_REVISION: u32 = 2;

/// A save written before revisions were recorded.
fn first_revision() -> u32 {
    1
}

/// Everything that persists.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// The [`COURSE_REVISION`] the choices below were made on.
    #[serde(default = "first_revision")]
    pub course: u32,
    /// The page on screen.
    pub place: Place,
    /// One per course step.
    pub steps: Vec<StepProgress>,
    /// Dark theme instead of light.
    pub dark: bool,
    /// Large type, answers behind a Reveal button.
    pub presenter: bool,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            course: COURSE_REVISION,
            place: Place::Intro,
            steps: vec![StepProgress::default(); STEPS.len()],
            // Light by default: classrooms project, and projected dark themes wash out.
            dark: false,
            presenter: false,
        }
    }
}

impl Progress {
    /// Makes a restored record fit the course as it is now: a save from an older course
    /// may name steps or options that no longer exist, and must not crash the app.
    pub fn fit_to_course(mut self) -> Self {
        self.steps.resize_with(STEPS.len(), StepProgress::default);
        for (record, step) in self.steps.iter_mut().zip(STEPS.iter()) {
            let options = step.options.len();
            record.chosen.retain(|&i| i < options);
            record.judged.retain(|&i| i < options);
            record.shown = record.shown.filter(|pick| match *pick {
                Pick::Option(i) => i < options,
                Pick::Extra(i) => i < step.extras.len(),
            });
        }
        if matches!(self.place, Place::Step(n) if n >= STEPS.len()) {
            self.place = Place::Intro;
        }
        self
    }

    /// The progress saved under `key` in `storage`, fitted to the course, and a notice for the
    /// learner when a record is there but cannot be read (damaged, or written by something
    /// else): the app then starts afresh, and says so rather than failing or pretending.
    /// A readable save always comes back as it was.
    pub fn load(storage: Option<&dyn eframe::Storage>, key: &str) -> (Progress, Option<String>) {
        let (progress, notice) = Self::read(storage, key);
        if notice.is_none() && progress.course != COURSE_REVISION {
            let kept = Progress {
                dark: progress.dark,
                presenter: progress.presenter,
                ..Progress::default()
            };
            return (
                kept,
                Some(
                    "The course has changed since your last visit: it now opens with a \
                     question on what your lock is for, and step 7 is four decisions. Your \
                     earlier answers were for the old steps, so the course starts afresh."
                        .to_string(),
                ),
            );
        }
        (progress, notice)
    }

    /// The stored progress as it was written, fitted to the course (see [`Progress::load`]).
    fn read(storage: Option<&dyn eframe::Storage>, key: &str) -> (Progress, Option<String>) {
        let Some(storage) = storage else {
            return (Progress::default(), None);
        };
        if storage.get_string(key).is_none() {
            return (Progress::default(), None);
        }
        match eframe::get_value::<Progress>(storage, key) {
            Some(saved) => (saved.fit_to_course(), None),
            None => (
                Progress::default(),
                Some(
                    "Your saved progress could not be read, so locksim starts at the \
                     beginning. It is replaced when you next move on."
                        .to_string(),
                ),
            ),
        }
    }

    /// The learner's first call on step `n` and whether it was right, once a run of the step
    /// has been watched to its end (even if the first call's own run was cut short).
    /// The first question has no right call, so it has no first call either: see
    /// [`Progress::purpose`].
    pub fn first_call(&self, n: usize) -> Option<(usize, bool)> {
        if STEPS.get(n)?.judge == Judge::Framing {
            return None;
        }
        let record = self.steps.get(n)?;
        let first = *record.chosen.first()?;
        record.answered().then_some(())?;
        Some((first, STEPS[n].options[first].right))
    }
}

impl Progress {
    /// The learner's answer to the first question (what the lock is for), once its run has
    /// been watched: the option's index.
    pub fn purpose(&self) -> Option<usize> {
        let n = STEPS.iter().position(|s| s.judge == Judge::Framing)?;
        let record = self.steps.get(n)?;
        record.answered().then(|| record.chosen.first().copied())?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_run_from_intro_through_the_steps_to_the_recap() {
        assert_eq!(Place::Intro.prev(), None);
        assert_eq!(Place::Intro.next(), Some(Place::Step(0)));
        assert_eq!(Place::Step(0).prev(), Some(Place::Intro));
        let last = STEPS.len() - 1;
        assert_eq!(Place::Step(last).next(), Some(Place::Recap));
        assert_eq!(Place::Recap.next(), None);
        assert_eq!(Place::Recap.prev(), Some(Place::Step(last)));
        assert_eq!(
            Place::Sandbox.next(),
            None,
            "the tools are outside the course"
        );
        assert_eq!(Place::Sandbox.prev(), None);
    }

    #[test]
    fn choices_are_recorded_once_in_order() {
        let mut s = StepProgress::default();
        s.choose(2);
        s.choose(0);
        s.choose(2);
        assert_eq!(s.chosen, [2, 0]);
        assert_eq!(s.shown, Some(Pick::Option(2)));
        assert!(!s.answered());
        s.judge(2);
        assert!(s.answered() && s.is_judged(2) && !s.is_judged(0));
    }

    #[test]
    fn first_call_is_told_once_a_run_was_watched() {
        let mut p = Progress::default();
        let wrong = STEPS[4].options.iter().position(|c| !c.right).unwrap();
        let right = STEPS[4].options.iter().position(|c| c.right).unwrap();
        p.steps[4].choose(wrong);
        assert_eq!(p.first_call(4), None, "not before any run has ended");
        // The learner changed their mind before the first run ended: it still counts.
        p.steps[4].choose(right);
        p.steps[4].judge(right);
        assert_eq!(p.first_call(4), Some((wrong, false)));
    }

    #[test]
    fn the_first_question_is_an_answer_not_a_call() {
        let mut p = Progress::default();
        assert_eq!(STEPS[0].judge, Judge::Framing);
        p.steps[0].choose(1);
        assert_eq!(p.purpose(), None, "not before its run has ended");
        p.steps[0].judge(1);
        assert_eq!(p.purpose(), Some(1));
        assert_eq!(p.first_call(0), None, "neither right nor wrong");
    }

    #[test]
    fn a_save_from_the_old_course_starts_afresh_with_a_notice() {
        // What the course saved before the first question: eight steps, revision 1.
        let old = Progress {
            course: 1,
            place: Place::Step(6),
            steps: vec![StepProgress::default(); 8],
            dark: true,
            presenter: false,
        };
        let mut m = Memory::default();
        eframe::set_value(&mut m, KEY, &old);
        let (p, notice) = Progress::load(Some(&m), KEY);
        assert!(notice.is_some_and(|n| n.contains("course has changed")));
        assert_eq!(p.place, Place::Intro);
        assert!(p.steps.iter().all(|s| s.chosen.is_empty()));
        assert!(p.dark, "settings stay the learner's own");
    }

    #[test]
    fn a_stale_save_is_fitted_to_the_course() {
        let mut p = Progress {
            place: Place::Step(42),
            steps: vec![StepProgress {
                chosen: vec![1, 99],
                judged: vec![99],
                shown: Some(Pick::Extra(99)),
            }],
            ..Progress::default()
        };
        p = p.fit_to_course();
        assert_eq!(p.place, Place::Intro);
        assert_eq!(p.steps.len(), STEPS.len());
        assert_eq!(p.steps[0].chosen, [1]);
        assert!(p.steps[0].judged.is_empty());
        assert_eq!(p.steps[0].shown, None);
    }

    /// eframe's storage, in memory.
    #[derive(Default)]
    struct Memory(std::collections::HashMap<String, String>);

    impl eframe::Storage for Memory {
        fn get_string(&self, key: &str) -> Option<String> {
            self.0.get(key).cloned()
        }
        fn set_string(&mut self, key: &str, value: String) {
            self.0.insert(key.to_string(), value);
        }
        fn remove_string(&mut self, key: &str) {
            self.0.remove(key);
        }
        fn flush(&mut self) {}
    }

    const KEY: &str = "locksim-progress";

    fn stored(value: &str) -> Memory {
        let mut m = Memory::default();
        eframe::Storage::set_string(&mut m, KEY, value.to_string());
        m
    }

    /// A progress the course could have saved.
    fn saved() -> impl proptest::strategy::Strategy<Value = Progress> {
        use proptest::prelude::*;
        let place = prop_oneof![
            Just(Place::Intro),
            (0..STEPS.len()).prop_map(Place::Step),
            Just(Place::Recap),
            Just(Place::Sandbox),
            Just(Place::Library),
            Just(Place::Glossary),
        ];
        let steps: Vec<_> = STEPS
            .iter()
            .map(|step| {
                let n = step.options.len();
                (
                    proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 0..=n),
                    proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 0..=n),
                    proptest::option::of(0..n),
                )
                    .prop_map(|(chosen, judged, shown)| StepProgress {
                        chosen,
                        judged,
                        shown: shown.map(Pick::Option),
                    })
            })
            .collect();
        (place, steps, any::<bool>(), any::<bool>()).prop_map(|(place, steps, dark, presenter)| {
            Progress {
                course: COURSE_REVISION,
                place,
                steps,
                dark,
                presenter,
            }
        })
    }

    #[test]
    fn no_save_is_a_first_visit_without_a_notice() {
        assert_eq!(Progress::load(None, KEY), (Progress::default(), None));
        let empty = Memory::default();
        assert_eq!(
            Progress::load(Some(&empty), KEY),
            (Progress::default(), None)
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 256,
            failure_persistence: None,
            ..Default::default()
        })]

        /// A good save always comes back as it was, with no notice.
        #[test]
        fn a_good_save_is_never_lost(progress in saved()) {
            let mut m = Memory::default();
            eframe::set_value(&mut m, KEY, &progress);
            proptest::prop_assert_eq!(Progress::load(Some(&m), KEY), (progress, None));
        }

        /// Damaged saves (cut short, bytes changed, or junk) start afresh with a notice, or
        /// still read as a progress fitted to the course; never a panic.
        #[test]
        fn a_damaged_save_starts_afresh_with_a_notice(
            progress in saved(),
            cut in proptest::prelude::any::<proptest::sample::Index>(),
            flips in proptest::collection::vec(
                (proptest::prelude::any::<proptest::sample::Index>(), proptest::prelude::any::<char>()),
                0..4,
            ),
            junk in ".*",
        ) {
            let mut m = Memory::default();
            eframe::set_value(&mut m, KEY, &progress);
            let good = eframe::Storage::get_string(&m, KEY).unwrap();
            let mut chars: Vec<char> = good.chars().collect();
            chars.truncate(cut.index(chars.len() + 1));
            for (at, c) in &flips {
                if !chars.is_empty() {
                    let i = at.index(chars.len());
                    chars[i] = *c;
                }
            }
            for value in [chars.into_iter().collect::<String>(), junk] {
                let (loaded, notice) = Progress::load(Some(&stored(&value)), KEY);
                match notice {
                    Some(text) if text.contains("could not be read") => {
                        proptest::prop_assert_eq!(&loaded, &Progress::default());
                    }
                    Some(text) => {
                        // A changed digit can make it a save from another course revision.
                        proptest::prop_assert!(text.contains("course has changed"), "{}", text);
                        proptest::prop_assert_eq!(&loaded.steps, &Progress::default().steps);
                    }
                    None => proptest::prop_assert_eq!(loaded.clone(), loaded.fit_to_course()),
                }
            }
        }
    }
}
