//! Reads the typed scenario out of toml's span-carrying tree.
//!
//! `toml::from_str` would report serde's errors as finished English sentences ("unknown
//! variant `fence`, expected one of `flag`, …") with a byte span but no field path. A teacher
//! needs the field and plain words, so this module is a small serde `Deserializer` over
//! [`DeValue`] that knows, at every value, its path and span, and an error type that keeps the
//! *kind* of each serde error (unknown field, wrong type, …) to word it afterwards.

use std::fmt;
use std::ops::Range;

use serde::de::{
    self, DeserializeSeed, Expected, IntoDeserializer, MapAccess, SeqAccess, Unexpected, Visitor,
};
use toml::Spanned;
use toml::de::{DeFloat, DeInteger, DeString, DeTable, DeValue};

use super::path::Path;

/// Deserializes `T` from a parsed document (its root must be a table).
pub(super) fn from_tree<'de, T: de::Deserialize<'de>>(
    root: &Spanned<DeValue<'de>>,
) -> Result<T, DeError> {
    T::deserialize(ValueDe {
        value: root,
        path: Path::default(),
    })
}

/// A value as an error message shows it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Got {
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Array,
    Table,
    /// A number with a fraction or an exponent, as the file spells it (`1e3`, `1000.0`):
    /// where a whole number belongs, its value alone (1000) would read as if it were fine.
    Decimal(String),
    /// Anything else, already described ("a date-time").
    Other(String),
}

impl Got {
    fn of(value: &DeValue<'_>) -> Got {
        match value {
            DeValue::String(s) => Got::Str(s.to_string()),
            DeValue::Integer(i) => integer(i).map_or_else(|| Got::Other(i.to_string()), Got::Int),
            DeValue::Float(f) => float(f).map_or_else(|| Got::Other(f.to_string()), Got::Float),
            DeValue::Boolean(b) => Got::Bool(*b),
            DeValue::Datetime(_) => Got::Other("a date-time".to_string()),
            DeValue::Array(_) => Got::Array,
            DeValue::Table(_) => Got::Table,
        }
    }
}

impl From<Unexpected<'_>> for Got {
    fn from(unexpected: Unexpected<'_>) -> Self {
        match unexpected {
            Unexpected::Bool(b) => Got::Bool(b),
            Unexpected::Unsigned(u) => Got::Int(u.into()),
            Unexpected::Signed(i) => Got::Int(i.into()),
            Unexpected::Float(f) => Got::Float(f),
            Unexpected::Char(c) => Got::Str(c.to_string()),
            Unexpected::Str(s) => Got::Str(s.to_string()),
            Unexpected::Seq => Got::Array,
            Unexpected::Map => Got::Table,
            other => Got::Other(other.to_string()),
        }
    }
}

impl fmt::Display for Got {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Got::Bool(b) => write!(f, "{b}"),
            Got::Int(i) => write!(f, "{i}"),
            Got::Float(x) => write!(f, "{x}"),
            Got::Str(s) => write!(f, "{s:?}"),
            Got::Array => f.write_str("an array"),
            Got::Table => f.write_str("a table"),
            Got::Decimal(s) => write!(f, "{s}, a decimal number"),
            Got::Other(s) => f.write_str(s),
        }
    }
}

/// What serde found wrong, before it is put into words.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Problem {
    UnknownField {
        field: String,
        expected: &'static [&'static str],
    },
    /// A name outside a fixed list: an enum value (`design = "fence"`) or a fault `kind`.
    NotOneOf {
        got: Got,
        allowed: &'static [&'static str],
    },
    Missing(&'static str),
    /// Wrong type or out of the type's range; `expected` is serde's description ("u64").
    Wrong {
        got: Got,
        expected: String,
    },
    WrongLength {
        len: usize,
        expected: String,
    },
    TooLarge(String),
    Other(String),
}

/// A deserialization error and, once known, the field and span it belongs to.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct DeError {
    pub(super) problem: Problem,
    pub(super) at: Option<(Path, Range<usize>)>,
}

impl DeError {
    fn new(problem: Problem) -> Self {
        DeError { problem, at: None }
    }

    /// Records where the error is, unless a deeper value already did.
    fn placed_at(mut self, path: Path, span: Range<usize>) -> Self {
        self.at.get_or_insert((path, span));
        self
    }

    /// The message for a teacher, without the position (the caller adds it).
    pub(super) fn message(&self) -> String {
        let path = self
            .at
            .as_ref()
            .map(|(path, _)| path.clone())
            .unwrap_or_default();
        match &self.problem {
            Problem::UnknownField { field, expected } => {
                let table = path.parent().table_phrase();
                if expected.is_empty() && table == "in [[fault]]" {
                    // The one kind of fault with no keys of its own (see `fault.rs`).
                    format!(
                        "unknown field `{field}` {table}; a heal fault takes only at_ms and kind"
                    )
                } else if *expected == super::fault::FLUSH_KEYS {
                    format!(
                        "unknown field `{field}` {table}: a flush (by = \"flush\") deletes every \
                         key on the node, so it names none; leave `key` out, or use by = \"operator\""
                    )
                } else if expected.is_empty() {
                    format!("unknown field `{field}`: nothing can be set {table}")
                } else {
                    let guess = closest(field, expected)
                        .map(|name| format!(" did you mean `{name}`?"))
                        .unwrap_or_default();
                    format!(
                        "unknown field `{field}` {table};{guess} expected one of {}",
                        expected.join(", ")
                    )
                }
            }
            Problem::NotOneOf { got, allowed } => {
                let guess = match got {
                    Got::Str(text) => closest(text, allowed),
                    _ => None,
                }
                .map(|name| format!(": did you mean {name:?}?"))
                .unwrap_or_default();
                format!("must be one of {}; got {got}{guess}", allowed.join(", "))
            }
            Problem::Missing(_) => "missing, and it has no default".to_string(),
            Problem::Wrong { got, expected } => {
                format!("must be {}; got {got}", plain_type(expected))
            }
            Problem::WrongLength { len, expected } => {
                let items = if *len == 1 { "item" } else { "items" };
                format!("must be {}; got {len} {items}", plain_type(expected))
            }
            // A number past the integer types' edges either way: say which edge.
            Problem::TooLarge(text) if text.trim_start().starts_with('-') => {
                format!("{text} is too small a number")
            }
            Problem::TooLarge(text) => format!("{text} is too large a number"),
            Problem::Other(message) => message.clone(),
        }
    }
}

/// The one of `names` that `typed` is most likely a slip for (a letter or two off, by
/// Jaro-Winkler similarity, as clap suggests a misspelt flag), if any is close enough.
fn closest<'a>(typed: &str, names: &[&'a str]) -> Option<&'a str> {
    names
        .iter()
        .map(|&name| (strsim::jaro_winkler(typed, name), name))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

/// serde describes what it expected in Rust terms ("u64", "struct Lock"); a teacher writing a
/// TOML file thinks in TOML terms.
fn plain_type(expected: &str) -> String {
    match expected {
        "u64" => "a whole number, 0 or more".to_string(),
        "u32" => format!("a whole number from 0 to {}", u32::MAX),
        "i64" => "a whole number".to_string(),
        "f64" => "a number".to_string(),
        "a boolean" => "true or false".to_string(),
        "a string" => "a string in quotes".to_string(),
        "a sequence" => "an array".to_string(),
        _ if expected.starts_with("an array of length ") => {
            format!(
                "an array of {} items",
                &expected["an array of length ".len()..]
            )
        }
        _ if expected.starts_with("struct ") || expected.contains("enum ") => "a table".to_string(),
        _ => expected.to_string(),
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.at {
            Some((path, _)) => write!(f, "{path}: {}", self.message()),
            None => f.write_str(&self.message()),
        }
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError::new(Problem::Other(msg.to_string()))
    }

    fn invalid_type(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        DeError::new(Problem::Wrong {
            got: unexpected.into(),
            expected: expected.to_string(),
        })
    }

    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Self::invalid_type(unexpected, expected)
    }

    fn invalid_length(len: usize, expected: &dyn Expected) -> Self {
        DeError::new(Problem::WrongLength {
            len,
            expected: expected.to_string(),
        })
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        DeError::new(Problem::NotOneOf {
            got: Got::Str(variant.to_string()),
            allowed: expected,
        })
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        DeError::new(Problem::UnknownField {
            field: field.to_string(),
            expected,
        })
    }

    fn missing_field(field: &'static str) -> Self {
        DeError::new(Problem::Missing(field))
    }
}

/// TOML integers are written in base 2, 8, 10 or 16, and toml-rs also reads ones past
/// `i64::MAX` (a `u64` seed needs that).
fn integer(i: &DeInteger<'_>) -> Option<i128> {
    i128::from_str_radix(i.as_str(), i.radix()).ok()
}

/// `1e400` is not infinity, it is too large; `inf` is infinity (and `nan` is NaN).
fn float(f: &DeFloat<'_>) -> Option<f64> {
    let x: f64 = f.as_str().parse().ok()?;
    (!x.is_infinite() || f.as_str().contains("inf")).then_some(x)
}

/// Deserializes one value, knowing its path and span.
struct ValueDe<'a, 'de> {
    value: &'a Spanned<DeValue<'de>>,
    path: Path,
}

impl ValueDe<'_, '_> {
    /// Gives an error from this value (or from inside it, not yet placed) its position.
    ///
    /// An error about a value is placed by the innermost value, which knows its own path; no
    /// scenario type buffers a table (`[[fault]]` is read key by key, see `fault.rs`), so
    /// what reaches a table unplaced is about its keys: an unknown one, found by name, or a
    /// missing one.
    fn place(&self, mut error: DeError) -> DeError {
        if error.at.is_some() {
            return error;
        }
        // serde saw only the float's value; the file's spelling says what was written.
        if let (Problem::Wrong { got, .. }, DeValue::Float(f)) =
            (&mut error.problem, self.value.get_ref())
            && matches!(got, Got::Float(x) if x.is_finite())
        {
            *got = Got::Decimal(f.as_str().to_string());
        }
        let span = self.value.span();
        let DeValue::Table(table) = self.value.get_ref() else {
            return error.placed_at(self.path.clone(), span);
        };
        let (path, span) = match &error.problem {
            Problem::UnknownField { field, .. } => table
                .iter()
                .find(|(key, _)| key.get_ref() == field)
                .map_or((self.path.clone(), span), |(key, _)| {
                    (self.path.key(field), key.span())
                }),
            Problem::Missing(field) => (self.path.key(field), span),
            _ => (self.path.clone(), span),
        };
        error.placed_at(path, span)
    }
}

type Entry<'a, 'de> = (&'a Spanned<DeString<'de>>, &'a Spanned<DeValue<'de>>);

/// toml-rs keeps a table's keys sorted by name; visiting them in file order makes the first
/// error reported the first one in the file.
fn in_file_order<'a, 'de>(table: &'a DeTable<'de>) -> Vec<Entry<'a, 'de>> {
    let mut entries: Vec<_> = table.iter().collect();
    crate::order::sort_by_key(&mut entries, |(key, _)| key.span().start);
    entries
}

impl<'de> ValueDe<'_, 'de> {
    /// The error a visitor that takes no value of this kind gives, as serde's default
    /// `visit_*` would word it. Not generic: each type-specific reader below calls it rather
    /// than hand every visitor every kind of value, which in the web build compiled each
    /// struct's array form and each visitor's table form once per type read.
    fn wrong(&self, expected: &dyn Expected) -> DeError {
        let error = match self.value.get_ref() {
            DeValue::String(s) => de::Error::invalid_type(Unexpected::Str(s), expected),
            DeValue::Integer(i) => match integer(i).map(|n| (i64::try_from(n), u64::try_from(n))) {
                Some((Ok(n), _)) => de::Error::invalid_type(Unexpected::Signed(n), expected),
                Some((_, Ok(n))) => de::Error::invalid_type(Unexpected::Unsigned(n), expected),
                _ => DeError::new(Problem::TooLarge(i.to_string())),
            },
            DeValue::Float(f) => match float(f) {
                Some(x) => de::Error::invalid_type(Unexpected::Float(x), expected),
                None => DeError::new(Problem::TooLarge(f.to_string())),
            },
            DeValue::Boolean(b) => de::Error::invalid_type(Unexpected::Bool(*b), expected),
            DeValue::Datetime(_) => {
                de::Error::invalid_type(Unexpected::Other("a date-time"), expected)
            }
            DeValue::Array(_) => de::Error::invalid_type(Unexpected::Seq, expected),
            DeValue::Table(_) => de::Error::invalid_type(Unexpected::Map, expected),
        };
        self.place(error)
    }

    /// A value that is not an array or a table, to a visitor of one that is neither.
    fn scalar<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let result = match self.value.get_ref() {
            DeValue::String(DeString::Borrowed(s)) => visitor.visit_borrowed_str(s),
            DeValue::String(DeString::Owned(s)) => visitor.visit_str(s),
            DeValue::Integer(i) => match integer(i).map(|n| (i64::try_from(n), u64::try_from(n))) {
                Some((Ok(n), _)) => visitor.visit_i64(n),
                Some((_, Ok(n))) => visitor.visit_u64(n),
                _ => Err(DeError::new(Problem::TooLarge(i.to_string()))),
            },
            DeValue::Float(f) => match float(f) {
                Some(x) => visitor.visit_f64(x),
                None => Err(DeError::new(Problem::TooLarge(f.to_string()))),
            },
            DeValue::Boolean(b) => visitor.visit_bool(*b),
            DeValue::Datetime(_) | DeValue::Array(_) | DeValue::Table(_) => {
                return Err(self.wrong(&visitor));
            }
        };
        result.map_err(|e| self.place(e))
    }

    /// An array, item by item; a fixed-size array (`delay_ms: [u64; 2]`) reads only the items
    /// it needs, and extra ones must not pass unnoticed.
    fn array<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let DeValue::Array(items) = self.value.get_ref() else {
            return Err(self.wrong(&visitor));
        };
        let expected = (&visitor as &dyn Expected).to_string();
        let mut seq = SeqDe {
            items: items.iter().enumerate(),
            path: &self.path,
        };
        let result = visitor.visit_seq(&mut seq).and_then(|value| {
            if seq.items.len() == 0 {
                Ok(value)
            } else {
                Err(de::Error::invalid_length(items.len(), &expected.as_str()))
            }
        });
        result.map_err(|e| self.place(e))
    }

    /// A table, key by key in file order.
    fn table<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let DeValue::Table(table) = self.value.get_ref() else {
            return Err(self.wrong(&visitor));
        };
        let result = visitor.visit_map(MapDe {
            entries: in_file_order(table).into_iter(),
            pending: None,
            path: &self.path,
        });
        result.map_err(|e| self.place(e))
    }
}

/// Generates `Deserializer` methods that hand their visitor to one of [`ValueDe`]'s readers.
macro_rules! read_with {
    ($reader:ident: $($method:ident),* $(,)?) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            self.$reader(visitor)
        })*
    };
}

impl<'de> de::Deserializer<'de> for ValueDe<'_, 'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value.get_ref() {
            DeValue::Array(_) => self.array(visitor),
            DeValue::Table(_) => self.table(visitor),
            _ => self.scalar(visitor),
        }
    }

    read_with!(scalar:
        deserialize_bool, deserialize_i8, deserialize_i16, deserialize_i32, deserialize_i64,
        deserialize_i128, deserialize_u8, deserialize_u16, deserialize_u32, deserialize_u64,
        deserialize_u128, deserialize_f32, deserialize_f64, deserialize_char, deserialize_str,
        deserialize_string, deserialize_bytes, deserialize_byte_buf, deserialize_unit,
        deserialize_identifier,
    );
    read_with!(array: deserialize_seq);
    read_with!(table: deserialize_map);

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.scalar(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.array(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.array(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.table(visitor)
    }

    /// TOML has no null: a key that is present is `Some`.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_some(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let result = match self.value.get_ref() {
            DeValue::String(s) => {
                visitor.visit_enum(<&str as IntoDeserializer<DeError>>::into_deserializer(s))
            }
            other => Err(DeError::new(Problem::NotOneOf {
                got: Got::of(other),
                allowed: variants,
            })),
        };
        result.map_err(|e| self.place(e))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! { ignored_any }
}

/// The entries of a table, in file order.
struct MapDe<'a, 'de> {
    entries: std::vec::IntoIter<Entry<'a, 'de>>,
    /// The value of the key just read.
    pending: Option<ValueDe<'a, 'de>>,
    path: &'a Path,
}

impl<'de> MapAccess<'de> for MapDe<'_, 'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        let path = self.path.key(key.get_ref());
        let read = seed
            .deserialize(<&str as IntoDeserializer<DeError>>::into_deserializer(
                key.get_ref(),
            ))
            .map_err(|e| e.placed_at(path.clone(), key.span()))?;
        self.pending = Some(ValueDe { value, path });
        Ok(Some(read))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        match self.pending.take() {
            Some(value) => seed.deserialize(value),
            None => Err(de::Error::custom("a value was read before its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// The items of an array.
struct SeqDe<'a, 'de> {
    items: std::iter::Enumerate<std::slice::Iter<'a, Spanned<DeValue<'de>>>>,
    path: &'a Path,
}

impl<'de> SeqAccess<'de> for &mut SeqDe<'_, 'de> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        match self.items.next() {
            Some((i, value)) => seed
                .deserialize(ValueDe {
                    value,
                    path: self.path.index(i),
                })
                .map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}
