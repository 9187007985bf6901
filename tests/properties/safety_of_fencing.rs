//! Fencing tokens checked at the resource stop every stale write, whatever pauses, stalls,
//! delays, partitions, clock jumps and worker crashes happen; checked on reads too, they
//! also stop every lost update.

use locksim::checker::ViolationKind;
use locksim::trace::EventKind;
use proptest::prelude::*;

use crate::generate::{Profile, repro, scenario};
use crate::{config, listing, run_and_check};

proptest! {
    #![proptest_config(config(4))]
    /// With fencing tokens checked at the resource, no older grant's write lands after a
    /// newer one's: the resource accepts fences in non-decreasing order per key, and the
    /// checker never reports `stale_write`.
    #[test]
    fn fencing_at_the_resource_stops_every_stale_write(sc in scenario(Profile::Fenced)) {
        let (trace, v) = run_and_check(&sc)?;
        let mut highest: Vec<Option<u64>> = vec![None; trace.keys.len()];
        for e in &trace.events {
            if let EventKind::WriteAccepted { key, fence, .. } = &e.kind {
                let top = &mut highest[key.index()];
                prop_assert!(
                    fence.is_some() && *fence >= *top,
                    "at {} ms the resource accepted fence {:?} after {:?}\n{}",
                    e.at_ms, fence, top, repro(&sc)
                );
                *top = *fence;
            }
        }
        prop_assert!(
            !v.has(ViolationKind::StaleWrite),
            "stale_write despite fencing:\n{}{}", listing(&v), repro(&sc)
        );
    }

    /// With fencing tokens checked on reads as well as writes, every request the resource
    /// serves carries a fence no lower than any before it, so one holder's read-modify-write
    /// ends before the next holder's begins: no `stale_write` and no `interleaved_writes`.
    #[test]
    fn fenced_reads_stop_every_lost_update(sc in scenario(Profile::Fenced)) {
        let mut sc = sc;
        sc.resource.fence_reads = true;
        let (trace, v) = run_and_check(&sc)?;
        let mut highest: Vec<Option<u64>> = vec![None; trace.keys.len()];
        for e in &trace.events {
            let (key, fence) = match &e.kind {
                EventKind::Read { key, fence, .. } | EventKind::WriteAccepted { key, fence, .. } => {
                    (key, fence)
                }
                _ => continue,
            };
            let top = &mut highest[key.index()];
            prop_assert!(
                fence.is_some() && *fence >= *top,
                "at {} ms the resource served fence {:?} after {:?}\n{}",
                e.at_ms, fence, top, repro(&sc)
            );
            *top = *fence;
        }
        prop_assert!(
            !v.has(ViolationKind::StaleWrite) && !v.has(ViolationKind::InterleavedWrites),
            "a lost update despite fenced reads:\n{}{}", listing(&v), repro(&sc)
        );
    }
}
