//! "Across seeds": how often each kind of violation happens over many runs of the current
//! setup, and of the same setup on every rung of the design ladder — "usually exclusive" as a
//! number.
//!
//! The runs happen on the UI thread, a bounded amount per frame ([`Sweep::advance`]): the
//! browser build has no threads, and a fixed amount of work per frame keeps the window
//! responsive there and on the desktop alike.

use eframe::egui::{self, Color32, RichText, Stroke, Ui};
use egui_plot::{Bar, BarChart, Plot};

use super::style;
use crate::checker::{Kind, Verdict};
use crate::scenario::{Acquire, Design, Expiry, FaultKind, Lock, Renewal, Scenario, Topology};
use crate::text::fmt_ms;

/// Work done per frame, in engine events. A run costs about its handled events
/// ([`crate::trace::Trace::steps`]) plus a fixed share for setting up, recording and checking
/// it, [`RUN_COST`]; measured that way the work per frame stays bounded whether a scenario's
/// runs are long or short — a few ms in an optimised build. Counting events, not reading a
/// clock, makes it the same on every platform.
const EVENTS_PER_FRAME: u64 = 40_000;

/// The fixed cost of one run, in events: in a debug build a run of 34 events took as long as
/// about 100 events of a long run.
const RUN_COST: u64 = 100;

/// The sweep sizes offered.
const SIZES: [u64; 3] = [100, 1_000, 10_000];

/// How often each kind of violation appeared over a number of runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Runs counted.
    pub runs: u64,
    /// Runs with no `stale_write` and no `interleaved_writes`.
    pub safe: u64,
    /// Runs with no `stuck` and no `starved`.
    pub live: u64,
    /// Runs that reported each kind at least once, in [`Kind::ALL`] order.
    pub kinds: [u64; Kind::ALL.len()],
    /// The first seed whose run was unsafe or not live: the one to look at.
    pub first_failing: Option<u64>,
}

impl Tally {
    /// Counts one run, made with `seed`.
    pub fn add(&mut self, seed: u64, verdict: &Verdict) {
        self.runs += 1;
        self.safe += u64::from(verdict.safe);
        self.live += u64::from(verdict.live);
        if !(verdict.safe && verdict.live) {
            self.first_failing.get_or_insert(seed);
        }
        for (count, kind) in self.kinds.iter_mut().zip(Kind::ALL) {
            *count += u64::from(verdict.has(kind));
        }
    }

    /// Runs that reported `kind`.
    pub fn count(&self, kind: Kind) -> u64 {
        Kind::ALL
            .iter()
            .position(|k| *k == kind)
            .map_or(0, |i| self.kinds[i])
    }

    /// `n` runs as a percentage of all runs (0 when there were none).
    pub fn percent(&self, n: u64) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            100.0 * n as f64 / self.runs as f64
        }
    }
}

/// The same scenario on rung `design` of the ladder, changed only as far as that rung needs to
/// be a valid scenario: fencing is checked at the resource on the `fencing` rung only; designs
/// without a lease get no renewal and store-side expiry; reentrancy needs owner tokens. The
/// store topology stays unless the rung cannot run on it (flag needs one database, fencing
/// cannot use Redlock); then it is a single node, and faults that named the other store nodes
/// go. `[expect]` goes too: it describes the original design.
pub fn rung(scenario: &Scenario, design: Design) -> Result<Scenario, String> {
    let mut s = scenario.clone();
    s.expect = None;
    s.lock.design = design;
    s.resource.fencing = design == Design::Fencing;
    if design.has_lease() {
        if s.lock.ttl_ms == 0 {
            s.lock.ttl_ms = Lock::default().ttl_ms;
        }
    } else {
        s.lock.renewal = Renewal::None;
        s.lock.expiry = Expiry::Store;
        s.lock.acquire = Acquire::OneStep;
    }
    s.lock.reentrant &= design.checks_owner();
    s.lock.hold_count |= !s.lock.reentrant;
    if s.validate().is_err() && s.store.topology != Topology::Single {
        to_single_store(&mut s);
    }
    s.validate().map_err(|e| e.to_string())?;
    Ok(s)
}

/// One store node; faults on nodes that no longer exist are dropped, and partitions lose them
/// from their groups (a partition left with fewer than two groups cuts nothing and goes).
fn to_single_store(s: &mut Scenario) {
    s.store.topology = Topology::Single;
    s.store.nodes = 1;
    let gone = |node: &str| {
        node.strip_prefix("store")
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n > 1)
    };
    s.faults.retain_mut(|fault| match &mut fault.kind {
        FaultKind::Pause { node, .. }
        | FaultKind::Stall { node, .. }
        | FaultKind::Crash { node }
        | FaultKind::Restart { node }
        | FaultKind::ClockJump { node, .. } => !gone(node),
        FaultKind::Delay { from, to, .. } => !gone(from) && !gone(to),
        FaultKind::Partition { groups, .. } => {
            for group in groups.iter_mut() {
                group.retain(|node| !gone(node));
            }
            groups.retain(|group| !group.is_empty());
            groups.len() >= 2
        }
        FaultKind::ForceRelease { node, .. } => node.as_deref().is_none_or(|n| !gone(n)),
        FaultKind::KillStore { .. } | FaultKind::Heal => true,
    });
    s.store_clocks.retain(|c| !gone(&c.name));
}

/// One line of the comparison: what was run, and what came out.
#[derive(Clone, Debug)]
pub struct Row {
    /// "this scenario", or the rung's name.
    pub label: String,
    /// The scenario run on this line, or why it cannot be.
    pub scenario: Result<Scenario, String>,
    /// What its runs so far reported.
    pub tally: Tally,
}

/// Many seeds of a scenario and of its ladder rungs, run a bounded amount at a time.
///
/// Seeds go round-robin over the rows (every row gets seed k before any gets seed k + 1), so a
/// sweep stopped half-way still compares the rows on the same seeds.
#[derive(Clone, Debug)]
pub struct Sweep {
    rows: Vec<Row>,
    first_seed: u64,
    seeds: u64,
    /// Index of the seed being run (0-based from `first_seed`), and the next row to run it on.
    next_seed: u64,
    next_row: usize,
}

impl Sweep {
    /// `seeds` seeds from `scenario.seed` on, for `scenario` and each rung of the ladder.
    pub fn new(scenario: &Scenario, seeds: u64) -> Sweep {
        let this = Row {
            label: "this scenario".to_string(),
            scenario: scenario
                .validate()
                .map(|()| scenario.clone())
                .map_err(|e| e.to_string()),
            tally: Tally::default(),
        };
        let rungs = Design::ALL.map(|design| Row {
            label: design.as_str().to_string(),
            scenario: rung(scenario, design),
            tally: Tally::default(),
        });
        Sweep {
            rows: std::iter::once(this).chain(rungs).collect(),
            first_seed: scenario.seed,
            seeds,
            next_seed: 0,
            next_row: 0,
        }
    }

    /// Runs until the runs made cost `budget_events` (see [`EVENTS_PER_FRAME`]), or the sweep
    /// is done; at least one run if any is left.
    pub fn advance(&mut self, budget_events: u64) {
        let mut spent = 0;
        while !self.is_done() && spent < budget_events {
            let seed = self.first_seed.wrapping_add(self.next_seed);
            let row = &mut self.rows[self.next_row];
            if let Ok(scenario) = &row.scenario {
                let run = crate::run(scenario, seed);
                row.tally.add(seed, &run.verdict);
                spent += run.steps() + RUN_COST;
            }
            self.next_row += 1;
            if self.next_row == self.rows.len() {
                self.next_row = 0;
                self.next_seed += 1;
            }
        }
    }

    /// Whether every seed has been run on every row.
    pub fn is_done(&self) -> bool {
        self.next_seed >= self.seeds
    }

    /// The fraction of runs made, from 0 to 1.
    pub fn progress(&self) -> f32 {
        if self.seeds == 0 {
            1.0
        } else {
            self.next_seed as f32 / self.seeds as f32
        }
    }

    /// Seeds run on every row so far.
    pub fn seeds_done(&self) -> u64 {
        self.next_seed.min(self.seeds)
    }

    /// Seeds the sweep was asked to run.
    pub fn seeds(&self) -> u64 {
        self.seeds
    }

    /// The rows: this scenario first, then the rungs bottom to top.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }
}

/// The rungs of a sweep's rows (all but the first, this scenario) compared in a sentence, on
/// the safety kind seen most often: e.g.
/// "flag: 100 % of 1 000 runs had stale_write; …; fencing: 0 % of 1 000 runs had
/// stale_write".
pub fn ladder_line(rows: &[Row]) -> String {
    let rungs: Vec<&Row> = rows
        .iter()
        .skip(1)
        .filter(|row| row.scenario.is_ok())
        .collect();
    let total = |kind: Kind| rungs.iter().map(|row| row.tally.count(kind)).sum::<u64>();
    let seen = |kinds: &mut dyn Iterator<Item = Kind>| {
        kinds
            .map(|k| (total(k), k))
            .filter(|(n, _)| *n > 0)
            .max_by_key(|(n, k)| (*n, std::cmp::Reverse(*k)))
            .map(|(_, k)| k)
    };
    let headline = seen(&mut Kind::ALL.into_iter().filter(|k| k.breaks_safety()))
        .or_else(|| seen(&mut Kind::ALL.into_iter()));
    let Some(kind) = headline else {
        return "No rung showed any violation in these runs.".to_string();
    };
    // One format for every rung, 0 included, so the rungs read side by side.
    let parts: Vec<String> = rungs
        .iter()
        .map(|row| {
            format!(
                "{}: {} of {} runs had {}",
                row.label,
                percent(&row.tally, row.tally.count(kind)),
                count(row.tally.runs),
                kind.as_str()
            )
        })
        .collect();
    parts.join("; ")
}

/// `n` of the tally's runs as "37 %", with a decimal below 10 % so a rare failure never reads
/// as 0.
fn percent(tally: &Tally, n: u64) -> String {
    let p = tally.percent(n);
    if n > 0 && p < 10.0 {
        format!("{p:.1} %")
    } else {
        format!("{p:.0} %")
    }
}

/// A count with its thousands grouped the way times are ("1 000").
fn count(n: u64) -> String {
    let text = fmt_ms(n);
    text.strip_suffix(" ms").unwrap_or(&text).to_string()
}

/// The bar colour of a kind: its family's colour from [`style::violation`] (red data,
/// orange lock, violet liveness), lighter or darker to tell the kinds of a family apart.
fn kind_colour(kind: Kind) -> Color32 {
    let base = style::violation(kind);
    match kind {
        Kind::InterleavedWrites | Kind::ForeignRelease | Kind::Starved => {
            base.lerp_to_gamma(Color32::WHITE, 0.45)
        }
        Kind::DoubleGrant => base.lerp_to_gamma(Color32::BLACK, 0.3),
        Kind::StaleWrite | Kind::Overlap | Kind::Stuck => base,
    }
}

/// The "Across seeds" panel.
///
/// The shell calls [`AcrossSeeds::show`] every frame the panel is visible, with the scenario on
/// screen. It returns a scenario (with its `seed` set) when the learner asks to see one of the
/// failing runs; the shell runs and shows that one.
pub struct AcrossSeeds {
    seeds: u64,
    sweep: Option<Sweep>,
    /// The scenario the sweep was started for.
    of: Option<Scenario>,
    running: bool,
}

impl Default for AcrossSeeds {
    fn default() -> Self {
        AcrossSeeds {
            seeds: SIZES[1],
            sweep: None,
            of: None,
            running: false,
        }
    }
}

impl AcrossSeeds {
    /// Draws the panel for `current`, running the next share of a sweep in progress.
    pub fn show(&mut self, ui: &mut Ui, current: &Scenario) -> Option<Scenario> {
        self.step();
        if self.running {
            // Come back next frame for the next share, even if the mouse does not move.
            ui.ctx().request_repaint();
        }
        ui.heading("Across seeds");
        ui.label(
            "Each seed draws different network delays. Run many and count how often each \
             thing goes wrong — for this scenario, and for the same setup on every rung of \
             the design ladder.",
        );
        ui.add_space(4.0);
        self.controls(ui, current);
        let Some(sweep) = &self.sweep else {
            return None;
        };
        if self.of.as_ref() != Some(current) {
            ui.label(
                RichText::new("The scenario has changed since these runs; run again to update.")
                    .color(style::ANOMALY),
            );
        }
        ui.add_space(6.0);
        if let Some(Row {
            scenario: Ok(_),
            tally,
            ..
        }) = sweep.rows().first()
        {
            headline(ui, tally);
        }
        ui.add_space(4.0);
        ui.label(ladder_line(sweep.rows()));
        chart(ui, sweep.rows());
        table(ui, sweep.rows())
    }

    /// Runs this frame's share of the sweep.
    fn step(&mut self) {
        if let (true, Some(sweep)) = (self.running, &mut self.sweep) {
            sweep.advance(EVENTS_PER_FRAME);
            self.running = !sweep.is_done();
        }
    }

    fn controls(&mut self, ui: &mut Ui, current: &Scenario) {
        ui.horizontal(|ui| {
            ui.label("Seeds:");
            for size in SIZES {
                ui.add_enabled_ui(!self.running, |ui| {
                    ui.radio_value(&mut self.seeds, size, count(size));
                });
            }
            if self.running {
                if ui.button("Cancel").clicked() {
                    self.running = false;
                }
            } else if ui.button("Run").clicked() {
                self.sweep = Some(Sweep::new(current, self.seeds));
                self.of = Some(current.clone());
                self.running = true;
            }
        });
        if let Some(sweep) = &self.sweep {
            let done = sweep.seeds_done();
            let text = if self.running {
                format!("{} of {} seeds", count(done), count(sweep.seeds()))
            } else if sweep.is_done() {
                format!("{} seeds", count(sweep.seeds()))
            } else {
                format!(
                    "stopped after {} of {} seeds",
                    count(done),
                    count(sweep.seeds())
                )
            };
            ui.add(egui::ProgressBar::new(sweep.progress()).text(text));
        }
    }
}

/// "Exclusive in 63 % of runs", large: the number the panel is for.
fn headline(ui: &mut Ui, tally: &Tally) {
    if tally.runs == 0 {
        return;
    }
    let exclusive = tally.runs - tally.count(Kind::Overlap);
    ui.label(
        RichText::new(format!(
            "Exclusive in {} of runs",
            percent(tally, exclusive)
        ))
        .size(22.0)
        .strong(),
    );
    ui.label(format!(
        "(no two workers believed they held the lock at once) · data correct in {} · lock \
         usable to the end in {} · {} runs",
        percent(tally, tally.safe),
        percent(tally, tally.live),
        count(tally.runs)
    ));
}

/// The key to the bar colours, in [`Kind::ALL`] order (safety first) and above the chart:
/// egui_plot's own legend sorts by name and sits on top of the last group's bars.
fn legend(ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        for kind in Kind::ALL {
            // Swatch and name as one widget of known width, so the line wraps between
            // entries, never between a swatch and its name.
            let text = egui::WidgetText::from(egui::RichText::new(kind.as_str()).small());
            let galley = text.into_galley(
                ui,
                Some(egui::TextWrapMode::Extend),
                f32::INFINITY,
                egui::TextStyle::Small,
            );
            let swatch = 12.0;
            let size = egui::vec2(swatch + 4.0 + galley.size().x, galley.size().y.max(swatch));
            let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
            let swatch_rect = egui::Rect::from_center_size(
                egui::pos2(rect.left() + swatch / 2.0, rect.center().y),
                egui::vec2(swatch, swatch),
            );
            ui.painter()
                .rect_filled(swatch_rect, 2.0, kind_colour(kind));
            let text_pos = egui::pos2(
                rect.left() + swatch + 4.0,
                rect.center().y - galley.size().y / 2.0,
            );
            ui.painter()
                .galley(text_pos, galley, ui.visuals().text_color());
            ui.add_space(6.0);
        }
    });
}

/// Grouped bars: one group per row, one bar per kind, height = % of runs reporting it.
fn chart(ui: &mut Ui, rows: &[Row]) {
    legend(ui);
    let kinds = Kind::ALL.len() as f64;
    let width = 0.8 / kinds;
    let labels: Vec<String> = rows.iter().map(|row| row.label.clone()).collect();
    let charts: Vec<BarChart> = Kind::ALL
        .iter()
        .enumerate()
        .map(|(k, &kind)| {
            let offset = (k as f64 - (kinds - 1.0) / 2.0) * width;
            let colour = kind_colour(kind);
            let bars = rows
                .iter()
                .enumerate()
                .filter(|(_, row)| row.scenario.is_ok())
                .map(|(g, row)| {
                    Bar::new(g as f64 + offset, row.tally.percent(row.tally.count(kind)))
                        .width(width * 0.9)
                        // Solid: egui_plot's default fill is too faint to tell the kinds apart.
                        .fill(colour)
                        .stroke(Stroke::new(1.0, colour))
                        .name(format!("{} · {}", row.label, kind.as_str()))
                })
                .collect();
            BarChart::new(kind.as_str(), bars).color(colour)
        })
        .collect();
    let groups = rows.len();
    let response = Plot::new("across_seeds_chart")
        .height(240.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_y(0.0)
        .include_y(100.0)
        .include_x(-0.5)
        .include_x(groups as f64 - 0.5)
        .y_axis_label("% of runs")
        // The group names are painted under the plot instead of as x-axis tick labels:
        // egui_plot drops tick labels wider than the gap between ticks, which a narrow
        // panel always makes them.
        .show_axes([false, true])
        .show_grid([false, true])
        .show(ui, |plot| {
            for chart in charts {
                plot.bar_chart(chart);
            }
        });
    group_labels(ui, &response.transform, &labels);
}

/// Each group's name, centred under its bars, wrapped to the group's width.
fn group_labels(ui: &mut Ui, transform: &egui_plot::PlotTransform, labels: &[String]) {
    let font = egui::TextStyle::Small.resolve(ui.style());
    let colour = ui.visuals().text_color();
    let room = (transform.position_from_point_x(1.0) - transform.position_from_point_x(0.0))
        .abs()
        .max(24.0);
    let galleys: Vec<_> = labels
        .iter()
        .map(|label| {
            ui.painter()
                .layout(label.clone(), font.clone(), colour, room - 4.0)
        })
        .collect();
    let height = galleys.iter().map(|g| g.size().y).fold(0.0, f32::max);
    let (rect, _) = ui.allocate_exact_size(
        egui::vec2(ui.available_width(), height + 2.0),
        egui::Sense::hover(),
    );
    for (g, galley) in galleys.into_iter().enumerate() {
        let x = transform.position_from_point_x(g as f64);
        let pos = egui::pos2(x - galley.size().x / 2.0, rect.top() + 2.0);
        ui.painter().galley(pos, galley, colour);
    }
}

/// Per row: runs, safe and live shares, and a button to open the first failing run.
fn table(ui: &mut Ui, rows: &[Row]) -> Option<Scenario> {
    let mut open = None;
    egui::Grid::new("across_seeds_table")
        .striped(true)
        .num_columns(5)
        .show(ui, |ui| {
            for heading in ["", "runs", "safe", "live", "first bad run"] {
                ui.label(RichText::new(heading).strong());
            }
            ui.end_row();
            let topology = rows
                .first()
                .and_then(|row| row.scenario.as_ref().ok())
                .map(|s| s.store.topology);
            for row in rows {
                let moved = match (&row.scenario, topology) {
                    (Ok(s), Some(t)) => s.store.topology != t,
                    _ => false,
                };
                if moved {
                    ui.label(format!("{} (single store)", row.label))
                        .on_hover_text(
                            "This rung cannot run on the scenario's store topology, so it runs on \
                         one store node.",
                        );
                } else {
                    ui.label(&row.label);
                }
                match &row.scenario {
                    Err(reason) => {
                        ui.label(RichText::new("cannot run").weak())
                            .on_hover_text(reason);
                    }
                    Ok(scenario) => {
                        let t = &row.tally;
                        ui.label(count(t.runs));
                        ui.label(percent(t, t.safe));
                        ui.label(percent(t, t.live));
                        match t.first_failing {
                            Some(seed) => {
                                if ui.button(format!("open seed {seed}")).clicked() {
                                    let mut chosen = scenario.clone();
                                    chosen.seed = seed;
                                    open = Some(chosen);
                                }
                            }
                            None => {
                                ui.label(RichText::new("none").weak());
                            }
                        }
                    }
                }
                ui.end_row();
            }
        });
    open
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::headless;
    use crate::scenario::{Fault, parse};

    fn files(dir: &str) -> Vec<(String, Scenario)> {
        let dir = format!("{}/assets/{dir}", env!("CARGO_MANIFEST_DIR"));
        let mut out: Vec<(String, Scenario)> = std::fs::read_dir(&dir)
            .expect("scenario directory")
            .map(|entry| {
                let path = entry.expect("directory entry").path();
                let text = std::fs::read_to_string(&path).expect("scenario file");
                let scenario = parse(&text).expect("valid scenario");
                (path.display().to_string(), scenario)
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    fn load(file: &str) -> Scenario {
        let text = std::fs::read_to_string(format!("{}/assets/{file}", env!("CARGO_MANIFEST_DIR")))
            .expect("scenario file");
        parse(&text).expect("valid scenario")
    }

    /// The plain loop the sweep must agree with.
    fn straight(scenario: &Scenario, seeds: u64) -> Tally {
        let mut tally = Tally::default();
        for i in 0..seeds {
            let seed = scenario.seed + i;
            tally.add(seed, &crate::run(scenario, seed).verdict);
        }
        tally
    }

    #[test]
    fn the_sweep_counts_what_a_straight_loop_counts() {
        let s = load("scenarios/step7-retry-starves.toml");
        let mut sweep = Sweep::new(&s, 12);
        let mut frames = 0;
        while !sweep.is_done() {
            // A small budget: every frame ends part-way through a seed's rows.
            sweep.advance(500);
            frames += 1;
        }
        assert!(frames > 6, "the work was spread over {frames} frames");
        for row in sweep.rows() {
            let scenario = row.scenario.as_ref().expect("every rung runs");
            assert_eq!(row.tally, straight(scenario, 12), "row {}", row.label);
            assert_eq!(row.tally.runs, 12);
        }
    }

    #[test]
    fn a_stopped_sweep_has_run_every_row_on_the_same_seeds() {
        let s = load("scenarios/step5-pause-unfenced.toml");
        let mut sweep = Sweep::new(&s, 100);
        sweep.advance(1);
        sweep.advance(1);
        let runs: Vec<u64> = sweep.rows().iter().map(|r| r.tally.runs).collect();
        assert_eq!(runs, vec![1, 1, 0, 0, 0, 0]);
        assert!(!sweep.is_done());
        assert_eq!(sweep.seeds_done(), 0, "seed 0 is not done on every row yet");
    }

    #[test]
    fn every_rung_of_every_scenario_is_valid() {
        for dir in ["scenarios", "cases"] {
            for (file, scenario) in files(dir) {
                for design in Design::ALL {
                    let s = rung(&scenario, design)
                        .unwrap_or_else(|e| panic!("{file} on {design:?}: {e}"));
                    assert_eq!(s.lock.design, design);
                    assert_eq!(s.resource.fencing, design == Design::Fencing);
                    assert_eq!(s.seed, scenario.seed);
                    assert_eq!(s.workers, scenario.workers, "{file}");
                }
            }
        }
    }

    #[test]
    fn a_rung_keeps_the_topology_when_it_can() {
        let redlock = load("scenarios/step6-redlock-clock-jump.toml");
        let token = rung(&redlock, Design::Token).unwrap();
        assert_eq!(token.store, redlock.store);
        assert_eq!(token.faults, redlock.faults);
        // Fencing cannot run on Redlock: one node. A's partition from store4-5 and store3's
        // clock jump go; B's partition from store1-2 keeps store1.
        let fencing = rung(&redlock, Design::Fencing).unwrap();
        assert_eq!(fencing.store.topology, Topology::Single);
        let groups = vec![vec!["B".to_string()], vec!["store1".to_string()]];
        assert_eq!(
            fencing.faults,
            vec![Fault {
                at_ms: 1_100,
                kind: FaultKind::Partition {
                    groups,
                    for_ms: Some(18_000)
                }
            }]
        );
    }

    #[test]
    fn fencing_the_paused_holder_makes_stale_writes_vanish() {
        let s = load("scenarios/step5-pause-unfenced.toml");
        let mut sweep = Sweep::new(&s, 20);
        sweep.advance(u64::MAX);
        let row = |label: &str| {
            sweep
                .rows()
                .iter()
                .find(|r| r.label == label)
                .unwrap()
                .tally
                .clone()
        };
        assert_eq!(row("fencing").count(Kind::StaleWrite), 0);
        assert_eq!(row("token").count(Kind::StaleWrite), 20);
        let line = ladder_line(sweep.rows());
        assert!(line.starts_with("flag: "), "{line}");
        assert!(
            line.contains("token: 100 % of 20 runs had stale_write"),
            "{line}"
        );
        assert!(
            line.ends_with("fencing: 0 % of 20 runs had stale_write"),
            "{line}"
        );
    }

    #[test]
    fn percentages_never_round_a_failure_away() {
        let mut t = Tally {
            runs: 1_000,
            ..Tally::default()
        };
        assert_eq!(percent(&t, 0), "0 %");
        assert_eq!(percent(&t, 3), "0.3 %");
        assert_eq!(percent(&t, 370), "37 %");
        t.runs = 0;
        assert_eq!(percent(&t, 0), "0 %");
        assert_eq!(count(10_000), "10 000");
    }

    #[test]
    fn the_panel_runs_a_sweep_a_share_per_frame() {
        let s = load("scenarios/step5-fencing-token.toml");
        let mut panel = AcrossSeeds {
            seeds: 100,
            ..AcrossSeeds::default()
        };
        panel.sweep = Some(Sweep::new(&s, 100));
        panel.of = Some(s.clone());
        panel.running = true;
        let ctx = egui::Context::default();
        let mut frames = 0;
        while panel.running && frames < 10_000 {
            headless::frame(&ctx, |ui| {
                assert_eq!(panel.show(ui, &s), None);
            });
            frames += 1;
        }
        assert!(!panel.running, "finished within {frames} frames");
        let sweep = panel.sweep.as_ref().unwrap();
        assert!(sweep.is_done());
        assert_eq!(sweep.rows()[0].tally.runs, 100);
    }
}
