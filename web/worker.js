// The page's sweeps off its main thread: the "Across seeds" panel starts this worker
// (src/app/sweep_job/worker.rs) and sends it `{ module, request }`: the page's own compiled
// WebAssembly module, so the worker makes a second instance of it without fetching or
// compiling anything, and the sweep to run. The worker posts each batch of outcomes back as
// JSON. The page keeps painting meanwhile; Cancel terminates the worker.
import init, { sweep_in_worker } from './locksim.js';

// A failure (the module would not instantiate, the request was unreadable, a bug) is posted
// as `{ error }`, which the page shows in the panel.
self.onmessage = async ({ data }) => {
  try {
    await init({ module_or_path: data.module });
    sweep_in_worker(data.request, (batch) => self.postMessage(batch));
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
