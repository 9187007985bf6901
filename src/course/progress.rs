//! What the learner has done and chosen: the page on screen, each step's calls, the settings.
//! The app keeps it between visits (a file on the desktop, the browser's local storage);
//! here it is plain data, and [`Progress::restore`] says what to make of what was kept.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Record;
use crate::course::{Grading, STEPS};

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
    /// Break a design within a budget of faults.
    Challenges,
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
    /// wrong, and the step's explanation waits for the first of them. Saved as `judged`, the
    /// name progress saved before has.
    #[serde(rename = "judged")]
    pub watched: Vec<usize>,
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
    pub fn watched_to_end(&mut self, i: usize) {
        if !self.watched.contains(&i) {
            self.watched.push(i);
        }
    }

    /// Whether option `i`'s run has been watched to its end, so its mark may show.
    pub fn was_watched(&self, i: usize) -> bool {
        self.watched.contains(&i)
    }

    /// Whether any choice has been played out to its end: the answer may be shown.
    pub fn answered(&self) -> bool {
        !self.watched.is_empty()
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
    /// Where runs show their transcript beside the timeline.
    pub transcript: Transcripts,
    /// The challenge on the Challenges page, by id.
    pub challenge: Option<String>,
    /// What the learner has done on each challenge they tried, by id.
    pub challenges: BTreeMap<String, Record>,
}

/// Whether runs show their transcript (the run as a list of sentences), per part of the app:
/// off in the course, where the timeline is the lesson and the room is the decision's; on in
/// the tools, where runs are read closely. A learner's own choice is kept for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Transcripts {
    /// On a course step.
    pub course: bool,
    /// In the sandbox and the library.
    pub tools: bool,
}

impl Default for Transcripts {
    fn default() -> Self {
        Transcripts {
            course: false,
            tools: true,
        }
    }
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
            challenge: None,
            challenges: BTreeMap::new(),
            transcript: Transcripts::default(),
        }
    }
}

/// What storage held where the progress is kept.
#[derive(Debug)]
pub enum Saved {
    /// No record: a first visit.
    Nothing,
    /// A record that does not read as a [`Progress`].
    Damaged,
    /// A record as it was written.
    Read(Progress),
    /// This revision's own record, kept beside a record from course revision `.1` (which
    /// holds the usual place: a newer locksim wrote it).
    Beside(Progress, u32),
}

impl Progress {
    /// Makes a restored record fit the course as it is now: a save from an older course
    /// may name steps or options that no longer exist, and must not crash the app.
    pub fn fit_to_course(mut self) -> Self {
        self.steps.resize_with(STEPS.len(), StepProgress::default);
        for (record, step) in self.steps.iter_mut().zip(STEPS.iter()) {
            let options = step.options.len();
            record.chosen.retain(|&i| i < options);
            record.watched.retain(|&i| i < options);
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

    /// The progress to start from, given what storage held, and a notice for the learner when
    /// a record was there but cannot be used: damaged or written by something else (the app
    /// starts afresh and says so rather than failing or pretending), or made on another
    /// revision of the course (its choices are not carried over, and the notice says the
    /// record itself is kept; the theme, presenter mode and where transcripts are shown stay).
    /// A readable save of this revision always comes back as it was, fitted to the course.
    pub fn restore(saved: Saved) -> (Progress, Option<String>) {
        match saved {
            Saved::Nothing => (Progress::default(), None),
            Saved::Damaged => (
                Progress::default(),
                Some(
                    "Your saved progress could not be read, so locksim starts at the \
                     beginning. It is replaced when you next move on."
                        .to_string(),
                ),
            ),
            Saved::Read(progress) if progress.course != COURSE_REVISION => {
                let notice = if progress.course > COURSE_REVISION {
                    format!(
                        "Your progress was saved by a newer locksim (course revision {}; this \
                         one has revision {COURSE_REVISION}), whose steps this one does not \
                         have, so the course starts afresh here. That progress is kept as it \
                         is for the newer locksim; this one saves its own beside it.",
                        progress.course
                    )
                } else {
                    "The course has changed since your last visit: it now opens with a \
                     question on what your lock is for, and step 7 is four decisions. Your \
                     earlier answers were for the old steps, so the course starts afresh; \
                     they stay saved apart, not erased."
                        .to_string()
                };
                let settings = Progress {
                    dark: progress.dark,
                    presenter: progress.presenter,
                    challenges: progress.challenges,
                    transcript: progress.transcript,
                    ..Progress::default()
                };
                (settings, Some(notice))
            }
            Saved::Read(progress) => (progress.fit_to_course(), None),
            Saved::Beside(own, other) => (
                own.fit_to_course(),
                Some(format!(
                    "This browser also holds progress saved by another locksim (course \
                     revision {other}); it is kept as it is, and this one carries on from its \
                     own."
                )),
            ),
        }
    }

    /// The learner's first call on step `n` and whether it was right, once a run of the step
    /// has been watched to its end (even if the first call's own run was cut short).
    /// The first question has no right call, so it has no first call either: see
    /// [`Progress::purpose`].
    pub fn first_call(&self, n: usize) -> Option<(usize, bool)> {
        if STEPS.get(n)?.grading == Grading::Framing {
            return None;
        }
        let record = self.steps.get(n)?;
        let first = *record.chosen.first()?;
        record.answered().then_some(())?;
        Some((first, STEPS[n].options[first].right))
    }
}

impl Progress {
    /// The learner's answer to the first question (what the lock is for), once a run of it
    /// has been watched: the option's index. It is their stance, not a call to grade, so a
    /// changed mind counts: the option they chose last (the one on screen, or else the latest
    /// they chose).
    pub fn purpose(&self) -> Option<usize> {
        let n = STEPS.iter().position(|s| s.grading == Grading::Framing)?;
        let record = self.steps.get(n)?;
        if !record.answered() {
            return None;
        }
        match record.shown {
            Some(Pick::Option(i)) => Some(i),
            _ => record.chosen.last().copied(),
        }
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
        s.watched_to_end(2);
        assert!(s.answered() && s.was_watched(2) && !s.was_watched(0));
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
        p.steps[4].watched_to_end(right);
        assert_eq!(p.first_call(4), Some((wrong, false)));
    }

    #[test]
    fn the_first_question_is_an_answer_not_a_call() {
        let mut p = Progress::default();
        assert_eq!(STEPS[0].grading, Grading::Framing);
        p.steps[0].choose(1);
        assert_eq!(p.purpose(), None, "not before its run has ended");
        p.steps[0].watched_to_end(1);
        assert_eq!(p.purpose(), Some(1));
        assert_eq!(p.first_call(0), None, "neither right nor wrong");
        // A changed mind is the stance the recap recalls.
        p.steps[0].choose(0);
        assert_eq!(p.purpose(), Some(0));
        p.steps[0].shown = Some(Pick::Extra(0));
        assert_eq!(p.purpose(), Some(0), "the latest option chosen");
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
            challenge: None,
            challenges: BTreeMap::new(),
            transcript: Transcripts::default(),
        };
        let (p, notice) = Progress::restore(Saved::Read(old));
        assert!(notice.is_some_and(|n| n.contains("course has changed")));
        assert_eq!(p.place, Place::Intro);
        assert!(p.steps.iter().all(|s| s.chosen.is_empty()));
        assert!(p.dark, "settings stay the learner's own");
    }

    #[test]
    fn nothing_saved_is_a_first_visit_and_a_damaged_save_says_so() {
        assert_eq!(
            Progress::restore(Saved::Nothing),
            (Progress::default(), None)
        );
        let (p, notice) = Progress::restore(Saved::Damaged);
        assert_eq!(p, Progress::default());
        assert!(notice.is_some_and(|n| n.contains("could not be read")));
    }

    #[test]
    fn a_stale_save_is_fitted_to_the_course() {
        let mut p = Progress {
            place: Place::Step(42),
            steps: vec![StepProgress {
                chosen: vec![1, 99],
                watched: vec![99],
                shown: Some(Pick::Extra(99)),
            }],
            ..Progress::default()
        };
        p = p.fit_to_course();
        assert_eq!(p.place, Place::Intro);
        assert_eq!(p.steps.len(), STEPS.len());
        assert_eq!(p.steps[0].chosen, [1]);
        assert!(p.steps[0].watched.is_empty());
        assert_eq!(p.steps[0].shown, None);
    }
}
