//! The legend under the lanes: a swatch drawn with the lanes' own code and a few words for
//! each kind of thing the picture shows, wrapped to its width, then the note on how grants are
//! named.

use super::sizes::{LEGEND_NOTE, LEGEND_ROW, LEGEND_TEXT, SWATCH, line_h};
use super::{Anchor, Area, Layer, Pen, Theme, arrows, marks, measure, paragraph, spans};
use crate::checker::ViolationKind;
use crate::trace::{NodeId, RejectReason};
use crate::view::palette;
use crate::view::timeline::{Swatch, WriteOutcome, attempt_note};

/// Draws the legend of what the picture shows up to `shown_until_ms` (messages are not
/// drawn, so neither are their entries) inside `area`'s width from its top, on
/// [`Layer::Legend`], with the note on attempt ids for a run that is `fenced` or not; returns
/// its height, px.
pub fn draw(
    pen: &mut dyn Pen,
    theme: &Theme,
    swatches: &[(Swatch, u64)],
    (fenced, shown_until_ms): (bool, u64),
    area: Area,
) -> f32 {
    pen.layer(Layer::Legend);
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
        let entry = SWATCH.0 + 6.0 + pen.text_width(text, LEGEND_TEXT) * measure::SLACK + 16.0;
        if x > area.x0 && x + entry > area.x1 {
            x = area.x0;
            y += LEGEND_ROW + taller;
            taller = 0.0;
        }
        let rect = Area::new(x, y + 1.0, x + SWATCH.0, y + 1.0 + SWATCH.1);
        draw_swatch(pen, theme, swatch, rect);
        // Alone on its row and still too wide (a narrow picture): its words wrap under it
        // rather than run past the picture's edge.
        let room = (area.x1 - rect.x1 - 6.0) / measure::SLACK;
        let lines = measure::wrap(text, LEGEND_TEXT, room);
        for (i, line) in lines.iter().enumerate() {
            pen.text(
                (
                    rect.x1 + 6.0,
                    rect.center_y() + i as f32 * line_h(LEGEND_TEXT),
                ),
                Anchor::Start,
                LEGEND_TEXT,
                theme.text,
                line,
            );
        }
        taller = f32::max(taller, (lines.len() - 1) as f32 * line_h(LEGEND_TEXT));
        x += entry + 8.0;
    }
    if !shown.is_empty() {
        y += LEGEND_ROW + taller;
    }
    if shown.iter().any(|s| s.is_grant()) {
        let max = area.width() / measure::SLACK;
        y = paragraph(
            pen,
            attempt_note(fenced),
            (area.x0, y + 4.0),
            LEGEND_NOTE,
            (max, usize::MAX),
            theme.weak,
        );
    }
    y - area.y0
}

/// Draws the swatch of `swatch` in `rect`, as the lanes draw the thing it stands for.
pub fn draw_swatch(pen: &mut dyn Pen, theme: &Theme, swatch: Swatch, rect: Area) {
    let worker = palette::worker(NodeId::new(0));
    let center = (rect.x0 + rect.width() / 2.0, rect.center_y());
    match swatch {
        Swatch::Belief => spans::belief_bar(pen, rect, worker),
        Swatch::Lease | Swatch::Grant => spans::lease_bar(pen, rect, worker),
        Swatch::TookOver => {
            spans::lease_bar(pen, rect, worker);
            spans::takeover_edge(pen, theme, rect);
        }
        Swatch::OnDisk => spans::on_disk_bar(pen, rect, worker),
        Swatch::Logged => spans::logged_bar(pen, rect, worker),
        Swatch::LeaseLost => {
            spans::belief_bar(pen, rect, worker);
            spans::lease_gone(pen, rect);
        }
        Swatch::Waiting => {
            spans::waiting(pen, rect.x0, rect.x1, rect.center_y(), worker);
        }
        Swatch::Paused => pen.rect(rect, palette::PAUSED, 0.0),
        Swatch::Stalled => pen.rect(rect, palette::STALLED, 0.0),
        Swatch::Crashed => pen.rect(rect, palette::CRASHED, 0.0),
        Swatch::SlowLink => pen.rect(rect, palette::SLOW_LINK, 0.0),
        Swatch::Partition => pen.rect(rect, palette::PARTITION, 0.0),
        Swatch::ClockJump => marks::clock_jump(pen, center.0, rect.y0, rect.y1),
        Swatch::Leader => marks::role(pen, (center.0, rect.y0), true),
        Swatch::SteppedDown => marks::role(pen, (center.0, rect.y0), false),
        Swatch::Claim => marks::claim(pen, center, palette::CLAIM, true),
        Swatch::Hold => marks::hold(pen, center.0, rect.expand2(0.0, 2.0), worker),
        Swatch::Accepted => marks::write(pen, theme, center, WriteOutcome::Accepted),
        Swatch::Rejected => marks::write(
            pen,
            theme,
            center,
            WriteOutcome::Rejected {
                reason: RejectReason::StaleToken,
                highest_fence: None,
            },
        ),
        Swatch::Violating => {
            marks::write(
                pen,
                theme,
                center,
                WriteOutcome::Violating(ViolationKind::StaleWrite),
            );
        }
        Swatch::Message => {
            let (from, to) = ((rect.x0, rect.y1), (rect.x1, rect.y0));
            arrows::arrow(pen, from, to, palette::MESSAGE, false);
        }
        Swatch::Held => {
            let (a, b) = ((rect.x0, rect.y1), (center.0, rect.y1));
            pen.dashed(a, b, palette::MESSAGE, 1.4, 3.0, 3.0);
            arrows::arrow(pen, b, (rect.x1, rect.y0), palette::MESSAGE, false);
        }
        Swatch::Dropped => {
            let (from, to) = ((rect.x0, rect.y1), (rect.x1 - 5.0, center.1));
            arrows::arrow(pen, from, to, palette::MESSAGE, true);
        }
    }
}
