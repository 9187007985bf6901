//! Work that runs off the UI thread, so the window keeps painting at full rate while it goes:
//! the sweeps of "Across seeds" and the searches of "Find a failure". On the desktop it runs
//! on a background thread ([`thread`]); in the browser in a Web Worker — a second instance of
//! the wasm module, talking by messages (`worker.rs` here, `web/worker.js` in the page).
//!
//! The page asks for [`Work`] and hears [`News`], in order, a batch of work at a time
//! ([`EVENTS_PER_BATCH`] events), so progress arrives many times a second and a cancelled job
//! stops within a batch. Both sides make the same deterministic runs: a sweep's page keeps its
//! own copy of the [`Sweep`] and counts the outcomes it hears ([`Sweep::count`]); a search's
//! page makes the found run again from the faults it hears ([`Counterexample::remade`]).
//! Dropping a job cancels it.

#[cfg(not(target_arch = "wasm32"))]
mod thread;
#[cfg(target_arch = "wasm32")]
pub(crate) mod worker;

#[cfg(not(target_arch = "wasm32"))]
pub use thread::Job;
#[cfg(target_arch = "wasm32")]
pub use worker::Job;

use serde::{Deserialize, Serialize};

use crate::scenario::{Scenario, parse, to_toml};
use crate::search::{Counterexample, Options, Searcher};
use crate::sweep::{EVENTS_PER_BATCH, Outcome, Sweep};

/// How often the page repaints for a job's progress: once a second is enough to watch the
/// counts move, and every repaint of the whole window is work taken from painting anything
/// else. In a browser that renders in software (no GPU, or one it does not trust), while the
/// job's worker keeps a core busy, one repaint stalls the page for a tenth of a second or
/// more: at two a second the page painted about 40 frames a second, at one about 50.
pub const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(1000);

/// One batch of a sweep's runs: each with the index of its row.
pub type Batch = Vec<(usize, Outcome)>;

/// What the page asks a job to do. The scenario travels as TOML ([`to_toml`]), as it would
/// to a file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Work {
    /// Across seeds: `seeds` seeds of the scenario and of its ladder rungs ([`Sweep::new`]).
    Sweep { scenario: String, seeds: u64 },
    /// Find a failure: a search of the scenario within `options` ([`Searcher::new`]).
    Search { scenario: String, options: Options },
}

/// What a job tells the page, in the order it happened.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum News {
    /// The next batch of a sweep's runs.
    Batch(Batch),
    /// A search has run this many schedules so far.
    Searched(u64),
    /// A search is over after `tries` schedules; what it found, if anything.
    SearchOver { tries: u64, found: Option<Found> },
}

/// A failing schedule a search found and shrank: enough to make its counterexample again
/// ([`Counterexample::remade`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Found {
    /// The faults added, 1-minimal ([`Counterexample::faults`]), as the scenario file writes
    /// them: the searched scenario with these as its only faults, in TOML. The app reads and
    /// writes scenarios anyway; a second form for a fault would only add to the download.
    faults: String,
    /// How many faults the schedule drawn first had.
    pub drawn: usize,
    /// Runs spent shrinking.
    pub shrink_runs: u64,
}

impl Work {
    /// A sweep of `scenario`.
    pub fn sweep(scenario: &Scenario, seeds: u64) -> Work {
        Work::Sweep {
            scenario: to_toml(scenario),
            seeds,
        }
    }

    /// A search of `scenario`.
    pub fn search(scenario: &Scenario, options: Options) -> Work {
        Work::Search {
            scenario: to_toml(scenario),
            options,
        }
    }
}

impl Found {
    /// What a search of `scenario` that found `counterexample` tells the page.
    fn of(scenario: &Scenario, counterexample: &Counterexample) -> Found {
        let faults = Scenario {
            faults: counterexample.faults.clone(),
            ..scenario.clone()
        };
        Found {
            faults: to_toml(&faults),
            drawn: counterexample.drawn,
            shrink_runs: counterexample.shrink_runs,
        }
    }

    /// The counterexample this is of, for a search of `scenario` with `options`.
    ///
    /// # Errors
    /// When the faults cannot be read back (a bug: [`to_toml`] writes what [`parse`] reads).
    pub fn remade(self, scenario: &Scenario, options: &Options) -> Result<Counterexample, String> {
        let faults = parse(&self.faults).map_err(|e| e.to_string())?.faults;
        Ok(Counterexample::remade(
            scenario,
            options.goal,
            faults,
            self.drawn,
            self.shrink_runs,
        ))
    }
}

/// `message` as the text a worker's message carries. RON, which the app already reads and
/// writes for the learner's saved progress: it writes every `f64` so that it reads back bit
/// for bit, which a sweep's means need.
///
/// # Errors
/// A value RON cannot write (none of the messages has one).
#[cfg(any(target_arch = "wasm32", test))]
fn encode<T: Serialize>(message: &T) -> Result<String, String> {
    // Without RON's own words for what went wrong: a bug either way, and its formatting
    // would only add to the download.
    ron::ser::to_string(message).map_err(|_| "a message that cannot be written".to_string())
}

/// The message [`encode`] wrote.
///
/// # Errors
/// Text that is not such a message (a bug: both sides are the same module).
#[cfg(any(target_arch = "wasm32", test))]
fn decode<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    ron::from_str(text).map_err(|_| "a garbled message".to_string())
}

/// `scenario` as a job runs it: written out and read back, as a message carries it to the
/// worker. The page's side is made from the same value, so both sides run the same scenario
/// whatever the way it travelled.
///
/// # Errors
/// The reason, when the scenario cannot be read back (a bug: [`to_toml`] writes what
/// [`parse`] reads).
pub fn as_sent(scenario: &Scenario) -> Result<Scenario, String> {
    parse(&to_toml(scenario)).map_err(|e| e.to_string())
}

/// Starts the work `work` makes of `scenario` as a job runs it ([`as_sent`]): that scenario,
/// for the page's side, and the job.
///
/// # Errors
/// Why the job could not start.
pub fn start(
    ctx: &eframe::egui::Context,
    scenario: &Scenario,
    work: impl FnOnce(&Scenario) -> Work,
) -> Result<(Scenario, Job), String> {
    let scenario = as_sent(scenario)?;
    let job = Job::start(ctx, work(&scenario))?;
    Ok((scenario, job))
}

/// A job's work, done a batch of [`EVENTS_PER_BATCH`] events at a time: a thread does the
/// batches back to back; a Web Worker paces them from `web/worker.js`.
enum Performer {
    /// Across seeds.
    Sweep(Sweep),
    /// Find a failure, with the scenario searched (a counterexample is told against it).
    Search {
        scenario: Box<Scenario>,
        search: Box<Searcher>,
    },
}

impl Performer {
    /// The work `work` asks for, not yet begun.
    ///
    /// # Errors
    /// When the work's scenario cannot be read.
    fn new(work: Work) -> Result<Performer, String> {
        Ok(match work {
            Work::Sweep { scenario, seeds } => {
                let scenario = parse(&scenario).map_err(|e| e.to_string())?;
                Performer::Sweep(Sweep::new(&scenario, seeds))
            }
            Work::Search { scenario, options } => {
                let scenario = parse(&scenario).map_err(|e| e.to_string())?;
                let search = Box::new(Searcher::new(&scenario, options));
                Performer::Search {
                    scenario: Box::new(scenario),
                    search,
                }
            }
        })
    }

    /// Does the next batch and tells `send` its news, and whether it is the last, which the
    /// page should show at once rather than within [`PROGRESS_EVERY`]. Returns whether the
    /// work is over: done, or `send` said the page no longer listens.
    ///
    /// # Errors
    /// When a batch cannot be counted (a bug).
    fn step(&mut self, send: &mut impl FnMut(News, bool) -> bool) -> Result<bool, String> {
        match self {
            Performer::Sweep(sweep) => {
                if sweep.is_done() {
                    return Ok(true);
                }
                let batch = sweep.run_next(EVENTS_PER_BATCH);
                sweep.count(&batch)?;
                let done = sweep.is_done();
                Ok(!send(News::Batch(batch), done) || done)
            }
            Performer::Search { scenario, search } => {
                search.advance(EVENTS_PER_BATCH);
                let news = match search.outcome() {
                    None => News::Searched(search.tries()),
                    Some(outcome) => News::SearchOver {
                        tries: outcome.tries,
                        found: outcome
                            .found
                            .as_ref()
                            .map(|found| Found::of(scenario, found)),
                    },
                };
                let over = matches!(news, News::SearchOver { .. });
                Ok(!send(news, over) || over)
            }
        }
    }
}

/// Does `work` to its end, a batch after another, telling `send` the news of each
/// ([`Performer::step`]).
///
/// # Errors
/// When the work's scenario cannot be read.
#[cfg(not(target_arch = "wasm32"))]
fn perform(work: Work, mut send: impl FnMut(News, bool) -> bool) -> Result<(), String> {
    let mut performer = Performer::new(work)?;
    while !performer.step(&mut send)? {}
    Ok(())
}

#[cfg(test)]
mod tests {
    use eframe::egui;

    use super::*;
    use crate::checker::Price;
    use crate::scenario::library::shipped;
    use crate::search::Goal;

    /// What the page hears from a job on another thread: everything it sent, in order.
    fn heard(work: Work) -> Vec<News> {
        let ctx = egui::Context::default();
        let mut job = Job::start(&ctx, work).unwrap();
        let mut news = Vec::new();
        for _ in 0..20_000 {
            let arrived = job.take().unwrap();
            let over = arrived.iter().any(|n| match n {
                News::SearchOver { .. } => true,
                News::Batch(_) | News::Searched(_) => false,
            });
            news.extend(arrived);
            if over || news.len() > 10_000 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        news
    }

    #[test]
    fn a_message_reads_back_as_written_floats_bit_for_bit() {
        let price = Price {
            latencies_ms: vec![3, 17, 900],
            throughput_per_s: 0.1 + 0.2,
            availability: 1.0 / 3.0,
        };
        let run = crate::Judged {
            verdict: crate::testkit::verdict(false, &[crate::checker::ViolationKind::StaleWrite]),
            price,
            events: 40,
            steps: 50,
        };
        let news = News::Batch(vec![(3, Outcome::of(u64::MAX, run))]);
        let back: News = decode(&encode(&news).unwrap()).unwrap();
        let (News::Batch(sent), News::Batch(got)) = (&news, &back) else {
            panic!("{back:?}");
        };
        assert_eq!(sent, got);
        assert_eq!(
            got[0].1.price.availability.to_bits(),
            (1.0f64 / 3.0).to_bits()
        );
        let work = Work::search(
            &shipped("scenarios/step5-fencing-token.toml"),
            Options::default(),
        );
        let back: Work = decode(&encode(&work).unwrap()).unwrap();
        assert_eq!(format!("{back:?}"), format!("{work:?}"));
        assert!(decode::<News>("Batch([(0, 1)])").is_err());
    }

    #[test]
    fn a_search_off_the_ui_thread_is_told_as_the_search_made_here() {
        let mut scenario = shipped("scenarios/step6-redlock-clock-jump.toml");
        scenario.faults.clear();
        let scenario = as_sent(&scenario).unwrap();
        let options = Options {
            tries: 1_000,
            goal: Goal::Unsafe,
            ..Options::default()
        };
        let here = crate::search::search(&scenario, &options);
        let Some(News::SearchOver { tries, found }) = heard(Work::search(&scenario, options)).pop()
        else {
            panic!("the search ended");
        };
        assert!(tries > 0, "the search drew faults");
        assert_eq!(tries, here.tries);
        let remade = found
            .expect("a failure")
            .remade(&scenario, &options)
            .unwrap();
        let made = here.found.expect("a failure");
        assert_eq!(remade.faults, made.faults);
        assert_eq!(remade.scenario, made.scenario);
        assert_eq!(remade.run.verdict, made.run.verdict);
    }
}
