// The browser test: Debian's Chromium, driven by playwright-core, opens the built
// site (web/build.sh) from a loopback server under a sub-path and checks that
// - the page loads with no console error, no page error and no CSP violation;
// - the canvas is painted (sampled pixels, not a blank page);
// - a click on a course option changes what is shown (screenshot) and the address (fragment);
// - each decision marks its right call (web/test/course.json) right and a wrong call wrong,
//   and the first question, which is not graded, marks neither;
// - a shared link restores its view, and a broken or oversized one says so and still starts;
// - a link from before the course changed (format 1) says so, and the app opens and works;
// - fifty hostile links (seeded) and a damaged saved progress open the app cleanly;
// - progress saved by the course before it changed starts afresh with a notice, and keeps
//   the learner's theme;
// - the page requests nothing but its own files, and its CSP refuses anything else;
// - the module arrives precompressed (Content-Encoding br or gzip, as the server chose), and
//   as it is to a client that accepts neither;
// - the browser's storage keeps the app's state across a reload;
// - a pause dragged from the sandbox's fault palette onto a worker's lane is placed there: the
//   address carries it and the verdict turns UNSAFE;
// - the live region reads out the run's events, then its verdict;
// - a challenge is won by dragging a pause onto a lane: the live region says so, the address
//   carries the challenge and the attempt, and the win survives a reload;
// - Across seeds runs 10 000 seeds, and Find a failure 10 000 schedules, in a Web Worker while
//   the page paints at least 30 frames in every second of it; the sweep counts what
//   `locksim check` counts.
// Screenshots go to web/test/out/. Run: `npm test` in web/ (after `npm ci`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  serve, launch, firstFrame, pixelStats, pixelDiff, colourCount, decodePng, repo, dist, SUB_PATH,
} from './harness.mjs';

const out = path.join(repo, 'web', 'test', 'out');
fs.mkdirSync(out, { recursive: true });
const VIEWPORT = { width: 1280, height: 800 };
/// The course's decisions in order: number, title, option count and right call (see the file).
const COURSE = JSON.parse(fs.readFileSync(path.join(repo, 'web', 'test', 'course.json'))).steps;
/// The page a link gives decision `i` (counted from 0): 0 is the introduction.
const pageOf = (i) => i + 1;
const RECAP = pageOf(COURSE.length);
const SANDBOX = RECAP + 1;
/// The title of decision `i`'s page.
const stepTitle = (i) => `locksim · Step ${COURSE[i].number} · ${COURSE[i].title}`;

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

/// Opens the sandbox on `file` with `seed`, stops its run (a playing run repaints every frame
/// by itself) and opens the tab at `tab`.
async function sandboxTab(page, file, seed, tab) {
  await page.goto(`${server.url}#${link(file, seed, SANDBOX)}`);
  await firstFrame(page);
  await settle(page);
  await page.keyboard.press('End');
  await page.mouse.click(tab.x, tab.y);
  await settle(page);
}

/// Asserts that `perSecond` (from framesEachSecond) covers at least `seconds` whole seconds,
/// each with at least 30 frames, and that the work ran in the worker.
function paintedThroughout(perSecond, seconds, log) {
  assert.ok(perSecond.length >= seconds, `the work lasted ${perSecond.length} whole seconds: long enough to measure`);
  assert.ok(Math.min(...perSecond) >= 30, `at least 30 frames every second: ${perSecond.join(', ')}`);
  assert.ok(log.requests.some((url) => url.endsWith('/worker.js')), 'the work ran in the worker');
}

/// Clicks at `point` (a button that starts work off the page's thread) and counts the frames
/// the browser paints, stamped by the page itself with requestAnimationFrame, until the live
/// region says `done`. Returns the count in each whole second from the click on, and prints it.
async function framesEachSecond(page, point, done) {
  await page.evaluate(() => {
    window.frameStamps = [];
    const tick = (t) => {
      window.frameStamps.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.mouse.click(point.x, point.y);
  await page.waitForFunction((text) => document.getElementById('live').textContent.includes(text), done, {
    timeout: 180000,
  });
  const stamps = await page.evaluate(() => window.frameStamps);
  const seconds = Math.floor((stamps.at(-1) - stamps[0]) / 1000);
  const perSecond = Array.from({ length: seconds }, (_, k) =>
    stamps.filter((t) => t >= stamps[0] + k * 1000 && t < stamps[0] + (k + 1) * 1000).length);
  console.log(`     frames each second until "${done}": ${perSecond.join(', ')}`);
  return perSecond;
}

/// A link to page `step` showing `file` (a scenario in tests/) with `seed`, made as the app
/// makes them: raw deflate, base64url without padding.
function link(file, seed, step) {
  const toml = fs.readFileSync(path.join(repo, file));
  const packed = zlib.deflateRawSync(toml, { level: 9 }).toString('base64url');
  return `v=2&step=${step}&seed=${seed}&scenario=${packed}`;
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

await check('the module arrives precompressed, as a static host sends it', async (page, log) => {
  const responses = new Map();
  page.on('response', (r) => responses.set(new URL(r.url()).pathname.slice(SUB_PATH.length), r));
  await page.goto(server.url);
  await firstFrame(page);
  const module = responses.get('locksim_bg.wasm');
  assert.ok(module, 'the module was fetched');
  const headers = await module.allHeaders();
  const sent = server.sent.find((r) => r.path.endsWith('/locksim_bg.wasm'));
  assert.ok(['br', 'gzip'].includes(headers['content-encoding']), `Content-Encoding: ${headers['content-encoding']}`);
  assert.equal(headers['content-encoding'], sent.encoding, 'the browser got the encoding the server chose');
  assert.match(headers.vary ?? '', /Accept-Encoding/i);
  const raw = fs.statSync(path.join(dist, 'locksim_bg.wasm')).size;
  assert.ok(sent.bytes < raw * 0.5, `${sent.bytes} bytes sent for a ${raw}-byte module`);
  // A browser that accepts neither encoding gets the file as it is.
  const plain = await fetch(`${server.url}locksim_bg.wasm`, { headers: { 'Accept-Encoding': 'identity' } });
  assert.equal(plain.headers.get('content-encoding'), null);
  assert.equal(Number(plain.headers.get('content-length')), raw);
  clean(log);
});

// Where the course's controls are at 1280×800 (egui draws on a canvas: no DOM to query).
const BEGIN = { x: 329, y: 515 }; // the intro's Begin button
const OPTION_2 = { x: 185, y: 378 }; // step 0's second option
/// The decision panel, left of the run, where each judged option wears its chip.
const DECISION_PANEL = { x: 0, y: 36, width: 365, height: 680 };
/// The chips' colours (src/app/style.rs: SAFE for "right", VIOLATING for "wrong").
const RIGHT_CHIP = [30, 135, 55];
const WRONG_CHIP = [210, 35, 35];

await check('a click on a course option changes what is shown', async (page, log) => {
  await page.goto(server.url);
  await firstFrame(page);
  await clickUntil(page, BEGIN, '#v=2&step=1');
  assert.equal(await page.title(), stepTitle(0));
  await page.mouse.move(700, 600); // off the options, so no hover highlight differs
  await settle(page);
  const before = await shot(page, 'course-step0');
  // The app exposes its state on purpose in the fragment: step 0, option 2 (index 1) chosen.
  await clickUntil(page, OPTION_2, '#v=2&step=1&choices=1');
  await page.mouse.move(700, 600);
  await page.waitForTimeout(500);
  const after = await shot(page, 'course-step0-option2');
  const changed = pixelDiff(before, after);
  assert.ok(changed > 0.02, `the view changed (${(changed * 100).toFixed(2)}% of pixels)`);
  clean(log);
});

/// Plays the run on screen to its end (End) and counts the decision panel's chips' colours.
async function chips(page, name) {
  await page.keyboard.press('End');
  await page.mouse.move(700, 790); // off the options, so no hover highlight differs
  await page.waitForTimeout(500);
  const panel = await page.screenshot({ clip: DECISION_PANEL, path: path.join(out, `${name}.png`) });
  return { right: colourCount(panel, RIGHT_CHIP), wrong: colourCount(panel, WRONG_CHIP) };
}

await check('each decision marks its right call right and a wrong call wrong; step 0 marks neither', async (page, log) => {
  for (const [i, step] of COURSE.entries()) {
    // Decision i with option `o` on screen and nothing chosen before it.
    const at = (o) => `#v=2&step=${pageOf(i)}&choices=${'-.'.repeat(i)}${o}`;
    const choose = async (o) => {
      await page.keyboard.press(String(o + 1));
      await page.waitForFunction((h) => location.hash === h, at(o));
    };
    // Straight to the decision with the call to judge chosen, as a shared link would have it.
    const call = step.right ?? 0;
    await page.goto('about:blank');
    await page.goto(`${server.url}${at(call)}`);
    await firstFrame(page);
    assert.equal(await page.title(), stepTitle(i));
    await page.locator('canvas').focus();
    let seen = await chips(page, `chips-${step.number}-${call + 1}`);
    const marks = `(${JSON.stringify(seen)})`;
    if (step.right === null) {
      assert.deepEqual(seen, { right: 0, wrong: 0 }, `step ${step.number} is not graded: no chip`);
      // Its other answer is not graded either.
      await choose(1);
      seen = await chips(page, `chips-${step.number}-2`);
      assert.deepEqual(seen, { right: 0, wrong: 0 }, `step ${step.number}'s second answer: no chip`);
      continue;
    }
    assert.ok(seen.right > 50 && seen.wrong === 0, `step ${step.number}: option ${call + 1} is marked right ${marks}`);
    // The first option that is not the right call, played out too, is marked wrong.
    const wrong = step.right === 0 ? 1 : 0;
    await choose(wrong);
    seen = await chips(page, `chips-${step.number}-${wrong + 1}`);
    assert.ok(
      seen.right > 50 && seen.wrong > 50,
      `step ${step.number}: option ${wrong + 1} is marked wrong, and ${call + 1} still right (${JSON.stringify(seen)})`,
    );
  }
  clean(log);
});

await check('a shared link restores its view', async (page, log, context) => {
  // Step 7b (the ninth decision) on screen, with options chosen on the decisions before it
  // but one, and on 7b itself.
  const seventhB = COURSE.findIndex((s) => s.number === '7b');
  const shared = `v=2&step=${pageOf(seventhB)}&choices=1.0.2.-.1.3.0.2.1`;
  await page.goto(`${server.url}#${shared}`);
  await firstFrame(page);
  await page.waitForTimeout(500);
  assert.equal(await page.title(), stepTitle(seventhB));
  assert.equal(fragment(page), shared, 'the app keeps the link as it is');
  assert.ok(await page.locator('#notice').isHidden(), 'a good link shows no notice');
  // The same link in another browser profile shows the same decision panel (the run next to
  // it is playing, so only the still parts are compared).
  // Both are taken 500 ms after the first frame; a few anti-aliased pixels of fading text
  // may differ.
  const panel = { x: 0, y: 0, width: 370, height: 440 };
  const first = await page.screenshot({ path: path.join(out, 'shared-step7b.png') });
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
  const sandbox = link('assets/scenarios/step5-pause-unfenced.toml', 9, SANDBOX);
  await page.goto(`${server.url}#${sandbox}`);
  await firstFrame(page);
  await page.waitForTimeout(500);
  await shot(page, 'shared-sandbox');
  assert.equal(await page.title(), 'locksim · Sandbox · Step 5 · Paused past the lease, no fencing');
  // The app rewrote the address with its own encoding of the same view (the seed is now in
  // the scenario), and that address opens the same view again.
  const rewritten = fragment(page);
  assert.match(rewritten, new RegExp(`^v=2&step=${SANDBOX}&scenario=[A-Za-z0-9_-]+$`));
  await page.goto('about:blank');
  await page.goto(`${server.url}#${rewritten}`);
  await firstFrame(page);
  assert.equal(await page.title(), 'locksim · Sandbox · Step 5 · Paused past the lease, no fencing');
  assert.equal(fragment(page), rewritten);

  // Following a link to another view of the page (only the fragment differs) opens it too.
  await page.goto(`${server.url}#v=2&step=${pageOf(4)}`);
  await firstFrame(page);
  assert.equal(await page.title(), stepTitle(4));
  await Promise.all([
    page.waitForEvent('load'),
    page.evaluate((hash) => { location.hash = hash; }, shared),
  ]);
  await firstFrame(page);
  assert.equal(await page.title(), stepTitle(seventhB));
  clean(log);
});

for (const [name, bad, says] of [
  ['a broken link', 'v=2&step=banana', /"step" should be a whole number, not "banana"/],
  ['a link from another version', 'v=9&step=1', /another version of locksim \(format 9, this one reads 2\)/],
  // Format 1 numbered the pages of the course before step 0 and the split of step 7: opened
  // as it is, its step 3 would be another decision than the sharer's.
  [
    'a link from before the course changed',
    'v=1&step=3&choices=0.0.0',
    /another version of locksim \(format 1, this one reads 2\)/,
  ],
  ['an oversized link', `v=2&seed=${'7'.repeat(20000)}`, /more than the 16384/],
]) {
  await check(`${name} says so and the app opens at the start, and works`, async (page, log) => {
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
    // The app is the learner's to use: Begin opens the first decision.
    await clickUntil(page, BEGIN, '#v=2&step=1');
    assert.equal(await page.title(), stepTitle(0));
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
  const good = link('assets/scenarios/step5-pause-unfenced.toml', 9, SANDBOX);
  const fixed = [
    '',
    'v=2',
    'v=1',
    'v=2&step=-1',
    'v=2&step=99999999999999999999',
    `v=2&step=${SANDBOX + 2}`,
    'v=2&step=3&choices=9.9.9.9.9.9.9.9.9.9.9.9.9.9',
    `v=2&choices=${'0.'.repeat(5000)}`,
    'v=2&seed=18446744073709551616',
    'v=2&scenario=%%%',
    'v=2&scenario=AAAA',
    `v=2&step=${SANDBOX}&scenario=${Buffer.from('not toml at all [[[').toString('base64url')}`,
    `v=2&step=${SANDBOX}&scenario=${zlib.deflateRawSync(Buffer.from('version = 1\nname = "x\u001b[2J"\n[[worker]]\nname = "A"')).toString('base64url')}`,
    `v=2&step=${SANDBOX}&scenario=${zlib.deflateRawSync(Buffer.alloc(200000, 65)).toString('base64url')}`,
    good.slice(0, good.length / 2),
    good.replace('v=2', 'v=3'),
    good.replace('v=2', 'v=1'),
    'v=2&step=1&step=2',
    'v=2&unknown=1',
    'v=2&step=<script>alert(1)</script>',
    'v=2&step=%F0%9F%94%92',
    '&&&&',
    '=',
  ];
  const alphabet = 'v=2&stepchoiceseedscnario0123456789.-_%ZAaz';
  const random = [];
  while (fixed.length + random.length < 50) {
    const len = 1 + (next() % 120);
    let s = 'v=2&';
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

await check('progress saved before the course changed starts afresh with a notice, keeping the theme', async (page, log) => {
  // As the course before step 0 and the split of step 7 saved it: no course revision, on its
  // step 3 with calls made on steps 1 and 2, in the dark theme.
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', 'yes');
      localStorage.setItem(
        'locksim-progress',
        '(place:Step(2),steps:[(chosen:[0],judged:[0],shown:Some(Option(0))),' +
          '(chosen:[1],judged:[1],shown:Some(Option(1))),(chosen:[],judged:[],shown:None)],' +
          'dark:true,presenter:false)',
      );
    }
  });
  await page.goto(server.url);
  await firstFrame(page);
  const notice = page.locator('#notice');
  assert.ok(await notice.isVisible(), 'the notice is shown');
  assert.match(await notice.locator('p').textContent(), /^The course has changed since your last visit/);
  assert.equal(await page.title(), 'locksim', 'the course starts afresh, at the introduction');
  assert.equal(fragment(page), '', 'no old step or choice is carried over');
  const picture = await shot(page, 'old-progress');
  const { rgba } = decodePng(picture);
  // A pixel of the page below the notice.
  const [r, g, b] = rgba.subarray(4 * (VIEWPORT.width * 780 + 640));
  assert.ok(r + g + b < 3 * 80, `the learner's dark theme is kept (background ${[r, g, b]})`);
  await notice.locator('button').click();
  // Moving on saves the new course's record over the old one: the next visit has no notice.
  await clickUntil(page, BEGIN, '#v=2&step=1');
  await page.waitForFunction(() => localStorage.getItem('locksim-progress')?.includes('course:2'), null, {
    timeout: 10000,
  });
  await page.reload();
  await firstFrame(page);
  assert.ok(await notice.isHidden(), 'no notice once the save is the new course\'s');
  assert.equal(await page.title(), stepTitle(0));
  clean(log);
});

await check("the browser's storage keeps the learner's progress", async (page, log) => {
  await page.goto(server.url);
  await firstFrame(page);
  await clickUntil(page, BEGIN, '#v=2&step=1');
  await settle(page);
  await clickUntil(page, OPTION_2, '#v=2&step=1&choices=1');
  // eframe writes to localStorage on its auto-save tick; the app asks for one 2 s after a change.
  await page.waitForFunction(() => localStorage.getItem('locksim-progress')?.includes('Step(0)'), null, {
    timeout: 10000,
  });
  // A reload keeps the learner where they were ...
  await page.reload();
  await firstFrame(page);
  assert.equal(fragment(page), 'v=2&step=1&choices=1');
  // ... and so does a plain visit to the address without the fragment.
  await page.goto(server.url);
  await firstFrame(page);
  await page.waitForFunction(() => location.hash === '#v=2&step=1&choices=1');
  assert.equal(await page.title(), stepTitle(0));
  await shot(page, 'restored-from-storage');
  clean(log);
});

// Where the sandbox's Across seeds panel puts its controls at 1280×800.
const ACROSS_SEEDS_TAB = { x: 180, y: 53 };
const SEEDS_100 = { x: 64, y: 211 };
const SEEDS_10000 = { x: 177, y: 211 };
const RUN_SWEEP = { x: 260, y: 211 };

await check('Across seeds runs 10 000 seeds in a worker while the page paints 30 frames a second', async (page, log) => {
  // Step 1's flag race: `locksim check` counts 57 of its seeds 1 to 10 000 exclusive and safe.
  await sandboxTab(page, 'assets/scenarios/step1-flag-race.toml', 1, ACROSS_SEEDS_TAB);
  // A short sweep first, as a teacher would try one: the panel then has its chart and tables.
  await page.mouse.click(SEEDS_100.x, SEEDS_100.y);
  await page.mouse.click(RUN_SWEEP.x, RUN_SWEEP.y);
  const live = page.locator('#live');
  await page.waitForFunction(() => document.getElementById('live').textContent.includes('Across seeds, 100 seeds:'));
  // The seed counts are enabled again once the sweep has ended, a frame after.
  await settle(page);
  await page.mouse.click(SEEDS_10000.x, SEEDS_10000.y);
  await settle(page);
  const perSecond = await framesEachSecond(page, RUN_SWEEP, 'Across seeds, 10 000 seeds:');
  await shot(page, 'across-seeds-10000');
  paintedThroughout(perSecond, 2, log);
  // The counts that came from the worker are locksim check's.
  assert.match(await live.textContent(), /exclusive in 0\.6 % of runs, data correct in 0\.6 %/);
  clean(log);
});

// Where the sandbox's Find a failure panel puts its controls at 1280×800.
const FIND_A_FAILURE_TAB = { x: 286, y: 53 };
const BUDGET_1000 = { x: 74, y: 292 };
const SEARCH = { x: 36, y: 338 };

await check('Find a failure searches in a worker while the page paints 30 frames a second', async (page, log) => {
  // The consensus lock with fencing: each run is thousands of events and none fails, so the
  // 10 000 schedules take seconds.
  await sandboxTab(page, 'assets/scenarios/step6-consensus-failover.toml', 6, FIND_A_FAILURE_TAB);
  const perSecond = await framesEachSecond(page, SEARCH, 'Find a failure: None found in 10 000 schedules');
  await shot(page, 'find-a-failure-none-found');
  // About 2.5 s here; at least one whole second is measured whatever the machine's speed.
  paintedThroughout(perSecond, 1, log);
  clean(log);
});

await check('Find a failure breaks Redlock and opens the shrunk run', async (page, log) => {
  // Redlock's clock-jump scenario in the sandbox; the search leaves out its own faults.
  await page.goto(`${server.url}#${link('assets/scenarios/step6-redlock-clock-jump.toml', 6, SANDBOX)}`);
  await firstFrame(page);
  await settle(page);
  await page.mouse.click(FIND_A_FAILURE_TAB.x, FIND_A_FAILURE_TAB.y);
  await settle(page);
  await page.mouse.click(BUDGET_1000.x, BUDGET_1000.y);
  await settle(page);
  await shot(page, 'find-a-failure-ready');
  await page.mouse.click(SEARCH.x, SEARCH.y);
  await page.waitForFunction(() => document.title.includes('Failure found by search in: '), null, {
    timeout: 60000,
  });
  await page.waitForTimeout(500);
  const picture = await shot(page, 'find-a-failure-found');
  assert.ok(pixelStats(picture).inked > 0.05, 'the found run and its story are drawn');
  // The address carries the counterexample, so it can be shared.
  assert.match(fragment(page), new RegExp(`^v=2&step=${SANDBOX}&scenario=[A-Za-z0-9_-]+$`));
  clean(log);
});

await check('a link opens two runs side by side, on a laptop and on a phone', async (page, log, context) => {
  const five = COURSE.findIndex((s) => s.number === '5');
  const right = COURSE[five].right;
  const wrong = right === 0 ? 1 : 0;
  const shared = `v=2&step=${pageOf(five)}&choices=${'-.'.repeat(five)}${wrong}&compare=${wrong}.${right}`;
  await page.goto(`${server.url}#${shared}`);
  await firstFrame(page);
  await page.waitForTimeout(500);
  assert.equal(await page.title(), `${stepTitle(five)} · side by side`);
  assert.equal(fragment(page), shared, 'the app keeps the link as it is');
  assert.ok(await page.locator('#notice').isHidden(), 'a good link shows no notice');
  // End: both runs played to their ends under the one playhead.
  await page.locator('canvas').focus();
  await page.keyboard.press('End');
  await page.waitForTimeout(500);
  const laptop = await shot(page, 'side-by-side-laptop');
  assert.ok(pixelStats(laptop).inked > 0.05, 'two timelines are drawn');
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 });
  const small = await phone.newPage();
  await small.goto(`${server.url}#${shared}`);
  await firstFrame(small);
  await small.waitForTimeout(500);
  assert.equal(await small.title(), `${stepTitle(five)} · side by side`);
  const picture = await small.screenshot({ path: path.join(out, 'side-by-side-phone.png') });
  assert.ok(pixelStats(picture).inked > 0.05, 'the phone shows it too');
  await phone.close();
  clean(log);
});

/// Drags from `from` to `to`: press, move in steps (egui starts a drag once the pointer has
/// moved), let go.
async function drag(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let k = 1; k <= 8; k += 1) {
    await page.mouse.move(from.x + ((to.x - from.x) * k) / 8, from.y + ((to.y - from.y) * k) / 8);
    await page.waitForTimeout(50);
  }
  await page.mouse.up();
}

// Where the sandbox puts the fault palette's pause and worker A's lane at 1280×800.
const PAUSE_CHIP = { x: 455, y: 148 };
/// One second into the run, on A's lane (the plot starts at x ≈ 530, 5 s further is x ≈ 635).
const LANE_A_EARLY = { x: 551, y: 262 };
/// The verdict panel at 1280×800.
const VERDICT = { x: 990, y: 60, width: 290, height: 200 };

/// `fragment` with its scenario's TOML passed through `edit`.
function withScenario(fragment, edit) {
  const params = new URLSearchParams(fragment);
  const toml = zlib.inflateRawSync(Buffer.from(params.get('scenario'), 'base64url')).toString('utf8');
  params.set('scenario', zlib.deflateRawSync(Buffer.from(edit(toml)), { level: 9 }).toString('base64url'));
  return params.toString();
}

/// Opens the page on `address` (a link's fragment) and plays its run to the end.
async function openAtEnd(page, address) {
  await page.goto(`${server.url}#${address}`);
  await firstFrame(page);
  await settle(page);
  await page.locator('canvas').focus();
  await page.keyboard.press('End');
  await page.waitForTimeout(500);
}

await check('a pause dragged from the palette onto a lane is neutral, and made longer than the lease breaks the unfenced lock', async (page, log) => {
  // Step 5's unfenced lock without its pause: A holds the lock for 2 s, B comes 10 s later.
  const toml = fs
    .readFileSync(path.join(repo, 'assets/scenarios/step5-pause-unfenced.toml'), 'utf8')
    .replace(/\[\[fault\]\][^[]*/, '');
  const packed = zlib.deflateRawSync(Buffer.from(toml), { level: 9 }).toString('base64url');
  await openAtEnd(page, `v=2&step=${SANDBOX}&scenario=${packed}`);
  const before = await shot(page, 'fault-palette-before');
  const red = [210, 35, 35];
  const green = [30, 135, 55];
  assert.ok(colourCount(before, green, 12, VERDICT) > 50, 'SAFE before');
  assert.equal(colourCount(before, red, 12, VERDICT), 0, 'nothing UNSAFE before');
  const address = fragment(page);
  await drag(page, PAUSE_CHIP, LANE_A_EARLY);
  await page.waitForFunction((a) => location.hash !== `#${a}`, address, { timeout: 5000 });
  await page.waitForTimeout(500);
  const after = await shot(page, 'fault-palette-after');
  const placed = zlib
    .inflateRawSync(Buffer.from(new URLSearchParams(fragment(page)).get('scenario'), 'base64url'))
    .toString('utf8');
  // As the palette drops it, half a second: well inside the 10 s lease, so still SAFE.
  assert.match(placed, /\[\[fault\]\]\s*at_ms = \d+\s*kind = "pause"\s*node = "A"\s*for_ms = 500\n/);
  assert.ok(colourCount(after, green, 12, VERDICT) > 50, 'SAFE with the pause as it comes');
  assert.equal(colourCount(after, red, 12, VERDICT), 0, 'nothing UNSAFE with the pause as it comes');
  // The same pause made 11 s long outlasts the lease: the page opened on it shows UNSAFE.
  const longer = withScenario(fragment(page), (t) => t.replace(/for_ms = 500\n/, 'for_ms = 11000\n'));
  // A fresh load, not a change of fragment in the page already open.
  await page.goto('about:blank');
  await openAtEnd(page, longer);
  const broken = await shot(page, 'fault-palette-longer');
  assert.ok(colourCount(broken, red, 12, VERDICT) > 50, 'UNSAFE once it outlasts the lease');
  // On a phone the palette wraps above the timeline, and the page still reads as one column.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 });
  const small = await phone.newPage();
  await small.goto(`${server.url}#${fragment(page)}`);
  await firstFrame(small);
  await small.waitForTimeout(500);
  const picture = await small.screenshot({ path: path.join(out, 'fault-palette-phone.png') });
  assert.ok(pixelStats(picture).inked > 0.05, 'the phone shows the sandbox');
  await phone.close();
  clean(log);
});

await check('the live region tells screen readers the run: an event, then the verdict', async (page, log, context) => {
  // The sandbox on step 5's fencing-token run, by link: its transcript is on by default.
  const sandbox = link('assets/scenarios/step5-fencing-token.toml', 1, SANDBOX);
  await page.goto(`${server.url}#${sandbox}`);
  await firstFrame(page);
  const live = page.locator('[aria-live]');
  assert.equal(await live.getAttribute('aria-live'), 'polite');
  const box = await live.boundingBox();
  assert.ok(box && box.width <= 1 && box.height <= 1, 'the region is visually hidden');
  // While it plays, the entry at the playhead, and no verdict yet.
  await page.locator('canvas').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await settle(page);
  const playing = await live.textContent();
  assert.match(playing, /^[\d ]+ ms · \S+: /, `an event sentence while it plays: ${playing}`);
  assert.doesNotMatch(playing, /verdict/, 'the verdict waits for the end');
  await page.keyboard.press('End');
  await settle(page);
  const told = await live.textContent();
  assert.match(told, /ms · \S+: .+/, `an event sentence: ${told}`);
  assert.match(told, /verdict: SAFE, LIVE, 1 lock violation\. The protected data stayed correct, though mutual exclusion broke/, told);
  await shot(page, 'transcript-laptop');
  // On a phone, the same run with its transcript under the playback bar.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 });
  const small = await phone.newPage();
  await small.goto(`${server.url}#${sandbox}`);
  await firstFrame(small);
  await small.locator('canvas').focus();
  await small.keyboard.press('End');
  await settle(small);
  assert.match(await small.locator('[aria-live]').textContent(), /verdict: SAFE, LIVE/);
  await small.screenshot({ path: path.join(out, 'transcript-phone.png') });
  await phone.close();
  clean(log);
});

const CHALLENGES = SANDBOX + 3;
// Where the Challenges page puts its palette's pause and worker A's lane at 1280×800.
const CHALLENGE_PAUSE_CHIP = { x: 455, y: 111 };
/// One second into the run, on A's lane (the plot starts at x ≈ 530, 5 s further is x ≈ 636).
const CHALLENGE_LANE_A_EARLY = { x: 551, y: 210 };

await check('a challenge is won by a pause dragged onto a lane, and stays won after a reload', async (page, log) => {
  await page.goto(`${server.url}#v=2&step=${CHALLENGES}&challenge=pause-past-lease`);
  await firstFrame(page);
  await settle(page);
  const live = page.locator('[aria-live]');
  assert.match(await live.textContent(), /Challenge: Not yet\./, 'not won before any fault');
  const address = fragment(page);
  await drag(page, CHALLENGE_PAUSE_CHIP, CHALLENGE_LANE_A_EARLY);
  await page.waitForFunction((a) => location.hash !== `#${a}`, address, { timeout: 5000 });
  await settle(page);
  const params = new URLSearchParams(fragment(page));
  assert.equal(params.get('challenge'), 'pause-past-lease', 'the link names the challenge');
  const attempt = zlib.inflateRawSync(Buffer.from(params.get('scenario'), 'base64url')).toString('utf8');
  assert.match(attempt, /\[\[fault\]\]\s*at_ms = \d+\s*kind = "pause"\s*node = "A"\s*for_ms = 500\n/, 'the link carries the attempt');
  // As the palette drops it (half a second) the pause wins nothing.
  assert.match(await live.textContent(), /Challenge: Not yet\./, 'not won by the pause as it comes');
  // Made 11 s long (the budget allows 12 s) it outlasts the lease and wins.
  const longer = withScenario(fragment(page), (t) => t.replace(/for_ms = 500\n/, 'for_ms = 11000\n'));
  // A fresh load, not a change of fragment in the page already open.
  await page.goto('about:blank');
  await page.goto(`${server.url}#${longer}`);
  await firstFrame(page);
  await settle(page);
  await shot(page, 'challenge-won');
  assert.match(await live.textContent(), /Challenge: Won\. The checker reports stale_write/);
  // Progress is saved every 2 s; a fresh load without a link comes back to the won challenge.
  await page.waitForTimeout(2500);
  await page.goto(server.url);
  await firstFrame(page);
  await settle(page);
  assert.match(await live.textContent(), /Challenge: Won\./, 'still won after a reload');
  clean(log);
});

await browser.close();
await server.close();
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed; screenshots in web/test/out/`);
process.exit(failed ? 1 : 0);
