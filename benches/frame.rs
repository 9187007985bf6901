//! What the timeline costs on a long run: laying out a trace of over 100 000 events
//! once, and one frame of the timeline — egui's pass plus tessellation, with no window —
//! zoomed out over the whole run and zoomed in on two seconds of it.
//!
//! `cargo bench --bench frame`. A frame at 60 Hz has 16 ms for everything, the timeline's
//! share must be well under that.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use eframe::egui::{self, CentralPanel, Context, RawInput, Rect, pos2, vec2};

use locksim::app::timeline::{Lanes, Timeline, View, set_messages_shown};
use locksim::checker::{self, Verdict};
use locksim::scenario::{self, Scenario};
use locksim::trace::Trace;

/// Three workers that take the lock again and again for two minutes.
const BUSY: &str = include_str!("busy.toml");

struct Run {
    trace: Trace,
    verdict: Verdict,
}

fn busy_run() -> Run {
    let scenario: Scenario = scenario::parse(BUSY).expect("the busy scenario is valid");
    let trace = locksim::engine::run(&scenario, scenario.seed);
    assert!(
        trace.events.len() >= 100_000,
        "the busy run has {} events, fewer than the 100 000 it is meant to have",
        trace.events.len()
    );
    let verdict = checker::check(&scenario, &trace);
    Run { trace, verdict }
}

/// One frame of a 1280 × 800 window whose central panel holds the timeline, tessellated.
fn frame(ctx: &Context, run: &Run, lanes: &Lanes, view: &mut View) -> usize {
    let input = RawInput {
        screen_rect: Some(Rect::from_min_size(pos2(0.0, 0.0), vec2(1280.0, 800.0))),
        ..Default::default()
    };
    let mut output = ctx.run_ui(input, |ui| {
        CentralPanel::default().show(ui, |ui| {
            let max_height = ui.available_height() - 64.0;
            Timeline {
                trace: &run.trace,
                lanes,
                verdict: &run.verdict,
                // The playhead at the end: everything is drawn.
                now_ms: run.trace.until_ms as f64,
                preview: false,
                selected: None,
            }
            .show(ui, view, max_height);
        });
    });
    // No renderer takes the font atlas here; it is dropped on purpose.
    output.textures_delta.clear();
    let shapes = std::mem::take(&mut output.shapes);
    ctx.tessellate(shapes, output.pixels_per_point).len()
}

fn timeline(c: &mut Criterion) {
    let run = busy_run();
    println!("busy run: {} events", run.trace.events.len());
    c.bench_function("lanes_build_100k", |b| {
        b.iter(|| Lanes::build(black_box(&run.trace), black_box(&run.verdict)))
    });

    let lanes = Lanes::build(&run.trace, &run.verdict);
    let until = run.trace.until_ms;
    let ctx = Context::default();
    ctx.set_theme(egui::Theme::Light);
    for (name, messages, from, to) in [
        ("frame_zoomed_out", true, 0.0, until as f64),
        ("frame_zoomed_out_no_messages", false, 0.0, until as f64),
        ("frame_zoomed_in_2s", true, 45_000.0, 47_000.0),
    ] {
        set_messages_shown(&ctx, messages);
        let mut view = View::between(from, to, until);
        c.bench_function(name, |b| {
            b.iter(|| frame(&ctx, &run, &lanes, &mut view));
        });
    }
}

criterion_group!(benches, timeline);
criterion_main!(benches);
