//! The SVG text of three shipped scenarios' pictures, pinned, so a change to how a run is
//! drawn shows up here line by line: between them they draw leases and their ends, fencing
//! tokens and a refused write, violations on the axis, a process pause, a partition, the
//! narrow lane-name column, a picture cut at a time, and the legend.
//!
//! And the calls the drawing makes on its pen for one run, pinned the same way: every medium
//! (the SVG, the app's painter) is one pen, so what is pinned here is what each of them draws.

use std::fmt::Write as _;

use locksim::checker::Verdict;
use locksim::picture::sizes::{AXIS, GUTTER, RIGHT_PAD, gutter, lane_floor, lane_height, line_h};
use locksim::picture::{self, Anchor, Area, Frame, Hatch, Layer, Pen, Theme, legend, measure};
use locksim::render::svg::{self, Picture};
use locksim::scenario;
use locksim::view::palette::Rgba;
use locksim::view::timeline::Lanes;

/// The run of `file` (relative to the crate root), with its own seed, and its lanes.
fn run(file: &str) -> (locksim::trace::Trace, Verdict, Lanes) {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).expect("a shipped scenario");
    let sc = scenario::parse(&src).expect("it parses");
    let locksim::Run { trace, verdict, .. } = locksim::run(&sc, sc.seed);
    let lanes = Lanes::build(&trace, &verdict);
    (trace, verdict, lanes)
}

/// The SVG `locksim render` writes for `file` as `picture`.
fn picture_of(file: &str, picture: Picture) -> String {
    let (trace, verdict, lanes) = run(file);
    svg::draw(&trace, &verdict, &lanes, &picture)
}

/// A pen that writes down every call made on it, one line each, numbers to a tenth of a px.
#[derive(Default)]
struct RecordingPen {
    calls: String,
}

/// `(x, y)` to a tenth.
fn pt((x, y): (f32, f32)) -> String {
    format!("{x:.1},{y:.1}")
}

fn area(a: Area) -> String {
    format!("{}..{}", pt((a.x0, a.y0)), pt((a.x1, a.y1)))
}

fn rgba(c: Rgba) -> String {
    format!("#{:02x}{:02x}{:02x}{:02x}", c.r, c.g, c.b, c.a)
}

impl RecordingPen {
    fn call(&mut self, line: String) {
        self.calls.push_str(&line);
        self.calls.push('\n');
    }
}

impl Pen for RecordingPen {
    fn layer(&mut self, layer: Layer) {
        self.call(format!("layer {layer:?}"));
    }

    fn rect(&mut self, at: Area, fill: Rgba, radius: f32) {
        self.call(format!("rect {} {} r{radius}", area(at), rgba(fill)));
    }

    fn outline(&mut self, at: Area, color: Rgba, width: f32, radius: f32) {
        let (at, color) = (area(at), rgba(color));
        self.call(format!("outline {at} {color} w{width} r{radius}"));
    }

    fn line(&mut self, a: (f32, f32), b: (f32, f32), color: Rgba, width: f32) {
        self.call(format!("line {} {} {} w{width}", pt(a), pt(b), rgba(color)));
    }

    fn dashed(
        &mut self,
        a: (f32, f32),
        b: (f32, f32),
        color: Rgba,
        width: f32,
        dash: f32,
        gap: f32,
    ) {
        let (a, b, color) = (pt(a), pt(b), rgba(color));
        self.call(format!("dashed {a} {b} {color} w{width} {dash}/{gap}"));
    }

    fn hatch(&mut self, at: Area, hatch: Hatch) {
        self.call(format!("hatch {} {hatch:?}", area(at)));
    }

    fn disc(&mut self, center: (f32, f32), radius: f32, fill: Rgba) {
        self.call(format!("disc {} r{radius} {}", pt(center), rgba(fill)));
    }

    fn polygon(&mut self, points: &[(f32, f32)], fill: Option<Rgba>, stroke: Option<(Rgba, f32)>) {
        let mut line = String::from("polygon");
        for &p in points {
            let _ = write!(line, " {}", pt(p));
        }
        if let Some(c) = fill {
            let _ = write!(line, " fill {}", rgba(c));
        }
        if let Some((c, w)) = stroke {
            let _ = write!(line, " stroke {} w{w}", rgba(c));
        }
        self.call(line);
    }

    fn text(&mut self, at: (f32, f32), anchor: Anchor, size: f32, color: Rgba, text: &str) {
        let (at, color) = (pt(at), rgba(color));
        self.call(format!("text {at} {anchor:?} {size} {color} {text:?}"));
    }

    fn text_width(&self, text: &str, size: f32) -> f32 {
        measure::width(text, size)
    }
}

#[test]
fn a_paused_holder_without_fencing() {
    let svg = picture_of(
        "assets/scenarios/step5-pause-unfenced.toml",
        Picture::default(),
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn a_fencing_token_cut_at_eight_seconds() {
    let svg = picture_of(
        "assets/scenarios/step5-fencing-token.toml",
        Picture {
            until_ms: Some(8_000),
            ..Picture::default()
        },
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn a_partition_in_a_narrow_picture() {
    let svg = picture_of(
        "assets/scenarios/step6-minority-cannot-grant.toml",
        Picture {
            width: 520,
            ..Picture::default()
        },
    );
    insta::assert_snapshot!(svg);
}

/// The whole run of step 5's fencing-token scenario in a 1 200 px wide frame, legend and all,
/// as calls on a pen: a change to how anything is drawn shows here, whichever pen draws it.
#[test]
fn the_calls_for_a_whole_run() {
    let (_, verdict, lanes) = run("assets/scenarios/step5-fencing-token.toml");
    let rows = lanes.lanes.iter().map(|l| l.rows).max().unwrap_or(1).max(1);
    let lane_h = lane_height(rows);
    let (left, top, right) = (0.0, 0.0, 1200.0 - RIGHT_PAD);
    let plot_top = top + AXIS;
    let plot = Area::new(
        left + GUTTER,
        plot_top,
        right,
        plot_top + lane_h * lanes.lanes.len() as f32,
    );
    let frame = Frame {
        left,
        plot,
        axis: Area::new(plot.x0, top, plot.x1, plot_top),
        lane_h,
        start_ms: 0.0,
        end_ms: lanes.until_ms as f64,
        shown_until_ms: lanes.until_ms as f64,
        narrow: false,
    };
    let mut pen = RecordingPen::default();
    let options = picture::Options::default();
    picture::draw(
        &mut pen,
        (&frame, &Theme::LIGHT),
        &lanes,
        &verdict,
        &options,
    );
    let legend_top = plot.y1 + 14.0;
    legend::draw(
        &mut pen,
        &Theme::LIGHT,
        &lanes.legend,
        (lanes.fenced, lanes.until_ms),
        Area::new(left, legend_top, 1200.0, legend_top),
    );
    insta::assert_snapshot!(pen.calls);
}

/// The value of attribute `name` in the SVG element `el`, as a number.
fn attr(el: &str, name: &str) -> Option<f32> {
    let start = el.find(&format!(" {name}=\""))? + name.len() + 3;
    el[start..].split('"').next()?.parse().ok()
}

/// A bar's name never has the red edge of its lost lease through it: at widths where the edge
/// falls inside the room the name would take, the name keeps left of it or moves past the bar.
#[test]
fn a_lease_lost_edge_never_runs_through_a_bars_name() {
    for width in [280, 300, 358, 600, 900, 1600] {
        let svg = picture_of(
            "assets/scenarios/step5-fencing-token.toml",
            Picture {
                width,
                ..Picture::default()
            },
        );
        let edges: Vec<(f32, f32, f32)> = svg
            .split("<line ")
            .skip(1)
            .filter(|el| el.contains("stroke=\"#d22323\"") && el.contains("stroke-width=\"2\""))
            .filter_map(|el| Some((attr(el, "x1")?, attr(el, "y1")?, attr(el, "y2")?)))
            .collect();
        assert!(!edges.is_empty(), "{width} px: A's lease is lost in step 5");
        for el in svg.split("<text ").skip(1) {
            let (Some(x), Some(y), Some(len)) =
                (attr(el, "x"), attr(el, "y"), attr(el, "textLength"))
            else {
                continue;
            };
            for &(edge_x, y0, y1) in &edges {
                let crossed = (y0..=y1).contains(&y) && x < edge_x && edge_x < x + len;
                assert!(
                    !crossed,
                    "{width} px: the edge at {edge_x} runs through {el}"
                );
            }
        }
    }
}

/// A pen that keeps the box of every label drawn on the lanes (the content and marks layers,
/// below the axis), as the text's measured width and line height.
#[derive(Default)]
struct LabelPen {
    at: Option<Layer>,
    labels: Vec<(Area, String)>,
}

impl Pen for LabelPen {
    fn layer(&mut self, layer: Layer) {
        self.at = Some(layer);
    }
    fn rect(&mut self, _: Area, _: Rgba, _: f32) {}
    fn outline(&mut self, _: Area, _: Rgba, _: f32, _: f32) {}
    fn line(&mut self, _: (f32, f32), _: (f32, f32), _: Rgba, _: f32) {}
    fn dashed(&mut self, _: (f32, f32), _: (f32, f32), _: Rgba, _: f32, _: f32, _: f32) {}
    fn hatch(&mut self, _: Area, _: Hatch) {}
    fn disc(&mut self, _: (f32, f32), _: f32, _: Rgba) {}
    fn polygon(&mut self, _: &[(f32, f32)], _: Option<Rgba>, _: Option<(Rgba, f32)>) {}

    fn text(&mut self, (x, y): (f32, f32), anchor: Anchor, size: f32, _: Rgba, text: &str) {
        if !matches!(self.at, Some(Layer::Content | Layer::Marks)) {
            return;
        }
        let (w, h) = (measure::width(text, size), line_h(size));
        let x0 = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - w / 2.0,
        };
        let label = Area::new(x0, y - h / 2.0, x0 + w, y + h / 2.0);
        self.labels.push((label, text.to_string()));
    }

    fn text_width(&self, text: &str, size: f32) -> f32 {
        measure::width(text, size)
    }
}

/// The labels `draw` puts on the lanes of `lanes` (content and marks layers, below the axis)
/// in a timeline `width` px wide whose lanes are `lane_h` px tall, and the frame used.
fn lane_labels(
    lanes: &Lanes,
    verdict: &Verdict,
    width: f32,
    lane_h: f32,
) -> (Frame, Vec<(Area, String)>) {
    let gutter = gutter(width);
    let plot = Area::new(
        gutter,
        AXIS,
        width - RIGHT_PAD,
        AXIS + lane_h * lanes.lanes.len() as f32,
    );
    let frame = Frame {
        left: 0.0,
        plot,
        axis: Area::new(plot.x0, 0.0, plot.x1, AXIS),
        lane_h,
        start_ms: 0.0,
        end_ms: lanes.until_ms.max(1) as f64,
        shown_until_ms: lanes.until_ms.max(1) as f64,
        narrow: gutter < GUTTER,
    };
    let mut pen = LabelPen::default();
    let options = picture::Options::default();
    picture::draw(&mut pen, (&frame, &Theme::LIGHT), lanes, verdict, &options);
    let labels = pen
        .labels
        .into_iter()
        .filter(|(a, _)| a.center_y() > plot.y0)
        .collect();
    (frame, labels)
}

/// At the app's narrowest lanes (the floor its labels need) and at widths from a phone's to a
/// monitor's, every shipped scenario's lanes carry the labels they carry at the exported
/// picture's roomy height — none is dropped for want of height — and no label covers another
/// or leaves its lane.
#[test]
fn lanes_at_their_floor_keep_every_label_clear_and_inside() {
    let mut files: Vec<_> = ["assets/scenarios", "assets/cases"]
        .iter()
        .flat_map(|dir| {
            std::fs::read_dir(format!("{}/{dir}", env!("CARGO_MANIFEST_DIR")))
                .expect("the shipped scenarios")
                .map(|e| e.expect("an entry").path())
        })
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut faults = Vec::new();
    for path in &files {
        let file = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .expect("inside");
        let (_, verdict, lanes) = run(&file.to_string_lossy());
        let rows = lanes.lanes.iter().map(|l| l.rows).max().unwrap_or(1);
        for width in [360.0, 520.0, 800.0, 1200.0] {
            let (frame, labels) = lane_labels(&lanes, &verdict, width, lane_floor(rows, 1.0));
            let (_, roomy) = lane_labels(&lanes, &verdict, width, lane_floor(rows, 1.0) + 20.0);
            let texts = |l: &[(Area, String)]| {
                let mut t: Vec<String> = l.iter().map(|(_, s)| s.clone()).collect();
                t.sort();
                t
            };
            if texts(&labels) != texts(&roomy) {
                faults.push(format!(
                    "{file:?} at {width}: {:?} at the floor, {:?} with room",
                    texts(&labels),
                    texts(&roomy)
                ));
            }
            for (i, (a, text)) in labels.iter().enumerate() {
                let lane = frame.lane(((a.center_y() - frame.plot.y0) / frame.lane_h) as usize);
                if a.y0 < lane.y0 - 0.5 || a.y1 > lane.y1 + 0.5 {
                    faults.push(format!("{file:?} at {width}: {text:?} leaves its lane"));
                }
                for (b, other) in &labels[i + 1..] {
                    if a.shrink(0.5).intersects(&b.shrink(0.5)) {
                        faults.push(format!("{file:?} at {width}: {text:?} covers {other:?}"));
                    }
                }
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}
