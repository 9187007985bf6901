// The slide deck in a browser: `locksim render assets/scenarios/step5-pause-unfenced.toml
// --deck` writes an HTML file; Debian's Chromium opens it from disk with every network
// request refused (the deck must work offline) and checks that
// - it loads with no console error and no page error;
// - the first slide shown is the title, and each key that moves on (→, PageDown, Space, ↓)
//   shows the next caption, in the order the file holds them, to the verdict;
// - the story's captions are the numbered steps `locksim search` tells, with the stale write
//   among them;
// - ← and PageUp (a presenter remote's buttons) go back, Home and End jump, N shows the
//   speaker notes, and the address keeps the slide shown across a reload;
// - each slide's picture is drawn (an SVG with a visible size).
// The deck is written by the locksim binary: $LOCKSIM if set, else `cargo run`.
// Run: `npm run deck` in web/ (after `npm ci`); `npm test` runs it too.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, repo } from './harness.mjs';

const scenario = path.join(repo, 'assets', 'scenarios', 'step5-pause-unfenced.toml');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'locksim-deck-'));
const deck = path.join(dir, 'deck.html');
const args = ['render', scenario, '--deck', deck];
if (process.env.LOCKSIM) {
  execFileSync(process.env.LOCKSIM, args, { stdio: 'inherit' });
} else {
  execFileSync('cargo', ['run', '--quiet', '--no-default-features', '--', ...args], {
    cwd: repo,
    stdio: 'inherit',
  });
}

const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const problems = [];
page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
page.on('pageerror', (e) => problems.push(String(e)));
const fetched = [];
await page.route('**/*', (route) => {
  const url = route.request().url();
  if (url.startsWith('file:')) return route.continue();
  fetched.push(url);
  return route.abort();
});
await page.goto(pathToFileURL(deck).href);

const captions = await page.$$eval('.caption', (all) => all.map((c) => c.textContent));
const shown = () => page.$eval('.slide.shown .caption', (c) => c.textContent);
const at = () => page.evaluate(() => location.hash);
assert.ok(captions.length >= 8, `a slide per step: ${captions.length}`);
assert.match(captions[0], /Paused past the lease/);
assert.match(captions.at(-1), /^Verdict: UNSAFE/);
const story = captions.slice(1, -1);
story.forEach((c, i) => assert.ok(c.startsWith(`${i + 1}. `), `step ${i + 1} numbered: ${c}`));
assert.ok(story.some((c) => c.includes('stale_write')), 'the stale write is told');

assert.equal(await shown(), captions[0]);
const forward = ['ArrowRight', 'PageDown', 'Space', 'ArrowDown'];
for (let i = 1; i < captions.length; i++) {
  await page.keyboard.press(forward[i % forward.length]);
  assert.equal(await shown(), captions[i], `slide ${i + 1} after a key`);
  const size = await page.$eval('.slide.shown svg', (s) => {
    const r = s.getBoundingClientRect();
    return [r.width, r.height];
  });
  assert.ok(size[0] > 400 && size[1] > 100, `slide ${i + 1}'s picture is drawn: ${size}`);
}
await page.keyboard.press('PageDown');
assert.equal(await shown(), captions.at(-1), 'the last slide stays');
await page.keyboard.press('PageUp');
assert.equal(await shown(), captions.at(-2));
await page.keyboard.press('ArrowLeft');
assert.equal(await shown(), captions.at(-3));
assert.equal(await at(), `#${captions.length - 2}`);
await page.reload();
assert.equal(await shown(), captions.at(-3), 'a reload keeps the slide');
await page.keyboard.press('Home');
assert.equal(await shown(), captions[0]);
await page.keyboard.press('End');
assert.equal(await shown(), captions.at(-1));
assert.equal(await page.isVisible('.slide.shown .notes'), false, 'notes hidden at first');
await page.keyboard.press('n');
assert.equal(await page.isVisible('.slide.shown .notes'), true, 'N shows the notes');

fs.mkdirSync(path.join(repo, 'web', 'test', 'out'), { recursive: true });
await page.keyboard.press('Home');
for (let i = 0; i < 3; i++) await page.keyboard.press('PageDown');
await page.screenshot({ path: path.join(repo, 'web', 'test', 'out', 'deck-slide4.png') });
await browser.close();
assert.deepEqual(problems, [], 'no console or page error');
assert.deepEqual(fetched, [], 'nothing fetched from the network');
console.log(`deck: ${captions.length} slides, captions in order, keys and notes work, offline`);
