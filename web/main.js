// Loads locksim's WebAssembly module and starts the app on the page's canvas.
// Every URL here is relative, so the site works from any sub-path of any static server.
import init, { start } from './locksim.js';

const loading = document.getElementById('loading');
const notice = document.getElementById('notice');

function showNotice(message) {
  notice.querySelector('p').textContent = message;
  notice.hidden = false;
}
notice.querySelector('button').addEventListener('click', () => {
  notice.hidden = true;
});
// If the app stops on a bug, it shows #stopped (src/app/web.rs); Reload opens the page again,
// where the saved progress restores the learner's place.
document.getElementById('reload').addEventListener('click', () => location.reload());
const address = document.getElementById('stopped-address');
address.href = location.href;
address.textContent = location.href;
window.addEventListener('hashchange', () => {
  address.href = location.href;
  address.textContent = location.href;
});

// A fault of the module that is not a panic (memory exhausted, which ends in a trap) stops the
// app too, with the same page a panic shows (src/app/web.rs), unless a panic already said why.
window.addEventListener('error', ({ error }) => {
  const root = document.documentElement;
  if (!(error instanceof WebAssembly.RuntimeError) || root.hasAttribute('data-stopped')) return;
  document.getElementById('stopped-reason').textContent =
    `locksim stopped: its WebAssembly failed (${error.message}), most often because the page ran out of memory`;
  root.setAttribute('data-stopped', '');
});

// The app keeps the fragment in step with the view without firing `hashchange`; the event
// means the learner pasted or followed a link to another view of this page. Opening it anew
// restores that view exactly as a fresh visit would (the module comes from the cache).
window.addEventListener('hashchange', () => location.reload());

try {
  await init(); // fetches locksim_bg.wasm, next to locksim.js
  const message = await start(document.getElementById('locksim_canvas'));
  // The app paints its first frame in the next animation frame; callbacks run in the order
  // they were asked for, so this one runs right after that paint.
  requestAnimationFrame(() => {
    performance.mark('locksim-first-frame');
    document.documentElement.dataset.firstFrame = 'painted';
  });
  loading.remove();
  if (message) {
    console.info(message);
    showNotice(message);
  }
} catch (error) {
  loading.textContent = `locksim could not start: ${error}`;
  loading.classList.add('failed');
  console.error('locksim could not start:', error);
}
