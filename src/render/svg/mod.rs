//! A run's timeline as an SVG picture, for slides and handouts: the header (the scenario, its
//! verdict in words), one lane per node with its bars, shadings and marks, the time axis in
//! simulated time with the violations on it, and the legend.
//!
//! It draws the same view model the app paints ([`crate::view::timeline::Lanes`]), in the
//! app's light-theme colours ([`crate::view::palette`]) and at its sizes, as the app shows a
//! run played to its end with messages hidden. Where the app sums up what is too dense to
//! see, so does the picture, so a long run makes a picture of the same size as a short one.

mod legend;
mod marks;
mod paint;
mod spans;

use svg::Node;

use self::paint::{Anchor, Element, With, add, element, group, theme};
use super::measure;
use crate::checker::Verdict;
use crate::text::fmt_ms;
use crate::trace::{NodeId, Role, Trace};
use crate::view::palette::{self, Rgba};
use crate::view::timeline::legend::role_caption;
use crate::view::timeline::{Lanes, Partition, tick_label, tick_step};
use crate::view::verdict::{shown_up_to, summary};
use crate::view::wording::cut_short;

/// The picture's width when none is asked for, px: a slide's, with text at the app's sizes.
pub const DEFAULT_WIDTH: u32 = 1600;
/// The widest picture drawn, px.
pub const MAX_WIDTH: u32 = 20_000;
/// The narrowest picture drawn at the app's text sizes, px: room for the margins, the short
/// lane names and the narrowest plot. A narrower one is drawn this wide and scaled down, its
/// text with it (at 200 px its captions are 8 px high), so `locksim render` refuses it.
pub const MIN_WIDTH: u32 = (2.0 * MARGIN + NARROW_GUTTER + RIGHT_PAD + MIN_PLOT) as u32;

/// Free space around everything, px.
const MARGIN: f32 = 16.0;
/// Width of the lane-name column, px (the app's).
const GUTTER: f32 = 150.0;
/// The lane-name column of a picture narrower than [`NARROW`], px, with short captions.
const NARROW_GUTTER: f32 = 100.0;
/// Below this width (px) of the timeline the picture uses [`NARROW_GUTTER`].
const NARROW: f32 = 560.0;
/// Height of the time axis above the lanes, px (the app's).
const AXIS: f32 = 46.0;
/// Free space right of the plot so the last tick label fits, px.
const RIGHT_PAD: f32 = 24.0;
/// The narrowest plot drawn, px: a narrower picture is drawn this wide and scaled down.
const MIN_PLOT: f32 = 120.0;
/// A lane's height with one row of bars, px: room for a fault's label above the bar and a
/// mark's label under it.
const LANE: f32 = 72.0;
/// What each further row of bars adds to a lane, px.
const ROW: f32 = 26.0;

/// What to draw of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The picture's width, px (1 to [`MAX_WIDTH`]; below [`MIN_WIDTH`] the picture is
    /// scaled down).
    pub width: u32,
    /// Cut the picture at this simulated time, true ms: it shows the run up to there, as the
    /// app does with its playhead there. `None`: the whole run.
    pub until_ms: Option<u64>,
}

impl Default for Picture {
    fn default() -> Self {
        Picture {
            width: DEFAULT_WIDTH,
            until_ms: None,
        }
    }
}

/// An axis-aligned rectangle, px.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
}

impl Rect {
    fn new(x0: f32, y0: f32, x1: f32, y1: f32) -> Self {
        Rect { x0, y0, x1, y1 }
    }

    fn width(&self) -> f32 {
        self.x1 - self.x0
    }

    fn height(&self) -> f32 {
        self.y1 - self.y0
    }

    fn center_y(&self) -> f32 {
        (self.y0 + self.y1) / 2.0
    }

    fn shrink2(&self, dx: f32, dy: f32) -> Self {
        Rect::new(self.x0 + dx, self.y0 + dy, self.x1 - dx, self.y1 - dy)
    }

    fn shrink(&self, d: f32) -> Self {
        self.shrink2(d, d)
    }

    fn expand2(&self, dx: f32, dy: f32) -> Self {
        self.shrink2(-dx, -dy)
    }

    fn intersects(&self, other: &Rect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    fn intersect(&self, other: &Rect) -> Self {
        Rect::new(
            self.x0.max(other.x0),
            self.y0.max(other.y0),
            self.x1.min(other.x1),
            self.y1.min(other.y1),
        )
    }

    fn is_positive(&self) -> bool {
        self.x1 > self.x0 && self.y1 > self.y0
    }
}

/// Where things go: the lanes, the plot inside them, the axis above, and the time scale.
struct Frame {
    /// The left edge of the lane names, px.
    left: f32,
    /// The lanes' drawing area (right of the names, below the axis).
    plot: Rect,
    /// The axis row above `plot`.
    axis: Rect,
    lane_h: f32,
    /// The right end of the time axis, true ms: the horizon, or where the picture is cut.
    end_ms: f64,
    /// The lane-name column is the narrow one: short captions.
    narrow: bool,
}

impl Frame {
    fn x(&self, ms: f64) -> f32 {
        self.plot.x0 + (ms / self.end_ms) as f32 * self.plot.width()
    }

    fn ms(&self, x: f32) -> f64 {
        f64::from((x - self.plot.x0) / self.plot.width()) * self.end_ms
    }

    /// True ms per px.
    fn ms_per_px(&self) -> f64 {
        self.end_ms / f64::from(self.plot.width().max(1.0))
    }

    fn lane_rect(&self, i: usize) -> Rect {
        let top = self.plot.y0 + i as f32 * self.lane_h;
        Rect::new(self.plot.x0, top, self.plot.x1, top + self.lane_h)
    }

    /// The x-range of `start..end` ms, cut where the picture ends.
    fn x_range(&self, start: u64, end: u64) -> (f32, f32) {
        (self.x(start as f64), self.x((end as f64).min(self.end_ms)))
    }

    /// Whether something that starts at `start` ms is in the picture.
    fn shows(&self, start: u64) -> bool {
        start as f64 <= self.end_ms
    }
}

/// The layers of the picture, drawn in this order, and where the labels went so far (each
/// new label keeps clear of them).
struct Canvas {
    frame: Frame,
    /// Clipped to the plot and the axis row: shadings, bars and partitions.
    content: Element,
    /// Clipped to the plot: marks and their labels.
    marks: Element,
    /// Unclipped: the violation markers on the axis.
    over: Element,
    labels: Vec<Rect>,
}

/// Text in a hue, readable on the light lanes: darker than the hue (the app's `ink`).
fn ink(c: Rgba) -> Rgba {
    let f = |v: u8| (f32::from(v) * 0.7) as u8;
    Rgba::rgb(f(c.r), f(c.g), f(c.b))
}

/// The most lines the scenario's name takes in the header.
const TITLE_LINES: usize = 3;

/// A line of text's height at `size` px.
fn line_h(size: f32) -> f32 {
    size * 1.2
}

/// Draws `text` at `size` px in `color`, wrapped to `max` px wide in at most `most` lines
/// ([`measure::wrap_at_most`]), its first line's top at `(x, top)`; returns the y under its
/// last line.
fn paragraph(
    out: &mut Element,
    text: &str,
    (x, top): (f32, f32),
    size: f32,
    (max, most): (f32, usize),
    color: Rgba,
) -> f32 {
    let mut y = top;
    for line in measure::wrap_at_most(text, size, max, most) {
        out.append(paint::text(
            x,
            y + line_h(size) / 2.0,
            &line,
            size,
            color,
            Anchor::Start,
        ));
        y += line_h(size);
    }
    y
}

/// Draws the run of `trace`, judged by `verdict` and laid out as `lanes`, as an SVG document.
pub fn draw(trace: &Trace, verdict: &Verdict, lanes: &Lanes, picture: &Picture) -> String {
    // A picture too narrow for names and a plot to read is drawn at the narrowest that is,
    // and scaled down to the width asked for.
    let asked = picture.width.clamp(1, MAX_WIDTH) as f32;
    let width = asked.max(MIN_WIDTH as f32);
    let until = lanes.until_ms.max(1);
    let end_ms = picture.until_ms.map_or(until, |u| u.clamp(1, until));

    let mut header = group();
    let header_h = draw_header(&mut header, trace, verdict, width, end_ms, until);

    let inner = width - 2.0 * MARGIN;
    let narrow = inner < NARROW;
    let gutter = if narrow { NARROW_GUTTER } else { GUTTER };
    let rows = lanes.lanes.iter().map(|l| l.rows).max().unwrap_or(1).max(1);
    let lane_h = LANE.max(28.0 + ROW * rows as f32);
    let axis_top = MARGIN + header_h;
    let plot_top = axis_top + AXIS;
    let plot_bottom = plot_top + lane_h * lanes.lanes.len().max(1) as f32;
    let plot = Rect::new(
        MARGIN + gutter,
        plot_top,
        width - MARGIN - RIGHT_PAD,
        plot_bottom,
    );
    let frame = Frame {
        left: MARGIN,
        plot,
        axis: Rect::new(plot.x0, axis_top, plot.x1, plot_top),
        lane_h,
        end_ms: end_ms as f64,
        narrow,
    };

    let mut c = Canvas {
        frame,
        content: group().with("clip-path", "url(#content)"),
        marks: group().with("clip-path", "url(#plot)"),
        over: group(),
        labels: Vec::new(),
    };
    let mut back = group();
    lane_backgrounds(&mut back, &c.frame, lanes);
    axis(&mut back, &c.frame);
    for p in &lanes.partitions {
        partition(&mut c, p);
    }
    // Every band before any name: bands overlap in time, and a later band would veil an
    // earlier one's name.
    let mut partition_labels = Vec::new();
    for p in &lanes.partitions {
        partition_label(&mut c, p, &mut partition_labels);
    }
    for (i, lane) in lanes.lanes.iter().enumerate() {
        spans::lane(&mut c, i, lane);
    }
    for (i, lane) in lanes.lanes.iter().enumerate() {
        marks::lane(&mut c, i, lane);
    }
    marks::violations(&mut c, lanes, verdict);

    let mut legend = group();
    let legend_top = plot_bottom + 14.0;
    let legend_h = legend::draw(
        &mut legend,
        &lanes.legend,
        lanes.fenced,
        end_ms,
        Rect::new(MARGIN, legend_top, width - MARGIN, legend_top),
    );
    let height = (legend_top + legend_h + MARGIN).ceil();

    let mut title = element("title");
    title.append(paint::text_node(&format!("{}: timeline", trace.scenario)));
    let mut document = element("svg")
        .with("xmlns", "http://www.w3.org/2000/svg")
        .with("width", paint::num(asked))
        .with("height", paint::num(height * asked / width))
        .with("viewBox", format!("0 0 {} {}", paint::num(width), height))
        .with(
            "font-family",
            "Ubuntu, 'Ubuntu Light', 'DejaVu Sans', Arial, sans-serif",
        )
        .with("font-weight", 300);
    for layer in [
        title,
        defs(&c.frame),
        paint::rect(Rect::new(0.0, 0.0, width, height), theme::PANEL, 0.0),
        header,
        back,
        c.content,
        c.marks,
        c.over,
        legend,
    ] {
        document.append(layer);
    }
    let mut out = document.to_string();
    out.push('\n');
    out
}

/// The patterns and clip paths the picture refers to: the red hatching of a belief the store
/// no longer backs, the grey hatching of a grant on a down node's disk, the plot's clip.
fn defs(frame: &Frame) -> Element {
    // Stripes 45° across a tile, continued over its corners so tiles join without a seam.
    let stripes = |id: &str, s: f32, rising: bool, color: Rgba| {
        let d = if rising {
            format!(
                "M0,{s} L{s},0 M-1,1 L1,-1 M{a},{b} L{b},{a}",
                a = s - 1.0,
                b = s + 1.0
            )
        } else {
            format!(
                "M0,0 L{s},{s} M-1,{a} L1,{b} M{a},-1 L{b},1",
                a = s - 1.0,
                b = s + 1.0
            )
        };
        let path = element("path")
            .with("d", d)
            .with("stroke", paint::color(color))
            .with(
                "stroke-opacity",
                paint::num(color.opacity() * 100.0) / 100.0,
            )
            .with("stroke-width", 1);
        let pattern = element("pattern")
            .with("id", id)
            .with("width", s)
            .with("height", s)
            .with("patternUnits", "userSpaceOnUse");
        add(pattern, path)
    };
    let clip = |id: &str, r: Rect| {
        add(
            element("clipPath").with("id", id),
            paint::rect(r, theme::STRONG, 0.0),
        )
    };
    let plot = frame.plot;
    let mut defs = element("defs");
    for def in [
        stripes(spans::LEASE_LOST, 8.0, true, palette::VIOLATING.faded(0.55)),
        stripes(spans::ON_DISK, 6.0, false, palette::FAULT_TEXT.faded(0.8)),
        clip("plot", plot),
        clip(
            "content",
            Rect::new(plot.x0, frame.axis.y0, plot.x1, plot.y1),
        ),
    ] {
        defs.append(def);
    }
    defs
}

/// The scenario's name, the verdict's badges and sentence, and how the run was set up; returns
/// the height it takes, px.
fn draw_header(
    out: &mut Element,
    trace: &Trace,
    verdict: &Verdict,
    width: f32,
    end_ms: u64,
    until_ms: u64,
) -> f32 {
    let inner = width - 2.0 * MARGIN;
    let mut lines = |text: &str, size: f32, y: f32, most: usize| {
        paragraph(out, text, (MARGIN, y), size, (inner, most), theme::STRONG) + 6.0
    };
    // A scenario's name may be a whole file long: the picture shows its start.
    let mut y = lines(&trace.scenario, 20.0, MARGIN, TITLE_LINES);
    // A picture cut before the horizon shows no more than the run so far, but the verdict is
    // the whole run's: say both, or the badges read as a verdict on what is drawn.
    if end_ms < until_ms {
        y = lines(&shown_up_to(verdict, end_ms, until_ms), 14.5, y, usize::MAX);
    }
    // The verdict in words, not only in colour.
    let (safe, safe_color) = if verdict.safe {
        ("SAFE", palette::SAFE)
    } else {
        ("UNSAFE", palette::VIOLATING)
    };
    let (live, live_color) = if verdict.live {
        ("LIVE", palette::SAFE)
    } else {
        ("NOT LIVE", palette::LIVENESS)
    };
    let badge_h = line_h(18.0) + 8.0;
    let mut x = MARGIN;
    for (word, color) in [(safe, safe_color), (live, live_color)] {
        let w = measure::width(word, 18.0) + 20.0;
        out.append(paint::rect(Rect::new(x, y, x + w, y + badge_h), color, 4.0));
        out.append(paint::text(
            x + w / 2.0,
            y + badge_h / 2.0,
            word,
            18.0,
            theme::WHITE,
            Anchor::Middle,
        ));
        x += w + 8.0;
    }
    let sentence = measure::wrap(&summary(verdict), 14.5, width - MARGIN - x - 8.0);
    let lines_h = line_h(14.5) * sentence.len() as f32;
    let mut sy = y + (badge_h - lines_h).max(0.0) / 2.0;
    for line in &sentence {
        out.append(paint::text(
            x + 6.0,
            sy + line_h(14.5) / 2.0,
            line,
            14.5,
            theme::TEXT,
            Anchor::Start,
        ));
        sy += line_h(14.5);
    }
    y += badge_h.max(lines_h) + 8.0;

    let setup = format!(
        "seed {} · design: {} · store: {} × {} · {}",
        trace.seed,
        trace.design.as_str(),
        trace.topology.as_str(),
        trace.store_nodes(),
        fmt_ms(until_ms)
    );
    let mut notes: Vec<(String, f32, Rgba)> = measure::wrap(&setup, 12.0, inner)
        .into_iter()
        .map(|l| (l, 12.0, theme::WEAK))
        .collect();
    if let Some(at) = verdict.cut_short_at_ms {
        notes.extend(
            measure::wrap(&cut_short(at), 13.0, inner)
                .into_iter()
                .map(|l| (l, 13.0, palette::ANOMALY)),
        );
    }
    for (line, size, color) in notes {
        out.append(paint::text(
            MARGIN,
            y + line_h(size) / 2.0,
            &line,
            size,
            color,
            Anchor::Start,
        ));
        y += line_h(size);
    }
    y + 10.0 - MARGIN
}

/// Every other lane shaded, lines between lanes (heavier where one kind of node gives way to
/// the next), and each lane's name with what its bars mean.
fn lane_backgrounds(out: &mut Element, frame: &Frame, lanes: &Lanes) {
    for (i, lane) in lanes.lanes.iter().enumerate() {
        let r = frame.lane_rect(i);
        let full = Rect::new(frame.left, r.y0, r.x1, r.y1);
        if i % 2 == 0 {
            out.append(paint::rect(full, theme::FAINT, 0.0));
        }
        let next_role = lanes.lanes.get(i + 1).map(|l| l.role);
        let width = if next_role.is_some_and(|r| r != lane.role) {
            1.5
        } else {
            0.5
        };
        out.append(paint::line(
            (full.x0, full.y1),
            (full.x1, full.y1),
            theme::LINE,
            width,
        ));
        let name_color = match lane.role {
            Role::Worker => palette::worker(NodeId::from_index(i)),
            Role::Store | Role::Resource => theme::STRONG,
        };
        let mid = full.center_y();
        out.append(paint::text(
            frame.left + 10.0,
            mid - 2.0 - line_h(17.0) / 2.0,
            &lane.name,
            17.0,
            name_color,
            Anchor::Start,
        ));
        out.append(paint::text(
            frame.left + 10.0,
            mid + 1.0 + line_h(11.5) / 2.0,
            role_caption(lane.role, frame.narrow),
            11.5,
            theme::WEAK,
            Anchor::Start,
        ));
    }
}

/// Tick labels in simulated time and the grid lines under them.
fn axis(out: &mut Element, frame: &Frame) {
    let step = tick_step(frame.end_ms, frame.plot.width());
    let last = (frame.end_ms / step).floor() as i64;
    for k in 0..=last {
        let t = k as f64 * step;
        let x = frame.x(t);
        out.append(paint::line(
            (x, frame.axis.y1 - 4.0),
            (x, frame.plot.y1),
            theme::LINE,
            0.5,
        ));
        out.append(paint::text(
            x,
            frame.axis.y0 + 4.0 + line_h(12.0) / 2.0,
            &tick_label(t, step),
            12.0,
            theme::TEXT,
            Anchor::Middle,
        ));
    }
}

/// The band on the axis of a partition's time.
fn partition_band(frame: &Frame, p: &Partition) -> Rect {
    let (x0, x1) = frame.x_range(p.start_ms, p.end_ms);
    Rect::new(x0, frame.axis.y0 + 20.0, x1, frame.axis.y0 + 32.0)
}

/// Shades the lanes a partition cuts off and draws its band on the axis.
fn partition(c: &mut Canvas, p: &Partition) {
    if !c.frame.shows(p.start_ms) {
        return;
    }
    let band = partition_band(&c.frame, p);
    for &node in p.groups.iter().flatten() {
        let lane = c.frame.lane_rect(node.index());
        c.content.append(paint::rect(
            Rect::new(band.x0, lane.y0, band.x1, lane.y1),
            palette::PARTITION,
            0.0,
        ));
    }
    c.content
        .append(paint::rect(band, palette::PARTITION.faded(2.5), 2.0));
}

/// Names a partition's band where the name fits, moved right past the other bands' names.
fn partition_label(c: &mut Canvas, p: &Partition, labels: &mut Vec<Rect>) {
    if !c.frame.shows(p.start_ms) {
        return;
    }
    let band = partition_band(&c.frame, p);
    let text = format!("partition {}", p.label);
    let (w, h) = (measure::width(&text, 10.5) * measure::SLACK, line_h(10.5));
    let at = |left: f32| {
        Rect::new(
            left,
            band.center_y() - h / 2.0,
            left + w,
            band.center_y() + h / 2.0,
        )
    };
    let mut left = band.x0.max(c.frame.plot.x0) + 4.0;
    while let Some(other) = labels.iter().find(|r| r.intersects(&at(left))) {
        left = other.x1 + 12.0;
    }
    let label = at(left);
    if label.x1 <= band.x1.min(c.frame.plot.x1) {
        c.content.append(paint::text(
            label.x0,
            band.center_y(),
            &text,
            10.5,
            palette::FAULT_TEXT,
            Anchor::Start,
        ));
        labels.push(label);
    }
}

#[cfg(test)]
mod tests;
