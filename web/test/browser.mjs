// The browser test (issue #4): Debian's Chromium, driven by playwright-core, opens the built
// site (web/build.sh) from a loopback server under a sub-path and checks that
// - the page loads with no console error, no page error and no CSP violation;
// - the canvas is painted (sampled pixels, not a blank page);
// - a click on a course option changes what is shown (screenshot) and the address (fragment);
// - a shared link restores its view, and a broken or oversized one says so and still starts;
// - fifty hostile links (seeded) and a damaged saved progress open the app cleanly;
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

/// Lets the app draw a page it has just switched to: egui finds what a click hits in the
/// layout of the frame before.
const settle = (page) => page.waitForTimeout(300);
/// Clicks at `point` until the fragment reads `hash`: on a loaded machine the first click can
/// land while the app still lays out the page it has just switched to, and egui then takes it
/// for a hover. Fails after a few tries.
async function clickUntil(page, point, hash) {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await page.mouse.click(point.x, point.y);
    const done = await page
      .waitForFunction((h) => location.hash === h, hash, { timeout: 2000 })
      .then(() => true, () => false);
    if (done) return;
    await settle(page);
  }
  assert.fail(`clicking at (${point.x}, ${point.y}) never led to ${hash}`);
}
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const shot = async (page, name) => page.screenshot({ path: path.join(out, `${name}.png`) });
const fragment = (page) => new URL(page.url()).hash.replace(/^#/, '');
const clean = (log) => assert.deepEqual(log.problems, [], 'the console has no errors or warnings');

/// A link to page `step` showing `file` (a scenario in tests/) with `seed`, made as the app
/// makes them: raw deflate, base64url without padding.
function link(file, seed, step) {
  const toml = fs.readFileSync(path.join(repo, file));
  const packed = zlib.deflateRawSync(toml, { level: 9 }).toString('base64url');
  return `v=1&step=${step}&seed=${seed}&scenario=${packed}`;
}

await check('loads with a clean console and paints the canvas', async (page, log) => {
  await page.goto(server.url);
  await firstFrame(page);
  const picture = await shot(page, 'start');
  const stats = pixelStats(picture);
  assert.ok(stats.colours > 50, `the page shows more than a few colours (${stats.colours})`);
  assert.ok(stats.inked > 0.02, `more than 2% of the page is drawn on (${stats.inked})`);
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

// Where the course's controls are at 1280×800 (egui draws on a canvas: no DOM to query).
const BEGIN = { x: 329, y: 472 }; // the intro's Begin button
const OPTION_2 = { x: 185, y: 276 }; // step 1's second option

await check('a click on a course option changes what is shown', async (page, log) => {
  await page.goto(server.url);
  await firstFrame(page);
  await clickUntil(page, BEGIN, '#v=1&step=1');
  assert.equal(await page.title(), 'locksim · Step 1 · The stuck flag');
  await page.mouse.move(700, 600); // off the options, so no hover highlight differs
  await settle(page);
  const before = await shot(page, 'course-step1');
  // The app exposes its state on purpose in the fragment: step 1, option 2 (index 1) chosen.
  await clickUntil(page, OPTION_2, '#v=1&step=1&choices=1');
  await page.mouse.move(700, 600);
  await page.waitForTimeout(500);
  const after = await shot(page, 'course-step1-option2');
  const changed = pixelDiff(before, after);
  assert.ok(changed > 0.02, `the view changed (${(changed * 100).toFixed(2)}% of pixels)`);
  clean(log);
});

await check('a shared link restores its view', async (page, log, context) => {
  // Step 3 on screen, with options chosen on steps 1 to 3.
  const shared = 'v=1&step=3&choices=0.1.2';
  await page.goto(`${server.url}#${shared}`);
  await firstFrame(page);
  await page.waitForTimeout(500);
  assert.match(await page.title(), /^locksim · Step 3 · /);
  assert.equal(fragment(page), shared, 'the app keeps the link as it is');
  assert.ok(await page.locator('#notice').isHidden(), 'a good link shows no notice');
  // The same link in another browser profile shows the same decision panel (the run next to
  // it is playing, so only the still parts are compared).
  // Both are taken 500 ms after the first frame; a few anti-aliased pixels of fading text
  // may differ.
  const panel = { x: 0, y: 0, width: 370, height: 440 };
  const first = await page.screenshot({ path: path.join(out, 'shared-step3.png') });
  const firstPanel = await page.screenshot({ clip: panel });
  const other = await browser.newContext({ viewport: VIEWPORT });
  const again = await other.newPage();
  await again.goto(`${server.url}#${shared}`);
  await firstFrame(again);
  await again.waitForTimeout(500);
  const differ = pixelDiff(firstPanel, await again.screenshot({ clip: panel }));
  assert.ok(differ < 0.001, `the decision panel is the same (${(differ * 100).toFixed(3)}% differ)`);
  await other.close();
  assert.ok(pixelStats(first).inked > 0.05);

  // The sandbox with a scenario and a seed of the sharer's.
  const sandbox = link('tests/scenarios/step5-pause-unfenced.toml', 9, 10);
  await page.goto(`${server.url}#${sandbox}`);
  await firstFrame(page);
  await page.waitForTimeout(500);
  await shot(page, 'shared-sandbox');
  assert.equal(await page.title(), 'locksim · Sandbox · Step 5 · Paused past the lease, no fencing');
  // The app rewrote the address with its own encoding of the same view (the seed is now in
  // the scenario), and that address opens the same view again.
  const rewritten = fragment(page);
  assert.match(rewritten, /^v=1&step=10&scenario=[A-Za-z0-9_-]+$/);
  await page.goto('about:blank');
  await page.goto(`${server.url}#${rewritten}`);
  await firstFrame(page);
  assert.equal(await page.title(), 'locksim · Sandbox · Step 5 · Paused past the lease, no fencing');
  assert.equal(fragment(page), rewritten);

  // Following a link to another view of the page (only the fragment differs) opens it too.
  await page.goto(`${server.url}#v=1&step=5`);
  await firstFrame(page);
  assert.match(await page.title(), /^locksim · Step 5 · /);
  await Promise.all([
    page.waitForEvent('load'),
    page.evaluate((hash) => { location.hash = hash; }, shared),
  ]);
  await firstFrame(page);
  assert.match(await page.title(), /^locksim · Step 3 · /);
  clean(log);
});

for (const [name, bad, says] of [
  ['a broken link', 'v=1&step=banana', /"step" should be a whole number, not "banana"/],
  ['a link from another version', 'v=9&step=1', /another version of locksim/],
  ['an oversized link', `v=1&seed=${'7'.repeat(20000)}`, /more than the 16384/],
]) {
  await check(`${name} says so and the app opens at the start`, async (page, log) => {
    await page.goto(`${server.url}#${bad}`);
    await firstFrame(page);
    const notice = page.locator('#notice');
    assert.ok(await notice.isVisible(), 'the notice is shown');
    const text = await notice.locator('p').textContent();
    assert.match(text, /^This link's saved state cannot be used, so locksim opens without it/);
    assert.equal(await page.title(), 'locksim', 'the introduction is on screen');
    assert.match(text, says);
    await shot(page, slug(name));
    assert.equal(fragment(page), '', 'the bad fragment is replaced by the start');
    assert.ok(pixelStats(await page.screenshot()).inked > 0.02, 'the app is painted');
    await notice.locator('button').click();
    assert.ok(await notice.isHidden(), 'the notice can be dismissed');
    clean(log);
  });
}

/// Fifty links a hostile or careless hand could make: seeded, so every run tries the same ones.
function hostileLinks() {
  let state = 20261130;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  const good = link('tests/scenarios/step5-pause-unfenced.toml', 9, 10);
  const fixed = [
    '',
    'v=1',
    'v=1&step=-1',
    'v=1&step=99999999999999999999',
    'v=1&step=3&choices=9.9.9.9.9.9.9.9.9.9',
    `v=1&choices=${'0.'.repeat(5000)}`,
    'v=1&seed=18446744073709551616',
    'v=1&scenario=%%%',
    'v=1&scenario=AAAA',
    `v=1&step=10&scenario=${Buffer.from('not toml at all [[[').toString('base64url')}`,
    `v=1&step=10&scenario=${zlib.deflateRawSync(Buffer.from('version = 1\nname = "x\u001b[2J"\n[[worker]]\nname = "A"')).toString('base64url')}`,
    `v=1&step=10&scenario=${zlib.deflateRawSync(Buffer.alloc(200000, 65)).toString('base64url')}`,
    good.slice(0, good.length / 2),
    good.replace('v=1', 'v=2'),
    'v=1&step=1&step=2',
    'v=1&unknown=1',
    'v=1&step=<script>alert(1)</script>',
    'v=1&step=%F0%9F%94%92',
    '&&&&',
    '=',
  ];
  const alphabet = 'v=1&stepchoiceseedscnario0123456789.-_%ZAaz';
  const random = [];
  while (fixed.length + random.length < 50) {
    const len = 1 + (next() % 120);
    let s = 'v=1&';
    for (let i = 0; i < len; i += 1) s += alphabet[next() % alphabet.length];
    random.push(s);
  }
  return [...fixed, ...random];
}

await check('fifty hostile links each open the app cleanly, with a notice or at a sound page', async (page, log) => {
  for (const bad of hostileLinks()) {
    await page.goto('about:blank');
    await page.goto(`${server.url}#${bad}`);
    await firstFrame(page);
    const notice = await page.locator('#notice').isVisible();
    const title = await page.title();
    assert.ok(
      notice || /^locksim/.test(title),
      `after #${bad.slice(0, 80)} the app shows a notice or a page of its own`,
    );
    assert.ok(!(await page.locator('html[data-stopped]').count()), `#${bad.slice(0, 80)} did not stop the app`);
  }
  clean(log);
});

await check('a damaged saved progress opens a clean start with a notice', async (page, log) => {
  // The damaged value is in place before the page's own scripts run, as after a crash.
  await page.addInitScript(() => localStorage.setItem('locksim-progress', '{"this is": not a save'));
  await page.goto(server.url);
  await firstFrame(page);
  assert.ok(await page.locator('#notice').isVisible(), 'the notice is shown');
  assert.match(await page.locator('#notice p').textContent(), /saved progress could not be read/);
  assert.match(await page.title(), /^locksim/);
  assert.ok(pixelStats(await page.screenshot()).inked > 0.02, 'the app is painted');
  clean(log);
});

await check("the browser's storage keeps the learner's progress", async (page, log) => {
  await page.goto(server.url);
  await firstFrame(page);
  await clickUntil(page, BEGIN, '#v=1&step=1');
  await settle(page);
  await clickUntil(page, OPTION_2, '#v=1&step=1&choices=1');
  // eframe writes to localStorage on its auto-save tick; the app asks for one 2 s after a change.
  await page.waitForFunction(() => localStorage.getItem('locksim-progress')?.includes('Step(0)'), null, {
    timeout: 10000,
  });
  // A reload keeps the learner where they were ...
  await page.reload();
  await firstFrame(page);
  assert.equal(fragment(page), 'v=1&step=1&choices=1');
  // ... and so does a plain visit to the address without the fragment.
  await page.goto(server.url);
  await firstFrame(page);
  await page.waitForFunction(() => location.hash === '#v=1&step=1&choices=1');
  assert.equal(await page.title(), 'locksim · Step 1 · The stuck flag');
  await shot(page, 'restored-from-storage');
  clean(log);
});

await browser.close();
await server.close();
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed; screenshots in web/test/out/`);
process.exit(failed ? 1 : 0);
