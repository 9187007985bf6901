//! Shareable state in the web URL's fragment: which step the learner is on, the choices made,
//! the scenario being played and the seed. Opening such a link restores the exact view.
//!
//! Pure functions, no browser in them: [`encode`] writes the fragment (without the `#`),
//! [`decode`] reads one back. The format is a query string with a version first:
//!
//! ```text
//! v=2&step=3&choices=0.2.-.1&seed=7&scenario=<base64url(deflate(TOML))>
//! ```
//!
//! - `step`: the app's step index, as the app counts it (0 is the introduction, 1 the first
//!   question). A link written by hand may say `page` instead, by the name the course shows:
//!   `page=5` is step 5, `page=7b` step 7b; `intro`, `recap`, `sandbox`, `library`,
//!   `glossary` and `challenges` name the other pages.
//! - `choices`: one entry per step, the chosen option's index or `-` for none, joined by `.`.
//! - `seed`: the seed the run uses instead of the scenario's own.
//! - `scenario`: the scenario as [`scenario::to_toml`] writes it, raw-deflated and base64url
//!   encoded without padding (RFC 4648, the URL-safe alphabet). Reading it back runs the same parser and validation as a file, so
//!   a doctored link can at worst show an error.
//!
//! A link to two runs side by side ([`crate::view::compare`]) adds one of:
//!
//! - `compare=2.0`: on the course step `step`, option 2 (the learner's call) above option 0.
//! - `against=<base64url(deflate(TOML))>`: on a tool page, `scenario` above this one, packed
//!   the same way.
//!
//! A link to a challenge adds `challenge=<id>`, with `scenario` carrying the attempt.
//!
//! Links without them read exactly as before, so format 2 stays format 2.
//!
//! Every field but `v` may be left out. Anything malformed, from another format version, or
//! longer than [`MAX_FRAGMENT_BYTES`] is an error whose message a learner can read; the app
//! shows it and opens as a plain visit would (a first visit: at the start of the course).

use std::borrow::Cow;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::course::STEPS;
use crate::course::progress::Place;
use crate::scenario::{self, Scenario, ScenarioError};

/// The format version written in `v=`. Bump it on a change old links cannot follow.
pub const VERSION: u32 = 2;

/// Fragments longer than this are refused before any decoding (a scenario compresses to well
/// under 2 KB, so this only stops pasted junk and decompression bombs).
pub const MAX_FRAGMENT_BYTES: usize = 16 * 1024;

/// Upper bound on a decompressed scenario: refuses a small link that inflates to a huge one.
const MAX_SCENARIO_BYTES: usize = 64 * 1024;

/// Upper bound on the number of recorded choices (the course has a dozen decisions).
const MAX_CHOICES: usize = 64;

/// What a shared link carries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SharedState {
    /// The step the learner is on (the app's index).
    pub step: usize,
    /// For each step, the option chosen there, if any.
    pub choices: Vec<Option<usize>>,
    /// The scenario on screen, when it is not simply the one the step's choice binds.
    pub scenario: Option<Scenario>,
    /// The seed in use, when it is not the scenario's own.
    pub seed: Option<u64>,
    /// Two runs side by side on screen, if they are.
    pub compare: Option<Compared>,
    /// The challenge on screen (its id), on the Challenges page; `scenario` is then the
    /// attempt, the challenge's design with the faults placed.
    pub challenge: Option<String>,
}

/// What a link to two runs side by side carries besides the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Compared {
    /// On the course step the link names: the option the learner chose (above) and the one
    /// it is compared with (below), as indexes into the step's options.
    Options(usize, usize),
    /// On a tool page: the link's `scenario` above, this one below.
    Against(Box<Scenario>),
}

/// Why a fragment could not be read. Displays as a sentence for the learner.
#[derive(Clone, Debug, PartialEq)]
pub enum ShareError {
    /// Longer than [`MAX_FRAGMENT_BYTES`].
    TooLong {
        /// Its length in bytes.
        bytes: usize,
    },
    /// Made by a different version of the format (or has no version).
    Version(String),
    /// Not of the form `key=value&...`, an unknown key, or a value that does not parse.
    Malformed(String),
    /// The scenario decoded but is not a valid scenario.
    Scenario(ScenarioError),
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("This link's saved state cannot be used, so locksim opens without it: ")?;
        match self {
            ShareError::TooLong { bytes } => write!(
                f,
                "it is {bytes} bytes long, more than the {MAX_FRAGMENT_BYTES} a link may carry."
            ),
            ShareError::Version(v) if v.is_empty() => {
                f.write_str("it does not say which format it is in.")
            }
            ShareError::Version(v) => write!(
                f,
                "it was made by another version of locksim (format {v}, this one reads {VERSION})."
            ),
            ShareError::Malformed(why) => write!(f, "{why}."),
            ShareError::Scenario(e) => write!(f, "its scenario is not valid ({e})."),
        }
    }
}

impl std::error::Error for ShareError {}

/// Writes `state` as a URL fragment, without the leading `#`. [`decode`] reads it back equal
/// when [`encode_readable`] accepts it.
pub fn encode(state: &SharedState) -> String {
    write(state).0
}

/// Why a view is too large for a link: a link [`encode`] wrote for it, [`decode`] would
/// refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooLarge {
    /// A scenario it carries is this many bytes of TOML, more than a link unpacks.
    Scenario(usize),
    /// The fragment is this many bytes long, more than [`MAX_FRAGMENT_BYTES`].
    Fragment(usize),
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = |n: usize| crate::text::fmt_count(n as u64);
        match *self {
            TooLarge::Scenario(bytes) => write!(
                f,
                "its scenario is {} bytes of TOML, and a link carries at most {}",
                count(bytes),
                count(MAX_SCENARIO_BYTES)
            ),
            TooLarge::Fragment(bytes) => write!(
                f,
                "its link would be {} bytes long, and a link may be at most {}",
                count(bytes),
                count(MAX_FRAGMENT_BYTES)
            ),
        }
    }
}

/// [`encode`]'s fragment if [`decode`] reads it back, else why not.
pub fn encode_readable(state: &SharedState) -> Result<String, TooLarge> {
    let (fragment, toml) = write(state);
    if toml > MAX_SCENARIO_BYTES {
        Err(TooLarge::Scenario(toml))
    } else if fragment.len() > MAX_FRAGMENT_BYTES {
        Err(TooLarge::Fragment(fragment.len()))
    } else {
        Ok(fragment)
    }
}

/// The fragment for `state`, and the length of the longest scenario TOML in it, bytes.
fn write(state: &SharedState) -> (String, usize) {
    let mut longest = 0;
    let mut pack = |scenario: &Scenario| {
        let toml = scenario::to_toml(scenario);
        longest = longest.max(toml.len());
        deflated(&toml)
    };
    let mut query = form_urlencoded::Serializer::new(String::new());
    query.append_pair("v", &VERSION.to_string());
    query.append_pair("step", &state.step.to_string());
    if !state.choices.is_empty() {
        let choices: Vec<String> = state
            .choices
            .iter()
            .map(|choice| choice.map_or_else(|| "-".to_string(), |option| option.to_string()))
            .collect();
        query.append_pair("choices", &choices.join("."));
    }
    if let Some(id) = &state.challenge {
        query.append_pair("challenge", id);
    }
    if let Some(seed) = state.seed {
        query.append_pair("seed", &seed.to_string());
    }
    if let Some(scenario) = &state.scenario {
        query.append_pair("scenario", &pack(scenario));
    }
    match &state.compare {
        Some(Compared::Options(a, b)) => {
            query.append_pair("compare", &format!("{a}.{b}"));
        }
        Some(Compared::Against(other)) => {
            query.append_pair("against", &pack(other));
        }
        None => {}
    }
    (query.finish(), longest)
}

/// `scenario` as a link carries it: its TOML, raw-deflated, in base64url without padding.
/// The app's saved Sandbox draft is packed the same way.
pub fn pack(scenario: &Scenario) -> String {
    deflated(&scenario::to_toml(scenario))
}

/// `text` raw-deflated, in base64url without padding.
fn deflated(text: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
    URL_SAFE_NO_PAD.encode(packed)
}

/// The text [`pack`] packed into `value`, if it unpacks to at most `limit` bytes of UTF-8.
pub fn unpack(value: &str, limit: usize) -> Result<String, ShareError> {
    // The engine refuses stray bits past the end, so each byte string has one encoding.
    let packed = URL_SAFE_NO_PAD
        .decode(value)
        .map_err(|_| malformed("its scenario is not base64url text".to_string()))?;
    let toml =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, limit).map_err(|_| {
            malformed(format!(
                "its scenario is damaged or unpacks to more than {limit} bytes"
            ))
        })?;
    String::from_utf8(toml).map_err(|_| malformed("its scenario is not text".to_string()))
}

/// Reads a fragment written by [`encode`]. A leading `#` is ignored; an empty fragment is the
/// default state (step 0, nothing chosen).
pub fn decode(fragment: &str) -> Result<SharedState, ShareError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.len() > MAX_FRAGMENT_BYTES {
        return Err(ShareError::TooLong {
            bytes: fragment.len(),
        });
    }
    let mut state = SharedState::default();
    if fragment.is_empty() {
        return Ok(state);
    }
    // `encode` writes every part as `key=value`; the query-string parser would skip an empty
    // part and read a lone key as having an empty value, so those are refused here first.
    if let Some((n, pair)) = fragment
        .split('&')
        .enumerate()
        .find(|(_, pair)| !pair.contains('='))
    {
        return Err(malformed(format!(
            "part {} ({}) has no \"=\"",
            n + 1,
            clip(pair)
        )));
    }
    let mut seen: Vec<Cow<'_, str>> = Vec::new();
    for (n, (key, value)) in form_urlencoded::parse(fragment.as_bytes()).enumerate() {
        if seen.contains(&key) {
            return Err(malformed(format!("\"{}\" appears twice", clip(&key))));
        }
        match (n, key.as_ref()) {
            (0, "v") => {
                if value != VERSION.to_string() {
                    return Err(ShareError::Version(clip(&value)));
                }
            }
            (0, _) => return Err(ShareError::Version(String::new())),
            (_, "step" | "page") if seen.iter().any(|k| k == "step" || k == "page") => {
                return Err(malformed("it has both \"step\" and \"page\"".to_string()));
            }
            (_, "step") => state.step = number(&key, &value)?,
            (_, "page") => state.step = page_named(&value)?,
            (_, "choices") => state.choices = choices(&value)?,
            (_, "seed") => state.seed = Some(number(&key, &value)?),
            (_, "challenge") => state.challenge = Some(challenge_id(&value)?),
            (_, "scenario") => state.scenario = Some(scenario_from(&value)?),
            (_, "compare" | "against") if state.compare.is_some() => {
                return Err(malformed(
                    "it has both \"compare\" and \"against\"".to_string(),
                ));
            }
            (_, "compare") => state.compare = Some(options(&value)?),
            (_, "against") => {
                state.compare = Some(Compared::Against(Box::new(scenario_from(&value)?)));
            }
            _ => {
                return Err(malformed(format!(
                    "it has an unknown part \"{}\"",
                    clip(&key)
                )));
            }
        }
        seen.push(key);
    }
    Ok(state)
}

fn malformed(why: String) -> ShareError {
    ShareError::Malformed(why)
}

/// At most 24 characters of `s`, for messages about junk input.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// The page a hand-written `page=` names: a step by the number the course shows it under
/// (`0` … `8`, `7a` … `7d`), or another page by its name.
fn page_named(value: &str) -> Result<usize, ShareError> {
    let place = match value {
        "intro" => Some(Place::Intro),
        "recap" => Some(Place::Recap),
        "sandbox" => Some(Place::Sandbox),
        "library" => Some(Place::Library),
        "glossary" => Some(Place::Glossary),
        "challenges" => Some(Place::Challenges),
        number => STEPS
            .iter()
            .position(|s| s.number == number)
            .map(Place::Step),
    };
    place.map(page_number).ok_or_else(|| {
        malformed(format!(
            "\"page\" should be a step as the course numbers it (0 to 8, 7a to 7d) or intro, \
             recap, sandbox, library, glossary or challenges, not \"{}\"",
            clip(value)
        ))
    })
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, ShareError> {
    // `FromStr` for integers accepts a leading `+`; encode never writes one.
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(malformed(format!(
            "\"{key}\" should be a whole number, not \"{}\"",
            clip(value)
        )));
    }
    value
        .parse()
        .map_err(|_| malformed(format!("\"{key}\" is too large: {}", clip(value))))
}

fn choices(value: &str) -> Result<Vec<Option<usize>>, ShareError> {
    if value.is_empty() {
        return Ok(Vec::new());
    }
    let parts: Vec<&str> = value.split('.').collect();
    if parts.len() > MAX_CHOICES {
        return Err(malformed(format!(
            "it records {} choices, more than {MAX_CHOICES}",
            parts.len()
        )));
    }
    parts
        .into_iter()
        .map(|part| match part {
            "-" => Ok(None),
            _ => number("choices", part).map(Some),
        })
        .collect()
}

/// A challenge's id: lower-case letters, digits and dashes, at most 64 of them. Whether a
/// challenge has it is the app's to say.
fn challenge_id(value: &str) -> Result<String, ShareError> {
    let fits = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-';
    if value.is_empty() || value.len() > 64 || !value.bytes().all(fits) {
        return Err(malformed(format!(
            "\"challenge\" should be a challenge's name like pause-past-lease, not \"{}\"",
            clip(value)
        )));
    }
    Ok(value.to_string())
}

/// `a.b`: two option indexes.
fn options(value: &str) -> Result<Compared, ShareError> {
    match value.split_once('.') {
        Some((a, b)) => Ok(Compared::Options(
            number("compare", a)?,
            number("compare", b)?,
        )),
        None => Err(malformed(format!(
            "\"compare\" should be two options like 2.0, not \"{}\"",
            clip(value)
        ))),
    }
}

fn scenario_from(value: &str) -> Result<Scenario, ShareError> {
    scenario::parse(&unpack(value, MAX_SCENARIO_BYTES)?).map_err(ShareError::Scenario)
}

/// The number a link gives `place`: 0 the introduction, then each of the course's decisions
/// in order (the first question, steps 1 to 6, 7a to 7d, 8), then the recap, the sandbox and
/// the library, then the glossary and the challenges (added last, so the others kept their
/// numbers). Format 2
/// added the first question and split step 7, which moved every number, so links of format 1
/// are refused with a notice rather than opened on the wrong step.
pub fn page_number(place: Place) -> usize {
    match place {
        Place::Intro => 0,
        Place::Step(n) => n + 1,
        Place::Recap => STEPS.len() + 1,
        Place::Sandbox => STEPS.len() + 2,
        Place::Library => STEPS.len() + 3,
        Place::Glossary => STEPS.len() + 4,
        Place::Challenges => STEPS.len() + 5,
    }
}

/// The page numbered `number` in a link, if there is one.
pub fn place_of(number: usize) -> Option<Place> {
    [
        Place::Intro,
        Place::Recap,
        Place::Sandbox,
        Place::Library,
        Place::Glossary,
        Place::Challenges,
    ]
    .into_iter()
    .chain((0..STEPS.len()).map(Place::Step))
    .find(|&place| page_number(place) == number)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    const STEP5: &str = crate::scenario::library::text(
        crate::scenario::library::COURSE,
        "step5-pause-unfenced.toml",
    );

    fn full() -> SharedState {
        SharedState {
            step: 4,
            choices: vec![Some(0), Some(2), None, Some(1), None],
            scenario: Some(scenario::parse(STEP5).unwrap()),
            seed: Some(u64::MAX),
            compare: None,
            challenge: None,
        }
    }

    #[test]
    fn round_trip() {
        for state in [
            SharedState::default(),
            full(),
            SharedState {
                step: 7,
                choices: vec![None],
                scenario: None,
                seed: Some(0),
                compare: None,
                challenge: None,
            },
            SharedState {
                challenge: Some("pause-past-lease".into()),
                ..full()
            },
        ] {
            let fragment = encode(&state);
            assert_eq!(decode(&fragment), Ok(state.clone()), "{fragment}");
            assert_eq!(decode(&format!("#{fragment}")), Ok(state));
        }
    }

    #[test]
    fn every_library_scenario_round_trips_compactly() {
        for (name, src) in library() {
            let state = SharedState {
                scenario: Some(scenario::parse(src).unwrap()),
                ..SharedState::default()
            };
            let fragment = encode(&state);
            assert!(fragment.len() < 2048, "{name}: {} bytes", fragment.len());
            assert_eq!(decode(&fragment), Ok(state), "{name}");
        }
    }

    /// A few library files, enough to cover every topology and fault kind.
    fn library() -> [(&'static str, &'static str); 4] {
        [
            ("step5-pause-unfenced", STEP5),
            (
                "step6-redlock-clock-jump",
                crate::scenario::library::text(
                    crate::scenario::library::COURSE,
                    "step6-redlock-clock-jump.toml",
                ),
            ),
            (
                "step6-minority-cannot-grant",
                crate::scenario::library::text(
                    crate::scenario::library::COURSE,
                    "step6-minority-cannot-grant.toml",
                ),
            ),
            (
                "step7-record-locks",
                crate::scenario::library::text(
                    crate::scenario::library::COURSE,
                    "step7-record-locks.toml",
                ),
            ),
        ]
    }

    #[test]
    fn a_challenge_id_is_checked() {
        for bad in ["", "Pause", "a b", "x/../y", &"a".repeat(65)] {
            let fragment = format!("v=2&challenge={bad}");
            let err = decode(&fragment).expect_err(bad);
            assert!(err.to_string().contains("\"challenge\""), "{err}");
        }
    }

    #[test]
    fn a_hand_written_page_is_the_step_the_course_shows() {
        let page = |name: &str| decode(&format!("v=2&page={name}")).map(|s| s.step);
        assert_eq!(page("0"), Ok(page_number(Place::Step(0))));
        assert_eq!(page("5"), Ok(page_number(Place::Step(5))));
        let seven_b = STEPS.iter().position(|s| s.number == "7b").unwrap();
        assert_eq!(page("7b"), Ok(page_number(Place::Step(seven_b))));
        assert_eq!(page("intro"), Ok(0));
        assert_eq!(page("recap"), Ok(page_number(Place::Recap)));
        assert_eq!(
            STEPS[5].number, "5",
            "the course's step 5 is its sixth decision"
        );
        for bad in ["9", "7e", "Recap", ""] {
            let err = page(bad).expect_err(bad).to_string();
            assert!(err.contains("\"page\" should be a step"), "{err}");
        }
        let both = decode("v=2&step=1&page=1").unwrap_err().to_string();
        assert!(both.contains("both \"step\" and \"page\""), "{both}");
    }

    #[test]
    fn empty_fragment_is_the_start() {
        assert_eq!(decode(""), Ok(SharedState::default()));
        assert_eq!(decode("#"), Ok(SharedState::default()));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for junk in [
            "hello",
            "v=2&step",
            "v=2&step=x",
            "v=2&step=-1",
            "v=2&step=+3",
            "v=2&step=99999999999999999999999",
            "v=2&choices=1..2",
            "v=2&choices=a",
            "v=2&seed=",
            "v=2&step=1&step=2",
            "v=2&colour=blue",
            "step=1&v=1",
            "v=3&step=1",
            // A link from before the first question and step 7's four decisions.
            "v=1&step=1",
            "v=2&scenario=!!!!",
            "v=2&scenario=A",
            "v=2&scenario=AAAA",
            "v=2&scenario=aGVsbG8",
            "v=2&scenario=",
            "v=2&&",
            "&",
            "=",
            "v=2&step=1&scenario=%41",
        ] {
            let err = decode(junk).expect_err(junk);
            let message = err.to_string();
            assert!(message.starts_with("This link's saved state"), "{message}");
        }
        // Junk after a valid prefix of a real link.
        let good = encode(&full());
        for cut in [good.len() - 1, good.len() - 5, good.len() / 2] {
            if let Ok(state) = decode(&good[..cut]) {
                panic!("cut at {cut} decoded to {state:?}");
            }
        }
    }

    #[test]
    fn scenario_that_fails_validation_names_the_field() {
        let bad = "version = 1\nname = \"x\"\n[[worker]]\nname = \"A\"\nwork_ms = 0\n";
        let packed = miniz_oxide::deflate::compress_to_vec(bad.as_bytes(), 9);
        let fragment = format!("v=2&scenario={}", URL_SAFE_NO_PAD.encode(&packed));
        let err = decode(&fragment).unwrap_err();
        assert!(matches!(err, ShareError::Scenario(_)), "{err:?}");
        assert!(err.to_string().contains("work_ms"), "{err}");
    }

    #[test]
    fn oversized_is_refused_before_decoding() {
        let long = format!("v=2&step=1&seed={}", "1".repeat(MAX_FRAGMENT_BYTES));
        assert_eq!(
            decode(&long),
            Err(ShareError::TooLong { bytes: long.len() })
        );
        assert!(decode(&long).unwrap_err().to_string().contains("16384"));
    }

    #[test]
    fn decompression_bomb_is_refused() {
        let bomb = vec![b'#'; MAX_SCENARIO_BYTES * 4];
        let packed = miniz_oxide::deflate::compress_to_vec(&bomb, 9);
        let fragment = format!("v=2&scenario={}", URL_SAFE_NO_PAD.encode(&packed));
        assert!(fragment.len() < MAX_FRAGMENT_BYTES);
        let err = decode(&fragment).unwrap_err();
        assert!(err.to_string().contains("unpacks to more than"), "{err}");
    }

    #[test]
    fn too_many_choices() {
        let fragment = format!("v=2&choices={}", vec!["0"; MAX_CHOICES + 1].join("."));
        assert!(decode(&fragment).is_err());
    }

    #[test]
    fn a_scenario_has_one_encoding() {
        // `aGVsbG8` is "hello"; `aGVsbG9` has stray bits in its last character, `aGVsbG8=` is
        // padded: neither is what encode writes, and neither is read.
        assert_eq!(URL_SAFE_NO_PAD.encode(b"hello"), "aGVsbG8");
        for text in ["aGVsbG9", "aGVsbG8="] {
            let err = decode(&format!("v=2&scenario={text}")).unwrap_err();
            assert!(err.to_string().contains("not base64url"), "{text}: {err}");
        }
    }

    #[test]
    fn fragment_is_url_safe() {
        let fragment = encode(&full());
        assert!(
            fragment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.=&".contains(&b)),
            "{fragment}"
        );
    }

    #[test]
    fn every_page_has_a_distinct_number() {
        for number in 0..STEPS.len() + 6 {
            let place = place_of(number).expect("a page");
            assert_eq!(page_number(place), number);
        }
        assert_eq!(place_of(STEPS.len() + 6), None);
        assert_eq!(place_of(STEPS.len() + 4), Some(Place::Glossary));
        assert_eq!(place_of(STEPS.len() + 5), Some(Place::Challenges));
    }

    /// Links made before the share code moved to the `base64` and `form_urlencoded` crates, kept
    /// as they were written: they must open the same view, and the same view must give the same
    /// link, or (third) the one it gives since a field they spell out at its default is
    /// written only when set (`renew_every_ms = 0`, now left out).
    #[test]
    fn links_in_circulation_still_open() {
        let step5 = scenario::parse(STEP5).unwrap();
        let redlock = scenario::parse(include_str!(
            "../../assets/scenarios/step6-redlock-clock-jump.toml"
        ))
        .unwrap();
        let cases = [
            (SharedState::default(), "v=2&step=0", None),
            (
                SharedState {
                    step: 3,
                    choices: vec![Some(1), None, Some(0)],
                    scenario: None,
                    seed: None,
                    compare: None,
                    challenge: None,
                },
                "v=2&step=3&choices=1.-.0",
                None,
            ),
            (
                full(),
                concat!(
                    "v=2&step=4&choices=0.2.-.1.-&seed=18446744073709551615&scenario=xZTNitswEMfveorBl7aQBntL",
                    "Cj30sHsqlEKhvYVgJvY4EVEkVRqvm75Y732yzshJNgvteUMwtjwfv_98-JFStsHDR2iMxyPJTfWNKcIK_vyGrzhm",
                    "6iFiZuA9gSPMtAAfYCDfWb-rTE-5SzbyHKS6hyER_aIM1gNCs4IMO0xb3NHbLjhHXbGMGhimvXUE--B6CaXWtViX",
                    "HEv4fkkHafQZwsgLeAAr0RJ6FqjCE7oDoO9hSpYpL-EeJjxQXkBm6xzkMRFYLiny1WNRXMIjpdkNHl5lGGOPTMvK",
                    "5DCmrtThyxI-O4rxiN4v4FOYgAP08reZk92OSqHxFP71Xd28fyPeJIdazNELQXvM8nBXy8-YtSeeQjpspGYOT_O7",
                    "dbOAdxvjQtanelkbtkcStVdXwyI4x5BYmbiLlZFLu7OP1I5xNvtQn1MojsbPdlfaweFAXhz4jNIUO_oZbTrp-8wh",
                    "UWUSeZrQ6YkP_nLQkpTozFnLEXlFUYwBXSYzoWXVLl6JOJ3UjS8Oq9ooTHujtTbY_RhtKsWVNG2WQauMNqftwlgi",
                    "cxpJdBSujeEQgwu7GVVSOUHzQeSVEkedXYnh53YN-eQ7ZYjOdqhj1jrcXVIPaJ22_KkOkibR3O2NOc_zVdtRsmjQ",
                    "6NBKAc2625OWNjMmKTwOfBtKY621t5Q2m-se3VfFnC8IavA0EeY8fKpEmAm53B6oqNXaiVbKXOZphioM7bwV1yZo",
                    "lPbZ0BRxXal-GIZMV4D5rE924FbGupz9C_zhGXhTN_UtfPN_-Jv-q88LaBlwdCxS8NZfNrQvzdSvzjxB5_4M4dLF",
                    "1dxFWQ35REmfcXjiUv-yrJVOkMNYLXR10FFbkCvJt81UBnhdSUyS9WsTFXVq24dxK8bl0yXGfwE"
                ),
                Some(concat!(
                    "v=2&step=4&choices=0.2.-.1.-&seed=18446744073709551615&scenario=xVTBjtNADL3PV1i5AFKpkkVF",
                    "4sBh94SEkJDgVlWRmzjtqNOZYcbZUH6MO1-GPWm7XQnOW1VtMrGf3_Oz80gp2-DhIzTG45HkovrGFGEFf37DVxwz",
                    "9RAxM_CewBFmWoAPMJDvrN9VpqfcJRt5BqnuYUhEvyiD9YDQrCDDDtMWd_S2C85RVyKjAsO0t45gH1wvUBpdS3Sp",
                    "sYTvl3KQRp8hjLyAB7CCltCzkCp8QncA9D1MyTLlJdzDhAfKC8hsnYM8JgLLpUS-ZixKSnikNKfBw6sMY-yRaVmZ",
                    "HMbUlT58WcJnRzEe0fsFfAoTcIBevjZzsttRWSiekn99Vzfv30g2yaE2c_TCoD1mubmr5WPM2hNPIR020jOHp_nZ",
                    "ulnAu41xIetdvawN2yOJ2muqYRGcY0isnLiLlZGfdmcfqR3jHPahPpdQOoqf7a7YweFAXhL4TKUpcfQz2nTS55lD",
                    "osok8jSh0xMffDkgr3W15oAuk5nQsgqVkEScThojfzPsqjZaub0RVhvsfow2lU4KZptlqiqjTrRdGAsyp5GEdCGx",
                    "MRxicGE385JSTnj4IFpKP6MOqmD42Zshn3ynHKKzHepMtQ53l9IDWqf-PomWMolmazfmPLxXbUepoqDRoZVumXW3",
                    "J-1jZkzSZRz4Fkqx1mokpc3mujT3VQnnCwUNeLLfnCdNlQhnQi6XBypqtXeilTKX4ZlJFQ7tvAJXExSlfTYhRVxX",
                    "uh-GIdOVwHzWJztwKzNczv5F_OEZ8aZu6lvyzf_J3_ivOS-gZcDRsUjB23xZx76Yqa-YeYLO_gzh4uJqdlH2QN5H",
                    "4jMOT7w0v2xmpRPkMFYL3RN01BbKldTbZioDvK4Ek2TX2kRFncb2YdxKcHlPSfBf",
                )),
            ),
            (
                SharedState {
                    step: 17,
                    choices: Vec::new(),
                    scenario: Some(redlock),
                    seed: Some(9),
                    compare: None,
                    challenge: None,
                },
                concat!(
                    "v=2&step=17&seed=9&scenario=xVXNbuM2EL7zKQa6bAIohuxsgm6DRREfihZFi6LpzTCEiTSyuaZIlaTi-sl6",
                    "75N1hpQcp9tij2sYhjSc-eb75od-IR-0s_ARlspiT_xQPEUa4B7-_gt-o9a45vAtOEtgXUvvAjRigU9jP0CPBwoQ",
                    "j46fPjmvo6ZQqJZC4_UQM2zxvX6hGShhhAU8wt6ZlkP3BMnOriE6T8ubW7hKT-9v7gA9QTNGcF0HnXc96Hi9yI63",
                    "zOSIxlzQCbCqIADuCdsSgmNvaL1j-yM7H-gEhN6cHmBdwnHvoEFrXQRP2Ozn7KtSONlEKkyZbu4WsHZxnzgDzlpP",
                    "JaBtE7bBSHBkG6thG3PoInlYv2Ops3IMYexpKl-A3nFVMAI-OxYodQhSfc9ID5wjqwrSiCu08Mvvv6YXSQnY9tpe",
                    "wzMTP0gJBUXAU8UXhQpu9E1q5M8L-MnQMPSstIQf3BGig5a_OkSvn8dIbVKq7Q6uVtXy_voBnhbwhLbTRg-DK-HH",
                    "cFYQsKPvzn5s1YHBmlB-hhfgagri4kTdC_4rxXDNHIldP8K9Gm3Upu4Dv6wq_ii1scQT5Q9bHiSDp3y2WZZwu1XG",
                    "BXmrFpViWOLSnUNV9GjD4HwU5bEZCsU_9Y6nrx6H7PahmlIINcEPepdmNLoDWQ6IE5Vl8qM_B-1Pcp4GoVCeLPHQ",
                    "icXyRkyGml7ITzwrNpEVKkKjQxNIHZEXgyvAUZ6iP0lYnAPuKiVk6gutlcLmj1H71EJOU0vnCyXTVzduTMjRj8Q6",
                    "Eq-tim5wxu1OOUUqfKHSqkkGlYeJz2RhCjXIyjOmzUOS2AdqhNZgdIPSo9rgbmbToTY8rf61NJzZUx6zreoYKMvL",
                    "cnvOK7iDQc01VZtmT1LtENFzL9JqXFZZbTbSbvLb7fkGeiySe5z9lHjMBeOYtGvpSEgTxvQoK87Bk3wKMc1YZpVI",
                    "1IYw0GtjBKV-M0hJXapXzZdOoDgXIdtar7tY80Il238xX79lLoP5yn35_9wvRoK9voaUDkcTWQmeHfleaFMnWY-W",
                    "qSjUzrtxSAu54SZtS9jk3XhflNOW3BWM0bm5xR-mFv8bPbGbE2RGcofnsT2v3K38m5iIby-Iz8GW1RfZri_YLs9s",
                    "V2_ZfpMT8OJTE3lk-cY7l1jwE1bRuvHZUL2TLRckWQ6DQwZFPkndKLbqHw"
                ),
                Some(concat!(
                    "v=2&step=17&seed=9&scenario=xVVNb9s4EL3zVwx0aQIohuw0wXaDYhEfFrtY7GKx2ZthCBNpZLOmSJWk4vqX",
                    "9d5f1hnScpx-oMcGgS2Rwzfvzbyhn8gH7Sy8hbmy2BM_FA-RBriFTx_hP2qNa3a_grME1rX0KkAjK_Bu7AfocUcB",
                    "4t7x0zvnddQUCtVSaLweYoYtftdPNAEljDCDe9g60_LRLUFa59AQnaf51TVcpKfXVzeAnqAZI7iug867HnS8nOXA",
                    "a2ayR2PO6ARYVBAAt4RtCcFxNLTe8fo9B-_oAITeHO5gWcJ-66BBa10ET9hsp-yLUjjZRCocM13dzGDp4jZxBpy0",
                    "HkpA2yZsg5Fgz2ushteYQxfJw_IVS52UYwhjT8fyBegdVwUj4KNjgVKHINX3jHTHObKqII24QAv__P9vepGUgG2v",
                    "7SU8MvGdlFBQBDxVfFao4EbfpEb-PYO_DA1Dz0pL-MPtITpo-V-H6PXjGKlNSrXdwMWimt9e3sHDDB7QdtroYXAl",
                    "_BlOCgJ29Nspjld1YLAmlF_hBbg4HuLiRN0L_jPFcMkciUPfwq0abdSm7gO_LCr-U2pliR3ld2s2ksFD3lvNS7he",
                    "K-OCvFWzSjEscelOR1X0aMPgfBTlsRkKxR_1ht1Xj0MOe1MdUwg1wQ96kzwa3Y4sH4hHKvMURx8G7Q-yn4xQKE-W",
                    "2HSyYnkiZIGs5JWcHZpAao88BSyXQzxFf5AY_sqwN5WSzPWZsEph837UPvWLMWtpc6HEanXjxoQc_UhMOpFYq-gG",
                    "Z9zmkFOkKhcqzZVkUNk5vCfTUahB5psxbXYEPZE_BGqE1mB0g9KQ2uBmYtOhNmxN_1wHzuwpe2qtOgbK8rLcnvMK",
                    "7mBQcwHVqtmSlDZE9Fz4NAfnJVWrlfSW_Hp9um7uixQepzglEVPB-EwarLQlpAljepR55sNH-RRiMlRmlUjUhjDQ",
                    "c2MEpX7hmqQu1avmGyZQnIqQ11qvu1jz9KS1bzFfvmQuLnzmPv8-9zNLcNTPkNLhaCIrwVMgXwJt6iTr0eKKQm28",
                    "G4c0fStu0rqEVR6E10V5HImbgjE6N7X4zbHFX6IndlOCzEgu7Gzb03xdy0-HifjyNvgabF79kO3yjO38xHbxku0v",
                    "OQFPOTWRLcvX26nEgp-witaNj4bqjUy5IMlwGBwyKPJO6kaxVp8B",
                )),
            ),
        ];
        assert_eq!(cases[2].0.scenario, Some(step5));
        for (state, link, now) in cases {
            assert_eq!(decode(link), Ok(state.clone()), "{link}");
            let now = now.unwrap_or(link);
            assert_eq!(encode(&state), now);
            assert_eq!(decode(now), Ok(state), "{now}");
        }
    }

    /// The sandbox's run beside another library scenario, with a seed of its own.
    fn compared_scenarios() -> SharedState {
        SharedState {
            step: STEPS.len() + 2,
            choices: vec![Some(1)],
            scenario: Some(scenario::parse(STEP5).unwrap()),
            seed: Some(3),
            compare: Some(Compared::Against(Box::new(
                scenario::parse(library()[1].1).unwrap(),
            ))),
            challenge: None,
        }
    }

    #[test]
    fn compare_views_round_trip() {
        let options = SharedState {
            step: 6,
            choices: vec![None, None, None, None, Some(2)],
            compare: Some(Compared::Options(2, 0)),
            ..SharedState::default()
        };
        assert_eq!(encode(&options), "v=2&step=6&choices=-.-.-.-.2&compare=2.0");
        for state in [options, compared_scenarios()] {
            let fragment = encode(&state);
            assert!(fragment.len() < 4096, "{} bytes", fragment.len());
            assert_eq!(decode(&fragment), Ok(state), "{fragment}");
        }
        for junk in [
            "v=2&compare=",
            "v=2&compare=1",
            "v=2&compare=1.",
            "v=2&compare=.1",
            "v=2&compare=1.2.3",
            "v=2&compare=1.x",
            "v=2&compare=-.1",
            "v=2&compare=1.2&compare=1.2",
            "v=2&against=",
            "v=2&against=!!!!",
            "v=2&against=aGVsbG8",
        ] {
            let err = decode(junk).expect_err(junk);
            assert!(
                err.to_string().starts_with("This link's saved state"),
                "{err}"
            );
        }
        let both = format!(
            "v=2&compare=1.0&against={}",
            encode(&compared_scenarios())
                .rsplit_once("against=")
                .unwrap()
                .1
        );
        let err = decode(&both).unwrap_err();
        assert!(err.to_string().contains("both"), "{err}");
    }

    /// Any view a link can name, one run or two side by side.
    fn any_state() -> impl proptest::strategy::Strategy<Value = SharedState> {
        use proptest::prelude::*;
        let scenario = (0..library().len()).prop_map(|i| scenario::parse(library()[i].1).unwrap());
        let compared = prop_oneof![
            Just(None),
            (0usize..10, 0usize..10).prop_map(|(a, b)| Some(Compared::Options(a, b))),
            scenario
                .clone()
                .prop_map(|s| Some(Compared::Against(Box::new(s)))),
        ];
        (
            0..STEPS.len() + 6,
            proptest::collection::vec(proptest::option::of(0usize..10), 0..MAX_CHOICES),
            proptest::option::of(scenario),
            proptest::option::of(any::<u64>()),
            compared,
            proptest::option::of("[a-z0-9-]{1,64}"),
        )
            .prop_map(
                |(step, choices, scenario, seed, compare, challenge)| SharedState {
                    step,
                    choices,
                    scenario,
                    seed,
                    compare,
                    challenge,
                },
            )
    }

    /// A fragment that may be anything: random text, a real link cut short or with characters
    /// changed, a real link with junk added, or hostile values in every field.
    pub(crate) fn hostile() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let real = encode(&full());
        let cut = {
            let real = real.clone();
            any::<proptest::sample::Index>().prop_map(move |i| {
                let chars: Vec<char> = real.chars().collect();
                chars[..i.index(chars.len() + 1)].iter().collect::<String>()
            })
        };
        let changed = {
            let real = real.clone();
            proptest::collection::vec((any::<proptest::sample::Index>(), any::<char>()), 1..6)
                .prop_map(move |edits| {
                    let mut chars: Vec<char> = real.chars().collect();
                    for (at, c) in edits {
                        let i = at.index(chars.len());
                        chars[i] = c;
                    }
                    chars.into_iter().collect::<String>()
                })
        };
        let appended = {
            let real = real.clone();
            ".{0,40}".prop_map(move |junk| format!("{real}{junk}"))
        };
        let fields = (
            prop_oneof![Just("1".to_string()), "[0-9]{0,25}", ".{0,8}"],
            prop_oneof!["[0-9]{0,25}", ".{0,8}"],
            prop_oneof!["[-0-9.]{0,200}", ".{0,8}"],
            prop_oneof!["[A-Za-z0-9_-]{0,400}", ".{0,8}"],
        )
            .prop_map(|(v, step, choices, scenario)| {
                format!("#v={v}&step={step}&choices={choices}&seed={step}&scenario={scenario}")
            });
        // A link to two runs side by side, cut short anywhere, and junk in its own fields.
        let compared = {
            let real = encode(&compared_scenarios());
            any::<proptest::sample::Index>().prop_map(move |i| {
                let chars: Vec<char> = real.chars().collect();
                chars[..i.index(chars.len() + 1)].iter().collect::<String>()
            })
        };
        let compare_fields = (
            prop_oneof!["[-0-9.]{0,30}", ".{0,8}"],
            prop_oneof!["[A-Za-z0-9_-]{0,400}", ".{0,8}"],
        )
            .prop_map(|(options, against)| {
                format!("v=2&step=5&compare={options}&against={against}")
            });
        prop_oneof![
            ".{0,300}",
            cut,
            changed,
            appended,
            fields,
            compared,
            compare_fields
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 512,
            failure_persistence: None,
            ..Default::default()
        })]

        /// Every view, one run or two side by side, comes back from its link as it was.
        #[test]
        fn any_view_round_trips(state in any_state()) {
            let fragment = encode(&state);
            proptest::prop_assert!(fragment.len() <= MAX_FRAGMENT_BYTES);
            proptest::prop_assert_eq!(decode(&fragment), Ok(state));
        }

        /// Whatever a link holds, decoding gives a state or an error a learner can read, never
        /// a panic.
        #[test]
        fn any_fragment_decodes_or_says_why(fragment in hostile()) {
            if let Err(e) = decode(&fragment) {
                proptest::prop_assert!(
                    e.to_string().starts_with("This link's saved state cannot be used")
                );
            }
        }

        /// A deflated payload of random bytes, or of a huge text, is refused as damaged.
        #[test]
        fn a_hostile_payload_is_refused(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600), repeat in 1usize..200_000) {
            let junk = format!("v=2&scenario={}", URL_SAFE_NO_PAD.encode(&bytes));
            let _ = decode(&junk);
            let big = "#".repeat(repeat);
            let packed = miniz_oxide::deflate::compress_to_vec(big.as_bytes(), 9);
            let fragment = format!("v=2&scenario={}", URL_SAFE_NO_PAD.encode(&packed));
            proptest::prop_assert!(decode(&fragment).is_err());
        }
    }
}
