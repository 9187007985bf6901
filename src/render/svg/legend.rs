//! The legend under the lanes: a swatch drawn with the lanes' own code and a few words for
//! each kind of thing the picture shows, wrapped to its width, then the note on how grants are
//! named.

use super::paint::Element;
use svg::Node;

use super::paint::{self, Anchor, theme};
use super::{Rect, line_h, marks, paragraph, spans};
use crate::checker::Kind;
use crate::render::measure;
use crate::trace::{NodeId, RejectReason};
use crate::view::palette;
use crate::view::timeline::{Swatch, WriteOutcome, attempt_note};

/// A swatch's size, px (the app's).
const SWATCH: (f32, f32) = (34.0, 16.0);
/// The legend's text size, px.
const TEXT: f32 = 13.0;
/// The note's text size, px.
const NOTE: f32 = 12.0;
/// Height of one row of entries, px.
const ROW: f32 = 21.0;

/// Draws the legend of what the picture shows up to `shown_until_ms` (messages are not
/// drawn, so neither are their entries) inside `area`'s width from its top, with the note on
/// attempt ids for a run that is `fenced` or not; returns its height, px.
pub(super) fn draw(
    out: &mut Element,
    swatches: &[(Swatch, u64)],
    fenced: bool,
    shown_until_ms: u64,
    area: Rect,
) -> f32 {
    let shown: Vec<Swatch> = swatches
        .iter()
        .filter(|&&(swatch, at)| !swatch.is_message() && at <= shown_until_ms)
        .map(|&(swatch, _)| swatch)
        .collect();
    let (mut x, mut y) = (area.x0, area.y0);
    // Extra height the current row needs for an entry whose words wrap, px.
    let mut taller = 0.0;
    for &swatch in &shown {
        let text = swatch.text();
        let entry = SWATCH.0 + 6.0 + measure::width(text, TEXT) * measure::SLACK + 16.0;
        if x > area.x0 && x + entry > area.x1 {
            x = area.x0;
            y += ROW + taller;
            taller = 0.0;
        }
        let rect = Rect::new(x, y + 1.0, x + SWATCH.0, y + 1.0 + SWATCH.1);
        draw_swatch(out, swatch, rect);
        // Alone on its row and still too wide (a narrow picture): its words wrap under it
        // rather than run past the picture's edge.
        let room = (area.x1 - rect.x1 - 6.0) / measure::SLACK;
        let lines = measure::wrap(text, TEXT, room);
        for (i, line) in lines.iter().enumerate() {
            out.append(paint::text(
                rect.x1 + 6.0,
                rect.center_y() + i as f32 * line_h(TEXT),
                line,
                TEXT,
                theme::TEXT,
                Anchor::Start,
            ));
        }
        taller = f32::max(taller, (lines.len() - 1) as f32 * line_h(TEXT));
        x += entry + 8.0;
    }
    if !shown.is_empty() {
        y += ROW + taller;
    }
    if shown.iter().any(|s| s.is_grant()) {
        let max = area.width() / measure::SLACK;
        y = paragraph(
            out,
            attempt_note(fenced),
            (area.x0, y + 4.0),
            NOTE,
            (max, usize::MAX),
            theme::WEAK,
        );
    }
    y - area.y0
}

/// Draws the swatch of `swatch` in `rect`, as the lanes draw the thing it stands for.
fn draw_swatch(out: &mut Element, swatch: Swatch, rect: Rect) {
    let worker = palette::worker(NodeId::new(0));
    let center = (rect.x0 + rect.width() / 2.0, rect.center_y());
    match swatch {
        Swatch::Belief => spans::belief_bar(out, rect, worker),
        Swatch::Lease | Swatch::Grant => spans::lease_bar(out, rect, worker),
        Swatch::TookOver => {
            spans::lease_bar(out, rect, worker);
            spans::takeover_edge(out, rect);
        }
        Swatch::OnDisk => spans::on_disk_bar(out, rect, worker),
        Swatch::Logged => spans::logged_bar(out, rect, worker),
        Swatch::LeaseLost => {
            spans::belief_bar(out, rect, worker);
            spans::lease_gone(out, rect);
        }
        Swatch::Waiting => {
            spans::waiting(out, rect.x0, rect.x1, rect.center_y(), worker);
        }
        Swatch::Paused => out.append(paint::rect(rect, palette::PAUSED, 0.0)),
        Swatch::Stalled => out.append(paint::rect(rect, palette::STALLED, 0.0)),
        Swatch::Crashed => out.append(paint::rect(rect, palette::CRASHED, 0.0)),
        Swatch::SlowLink => out.append(paint::rect(rect, palette::SLOW_LINK, 0.0)),
        Swatch::Partition => out.append(paint::rect(rect, palette::PARTITION, 0.0)),
        Swatch::ClockJump => marks::clock_jump(out, center.0, rect.y0, rect.y1),
        Swatch::Leader => marks::role(out, (center.0, rect.y0), true),
        Swatch::SteppedDown => marks::role(out, (center.0, rect.y0), false),
        Swatch::Claim => marks::claim(out, center, palette::CLAIM, true),
        Swatch::Hold => marks::hold(out, center.0, rect.expand2(0.0, 2.0), worker),
        Swatch::Accepted => marks::write(out, center, WriteOutcome::Accepted),
        Swatch::Rejected => marks::write(
            out,
            center,
            WriteOutcome::Rejected {
                reason: RejectReason::StaleToken,
                highest_fence: None,
            },
        ),
        Swatch::Violating => {
            marks::write(out, center, WriteOutcome::Violating(Kind::StaleWrite));
        }
        // Messages are not drawn, so their entries are never shown.
        Swatch::Message | Swatch::Held | Swatch::Dropped => {}
    }
}
