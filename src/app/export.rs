//! The Export menu under a finished run's verdict: the timeline as a picture (SVG, and PNG on
//! the desktop), the run as JSON with its trace (on the desktop), and its transcript as text —
//! the files `locksim render` and `locksim run --json --trace` write, made by the same code
//! ([`crate::render`]). The desktop asks where to save each (the file dialog "Load file…"
//! uses); the browser downloads it.

use super::menu;
use eframe::egui::{Id, RichText, Ui};

use crate::checker::Verdict;
#[cfg(not(target_arch = "wasm32"))]
use crate::render::report::RunJson;
use crate::render::{svg, transcript};
use crate::scenario::Scenario;
use crate::trace::Trace;
use crate::view::timeline::Lanes;

/// One kind of file a run exports to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Export {
    Svg,
    /// Rasterised on the desktop only: the browser shows SVG as well as PNG, and resvg stays
    /// out of the web build.
    #[cfg(not(target_arch = "wasm32"))]
    Png,
    /// On the desktop only: the trace's serialiser and JSON writer would take a third of
    /// the web build's remaining size budget (web/measure.mjs); `locksim run --json --trace`
    /// writes the same document.
    #[cfg(not(target_arch = "wasm32"))]
    Json,
    Transcript,
    /// The scenario that was run, as `locksim run` reads it: the way to share a scenario too
    /// large for a link.
    Scenario,
}

impl Export {
    const ALL: &[Export] = &[
        Export::Svg,
        #[cfg(not(target_arch = "wasm32"))]
        Export::Png,
        #[cfg(not(target_arch = "wasm32"))]
        Export::Json,
        Export::Transcript,
        Export::Scenario,
    ];

    /// The menu's words for it.
    fn label(self) -> &'static str {
        match self {
            Export::Svg => "Timeline picture (SVG)",
            #[cfg(not(target_arch = "wasm32"))]
            Export::Png => "Timeline picture (PNG)",
            #[cfg(not(target_arch = "wasm32"))]
            Export::Json => "Verdict and trace (JSON)",
            Export::Transcript => "Transcript (text)",
            Export::Scenario => "Scenario file (TOML)",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Export::Svg => "svg",
            #[cfg(not(target_arch = "wasm32"))]
            Export::Png => "png",
            #[cfg(not(target_arch = "wasm32"))]
            Export::Json => "json",
            Export::Transcript => "txt",
            Export::Scenario => "toml",
        }
    }

    /// The file's contents.
    fn bytes(self, run: &Run<'_>) -> Result<Vec<u8>, String> {
        let Run {
            scenario,
            trace,
            verdict,
        } = *run;
        let picture = || {
            let lanes = Lanes::build(trace, verdict);
            svg::draw(trace, verdict, &lanes, &svg::Picture::default())
        };
        Ok(match self {
            Export::Svg => picture().into_bytes(),
            #[cfg(not(target_arch = "wasm32"))]
            Export::Png => crate::render::png::rasterise(&picture(), svg::DEFAULT_WIDTH)
                .map_err(|e| e.to_string())?,
            #[cfg(not(target_arch = "wasm32"))]
            Export::Json => RunJson::with_trace(trace, verdict).to_pretty().into_bytes(),
            Export::Transcript => transcript::transcript(trace, verdict, None).into_bytes(),
            Export::Scenario => crate::scenario::to_toml(scenario).into_bytes(),
        })
    }
}

/// The longest file name stem, in characters, before the seed and the extension.
const MAX_STEM: usize = 60;

/// A file name for the run: its scenario's name in lower case, words joined by hyphens, and
/// its seed, e.g. `step-5-paused-past-the-lease-no-fencing-seed-1.svg`.
fn file_name(trace: &Trace, export: Export) -> String {
    let mut stem = String::new();
    for c in trace.scenario.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            stem.push(c);
        } else if !stem.is_empty() && !stem.ends_with('-') {
            stem.push('-');
        }
    }
    // Long names are cut after a whole word, never mid-word (the stem is ASCII).
    let stem = stem.trim_end_matches('-');
    let stem = match stem.as_bytes().get(MAX_STEM) {
        None | Some(b'-') => &stem[..stem.len().min(MAX_STEM)],
        Some(_) => stem[..MAX_STEM]
            .rsplit_once('-')
            .map_or(&stem[..MAX_STEM], |(kept, _)| kept),
    };
    let stem = if stem.is_empty() { "locksim-run" } else { stem };
    format!("{stem}-seed-{}.{}", trace.seed, export.extension())
}

/// Where the last export's outcome is kept between frames, to say it under the menu.
fn notice_id() -> Id {
    Id::unique("locksim.export.notice")
}

/// A finished run, as the Export menu makes its files from it.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    /// The scenario as it was run.
    pub scenario: &'a Scenario,
    pub trace: &'a Trace,
    pub verdict: &'a Verdict,
}

/// The Export menu, and what became of the last export.
pub fn menu(ui: &mut Ui, run: Run<'_>) {
    let trace = run.trace;
    let mut chosen = None;
    menu::button(ui, "Export", &mut |ui| {
        for &export in Export::ALL {
            if ui.button(export.label()).clicked() {
                chosen = Some(export);
                ui.close();
            }
        }
    })
    .on_hover_text("Save this run for slides and handouts: the timeline as a picture, the trace, the transcript; or its scenario, to share or run again.");
    if let Some(export) = chosen {
        let notice = export
            .bytes(&run)
            .and_then(|bytes| save(&file_name(trace, export), export, &bytes));
        ui.ctx().data_mut(|d| {
            d.insert_temp(
                notice_id(),
                notice.map_err(|e| format!("Could not export: {e}")),
            )
        });
    }
    let notice: Option<Result<Option<String>, String>> = ui.ctx().data(|d| d.get_temp(notice_id()));
    match notice {
        Some(Ok(Some(done))) => {
            ui.label(RichText::new(done).small().weak());
        }
        Some(Err(e)) => {
            ui.label(RichText::new(e).small().color(ui.visuals().error_fg_color));
        }
        Some(Ok(None)) | None => {}
    }
}

/// What a file dialog that gave no file means: the learner closed it, or none could open,
/// which rfd cannot tell apart. Either way the learner hears that nothing was `done`
/// ("saved"), and `instead`, another way to the file.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn no_file(done: &str, instead: &str) -> String {
    format!(
        "Nothing {done}: the file dialog was closed, or none can open here (on Linux it needs \
         an XDG desktop portal or zenity). Instead, {instead}."
    )
}

/// Asks where to save `bytes`, suggesting `name`, and saves them there; says where, or what
/// became of a dialog that gave no file.
#[cfg(not(target_arch = "wasm32"))]
fn save(name: &str, export: Export, bytes: &[u8]) -> Result<Option<String>, String> {
    let picked = rfd::FileDialog::new()
        .add_filter(export.label(), &[export.extension()])
        .set_file_name(name)
        .save_file();
    let Some(path) = picked else {
        return Ok(Some(no_file(
            "saved",
            "`locksim render FILE --svg out.svg` (or --png, --transcript) writes it from the \
             command line",
        )));
    };
    std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(format!("Saved {}.", path.display())))
}

/// Hands `bytes` to the browser as a download called `name`: a link to them, clicked.
#[cfg(target_arch = "wasm32")]
fn save(name: &str, export: Export, bytes: &[u8]) -> Result<Option<String>, String> {
    use wasm_bindgen::JsCast;
    let fail = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let mime = match export {
        Export::Svg => "image/svg+xml",
        Export::Transcript | Export::Scenario => "text/plain;charset=utf-8",
    };
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "not a link".to_string())?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The object URL is not revoked: revoking it at once can cancel the download in some
    // browsers, and the few files a lesson exports go when the page does.
    Ok(Some(format!("Downloaded {name}.")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_come_from_the_scenario_and_seed() {
        let mut trace = crate::testkit::trace(Vec::new());
        trace.scenario = "Step 5 · Paused past the lease, no fencing".to_string();
        trace.seed = 7;
        assert_eq!(
            file_name(&trace, Export::Svg),
            "step-5-paused-past-the-lease-no-fencing-seed-7.svg"
        );
        trace.scenario =
            "Step 5 · Fencing token: the resource turns the stale holder away".to_string();
        assert_eq!(
            file_name(&trace, Export::Svg),
            "step-5-fencing-token-the-resource-turns-the-stale-holder-seed-7.svg"
        );
        trace.scenario = "··".to_string();
        assert_eq!(file_name(&trace, Export::Json), "locksim-run-seed-7.json");
    }

    #[test]
    fn every_export_makes_its_file() {
        let scenario = crate::scenario::parse(include_str!(
            "../../assets/scenarios/step5-pause-unfenced.toml"
        ))
        .unwrap();
        let crate::Run { trace, verdict, .. } = crate::run(&scenario, scenario.seed);
        let run = Run {
            scenario: &scenario,
            trace: &trace,
            verdict: &verdict,
        };
        for &export in Export::ALL {
            let bytes = export.bytes(&run).unwrap();
            assert!(!bytes.is_empty(), "{export:?}");
        }
        let toml = Export::Scenario.bytes(&run).unwrap();
        let read = crate::scenario::parse_bytes(&toml).unwrap();
        assert_eq!(
            read, scenario,
            "the scenario file reads back as the scenario run"
        );
        let json = Export::Json.bytes(&run).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(
            doc["trace"]["events"].as_array().unwrap().len(),
            trace.events.len()
        );
    }
}
