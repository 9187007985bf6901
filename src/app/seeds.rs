//! "Across seeds": how often each kind of violation happens over many runs of the current
//! setup, and of the same setup on every rung of the design ladder — "usually exclusive" as a
//! number — and beside it what each rung's lock cost: safety vs cost.
//!
//! The runs happen off the UI thread ([`Job`]), so the page keeps painting while they
//! go; the sweep, its counts and its wording are in [`crate::sweep`], this module only starts
//! it, counts what comes back and draws it.

use eframe::egui::{self, Color32, RichText, Stroke, Ui};
use egui_plot::{Bar, BarChart, Plot};

use super::background::{self, Job, News, Work};
use super::style;
use crate::checker::ViolationKind;
use crate::scenario::Scenario;
use crate::sweep::{
    FirstRun, Row, Sweep, Tally, ladder_line, percent, price_cells, runs_of, share_cell,
};
use crate::text::{fmt_count, fmt_counted};

/// The sweep sizes offered.
const SIZES: [u64; 3] = [100, 1_000, 10_000];

/// The bar colour of a kind: its family's colour from [`style::violation`] (red data,
/// orange lock, violet liveness), lighter or darker to tell the kinds of a family apart.
fn kind_colour(kind: ViolationKind) -> Color32 {
    let base = style::violation(kind);
    match kind {
        ViolationKind::InterleavedWrites
        | ViolationKind::ForeignRelease
        | ViolationKind::Starved => base.lerp_to_gamma(Color32::WHITE, 0.45),
        ViolationKind::DoubleGrant => base.lerp_to_gamma(Color32::BLACK, 0.3),
        ViolationKind::StaleWrite | ViolationKind::Overlap | ViolationKind::Stuck => base,
    }
}

/// The "Across seeds" panel.
///
/// The shell calls [`AcrossSeeds::show`] every frame the panel is visible, with the scenario on
/// screen. It returns a run ([`Opened`]) when the learner asks to see one of the failing runs;
/// the shell runs and shows that one.
pub struct AcrossSeeds {
    seeds: u64,
    /// The page's copy of the sweep, counting what the job sends.
    sweep: Option<Sweep>,
    /// The scenario the sweep was started for.
    of: Option<Scenario>,
    /// What Break it had changed in that scenario, in its words, oldest first.
    changed: Vec<String>,
    /// The sweep running, until it ends or is cancelled.
    job: Option<Job>,
    /// Why the last sweep stopped before its end, other than Cancel.
    failed: Option<String>,
    /// When the sweep started, egui's clock (s): what the time left is estimated from.
    started_s: f64,
}

impl Default for AcrossSeeds {
    fn default() -> Self {
        AcrossSeeds {
            seeds: SIZES[1],
            sweep: None,
            of: None,
            changed: Vec::new(),
            job: None,
            failed: None,
            started_s: 0.0,
        }
    }
}

/// A run the learner asked to see from the panel.
pub struct Opened {
    /// The row's scenario, with its `seed` set to the run's.
    pub scenario: Scenario,
    /// What Break it had changed in it, in its words: the sweep's changes for a run of the
    /// scenario swept; none for a rung of the ladder, which is another scenario.
    pub changed: Vec<String>,
}

impl AcrossSeeds {
    /// Draws the panel for `current`, running the next share of a sweep in progress.
    /// `changed`: what Break it changed in `current`, in its words (empty if nothing), so the
    /// runs are not taken for the scenario as written.
    pub fn show(&mut self, ui: &mut Ui, current: &Scenario, changed: &[String]) -> Option<Opened> {
        self.step();
        ui.heading("Across seeds");
        ui.label(
            "Each seed draws different network delays. Run many and count how often each \
             thing goes wrong — for this scenario, and for the same setup on every rung of \
             the design ladder.",
        );
        ui.add_space(4.0);
        self.controls(ui, current, changed);
        let Some(sweep) = &self.sweep else {
            return None;
        };
        if let Some(of) = &self.of {
            // The seeds actually run: fewer once the sweep is stopped.
            let ran = if self.job.is_some() {
                sweep.seeds()
            } else {
                sweep.seeds_begun()
            };
            let last = of.seed.saturating_add(ran.saturating_sub(1));
            ui.label(RichText::new(runs_of(&of.name, &self.changed, of.seed, last)).weak());
        }
        let begun = sweep.seeds_begun();
        if !self
            .of
            .as_ref()
            .is_some_and(|of| one_of(of, begun, current))
        {
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
        let open = table(ui, sweep.rows());
        ui.add_space(8.0);
        cost_table(ui, sweep.rows());
        open.map(|(row, scenario)| Opened {
            scenario,
            changed: if row == 0 {
                self.changed.clone()
            } else {
                Vec::new()
            },
        })
    }

    /// Counts the batches the job sent since the last frame; the job ends with the sweep.
    fn step(&mut self) {
        let (Some(job), Some(sweep)) = (&mut self.job, &mut self.sweep) else {
            return;
        };
        let counted = job.take().and_then(|news| {
            news.iter().try_for_each(|news| match news {
                News::Batch(batch) => sweep.count(batch),
                News::Searched(_) | News::SearchOver { .. } => {
                    Err("a sweep heard a search's news".to_string())
                }
            })
        });
        if let Err(reason) = counted {
            self.failed = Some(reason);
            self.job = None;
        } else if sweep.is_done() {
            self.job = None;
        }
    }

    /// What a screen reader hears of the sweep, after the run on screen: that it runs, then
    /// its headline once done. Without the count so far, so the page's live region speaks
    /// once, not every batch.
    pub fn spoken(&self) -> Option<String> {
        if let Some(reason) = &self.failed {
            return Some(format!("Across seeds: {reason}"));
        }
        let sweep = self.sweep.as_ref()?;
        let seeds = fmt_count(sweep.seeds());
        if self.job.is_some() {
            return Some(format!("Across seeds: running {seeds} seeds."));
        }
        let tally = &sweep.rows().first()?.tally;
        if !sweep.is_done() || tally.runs() == 0 {
            return Some(format!(
                "Across seeds: stopped after {} of {seeds} seeds.",
                fmt_count(sweep.seeds_begun())
            ));
        }
        let exclusive = tally.runs() - tally.count(ViolationKind::Overlap);
        Some(format!(
            "Across seeds, {seeds} seeds: exclusive in {} of runs, data correct in {}, lock \
             usable to the end in {}.",
            percent(tally, exclusive),
            percent(tally, tally.safe()),
            percent(tally, tally.live())
        ))
    }

    /// Starts a sweep of `current` off the UI thread; `changed` is what Break it changed in it.
    fn start(&mut self, ctx: &egui::Context, current: &Scenario, changed: &[String]) {
        self.failed = None;
        self.started_s = ctx.input(|i| i.time);
        let seeds = self.seeds;
        match background::start(ctx, current, |s| Work::sweep(s, seeds)) {
            Ok((scenario, job)) => {
                self.sweep = Some(Sweep::new(&scenario, seeds));
                self.job = Some(job);
            }
            Err(reason) => {
                self.sweep = None;
                self.failed = Some(reason);
            }
        }
        self.of = Some(current.clone());
        self.changed = changed.to_vec();
    }

    fn controls(&mut self, ui: &mut Ui, current: &Scenario, changed: &[String]) {
        ui.horizontal(|ui| {
            let line = "Seeds:";
            ui.label(line);
            let running = self.job.is_some();
            for size in SIZES {
                ui.add_enabled_ui(!running, |ui| {
                    let text = fmt_count(size);
                    // Named for screen readers by the line's word too: a number alone does
                    // not say what it counts.
                    let name = format!("{line} {text}");
                    ui.radio_value(&mut self.seeds, size, text)
                        .accessible_name(name);
                });
            }
            if running {
                if ui.button("Cancel").clicked() {
                    self.job = None;
                }
            } else if ui.button("Run").clicked() {
                self.start(ui.ctx(), current, changed);
            }
        });
        if let Some(reason) = &self.failed {
            ui.colored_label(style::ANOMALY, reason);
        }
        if let Some(sweep) = &self.sweep {
            // Seeds begun, so the count matches the headline's runs (this scenario's row).
            let done = sweep.seeds_begun();
            let text = if self.job.is_some() {
                let elapsed = ui.input(|i| i.time) - self.started_s;
                format!(
                    "{} of {} seeds{}",
                    fmt_count(done),
                    fmt_count(sweep.seeds()),
                    time_left(elapsed, done, sweep.seeds())
                )
            } else if sweep.is_done() {
                format!("{} seeds", fmt_count(sweep.seeds()))
            } else {
                format!(
                    "stopped after {} of {} seeds",
                    fmt_count(done),
                    fmt_count(sweep.seeds())
                )
            };
            ui.add(egui::ProgressBar::new(sweep.progress()).text(text));
        }
    }
}

/// " · about 3 min left" for a sweep that took `elapsed_s` seconds for `done` of `seeds`
/// seeds, so a learner can cancel one that would run for hours; empty while too early to tell
/// or nearly done.
fn time_left(elapsed_s: f64, done: u64, seeds: u64) -> String {
    if done == 0 || elapsed_s < 1.0 {
        return String::new();
    }
    let left_s = elapsed_s * (seeds.saturating_sub(done)) as f64 / done as f64;
    let (amount, unit) = match left_s {
        s if s < 10.0 => return String::new(),
        s if s < 90.0 => (s, "s"),
        s if s < 90.0 * 60.0 => (s / 60.0, "min"),
        s if s < 36.0 * 3600.0 => (s / 3600.0, "h"),
        s => (s / 86_400.0, "days"),
    };
    format!(" · about {} {unit} left", fmt_count(amount.round() as u64))
}

/// "Exclusive in 63 % of runs", large: the number the panel is for.
fn headline(ui: &mut Ui, tally: &Tally) {
    if tally.runs() == 0 {
        return;
    }
    let exclusive = tally.runs() - tally.count(ViolationKind::Overlap);
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
         usable to the end in {} · {}",
        percent(tally, tally.safe()),
        percent(tally, tally.live()),
        fmt_counted(tally.runs(), "run")
    ));
}

/// The key to the bar colours, in [`ViolationKind::ALL`] order (safety first) and above the chart:
/// egui_plot's own legend sorts by name and sits on top of the last group's bars.
fn legend(ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        for kind in ViolationKind::ALL {
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

/// A row's name as the chart and both tables show it.
struct Label {
    text: String,
    /// The rung cannot run on the scenario's store topology, so it runs on one store node.
    moved: bool,
}

/// The rows' names: a rung moved to one store node says so, since its numbers are not of the
/// scenario's topology.
fn labels(rows: &[Row]) -> Vec<Label> {
    let topology = rows
        .first()
        .and_then(|row| row.scenario.as_ref().ok())
        .map(|s| s.store.topology);
    rows.iter()
        .map(|row| {
            let moved = match (&row.scenario, topology) {
                (Ok(s), Some(t)) => s.store.topology != t,
                _ => false,
            };
            let text = if moved {
                format!("{} (single store)", row.label)
            } else {
                row.label.clone()
            };
            Label { text, moved }
        })
        .collect()
}

fn row_label(ui: &mut Ui, label: Label) {
    let response = ui.label(label.text);
    if label.moved {
        response.on_hover_text(
            "This rung cannot run on the scenario's store topology, so it runs on one store node.",
        );
    }
}

/// Grouped bars: one group per row, one bar per kind, height = % of runs reporting it.
fn chart(ui: &mut Ui, rows: &[Row]) {
    legend(ui);
    let kinds = ViolationKind::ALL.len() as f64;
    let width = 0.8 / kinds;
    let labels: Vec<String> = labels(rows).into_iter().map(|l| l.text).collect();
    let charts: Vec<BarChart> = ViolationKind::ALL
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
                        .name(format!("{} · {}", labels[g], kind.as_str()))
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

/// The width of the widest count or share a table cell shows ("10 000", "100 %"), so the
/// columns keep their width while a sweep counts up: a column that widens makes egui lay the
/// table out again in another frame, a whole repaint more for every change.
fn number_width(ui: &Ui) -> f32 {
    let font = egui::TextStyle::Body.resolve(ui.style());
    ["10 000", "100 %"]
        .into_iter()
        .map(|text| {
            ui.painter()
                .layout_no_wrap(text.to_string(), font.clone(), Color32::PLACEHOLDER)
                .size()
                .x
        })
        .fold(0.0, f32::max)
}

/// Per row: runs, safe and live shares, and a button to open the first bad run (unsafe or not
/// live); in a row with none, the first run in which the lock misbehaved, named so
/// ([`FirstRun`]). Returns the row and scenario of the run asked for.
fn table(ui: &mut Ui, rows: &[Row]) -> Option<(usize, Scenario)> {
    let mut open = None;
    egui::Grid::new("across_seeds_table")
        .striped(true)
        .num_columns(5)
        .min_col_width(number_width(ui))
        .show(ui, |ui| {
            for heading in ["", "runs", "safe", "live", "first bad run"] {
                ui.label(RichText::new(heading).strong());
            }
            ui.end_row();
            for (i, (row, label)) in rows.iter().zip(labels(rows)).enumerate() {
                let name = label.text.clone();
                row_label(ui, label);
                match &row.scenario {
                    Err(reason) => {
                        ui.label(RichText::new("cannot run").weak())
                            .on_hover_text(reason);
                    }
                    Ok(scenario) => {
                        let t = &row.tally;
                        ui.label(fmt_count(t.runs()));
                        ui.label(share_cell(t, t.safe()));
                        ui.label(share_cell(t, t.live()));
                        let clicked = ui
                            .vertical(|ui| {
                                let first = FirstRun::of(t);
                                if !matches!(first, Some(FirstRun::Bad(_))) {
                                    ui.label(RichText::new("none").weak());
                                }
                                let first = first?;
                                let open_it = ui
                                    .button(first.button())
                                    .accessible_name(first.spoken(&name))
                                    .on_hover_text(first.about());
                                open_it.clicked().then_some(first.seed())
                            })
                            .inner;
                        if let Some(seed) = clicked {
                            let mut chosen = scenario.clone();
                            chosen.seed = seed;
                            open = Some((i, chosen));
                        }
                    }
                }
                ui.end_row();
            }
        });
    open
}

/// Safety vs cost: per row, the share of safe runs beside what the lock cost — acquire
/// latency, critical sections per second, availability ([`crate::checker::Price`]). Scrolls
/// sideways when the window is narrower than the table.
fn cost_table(ui: &mut Ui, rows: &[Row]) {
    ui.label(RichText::new("Safety vs cost").strong());
    ui.label(
        RichText::new(
            "What each rung's lock cost: how long a worker waited from its first request to \
             the lock (median / 99th percentile), critical sections done per simulated \
             second, and the share of time no running worker waited on a lock nobody running \
             held.",
        )
        .small(),
    );
    egui::ScrollArea::horizontal()
        .id_salt("across_seeds_cost")
        .show(ui, |ui| {
            egui::Grid::new("across_seeds_cost_table")
                .striped(true)
                .num_columns(5)
                .min_col_width(number_width(ui))
                .show(ui, |ui| {
                    for heading in ["", "safe", "acquire p50 / p99", "sections/s", "available"] {
                        ui.label(RichText::new(heading).strong());
                    }
                    ui.end_row();
                    for (row, label) in rows.iter().zip(labels(rows)) {
                        row_label(ui, label);
                        if row.scenario.is_err() {
                            ui.label(RichText::new("cannot run").weak());
                        } else {
                            ui.label(share_cell(&row.tally, row.tally.safe()));
                            for cell in price_cells(&row.tally) {
                                ui.label(cell);
                            }
                        }
                        ui.end_row();
                    }
                });
        });
}

/// Whether `run` is one of the runs of a sweep of `of` that began `seeds` seeds: the same
/// scenario, with one of their seeds (a seed opened from the table).
fn one_of(of: &Scenario, seeds: u64, run: &Scenario) -> bool {
    let mut seeded = run.clone();
    seeded.seed = of.seed;
    *of == seeded && (of.seed..of.seed.saturating_add(seeds)).contains(&run.seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::headless;
    use crate::scenario::library::shipped;

    #[test]
    fn a_seed_opened_from_the_runs_is_one_of_them() {
        let of = shipped("scenarios/step5-pause-unfenced.toml");
        let mut run = of.clone();
        run.seed = of.seed + 41;
        assert!(one_of(&of, 100, &run));
        assert!(!one_of(&of, 41, &run), "a seed past those run");
        run.until_ms += 1;
        assert!(!one_of(&of, 100, &run), "another scenario");
    }

    #[test]
    fn the_panel_counts_a_sweep_run_off_the_ui_thread() {
        let s = shipped("scenarios/step5-fencing-token.toml");
        let mut panel = AcrossSeeds {
            seeds: 100,
            ..AcrossSeeds::default()
        };
        let ctx = egui::Context::default();
        panel.start(&ctx, &s, &[]);
        let mut frames = 0;
        while panel.job.is_some() && frames < 100_000 {
            headless::frame(&ctx, |ui| {
                assert!(panel.show(ui, &s, &[]).is_none());
            });
            frames += 1;
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert_eq!(panel.failed, None);
        let sweep = panel.sweep.as_ref().unwrap();
        assert!(sweep.is_done(), "finished within {frames} frames");
        let mut here = Sweep::new(&s, 100);
        here.advance(u64::MAX);
        for (counted, made) in sweep.rows().iter().zip(here.rows()) {
            assert_eq!(counted.tally, made.tally, "row {}", made.label);
        }
        assert_eq!(sweep.rows()[0].tally.runs(), 100);
    }

    #[test]
    fn a_rung_moved_to_one_store_node_says_so_everywhere() {
        let s = shipped("scenarios/step6-redlock-clock-jump.toml");
        let sweep = Sweep::new(&s, 1);
        let names: Vec<String> = labels(sweep.rows()).into_iter().map(|l| l.text).collect();
        assert_eq!(names[0], "this scenario");
        assert!(
            names.contains(&"fencing (single store)".to_string()),
            "fencing cannot run on Redlock: {names:?}"
        );
        assert!(names.contains(&"ttl".to_string()), "{names:?}");
    }

    #[test]
    fn the_time_left_is_in_a_unit_people_read() {
        assert_eq!(time_left(0.5, 1, 10_000), "", "too early to tell");
        assert_eq!(time_left(2.0, 100, 1_000), " · about 18 s left");
        assert_eq!(time_left(60.0, 100, 1_000), " · about 9 min left");
        assert_eq!(time_left(15.0, 1, 10_000), " · about 2 days left");
        assert_eq!(time_left(5.0, 999, 1_000), "", "nearly done");
    }
}
