//! The learner's progress kept in eframe's storage (a file on the desktop, the browser's local
//! storage on the web), read back through [`Progress::restore`].
//!
//! The record is RON, written and read exactly as `eframe::set_value` and `eframe::get_value`
//! do, but through `ron` itself: those two need eframe's `persistence` feature, which the web
//! build leaves out because it also links the (de)serialisation of egui's own memory, which
//! locksim never keeps ([`super::LocksimApp`]'s `persist_egui_memory`).

use crate::course::progress::{Progress, Saved};

/// The progress saved under `key` in `storage`, fitted to the course, and the notice
/// [`Progress::restore`] gives when the record cannot be used.
pub fn load(storage: Option<&dyn eframe::Storage>, key: &str) -> (Progress, Option<String>) {
    let saved = match storage.and_then(|storage| storage.get_string(key)) {
        Some(record) => match ron::from_str::<Progress>(&record) {
            Ok(progress) => Saved::Read(progress),
            Err(_) => Saved::Damaged,
        },
        None => Saved::Nothing,
    };
    Progress::restore(saved)
}

/// Saves `progress` under `key` in `storage`, for [`load`] to read back.
pub fn save(storage: &mut dyn eframe::Storage, key: &str, progress: &Progress) {
    // A progress is plain data (numbers, lists, enums): RON can always write it. Should it
    // ever fail, the previous record stays, as it does when eframe's own `set_value` fails.
    if let Ok(record) = ron::ser::to_string(progress) {
        storage.set_string(key, record);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::STEPS;
    use crate::course::progress::{COURSE_REVISION, Pick, Place, StepProgress, Transcripts};

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
            Just(Place::Challenges),
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
        let won = proptest::sample::subsequence(
            crate::challenge::all()
                .iter()
                .map(|c| c.id.clone())
                .collect::<Vec<_>>(),
            0..=3,
        );
        let looks = (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>());
        (place, steps, looks, won).prop_map(
            |(place, steps, (dark, presenter, course, tools), won)| {
                let challenges = won
                    .into_iter()
                    .map(|id| {
                        let record = crate::challenge::Record {
                            won: true,
                            ..Default::default()
                        };
                        (id, record)
                    })
                    .collect();
                Progress {
                    course: COURSE_REVISION,
                    place,
                    steps,
                    dark,
                    presenter,
                    transcript: Transcripts { course, tools },
                    challenge: None,
                    challenges,
                }
            },
        )
    }

    /// Saves written before locksim wrote them itself, with `eframe::set_value`, read the same.
    #[test]
    fn the_record_is_the_one_eframe_writes() {
        let progress = Progress {
            place: Place::Step(1),
            dark: true,
            ..Progress::default()
        };
        let (mut ours, mut eframes) = (Memory::default(), Memory::default());
        save(&mut ours, KEY, &progress);
        eframe::set_value(&mut eframes, KEY, &progress);
        assert_eq!(ours.0, eframes.0);
        assert_eq!(load(Some(&eframes), KEY), (progress, None));
    }

    #[test]
    fn no_save_is_a_first_visit_without_a_notice() {
        assert_eq!(load(None, KEY), (Progress::default(), None));
        let empty = Memory::default();
        assert_eq!(load(Some(&empty), KEY), (Progress::default(), None));
    }

    /// A save from before transcripts could be switched shows them where they show by default.
    #[test]
    fn a_save_without_transcripts_shows_them_as_by_default() {
        let old = "(course:2,place:Sandbox,steps:[],dark:true,presenter:false)";
        let (progress, notice) = load(Some(&stored(old)), KEY);
        assert_eq!(notice, None);
        assert!(progress.dark);
        assert_eq!(progress.transcript, Transcripts::default());
        assert!(progress.transcript.tools && !progress.transcript.course);
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
            save(&mut m, KEY, &progress);
            proptest::prop_assert_eq!(load(Some(&m), KEY), (progress, None));
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
            save(&mut m, KEY, &progress);
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
                let (loaded, notice) = load(Some(&stored(&value)), KEY);
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
