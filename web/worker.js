// The page's sweeps and searches off its main thread: "Across seeds" and "Find a failure"
// start this worker (src/app/background/worker.rs) and send it `{ module, request }`: the
// page's own compiled WebAssembly module, so the worker makes a second instance of it without
// fetching or compiling anything, and the work to do. The worker posts its news (a batch of
// outcomes, how far a search has got) back as RON text. The page keeps painting meanwhile;
// Cancel terminates the worker.
import init, { WorkerJob } from './locksim.js';

// For the job's first second the worker rests after each batch three times as long as it took.
// Meanwhile the browser compiles the job's hottest code again, optimised, on another thread:
// on a two-core machine the worker, that compiler and the page's painting would otherwise
// want three cores, and the page's frames were the ones to wait (its first second painted 15
// to 30 frames, against 50 later). Afterwards the batches run back to back.
const PACED_MS = 1000;
const rest = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Each piece of news is posted as `{ news, last }` (`last`: the page shows it at once, not at
// its next progress repaint). A failure (the module would not instantiate, the work was
// unreadable, a bug) is posted as `{ error }`, which the page shows in the panel.
self.onmessage = async ({ data }) => {
  try {
    await init({ module_or_path: data.module });
    const job = new WorkerJob(data.request, (news, last) => self.postMessage({ news, last }));
    const started = performance.now();
    for (;;) {
      const before = performance.now();
      if (job.step()) break;
      const now = performance.now();
      if (now - started < PACED_MS) await rest(3 * (now - before));
    }
    job.free();
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
