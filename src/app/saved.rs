//! What the app keeps in eframe's storage (a file on the desktop, the browser's local storage):
//! the learner's progress, read back through [`Progress::restore`], and the Sandbox's form.
//!
//! The progress record is RON, written and read exactly as `eframe::set_value` and
//! `eframe::get_value` do, but through `ron` itself: those two need eframe's `persistence`
//! feature, which the web build leaves out because it also links the (de)serialisation of
//! egui's own memory, which locksim never keeps ([`super::LocksimApp`]'s `persist_egui_memory`).
//!
//! A save from another revision of the course is never overwritten unread. The key is the
//! newest revision's: a save from an older revision moves to a key of its own
//! ([`revision_key`]) when this one first saves; a save from a newer one stays where it is,
//! and this revision saves beside it, under its own revision's key, and carries on from there
//! next time.
//!
//! The Sandbox's form is saved under its own key as the scenario it holds (run or not, valid
//! or not) packed as a share link packs one ([`link::pack`]: TOML, deflated, base64url), then
//! the scenario the edit started from when that differs, after a space.

use crate::course::progress::{COURSE_REVISION, Progress, Saved};
use crate::scenario::{self, Scenario};
use crate::view::link;

/// Where this revision's progress is saved, as [`load`] found storage.
#[derive(Debug, PartialEq)]
pub struct Slot {
    /// The key this revision's progress is saved under.
    pub key: String,
    /// An older revision's record and the key it moves to, at the next save.
    pub keep: Option<(String, String)>,
}

/// The key a save from course revision `revision` is kept under, once a save from another
/// revision holds `key`.
pub fn revision_key(key: &str, revision: u32) -> String {
    format!("{key}-course{revision}")
}

/// The progress saved under `key` in `storage`, fitted to the course; the notice
/// [`Progress::restore`] gives when the record cannot be used as it is; and where this
/// revision saves.
pub fn load(storage: Option<&dyn eframe::Storage>, key: &str) -> (Progress, Option<String>, Slot) {
    let get = |key: &str| storage.and_then(|storage| storage.get_string(key));
    let mut slot = Slot {
        key: key.to_string(),
        keep: None,
    };
    let Some(record) = get(key) else {
        let (progress, notice) = Progress::restore(Saved::Nothing);
        return (progress, notice, slot);
    };
    let progress = match ron::from_str::<Progress>(&record) {
        Ok(progress) => progress,
        Err(_) => {
            let (progress, notice) = Progress::restore(Saved::Damaged);
            return (progress, notice, slot);
        }
    };
    let other = progress.course;
    if other == COURSE_REVISION {
        let (progress, notice) = Progress::restore(Saved::Read(progress));
        return (progress, notice, slot);
    }
    let own_key = revision_key(key, COURSE_REVISION);
    let own = get(&own_key)
        .and_then(|own| ron::from_str::<Progress>(&own).ok())
        .filter(|own| own.course == COURSE_REVISION);
    if other > COURSE_REVISION {
        slot.key = own_key;
    } else {
        slot.keep = Some((revision_key(key, other), record));
    }
    let (progress, notice) = match own {
        Some(own) => Progress::restore(Saved::Beside(own, other)),
        None => Progress::restore(Saved::Read(progress)),
    };
    (progress, notice, slot)
}

/// Saves `progress` where `slot` says, and the other revision's record it keeps, for [`load`]
/// to read back.
pub fn save(storage: &mut dyn eframe::Storage, slot: &mut Slot, progress: &Progress) {
    if let Some((key, record)) = slot.keep.take() {
        storage.set_string(&key, record);
    }
    // A progress is plain data (numbers, lists, enums): RON can always write it. Should it
    // ever fail, the previous record stays, as it does when eframe's own `set_value` fails.
    if let Ok(record) = ron::ser::to_string(progress) {
        storage.set_string(&slot.key, record);
    }
}

/// Longest text a saved Sandbox scenario unpacks to, bytes: a scenario file of at most
/// [`scenario::MAX_BYTES`], with every field spelled out.
const DRAFT_BYTES: usize = 4 * scenario::MAX_BYTES;

/// The Sandbox's form as saved: the scenario it holds and the one the edit started from.
pub type Draft = (Scenario, Scenario);

/// The Sandbox's form saved under `key`: `Ok(None)` when none was, `Err` with a notice for
/// the learner when the record cannot be read.
pub fn load_draft(
    storage: Option<&dyn eframe::Storage>,
    key: &str,
) -> Result<Option<Draft>, String> {
    let Some(record) = storage.and_then(|storage| storage.get_string(key)) else {
        return Ok(None);
    };
    let read = |packed: &str| {
        link::unpack(packed, DRAFT_BYTES)
            .ok()
            .and_then(|toml| scenario::parse_draft(&toml).ok())
    };
    let (draft, origin) = match record.split_once(' ') {
        Some((draft, origin)) => (read(draft), read(origin)),
        None => {
            let draft = read(&record);
            (draft.clone(), draft)
        }
    };
    match (draft, origin) {
        (Some(draft), Some(origin)) => Ok(Some((draft, origin))),
        _ => Err(
            "The Sandbox's scenario saved last time could not be read, so the Sandbox starts \
             on step 5's design. The saved one is replaced once you open the Sandbox."
                .to_string(),
        ),
    }
}

/// The record [`load_draft`] reads back as `draft` and `origin`.
pub fn draft_record(draft: &Scenario, origin: &Scenario) -> String {
    let packed = link::pack(draft);
    if draft == origin {
        packed
    } else {
        format!("{packed} {}", link::pack(origin))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::course::STEPS;
    use crate::course::progress::{Pick, Place, StepProgress, Transcripts};

    /// eframe's storage, in memory.
    #[derive(Default)]
    pub struct Memory(std::collections::HashMap<String, String>);

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

    /// What [`load`] makes of `storage`, without where it saves.
    fn read(storage: Option<&dyn eframe::Storage>) -> (Progress, Option<String>) {
        let (progress, notice, _) = load(storage, KEY);
        (progress, notice)
    }

    /// [`save`] under [`KEY`], as for a save of this revision.
    fn write(storage: &mut dyn eframe::Storage, progress: &Progress) {
        let mut slot = Slot {
            key: KEY.to_string(),
            keep: None,
        };
        save(storage, &mut slot, progress);
    }

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
                    .prop_map(|(chosen, watched, shown)| StepProgress {
                        chosen,
                        watched,
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
                        let record = crate::course::Record {
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
        write(&mut ours, &progress);
        eframe::set_value(&mut eframes, KEY, &progress);
        assert_eq!(ours.0, eframes.0);
        assert_eq!(read(Some(&eframes)), (progress, None));
    }

    #[test]
    fn no_save_is_a_first_visit_without_a_notice() {
        assert_eq!(read(None), (Progress::default(), None));
        let empty = Memory::default();
        assert_eq!(read(Some(&empty)), (Progress::default(), None));
    }

    /// A save from before transcripts could be switched shows them where they show by default.
    #[test]
    fn a_save_without_transcripts_shows_them_as_by_default() {
        let old = "(course:2,place:Sandbox,steps:[],dark:true,presenter:false)";
        let (progress, notice) = read(Some(&stored(old)));
        assert_eq!(notice, None);
        assert!(progress.dark);
        assert_eq!(progress.transcript, Transcripts::default());
        assert!(progress.transcript.tools && !progress.transcript.course);
    }

    /// A save from a newer locksim (issue's reproducer: `(course:3,place:Step(5),dark:true)`)
    /// is never overwritten: this revision saves beside it and carries on from there.
    #[test]
    fn a_save_from_a_newer_revision_is_kept_and_this_one_saves_beside_it() {
        let newer = format!("(course:{},place:Step(5),dark:true)", COURSE_REVISION + 1);
        let mut m = stored(&newer);
        let (progress, notice, mut slot) = load(Some(&m), KEY);
        let notice = notice.unwrap_or_default();
        assert!(
            notice.contains("newer locksim")
                && notice.contains(&format!("revision {}", COURSE_REVISION + 1))
                && notice.contains("kept as it is"),
            "{notice}"
        );
        assert!(progress.dark, "the settings carry over");
        assert_eq!(progress.place, Progress::default().place);
        let own_key = revision_key(KEY, COURSE_REVISION);
        assert_eq!(
            slot,
            Slot {
                key: own_key.clone(),
                keep: None
            }
        );

        let mine = Progress {
            place: Place::Step(2),
            ..progress
        };
        save(&mut m, &mut slot, &mine);
        assert_eq!(m.0.get(KEY), Some(&newer), "the newer save is untouched");
        assert!(m.0.contains_key(&own_key));

        let (again, notice, slot) = load(Some(&m), KEY);
        assert_eq!(again, mine, "this revision carries on from its own save");
        assert!(notice.is_some_and(|n| n.contains("another locksim")));
        assert_eq!(slot.key, own_key);
    }

    /// A save from an older revision gives way to this one's, but is kept under its own key.
    #[test]
    fn a_save_from_an_older_revision_is_kept_apart() {
        let older = "(course:1,place:Step(6),steps:[(chosen:[1],judged:[1])],dark:true)";
        let mut m = stored(older);
        let (progress, notice, mut slot) = load(Some(&m), KEY);
        assert!(notice.is_some_and(|n| n.contains("course has changed") && n.contains("apart")));
        assert_eq!(slot.key, KEY);
        save(&mut m, &mut slot, &progress);
        assert_eq!(
            m.0.get(&revision_key(KEY, 1)).map(String::as_str),
            Some(older)
        );
        assert_eq!(read(Some(&m)), (progress, None), "now this revision's save");
    }

    fn step5() -> Scenario {
        crate::scenario::parse(include_str!(
            "../../assets/scenarios/step5-fencing-token.toml"
        ))
        .unwrap()
    }

    /// The Sandbox's form comes back as it was, valid or not, with what its edit started from;
    /// the record is smaller than the TOML it keeps.
    #[test]
    fn the_sandbox_form_comes_back_as_it_was() {
        let origin = step5();
        let mut edited = origin.clone();
        edited.name = "MYEDIT".to_string();
        let mut invalid = edited.clone();
        invalid.until_ms = 0;
        assert!(invalid.validate().is_err());
        for (draft, origin) in [
            (origin.clone(), origin.clone()),
            (edited, origin.clone()),
            (invalid, origin.clone()),
        ] {
            let record = draft_record(&draft, &origin);
            let toml = crate::scenario::to_toml(&draft).len();
            let kept = if draft == origin { toml } else { 2 * toml };
            assert!(record.len() < kept, "{record}");
            let m = stored_at(SANDBOX, &record);
            assert_eq!(load_draft(Some(&m), SANDBOX), Ok(Some((draft, origin))));
        }
        assert_eq!(load_draft(None, SANDBOX), Ok(None));
        assert_eq!(load_draft(Some(&Memory::default()), SANDBOX), Ok(None));
    }

    /// A form record that does not read starts the Sandbox afresh, saying so.
    #[test]
    fn a_damaged_sandbox_form_is_told() {
        let good = draft_record(&step5(), &step5());
        for bad in [
            "",
            "not base64!",
            &good[..good.len() / 2],
            &format!("{good} junk"),
        ] {
            let m = stored_at(SANDBOX, bad);
            let notice = load_draft(Some(&m), SANDBOX).unwrap_err();
            assert!(notice.contains("could not be read"), "{bad}: {notice}");
        }
    }

    const SANDBOX: &str = "locksim-sandbox";

    fn stored_at(key: &str, value: &str) -> Memory {
        let mut m = Memory::default();
        eframe::Storage::set_string(&mut m, key, value.to_string());
        m
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
            write(&mut m, &progress);
            proptest::prop_assert_eq!(read(Some(&m)), (progress, None));
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
            write(&mut m, &progress);
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
                let (loaded, notice) = read(Some(&stored(&value)));
                match notice {
                    Some(text) if text.contains("could not be read") => {
                        proptest::prop_assert_eq!(&loaded, &Progress::default());
                    }
                    Some(text) => {
                        // A changed digit can make it a save from another course revision,
                        // older or newer.
                        proptest::prop_assert!(
                            text.contains("course has changed") || text.contains("newer locksim"),
                            "{}",
                            text
                        );
                        proptest::prop_assert_eq!(&loaded.steps, &Progress::default().steps);
                    }
                    None => proptest::prop_assert_eq!(loaded.clone(), loaded.fit_to_course()),
                }
            }
        }
    }
}
