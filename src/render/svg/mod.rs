//! A run's timeline as an SVG picture, for slides and handouts: the header (the scenario, its
//! verdict in words), then the timeline [`crate::picture`] draws — one lane per node with its
//! bars, shadings and marks, the time axis in simulated time with the violations on it, and
//! the legend — through an SVG pen ([`pen::SvgPen`]).
//!
//! It is the picture the app paints, in its light theme and at its sizes, as the app shows a
//! run played to its end with messages hidden. Where the app sums up what is too dense to
//! see, so does the picture, so a long run makes a picture of the same size as a short one.

mod pen;

use svg::Node;

use self::pen::{Element, SvgPen, With, add, element, hatch_id};
use crate::checker::Verdict;
use crate::picture::sizes::{
    AXIS, GUTTER, MIN_PLOT, NARROW_GUTTER, RIGHT_PAD, gutter, lane_height, line_h,
};
use crate::picture::{self, Anchor, Area, Frame, Hatch, Layer, Pen, Theme, legend, measure};
use crate::text::fmt_ms;
use crate::trace::Trace;
use crate::view::palette::{self, Rgba};
use crate::view::timeline::Lanes;
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

/// The most lines the scenario's name takes in the header.
const TITLE_LINES: usize = 3;

/// What to draw of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The picture's width, px (1 to [`MAX_WIDTH`]; below [`MIN_WIDTH`] the picture is
    /// scaled down).
    pub width: u32,
    /// Cut the picture at this simulated time, true ms: it shows the run up to there, as the
    /// app does with its playhead there. `None`: the whole run.
    pub until_ms: Option<u64>,
    /// Show the whole run's verdict in the header (the default). A slide that asks the class
    /// what happens next leaves it out, and says only how far the run is shown.
    pub verdict: bool,
}

impl Default for Picture {
    fn default() -> Self {
        Picture {
            width: DEFAULT_WIDTH,
            until_ms: None,
            verdict: true,
        }
    }
}

/// Draws the run of `trace`, judged by `verdict` and laid out as `lanes`, as an SVG document.
pub fn draw(trace: &Trace, verdict: &Verdict, lanes: &Lanes, picture: &Picture) -> String {
    // A picture too narrow for names and a plot to read is drawn at the narrowest that is,
    // and scaled down to the width asked for.
    let asked = picture.width.clamp(1, MAX_WIDTH) as f32;
    let width = asked.max(MIN_WIDTH as f32);
    let until = lanes.until_ms.max(1);
    let end_ms = picture.until_ms.map_or(until, |u| u.clamp(1, until));
    let theme = Theme::LIGHT;

    let mut pen = SvgPen::new();
    let header_h = draw_header(
        &mut pen,
        &theme,
        (trace, verdict, picture.verdict),
        width,
        (end_ms, until),
    );

    let inner = width - 2.0 * MARGIN;
    let gutter = gutter(inner);
    let rows = lanes.lanes.iter().map(|l| l.rows).max().unwrap_or(1).max(1);
    let lane_h = lane_height(rows);
    let axis_top = MARGIN + header_h;
    let plot_top = axis_top + AXIS;
    let plot_bottom = plot_top + lane_h * lanes.lanes.len().max(1) as f32;
    let plot = Area::new(
        MARGIN + gutter,
        plot_top,
        width - MARGIN - RIGHT_PAD,
        plot_bottom,
    );
    let frame = Frame {
        left: MARGIN,
        plot,
        axis: Area::new(plot.x0, axis_top, plot.x1, plot_top),
        lane_h,
        start_ms: 0.0,
        end_ms: end_ms as f64,
        shown_until_ms: end_ms as f64,
        narrow: gutter < GUTTER,
    };
    pen.clip(Layer::Content, "content", content_clip(&frame));
    pen.clip(Layer::Marks, "plot", frame.plot);
    picture::draw(
        &mut pen,
        (&frame, &theme),
        lanes,
        verdict,
        &picture::Options::default(),
    );

    let legend_top = plot_bottom + 14.0;
    let legend_h = legend::draw(
        &mut pen,
        &theme,
        &lanes.legend,
        (lanes.fenced, end_ms),
        Area::new(MARGIN, legend_top, width - MARGIN, legend_top),
    );
    let height = (legend_top + legend_h + MARGIN).ceil();

    let mut title = element("title");
    title.append(pen::text_node(&format!("{}: timeline", trace.scenario)));
    let mut document = element("svg")
        .with("xmlns", "http://www.w3.org/2000/svg")
        .with("width", pen::num(asked))
        .with("height", pen::num(height * asked / width))
        .with("viewBox", format!("0 0 {} {}", pen::num(width), height))
        .with(
            "font-family",
            "Ubuntu, 'Ubuntu Light', 'DejaVu Sans', Arial, sans-serif",
        )
        .with("font-weight", 300);
    for layer in [
        title,
        defs(&frame, &theme),
        pen::rect(Area::new(0.0, 0.0, width, height), theme.panel, 0.0),
    ]
    .into_iter()
    .chain(pen.into_groups())
    {
        document.append(layer);
    }
    let mut out = document.to_string();
    out.push('\n');
    out
}

/// The patterns and clip paths the picture refers to: the red hatching of a belief the store
/// no longer backs, the grey hatching of a grant on a down node's disk, the plot's clip.
fn defs(frame: &Frame, theme: &Theme) -> Element {
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
            .with("stroke", pen::color(color))
            .with("stroke-opacity", pen::num(color.opacity() * 100.0) / 100.0)
            .with("stroke-width", 1);
        let pattern = element("pattern")
            .with("id", id)
            .with("width", s)
            .with("height", s)
            .with("patternUnits", "userSpaceOnUse");
        add(pattern, path)
    };
    let clip = |id: &str, r: Area| {
        add(
            element("clipPath").with("id", id),
            pen::rect(r, theme.strong, 0.0),
        )
    };
    let plot = frame.plot;
    let mut defs = element("defs");
    let hatch = |h: Hatch| {
        let s = h.stripes();
        stripes(hatch_id(h), s.spacing, s.rising, s.color)
    };
    for def in [
        hatch(Hatch::LeaseLost),
        hatch(Hatch::OnDisk),
        clip("plot", plot),
        clip("content", content_clip(frame)),
    ] {
        defs.append(def);
    }
    defs
}

/// What the content layer is clipped to: the plot and the axis row above it (for the
/// partition bands).
fn content_clip(frame: &Frame) -> Area {
    Area::new(frame.plot.x0, frame.axis.y0, frame.plot.x1, frame.plot.y1)
}

/// The scenario's name, the verdict's badges and sentence, and how the run was set up, on
/// [`Layer::Header`], for a picture that ends at `end_ms` of a run to `until_ms`; returns the
/// height it takes, px. Without `show_verdict`, only how far the run is shown, no verdict.
fn draw_header(
    pen: &mut dyn Pen,
    theme: &Theme,
    (trace, verdict, show_verdict): (&Trace, &Verdict, bool),
    width: f32,
    (end_ms, until_ms): (u64, u64),
) -> f32 {
    pen.layer(Layer::Header);
    let inner = width - 2.0 * MARGIN;
    let lines = |pen: &mut dyn Pen, text: &str, size: f32, y: f32, most: usize| {
        picture::paragraph(pen, text, (MARGIN, y), size, (inner, most), theme.strong) + 6.0
    };
    // A scenario's name may be a whole file long: the picture shows its start.
    let mut y = lines(pen, &trace.scenario, 20.0, MARGIN, TITLE_LINES);
    // A picture cut before the horizon shows no more than the run so far, but the verdict is
    // the whole run's: say both, or the badges read as a verdict on what is drawn.
    if !show_verdict {
        let shown = format!(
            "Run shown up to {} of {}.",
            fmt_ms(end_ms),
            fmt_ms(until_ms)
        );
        return lines(pen, &shown, 14.5, y, usize::MAX) + 10.0 - MARGIN;
    }
    if end_ms < until_ms {
        let shown = shown_up_to(verdict, end_ms, until_ms);
        y = lines(pen, &shown, 14.5, y, usize::MAX);
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
        pen.rect(Area::new(x, y, x + w, y + badge_h), color, 4.0);
        pen.text(
            (x + w / 2.0, y + badge_h / 2.0),
            Anchor::Middle,
            18.0,
            theme.white,
            word,
        );
        x += w + 8.0;
    }
    let sentence = measure::wrap(&summary(verdict), 14.5, width - MARGIN - x - 8.0);
    let lines_h = line_h(14.5) * sentence.len() as f32;
    let mut sy = y + (badge_h - lines_h).max(0.0) / 2.0;
    for line in &sentence {
        pen.text(
            (x + 6.0, sy + line_h(14.5) / 2.0),
            Anchor::Start,
            14.5,
            theme.text,
            line,
        );
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
        .map(|l| (l, 12.0, theme.weak))
        .collect();
    if let Some(at) = verdict.cut_short_at_ms {
        notes.extend(
            measure::wrap(&cut_short(at), 13.0, inner)
                .into_iter()
                .map(|l| (l, 13.0, palette::ANOMALY)),
        );
    }
    for (line, size, color) in notes {
        pen.text(
            (MARGIN, y + line_h(size) / 2.0),
            Anchor::Start,
            size,
            color,
            &line,
        );
        y += line_h(size);
    }
    y + 10.0 - MARGIN
}

#[cfg(test)]
mod tests;
