//! A run as text: one line per event, in the order they happened, in the one wording of
//! events ([`crate::view::wording`]), then the verdict. `locksim run` prints these; the app
//! exports them as a handout.

use std::io::{self, Write};

use super::report;
use crate::checker::Verdict;
use crate::text::{fmt_clock_ms, fmt_counted, fmt_ms, pad_end, pad_start, printable};
use crate::trace::{Event, Trace};
use crate::view::verdict;
use crate::view::wording::{Labels, is_network, node_label};

/// The whole transcript of a run: the scenario's name and seed, the timeline (network plumbing
/// left out, as `locksim run` leaves it out by default) and the verdict, as `locksim run`
/// words them. With `until_ms` (true ms, before the horizon) the timeline stops there, as a
/// picture cut there does ([`super::svg::Picture::until_ms`]), and the verdict, the whole
/// run's, comes after a line saying so and what had gone wrong by then.
pub fn transcript(trace: &Trace, verdict: &Verdict, until_ms: Option<u64>) -> String {
    let mut out = Vec::new();
    write_transcript(&mut out, trace, verdict, until_ms).expect("writing to memory does not fail");
    String::from_utf8(out).expect("the transcript is UTF-8")
}

fn write_transcript(
    out: &mut impl Write,
    trace: &Trace,
    verdict: &Verdict,
    until_ms: Option<u64>,
) -> io::Result<()> {
    writeln!(out, "{}", printable(&trace.scenario, false))?;
    writeln!(out, "seed {}", trace.seed)?;
    writeln!(out)?;
    let cut = until_ms.filter(|&ms| ms < trace.until_ms);
    let shown = match cut {
        // Events are in time order: those up to the cut are a prefix.
        Some(ms) => &trace.events[..trace.events.partition_point(|e| e.at_ms <= ms)],
        None => &trace.events[..],
    };
    // A transcript is read away from the command line (a download, a handout): no flag to name.
    write_events(out, trace, shown, false, "")?;
    if let Some(ms) = cut {
        writeln!(
            out,
            "\n{}",
            verdict::shown_up_to(verdict, ms, trace.until_ms)
        )?;
    }
    report::write_verdict(out, trace, verdict)
}

/// Writes the timeline: true time (right-aligned), node, the node's own clock when it
/// disagrees with true time, and what happened. Network plumbing is left out unless `all`.
pub fn write_timeline(out: &mut impl Write, trace: &Trace, all: bool) -> io::Result<()> {
    write_events(out, trace, &trace.events, all, "; --all shows them")
}

/// [`write_timeline`] of `events`, some of `trace`'s; a note of the network events left out
/// ends with `how_to_show`.
fn write_events(
    out: &mut impl Write,
    trace: &Trace,
    events: &[Event],
    all: bool,
    how_to_show: &str,
) -> io::Result<()> {
    let shown: Vec<&Event> = events
        .iter()
        .filter(|e| all || !is_network(trace, e))
        .collect();
    let hidden = events.len() - shown.len();

    // Widths come from what is shown, so a short run gets a narrow table.
    let time_w = shown
        .iter()
        .map(|e| fmt_ms(e.at_ms).len())
        .max()
        .unwrap_or(0)
        .max("time".len());
    let node_w = shown
        .iter()
        .map(|e| node_label(trace, e).chars().count())
        .max()
        .unwrap_or(0)
        .max("node".len());
    let clock_w = shown
        .iter()
        .filter_map(|e| own_clock(e))
        .map(|c| c.chars().count())
        .max();

    // The node column's width comes from the scenario's names: padded by `pad_end`, as a
    // format width would panic past 65 535.
    writeln!(out, "timeline")?;
    let time = pad_start("time", time_w);
    let node = pad_end("node", node_w);
    match clock_w {
        Some(w) => writeln!(
            out,
            "  {time}  {node}  {}  event",
            pad_start("own clock", w)
        )?,
        None => writeln!(out, "  {time}  {node}  event")?,
    }
    let labels = Labels::new(trace);
    for e in &shown {
        let time = pad_start(&fmt_ms(e.at_ms), time_w);
        let node = pad_end(node_label(trace, e), node_w);
        let what = labels.describe(e);
        match clock_w {
            Some(w) => {
                let clock = pad_start(&own_clock(e).unwrap_or_default(), w);
                writeln!(out, "  {time}  {node}  {clock}  {what}")?
            }
            None => writeln!(out, "  {time}  {node}  {what}")?,
        }
    }
    if shown.is_empty() {
        writeln!(out, "  (nothing happened)")?;
    }
    if hidden > 0 {
        writeln!(
            out,
            "  ({} hidden: sends, deliveries, losses{how_to_show})",
            fmt_counted(hidden as u64, "network event")
        )?;
    }
    Ok(())
}

/// The node's clock reading, when it is not true time (offset, drift or a jump): that gap is
/// what makes leases measured on different clocks disagree.
fn own_clock(e: &Event) -> Option<String> {
    let true_ms = i64::try_from(e.at_ms).ok()?;
    (e.local_ms != true_ms).then(|| fmt_clock_ms(e.local_ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{A, A1, STORE1, event, trace};
    use crate::trace::{EventKind, Label, MsgId};

    fn render(events: Vec<Event>, all: bool) -> String {
        let mut out = Vec::new();
        write_timeline(&mut out, &trace(events), all).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn columns_line_up_and_network_lines_hide() {
        let send = EventKind::Send {
            msg: MsgId::new(0),
            to: STORE1,
            what: Label::Acquire {
                token: A1,
                reenter: false,
            },
        };
        let events = vec![
            event(0, A, 0, send),
            event(1_000, A, 1_000, EventKind::Paused { for_ms: 15_000 }),
            event(16_000, A, 16_250, EventKind::Resumed),
        ];
        let expected = [
            "timeline",
            "       time  node  own clock  event",
            "   1 000 ms  A                paused for 15 000 ms",
            "  16 000 ms  A     16 250 ms  resumed after its pause",
            "  (1 network event hidden: sends, deliveries, losses; --all shows them)",
            "",
        ];
        assert_eq!(render(events.clone(), false), expected.join("\n"));
        assert!(
            render(events, true)
                .contains("\n       0 ms  A                send acquire A#1 → store1\n")
        );
    }

    #[test]
    fn the_hidden_network_events_are_counted_for_people() {
        let send = |i: u32| {
            event(
                0,
                A,
                0,
                EventKind::Send {
                    msg: MsgId::new(i),
                    to: STORE1,
                    what: Label::Release { token: A1 },
                },
            )
        };
        let text = render((0..1_500).map(send).collect(), false);
        assert!(
            text.ends_with(
                "  (1 500 network events hidden: sends, deliveries, losses; --all shows them)\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_transcript_counts_what_it_hides_without_naming_a_flag() {
        let send = EventKind::Send {
            msg: MsgId::new(0),
            to: STORE1,
            what: Label::Release { token: A1 },
        };
        let trace = trace(vec![event(0, A, 0, send)]);
        let verdict = crate::testkit::verdict(true, &[]);
        let text = transcript(&trace, &verdict, None);
        assert!(
            text.contains("  (1 network event hidden: sends, deliveries, losses)\n"),
            "{text}"
        );
        assert!(!text.contains("--all"), "{text}");
    }

    #[test]
    fn the_clock_column_appears_only_when_a_clock_disagrees() {
        let events = vec![event(5, STORE1, 5, EventKind::Crashed)];
        assert_eq!(
            render(events, false),
            "timeline\n  time  node    event\n  5 ms  store1  crashed\n"
        );
    }
}
