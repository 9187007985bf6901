// The page's sweeps and searches off its main thread: "Across seeds" and "Find a failure"
// start this worker (src/app/background/worker.rs) and send it `{ module, request }`: the
// page's own compiled WebAssembly module, so the worker makes a second instance of it without
// fetching or compiling anything, and the work to do. The worker posts its news (a batch of
// outcomes, how far a search has got) back as RON text. The page keeps painting meanwhile;
// Cancel terminates the worker.
import init, { work_in_worker } from './locksim.js';

// Each piece of news is posted as `{ news, last }` (`last`: the page shows it at once, not at
// its next progress repaint). A failure (the module would not instantiate, the work was
// unreadable, a bug) is posted as `{ error }`, which the page shows in the panel.
self.onmessage = async ({ data }) => {
  try {
    await init({ module_or_path: data.module });
    work_in_worker(data.request, (news, last) => self.postMessage({ news, last }));
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
