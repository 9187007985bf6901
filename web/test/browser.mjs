// The browser test (issue #4): Debian's Chromium, driven by playwright-core, opens the built
// site (web/build.sh) from a loopback server under a sub-path and checks that
// - the page loads with no console error, no page error and no CSP violation;
// - the canvas is painted (sampled pixels, not a blank page);
// - a click in the app changes what is shown;
// - a shared link restores its view, and a broken or oversized one says so and still starts;
// - the page requests nothing but its own files, and its CSP refuses anything else;
// - the browser's storage keeps the app's state across a reload.
// Screenshots go to web/test/out/. Run: `npm test` in web/ (after `npm ci`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, firstFrame, pixelStats, pixelDiff, repo, SUB_PATH } from './harness.mjs';

const out = path.join(repo, 'web', 'test', 'out');
fs.mkdirSync(out, { recursive: true });
const VIEWPORT = { width: 1280, height: 800 };

const server = await serve();
const browser = await launch();
const results = [];

/// Runs one named check in a fresh browser context (own storage, own cache).
async function check(name, body) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const log = { problems: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') log.problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => log.problems.push(`page error: ${e.message}`));
  page.on('request', (r) => log.requests.push(r.url()));
  const started = Date.now();
  try {
    await body(page, log, context);
    results.push({ name, ok: true });
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}\n     ${String(error.stack ?? error).replaceAll('\n', '\n     ')}`);
    await page.screenshot({ path: path.join(out, `${slug(name)}-failure.png`) }).catch(() => {});
  } finally {
    await context.close();
  }
}

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const shot = async (page, name) => page.screenshot({ path: path.join(out, `${name}.png`) });
const fragment = (page) => new URL(page.url()).hash.replace(/^#/, '');
const clean = (log) => assert.deepEqual(log.problems, [], 'the console has no errors or warnings');

/// A link to `file` (a scenario in tests/) with `seed`, made as the app makes them:
/// raw deflate, base64url without padding.
function link(file, seed) {
  const toml = fs.readFileSync(path.join(repo, file));
  const packed = zlib.deflateRawSync(toml, { level: 9 }).toString('base64url');
  return `v=1&step=0&seed=${seed}&scenario=${packed}`;
}

await check('loads with a clean console and paints the canvas', async (page, log) => {
  await page.goto(server.url);
  await firstFrame(page);
  const picture = await shot(page, 'start');
  const stats = pixelStats(picture);
  assert.ok(stats.colours > 50, `the page shows more than a few colours (${stats.colours})`);
  assert.ok(stats.inked > 0.05, `more than 5% of the page is drawn on (${stats.inked})`);
  assert.equal(await page.locator('#loading').count(), 0, 'the loading line is gone');
  assert.ok(await page.locator('#notice').isHidden(), 'no notice on a bare address');
  assert.match(await page.title(), /^locksim/);
  // The bare address stays bare: the start needs no fragment.
  assert.equal(fragment(page), '');
  await page.waitForTimeout(500);
  clean(log);
});

await check('requests only its own files, and its CSP refuses the rest', async (page, log) => {
  await page.goto(server.url);
  await firstFrame(page);
  await page.waitForTimeout(1000);
  const foreign = log.requests.filter((url) => !url.startsWith(server.origin + SUB_PATH));
  assert.deepEqual(foreign, [], 'no request leaves the site');
  const files = new Set(log.requests.map((url) => new URL(url).pathname.slice(SUB_PATH.length)));
  assert.deepEqual(
    [...files].sort(),
    ['', 'favicon.svg', 'locksim.js', 'locksim_bg.wasm', 'main.js', 'style.css'],
  );
  clean(log);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /unsafe-inline|https?:|\*/);
  // The policy is in force: a script that tries to reach out is stopped by the browser.
  const outcome = await page.evaluate(() =>
    fetch('http://192.0.2.1/').then(() => 'fetched', (e) => `refused: ${e.message}`),
  );
  assert.match(outcome, /^refused/);
  assert.ok(log.problems.some((p) => p.includes('Content Security Policy')), 'the CSP reported it');
  assert.ok(!log.requests.some((url) => url.includes('192.0.2.1')), 'nothing was sent');
});

await check('a click changes what is shown', async (page, log) => {
  await page.goto(server.url);
  await firstFrame(page);
  // The run plays on open. Pause, then rewind: the playhead goes back to 0.
  const pause = { x: 138, y: 747 };
  const rewind = { x: 26, y: 747 };
  await page.mouse.click(pause.x, pause.y);
  await page.waitForTimeout(300);
  const before = await shot(page, 'click-before');
  await page.mouse.click(rewind.x, rewind.y);
  await page.waitForTimeout(300);
  await page.mouse.move(600, 700); // away from the buttons, so no hover highlight differs
  await page.waitForTimeout(300);
  const after = await shot(page, 'click-after');
  const changed = pixelDiff(before, after);
  assert.ok(changed > 0.005, `the view changed (${(changed * 100).toFixed(2)}% of pixels)`);
  clean(log);
});

await check('a shared link restores its view', async (page, log) => {
  const shared = link('tests/scenarios/step5-pause-unfenced.toml', 9);
  await page.goto(`${server.url}#${shared}`);
  await firstFrame(page);
  await shot(page, 'shared-link');
  assert.equal(await page.title(), 'locksim · Step 5 · Paused past the lease, no fencing');
  assert.ok(await page.locator('#notice').isHidden(), 'a good link shows no notice');
  // The app rewrote the address with its own encoding of the same view.
  const rewritten = fragment(page);
  assert.match(rewritten, /^v=1&step=0&seed=9&scenario=[A-Za-z0-9_-]+$/);
  // Opening the rewritten address gives the same view again.
  await page.goto('about:blank');
  await page.goto(`${server.url}#${rewritten}`);
  await firstFrame(page);
  assert.equal(await page.title(), 'locksim · Step 5 · Paused past the lease, no fencing');
  assert.equal(fragment(page), rewritten);
  // Following a link to another view of the page (only the fragment differs) opens it too.
  await page.goto(server.url);
  await firstFrame(page);
  assert.doesNotMatch(await page.title(), /Paused past the lease/);
  await Promise.all([
    page.waitForEvent('load'),
    page.evaluate((hash) => { location.hash = hash; }, rewritten),
  ]);
  await firstFrame(page);
  assert.equal(await page.title(), 'locksim · Step 5 · Paused past the lease, no fencing');
  clean(log);
});

for (const [name, bad, says] of [
  ['a broken link', 'v=1&step=banana', /`step` should be a whole number/],
  ['a link from another version', 'v=9&step=1', /another version of locksim/],
  ['an oversized link', `v=1&seed=${'7'.repeat(20000)}`, /more than the 16384/],
]) {
  await check(`${name} says so and the app starts at step 1`, async (page, log) => {
    await page.goto(`${server.url}#${bad}`);
    await firstFrame(page);
    const notice = page.locator('#notice');
    assert.ok(await notice.isVisible(), 'the notice is shown');
    const text = await notice.locator('p').textContent();
    assert.match(text, /^This link's saved state cannot be used, so the course starts at step 1/);
    assert.match(text, says);
    await shot(page, slug(name));
    assert.equal(fragment(page), '', 'the bad fragment is replaced by the start');
    assert.ok(pixelStats(await page.screenshot()).inked > 0.05, 'the app is painted');
    await notice.locator('button').click();
    assert.ok(await notice.isHidden(), 'the notice can be dismissed');
    clean(log);
  });
}

await check("the browser's storage keeps the app's state across a reload", async (page, log) => {
  await page.goto(server.url);
  await firstFrame(page);
  // eframe writes its state on an auto-save tick; the app asks for one 2 s after a change.
  await page.waitForFunction(() => localStorage.getItem('egui_memory_ron') !== null, null, {
    timeout: 10000,
  });
  const keys = await page.evaluate(() => Object.keys(localStorage).sort());
  await page.reload();
  await firstFrame(page);
  assert.deepEqual(await page.evaluate(() => Object.keys(localStorage).sort()), keys);
  clean(log);
});

await browser.close();
await server.close();
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed; screenshots in web/test/out/`);
process.exit(failed ? 1 : 0);
