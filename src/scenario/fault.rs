//! Reading a `[[fault]]` table.
//!
//! Which keys a fault takes depends on its `kind`, which may come anywhere in the table. Serde's
//! internally tagged enums handle that by buffering the whole table first, and then report a
//! bad value with no way to say which key held it. Here every key is read straight into its
//! own type (each key means the same in every kind that takes it), so a bad value is reported
//! at its own key; only then does `kind` decide which keys belong.

// A new kind of fault must be decided on in every match here, never passed over by `_`.
#![deny(clippy::wildcard_enum_match_arm)]

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use super::{DeletedBy, Fault, FaultKind, FaultTag, defaults};

/// Every key a fault table can have, in any kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    AtMs,
    Kind,
    Node,
    ForMs,
    Groups,
    DeltaMs,
    From,
    To,
    ExtraMs,
    Key,
    By,
}

impl Field {
    const ALL: [Field; 11] = [
        Field::AtMs,
        Field::Kind,
        Field::Node,
        Field::ForMs,
        Field::Groups,
        Field::DeltaMs,
        Field::From,
        Field::To,
        Field::ExtraMs,
        Field::Key,
        Field::By,
    ];

    fn name(self) -> &'static str {
        match self {
            Field::AtMs => "at_ms",
            Field::Kind => "kind",
            Field::Node => "node",
            Field::ForMs => "for_ms",
            Field::Groups => "groups",
            Field::DeltaMs => "delta_ms",
            Field::From => "from",
            Field::To => "to",
            Field::ExtraMs => "extra_ms",
            Field::Key => "key",
            Field::By => "by",
        }
    }
}

impl FaultTag {
    /// The keys a fault of this kind takes besides `at_ms` and `kind`, as an error lists
    /// them. Only `heal` has none (the error then says so in words).
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            FaultTag::Pause | FaultTag::Stall => &["node", "for_ms"],
            FaultTag::Crash | FaultTag::Restart => &["node"],
            FaultTag::KillStore => &["for_ms"],
            FaultTag::Partition => &["groups", "for_ms"],
            FaultTag::Heal => &[],
            FaultTag::ClockJump => &["node", "delta_ms"],
            FaultTag::Delay => &["from", "to", "extra_ms", "for_ms"],
            FaultTag::ForceRelease => &["key", "node", "by"],
            FaultTag::ConnectionReset => &["from", "to"],
        }
    }
}

/// The keys a `force_release` with `by = "flush"` takes: a flush empties the node, so it
/// names no `key` (the error for one says so, see `de.rs`).
pub(super) const FLUSH_KEYS: &[&str] = &["node", "by"];

/// What the table held, each key typed, before `kind` sorts them out.
#[derive(Default)]
struct Raw {
    /// The keys present, in file order (so the first stray one is the one reported); `None`
    /// for a key no fault takes.
    present: Vec<(String, Option<Field>)>,
    at_ms: Option<u64>,
    kind: Option<FaultTag>,
    node: Option<String>,
    for_ms: Option<u64>,
    groups: Option<Vec<Vec<String>>>,
    delta_ms: Option<i64>,
    from: Option<String>,
    to: Option<String>,
    extra_ms: Option<u64>,
    key: Option<String>,
    by: Option<DeletedBy>,
}

impl Raw {
    fn into_fault<E: de::Error>(self) -> Result<Fault, E> {
        let kind = self.kind.ok_or_else(|| E::missing_field("kind"))?;
        let at_ms = self.at_ms.ok_or_else(|| E::missing_field("at_ms"))?;
        let stray = self.present.iter().find(|(_, field)| {
            !matches!(field, Some(Field::AtMs | Field::Kind))
                && !field.is_some_and(|f| kind.keys().contains(&f.name()))
        });
        if let Some((name, _)) = stray {
            return Err(E::unknown_field(name, kind.keys()));
        }
        if self.by == Some(DeletedBy::Flush) && self.key.is_some() {
            // A flush empties the node: naming one key would promise the others survive.
            return Err(E::unknown_field("key", FLUSH_KEYS));
        }
        let kind = match kind {
            FaultTag::Pause => FaultKind::Pause {
                node: need::<_, E>(self.node, "node")?,
                for_ms: need::<_, E>(self.for_ms, "for_ms")?,
            },
            FaultTag::Stall => FaultKind::Stall {
                node: need::<_, E>(self.node, "node")?,
                for_ms: need::<_, E>(self.for_ms, "for_ms")?,
            },
            FaultTag::Crash => FaultKind::Crash {
                node: need::<_, E>(self.node, "node")?,
            },
            FaultTag::Restart => FaultKind::Restart {
                node: need::<_, E>(self.node, "node")?,
            },
            FaultTag::KillStore => FaultKind::KillStore {
                for_ms: self.for_ms,
            },
            FaultTag::Partition => FaultKind::Partition {
                groups: need::<_, E>(self.groups, "groups")?,
                for_ms: self.for_ms,
            },
            FaultTag::Heal => FaultKind::Heal,
            FaultTag::ClockJump => FaultKind::ClockJump {
                node: need::<_, E>(self.node, "node")?,
                delta_ms: need::<_, E>(self.delta_ms, "delta_ms")?,
            },
            FaultTag::Delay => FaultKind::Delay {
                from: need::<_, E>(self.from, "from")?,
                to: need::<_, E>(self.to, "to")?,
                extra_ms: need::<_, E>(self.extra_ms, "extra_ms")?,
                for_ms: need::<_, E>(self.for_ms, "for_ms")?,
            },
            FaultTag::ForceRelease if self.by == Some(DeletedBy::Flush) => {
                FaultKind::ForceRelease {
                    key: String::new(),
                    node: self.node,
                    by: DeletedBy::Flush,
                }
            }
            FaultTag::ForceRelease => FaultKind::ForceRelease {
                key: self.key.unwrap_or_else(defaults::key),
                node: self.node,
                by: self.by.unwrap_or_default(),
            },
            FaultTag::ConnectionReset => FaultKind::ConnectionReset {
                from: need::<_, E>(self.from, "from")?,
                to: need::<_, E>(self.to, "to")?,
            },
        };
        Ok(Fault { at_ms, kind })
    }
}

struct FaultVisitor;

impl<'de> Visitor<'de> for FaultVisitor {
    type Value = Fault;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a fault table")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fault, A::Error> {
        let mut raw = Raw::default();
        while let Some(name) = map.next_key::<String>()? {
            let field = Field::ALL.into_iter().find(|f| f.name() == name);
            raw.present.push((name, field));
            let Some(field) = field else {
                map.next_value::<de::IgnoredAny>()?;
                continue;
            };
            match field {
                Field::AtMs => raw.at_ms = Some(map.next_value()?),
                Field::Kind => raw.kind = Some(map.next_value()?),
                Field::Node => raw.node = Some(map.next_value()?),
                Field::ForMs => raw.for_ms = Some(map.next_value()?),
                Field::Groups => raw.groups = Some(map.next_value()?),
                Field::DeltaMs => raw.delta_ms = Some(map.next_value()?),
                Field::From => raw.from = Some(map.next_value()?),
                Field::To => raw.to = Some(map.next_value()?),
                Field::ExtraMs => raw.extra_ms = Some(map.next_value()?),
                Field::Key => raw.key = Some(map.next_value()?),
                Field::By => raw.by = Some(map.next_value()?),
            }
        }
        raw.into_fault()
    }
}

impl<'de> Deserialize<'de> for Fault {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fault, D::Error> {
        deserializer.deserialize_map(FaultVisitor)
    }
}

/// A key the fault's kind requires.
fn need<T, E: de::Error>(value: Option<T>, name: &'static str) -> Result<T, E> {
    value.ok_or_else(|| E::missing_field(name))
}
