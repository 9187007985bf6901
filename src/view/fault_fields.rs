//! The fields of a fault that a form edits, described once, kind by kind, so the Sandbox's
//! full form and the timeline's inspector of a placed fault draw every kind the same way and
//! a new kind of fault is described here, not in each of them.

use crate::scenario::{DeletedBy, FaultKind};

/// One field of a fault, borrowed from it to be edited.
pub struct Field<'a> {
    /// The name a scenario file gives it (`for_ms`), as the validator's errors name it.
    pub name: &'static str,
    /// The word an inline editor puts before its value ("for", "by"); empty for a field an
    /// inline editor does not show.
    pub word: &'static str,
    /// What the form says of it; empty when the name says enough.
    pub hint: &'static str,
    /// Its value.
    pub value: Value<'a>,
}

/// What a field holds, and so how it is edited.
pub enum Value<'a> {
    /// A node's name, chosen among the scenario's nodes.
    Node(&'a mut String),
    /// One store node, or every store node when `None`.
    StoreNode(&'a mut Option<String>),
    /// A duration or a delay, simulated ms.
    Ms(&'a mut u64),
    /// A duration that may be left out: `on` is the checkbox's words ("heal after"), and
    /// `default_ms` the value it starts with when ticked.
    OptionalMs {
        /// The duration, simulated ms, if any.
        value: &'a mut Option<u64>,
        /// What ticking it means.
        on: &'static str,
        /// The duration it starts with, simulated ms.
        default_ms: u64,
    },
    /// A step forward (+) or back (−), simulated ms.
    SignedMs(&'a mut i64),
    /// A partition's groups of node names.
    Groups(&'a mut Vec<Vec<String>>),
    /// Who deletes a key.
    DeletedBy(&'a mut DeletedBy),
    /// A lock's key.
    Key(&'a mut String),
}

impl Value<'_> {
    /// A duration or step an inline editor shows as a number: `Some` for the numbers set
    /// (an optional duration left out is not shown).
    pub fn number(&mut self) -> Option<Number<'_>> {
        match self {
            Value::Ms(v) => Some(Number::Ms(v)),
            Value::OptionalMs { value: Some(v), .. } => Some(Number::Ms(v)),
            Value::SignedMs(v) => Some(Number::SignedMs(v)),
            Value::OptionalMs { value: None, .. }
            | Value::Node(_)
            | Value::StoreNode(_)
            | Value::Groups(_)
            | Value::DeletedBy(_)
            | Value::Key(_) => None,
        }
    }
}

/// A number a field holds, simulated ms.
pub enum Number<'a> {
    /// Never negative: a duration or a delay.
    Ms(&'a mut u64),
    /// Either way: a clock's step.
    SignedMs(&'a mut i64),
}

/// The fields of `kind` besides `at_ms`, in the order a file writes them. A force release by
/// a flush names no key, so it has no key field.
pub fn fields(kind: &mut FaultKind) -> Vec<Field<'_>> {
    let field = |name, word, hint, value| Field {
        name,
        word,
        hint,
        value,
    };
    match kind {
        FaultKind::Pause { node, for_ms } | FaultKind::Stall { node, for_ms } => vec![
            field("node", "", "", Value::Node(node)),
            field("for_ms", "for", "", Value::Ms(for_ms)),
        ],
        FaultKind::Crash { node } | FaultKind::Restart { node } => {
            vec![field("node", "", "", Value::Node(node))]
        }
        FaultKind::KillStore { for_ms } => vec![field(
            "for_ms",
            "for",
            "Empty: the store stays down.",
            Value::OptionalMs {
                value: for_ms,
                on: "restart after",
                default_ms: 5_000,
            },
        )],
        FaultKind::Partition { groups, for_ms } => vec![
            field(
                "groups",
                "",
                "Links between nodes of different groups are cut; unlisted nodes keep theirs.",
                Value::Groups(groups),
            ),
            field(
                "for_ms",
                "for",
                "Empty: until a heal.",
                Value::OptionalMs {
                    value: for_ms,
                    on: "heal after",
                    default_ms: 5_000,
                },
            ),
        ],
        FaultKind::Heal => Vec::new(),
        FaultKind::ClockJump { node, delta_ms } => vec![
            field("node", "", "", Value::Node(node)),
            field(
                "delta_ms",
                "by",
                "Forward (+) or back (-).",
                Value::SignedMs(delta_ms),
            ),
        ],
        FaultKind::Delay {
            from,
            to,
            extra_ms,
            for_ms,
        } => vec![
            field("from", "", "", Value::Node(from)),
            field("to", "", "", Value::Node(to)),
            field("extra_ms", "by", "", Value::Ms(extra_ms)),
            field("for_ms", "for", "", Value::Ms(for_ms)),
        ],
        FaultKind::ConnectionReset { from, to } => vec![
            field("from", "", "", Value::Node(from)),
            field("to", "", "", Value::Node(to)),
        ],
        FaultKind::ForceRelease { key, node, by } => {
            let flush = *by == DeletedBy::Flush;
            let mut fields = vec![field(
                "by",
                "",
                "Who deletes it: a person, the store's memory limit, or a flush of every key.",
                Value::DeletedBy(by),
            )];
            if !flush {
                fields.push(field("key", "", "The lock to delete.", Value::Key(key)));
            }
            fields.push(field(
                "node",
                "",
                "Empty: on every store node.",
                Value::StoreNode(node),
            ));
            fields
        }
    }
}

/// Puts back what an edit of one field left inconsistent: a flush names no key, and a force
/// release by anyone else needs one (`lock` if it had none).
pub fn settle(kind: &mut FaultKind) {
    if let FaultKind::ForceRelease { key, by, .. } = kind {
        if *by == DeletedBy::Flush {
            key.clear();
        } else if key.is_empty() {
            *key = "lock".to_string();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{FaultTag, library::shipped};
    use crate::view::fault_edit::dropped;
    use strum::VariantArray;

    /// Every kind's fields are the keys its file form takes, each once: a form built from
    /// them can set every key of the kind and writes none that a file could not hold.
    #[test]
    fn every_kind_describes_the_keys_its_file_form_takes() {
        let s = shipped("scenarios/step5-pause-unfenced.toml");
        let store_lane = s.workers.len();
        for &tag in FaultTag::VARIANTS {
            // A stall needs a worker's lane; everything can be dropped on one.
            let mut fault = dropped(&s, tag, 0, 1_000)
                .or_else(|_| dropped(&s, tag, store_lane, 1_000))
                .expect("every kind can be dropped on some lane");
            let mut names: Vec<&str> = fields(&mut fault.kind).iter().map(|f| f.name).collect();
            let mut keys = tag.keys().to_vec();
            names.sort_unstable();
            keys.sort_unstable();
            assert_eq!(names, keys, "{tag:?}");
        }
    }

    #[test]
    fn a_flush_has_no_key_and_settles_to_none() {
        let mut kind = FaultKind::ForceRelease {
            key: "lock".into(),
            node: None,
            by: DeletedBy::Flush,
        };
        assert!(fields(&mut kind).iter().all(|f| f.name != "key"));
        settle(&mut kind);
        assert!(matches!(&kind, FaultKind::ForceRelease { key, .. } if key.is_empty()));
        if let FaultKind::ForceRelease { by, .. } = &mut kind {
            *by = DeletedBy::Operator;
        }
        settle(&mut kind);
        assert!(matches!(&kind, FaultKind::ForceRelease { key, .. } if key == "lock"));
        assert!(fields(&mut kind).iter().any(|f| f.name == "key"));
    }

    #[test]
    fn an_inline_editor_shows_the_numbers_set() {
        let mut kind = FaultKind::Partition {
            groups: vec![vec!["A".into()], vec!["store1".into()]],
            for_ms: None,
        };
        let shown = |kind: &mut FaultKind| {
            fields(kind)
                .into_iter()
                .filter_map(|mut f| f.value.number().is_some().then_some(f.word))
                .collect::<Vec<_>>()
        };
        assert!(shown(&mut kind).is_empty());
        if let FaultKind::Partition { for_ms, .. } = &mut kind {
            *for_ms = Some(2_000);
        }
        assert_eq!(shown(&mut kind), ["for"]);
        let mut delay = FaultKind::Delay {
            from: "A".into(),
            to: "store1".into(),
            extra_ms: 50,
            for_ms: 500,
        };
        assert_eq!(shown(&mut delay), ["by", "for"]);
    }
}
