//! Row packing: bars that overlap in time on one lane (several keys, or a double grant on one
//! node) are stacked on rows, and each lane's spans are split into tracks that never overlap,
//! so a front end can cull a track to the view by binary search.

use super::{Intervals, Span, SpanKind, Track};

/// Puts each belief or lease bar on the first row free at its start; returns the row count.
/// `spans` must be sorted by start.
pub(super) fn assign_rows(spans: &mut [Span]) -> u32 {
    let bars: Vec<usize> = (0..spans.len())
        .filter(|&i| spans[i].kind.bar_row().is_some())
        .collect();
    let rows = pack(spans, bars);
    for (r, members) in rows.iter().enumerate() {
        for &i in members {
            if let SpanKind::Belief { row, .. }
            | SpanKind::Lease { row, .. }
            | SpanKind::Logged { row, .. } = &mut spans[i].kind
            {
                *row = r as u32;
            }
        }
    }
    rows.len().max(1) as u32
}

/// Puts each of the spans `ids` (sorted by start) into the first row that is free at its
/// start, so no row holds two that overlap; returns the rows.
fn pack(spans: &[Span], ids: impl IntoIterator<Item = usize>) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for i in ids {
        let free = rows.iter().position(|row| {
            row.last()
                .is_some_and(|&j| spans[j].end_ms <= spans[i].start_ms)
        });
        match free {
            Some(r) => rows[r].push(i),
            None => rows.push(vec![i]),
        }
    }
    rows
}

/// Splits a lane's spans (sorted by start, rows assigned) into tracks: the shadings, then
/// the waits, then one per bar row, each packed so that none overlaps another.
pub(super) fn tracks(spans: &[Span]) -> Vec<Track> {
    let of = |keep: &dyn Fn(&SpanKind) -> bool| {
        pack(spans, (0..spans.len()).filter(|&i| keep(&spans[i].kind)))
    };
    let shadings = of(&|k| {
        matches!(
            k,
            SpanKind::Paused | SpanKind::Stalled | SpanKind::Crashed | SpanKind::SlowLink { .. }
        )
    });
    let waits = of(&|k| matches!(k, SpanKind::Waiting { .. }));
    let rows = spans.iter().filter_map(|s| s.kind.bar_row()).max();
    let bars = (0..rows.map_or(0, |r| r + 1)).map(|r| {
        (0..spans.len())
            .filter(|&i| spans[i].kind.bar_row() == Some(r))
            .collect::<Vec<_>>()
    });
    shadings
        .into_iter()
        .chain(waits)
        .chain(bars)
        .map(|ids| Track {
            times: Intervals::new(
                ids.iter()
                    .map(|&i| (spans[i].start_ms, spans[i].end_ms))
                    .collect(),
            ),
            spans: ids,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::KeyId;
    use crate::view::timeline::LeaseEnd;
    use crate::view::timeline::fixtures::{A, token};

    #[test]
    fn overlapping_bars_get_their_own_rows() {
        let bar = |start_ms, end_ms| Span {
            start_ms,
            end_ms,
            kind: SpanKind::Lease {
                key: KeyId::new(0),
                token: token(A),
                fence: None,
                row: 9,
                promised_end_ms: None,
                end: LeaseEnd::Horizon,
                took_over: false,
                on_disk: false,
            },
            label: String::new(),
            end_label: String::new(),
            end_event: None,
        };
        let mut bars = [bar(0, 10), bar(5, 20), bar(10, 30), bar(20, 25)];
        assert_eq!(assign_rows(&mut bars), 2);
        let rows: Vec<_> = bars
            .iter()
            .map(|s| match s.kind {
                SpanKind::Lease { row, .. } => row,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(rows, [0, 1, 0, 1]);
    }
}
