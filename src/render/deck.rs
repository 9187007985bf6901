//! A run as a slide deck: one slide per step of its story ([`crate::search::narrate()`]'s
//! moments), each the timeline cut at that step's moment ([`super::svg`] with `until_ms`)
//! with the step's sentence as its caption, framed by a title slide (the scenario and its
//! description) and a verdict slide. One self-contained HTML file: the pictures, the style
//! and the script for the keys are inline, so it works offline from a USB stick.
//!
//! Keys: → ↓ PageDown Space Enter next; ← ↑ PageUp Backspace back (a presenter remote sends
//! PageUp and PageDown); Home, End; N shows or hides the speaker notes; B or . blanks the
//! screen. The slide shown is in the address (`#3`), so a reload stays on it.

use crate::Run;
use crate::scenario::Scenario;
use crate::search::narrate::moments;
use crate::view::timeline::Lanes;
use crate::view::transcript::verdict_words;

use super::svg;

/// One slide: the picture's cut, its caption and its speaker notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slide {
    /// Where the picture is cut, true ms; `None`: the whole run.
    pub until_ms: Option<u64>,
    /// The sentence shown under the picture.
    pub caption: String,
    /// What the presenter reads, not shown on the slide.
    pub notes: String,
}

/// The slides of `run` of `scenario`: the title, one per step of the story, the verdict.
pub fn slides(scenario: &Scenario, run: &Run) -> Vec<Slide> {
    let steps = moments(scenario, run);
    let verdict = format!("Verdict: {}", verdict_words(&run.trace, &run.verdict).what);
    let mut slides = vec![Slide {
        until_ms: Some(0),
        caption: scenario.name.clone(),
        notes: if scenario.description.is_empty() {
            "Ask the class what they expect this run to do before stepping through it.".into()
        } else {
            format!(
                "{} Ask the class what they expect before stepping through it.",
                scenario.description
            )
        },
    }];
    let mut last_ms = Some(0);
    for (i, step) in steps.iter().enumerate() {
        // A line that counts what is left untold shows the picture as the step before it.
        let until_ms = step.at_ms.or(last_ms);
        last_ms = until_ms;
        let next = steps.get(i + 1).map_or_else(
            || "Next: the checker's verdict.".to_string(),
            |n| format!("Next: {}", n.text),
        );
        slides.push(Slide {
            until_ms,
            caption: format!("{}. {}", i + 1, step.text),
            notes: format!("Ask what happens next before moving on. {next}"),
        });
    }
    slides.push(Slide {
        until_ms: None,
        caption: verdict.clone(),
        notes: format!(
            "The whole run. Replay it with `locksim run` or open it in the app's Library. {}",
            scenario.source
        ),
    });
    slides
}

/// The deck of `run` as one HTML document, each picture `width` px wide at most (scaled to
/// the window).
pub fn html(scenario: &Scenario, run: &Run, width: u32) -> String {
    let lanes = Lanes::build(&run.trace, &run.verdict);
    let slides = slides(scenario, run);
    let total = slides.len();
    let mut body = String::new();
    for (i, slide) in slides.iter().enumerate() {
        let picture = svg::Picture {
            width,
            until_ms: slide.until_ms.map(|ms| ms.max(1)),
            // Each step's slide asks what happens next: the verdict waits for the last.
            verdict: slide.until_ms.is_none(),
        };
        let drawing = svg::draw(&run.trace, &run.verdict, &lanes, &picture);
        // The SVG document's XML declaration has no place inside HTML.
        let drawing = drawing
            .find("<svg")
            .map_or(drawing.as_str(), |start| &drawing[start..]);
        body.push_str(&format!(
            "<section class=\"slide\" id=\"s{n}\" aria-label=\"slide {n} of {total}\">\n\
             <div class=\"picture\">{drawing}</div>\n<p class=\"caption\">{caption}</p>\n\
             <aside class=\"notes\">{notes}</aside>\n<p class=\"count\">{n} / {total}</p>\n\
             </section>\n",
            n = i + 1,
            caption = escape(&slide.caption),
            notes = escape(&slide.notes),
        ));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\
         <script>{SCRIPT}</script>\n</body>\n</html>\n",
        title = escape(&scenario.name),
    )
}

/// Text made safe inside HTML elements and attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One slide fills the window; the picture scales to fit above its caption.
const STYLE: &str = "
html, body { margin: 0; height: 100%; background: #fff; color: #1b1b1b;
  font-family: system-ui, sans-serif; }
.slide { display: none; box-sizing: border-box; height: 100vh; padding: 2vh 3vw;
  flex-direction: column; }
.slide.shown { display: flex; }
.picture { flex: 1; min-height: 0; display: flex; align-items: center; justify-content: center; }
.picture svg { max-width: 100%; max-height: 100%; width: auto; height: auto; }
.caption { font-size: clamp(18px, 2.6vw, 40px); margin: 1.5vh 0 0; line-height: 1.25; }
.notes { display: none; font-size: 18px; background: #fff8d6; padding: 8px 12px;
  margin-top: 1vh; border-left: 4px solid #c9a400; }
body.notes-shown .notes { display: block; }
.count { position: fixed; right: 1.5vw; bottom: 1vh; margin: 0; color: #777; font-size: 14px; }
body.blank .slide.shown { visibility: hidden; }
";

/// The keys: next, back, first, last, notes, blank; the slide shown kept in the address.
const SCRIPT: &str = "
(function () {
  var slides = document.querySelectorAll('.slide');
  var at = 0;
  function show(i) {
    at = Math.max(0, Math.min(slides.length - 1, i));
    for (var j = 0; j < slides.length; j++) {
      slides[j].classList.toggle('shown', j === at);
    }
    document.body.classList.remove('blank');
    history.replaceState(null, '', '#' + (at + 1));
  }
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    switch (e.key) {
      case 'ArrowRight': case 'ArrowDown': case 'PageDown': case ' ': case 'Enter':
        show(at + 1); break;
      case 'ArrowLeft': case 'ArrowUp': case 'PageUp': case 'Backspace':
        show(at - 1); break;
      case 'Home': show(0); break;
      case 'End': show(slides.length - 1); break;
      case 'n': case 'N': document.body.classList.toggle('notes-shown'); break;
      case 'b': case 'B': case '.': document.body.classList.toggle('blank'); break;
      default: return;
    }
    e.preventDefault();
  });
  document.addEventListener('click', function () { show(at + 1); });
  var start = parseInt(location.hash.slice(1), 10);
  show(isNaN(start) ? 0 : start - 1);
})();
";
