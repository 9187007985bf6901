//! The verdict: safe or not, live or not, and each violation as a sentence that moves the
//! playhead to its moment when clicked.

use eframe::egui::{self, Color32, CornerRadius, RichText, Sense, Stroke, Ui};

use super::style;
use crate::checker::Verdict;
use crate::text::fmt_ms;
use crate::view::verdict::{nothing_found, summary, work};
use crate::view::wording::{and_more, cut_short, gloss};

/// The badges (SAFE or UNSAFE, LIVE or NOT LIVE), a sentence saying what they mean, and a
/// warning when the engine's event budget cut the run short.
pub fn badges(ui: &mut Ui, verdict: &Verdict) {
    ui.horizontal(|ui| {
        badge(
            ui,
            if verdict.safe { "SAFE" } else { "UNSAFE" },
            if verdict.safe {
                style::SAFE
            } else {
                style::VIOLATING
            },
        );
        badge(
            ui,
            if verdict.live { "LIVE" } else { "NOT LIVE" },
            if verdict.live {
                style::SAFE
            } else {
                style::LIVENESS
            },
        );
    });
    ui.add_space(4.0);
    ui.label(summary(verdict));
    if let Some(line) = work(verdict) {
        ui.label(line);
    }
    if let Some(at) = verdict.cut_short_at_ms {
        // Loud: the badges above speak only for the time that was simulated.
        ui.add_space(4.0);
        ui.label(
            RichText::new(whole_numbers(&cut_short(at)))
                .strong()
                .color(style::ANOMALY),
        );
    }
}

/// Lists the violations, each as a card that selects it when clicked. While the run is
/// still playing only those the playhead has reached are listed, so the list never gets
/// ahead of the timeline; once it has been seen to the end, the ones after the playhead
/// stay listed, greyed. Returns the index of the violation clicked, if one was.
pub fn violations(
    ui: &mut Ui,
    verdict: &Verdict,
    now_ms: f64,
    seen_to_end: bool,
    selected: Option<usize>,
) -> Option<usize> {
    let mut clicked = None;
    let listed: Vec<_> = verdict
        .violations
        .iter()
        .enumerate()
        .filter(|(_, v)| seen_to_end || (v.at_ms as f64 <= now_ms && !v.kind.judged_at_end()))
        .collect();
    if listed.is_empty() {
        ui.label(RichText::new(nothing_found(seen_to_end)).weak());
        return None;
    }
    ui.label(RichText::new("What the checker found").strong());
    ui.label(
        RichText::new("Choose one to jump to its moment.")
            .small()
            .weak(),
    );
    ui.add_space(4.0);
    for (i, v) in listed {
        let reached = v.at_ms as f64 <= now_ms;
        let color = style::violation(v.kind);
        let is_selected = selected == Some(i);
        let frame = egui::Frame::new()
            .inner_margin(8)
            .corner_radius(CornerRadius::same(4))
            .stroke(Stroke::new(if is_selected { 2.0 } else { 1.0 }, color))
            .fill(if is_selected {
                color.gamma_multiply(0.12)
            } else {
                Color32::TRANSPARENT
            });
        let shown = frame.show(ui, |ui| {
            ui.set_width(ui.available_width());
            if !reached {
                ui.multiply_opacity(0.45);
            }
            ui.horizontal(|ui| {
                ui.label(RichText::new(v.kind.as_str()).strong().color(color));
                ui.label(RichText::new(whole_numbers(&format!("at {}", fmt_ms(v.at_ms)))).weak());
                if !reached {
                    ui.label(RichText::new("(ahead)").italics().weak());
                }
            });
            ui.label(RichText::new(gloss(v.kind)).small().weak());
            ui.label(whole_numbers(&v.explanation));
        });
        let response = shown.response.interact(Sense::click());
        // Named for screen readers (and UI tests), which see a clickable frame as anonymous.
        response.widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Button,
                true,
                format!("{} at {}", v.kind, fmt_ms(v.at_ms)),
            )
        });
        if response.hovered() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
        }
        if response.clicked() {
            clicked = Some(i);
        }
        ui.add_space(6.0);
    }
    if seen_to_end {
        for &(kind, count) in &verdict.more {
            ui.label(RichText::new(whole_numbers(&and_more(kind, count))).weak());
        }
    }
    clicked
}

/// `text` with the spaces inside numbers ("10 000") and before their unit ("10 000 ms")
/// made non-breaking, so a card never wraps a number across lines. U+00A0, not the narrow
/// U+202F: egui breaks lines at every Unicode space but U+00A0.
pub(super) fn whole_numbers(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let after_digit = i > 0 && chars[i - 1].is_ascii_digit();
        let next = chars.get(i + 1).copied();
        // "ms" or "s" as a word of its own.
        let rest = &chars[(i + 1).min(chars.len())..];
        let unit = [&['m', 's'][..], &['s'][..]]
            .iter()
            .any(|u| rest.starts_with(u) && rest.get(u.len()).is_none_or(|c| !c.is_alphanumeric()));
        if c == ' ' && after_digit && (next.is_some_and(|n| n.is_ascii_digit()) || unit) {
            out.push('\u{A0}');
        } else {
            out.push(c);
        }
    }
    out
}

fn badge(ui: &mut Ui, text: &str, color: Color32) {
    egui::Frame::new()
        .fill(color)
        .corner_radius(CornerRadius::same(4))
        .inner_margin(egui::Margin::symmetric(10, 4))
        .show(ui, |ui| {
            ui.label(
                RichText::new(text)
                    .size(20.0)
                    .strong()
                    .color(Color32::WHITE),
            );
        });
}

#[cfg(test)]
mod tests {
    use super::whole_numbers;

    #[test]
    fn numbers_and_their_units_do_not_wrap() {
        assert_eq!(
            whole_numbers("paused 10 000 ms at 2 s, then 3 seeds"),
            "paused 10\u{A0}000\u{A0}ms at 2\u{A0}s, then 3 seeds"
        );
        assert_eq!(whole_numbers("at 500 ms"), "at 500\u{A0}ms");
    }
}
