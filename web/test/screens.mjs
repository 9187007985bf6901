// The browser test at the screens learners have: phones, tablets, laptops with
// high-density displays, monitors. At each screen (CSS pixels × device pixel ratio), Debian's
// Chromium opens every page — the introduction, each decision with its right call made (for
// the ungraded step 0, "it keeps data correct", the lock the course goes on to build) and
// played to its end, the recap, the sandbox and the library with a scenario open, and a
// challenge — and checks
// that
// - the console stays clean (no error, no warning, no page error: a panic would show here);
// - the app's logical size is the page's CSS size, whatever the ratio (the app writes its
//   size and ratio into the page on purpose: `data-screen` on the document);
// - the top bar's items neither overlap nor leave the window, and keep to one row from a
//   tablet up, in presenter mode from a projector up (`data-top-bar`: each item's name and
//   rectangle, in CSS pixels);
// - the canvas is painted, and a screenshot of it is kept in web/test/out/screens/;
// - every label on a timeline lies in its lane and covers no other (`data-drawn`);
// - on a touch screen, a swipe leaves the console clean.
// It visits presenter mode's steps 5 and 6 last.
// Then it makes the app panic on purpose and checks that the page says so, offers a reload
// and keeps the saved progress.
// Run: `npm test` in web/ (after `npm ci` and web/build.sh).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, firstFrame, pixelStats, repo } from './harness.mjs';

const out = path.join(repo, 'web', 'test', 'out', 'screens');
fs.mkdirSync(out, { recursive: true });

/// [CSS width, CSS height, device pixel ratio, touch]: a phone in portrait, a tablet both
/// ways, a projector, laptops with and without high-density displays, a full-HD and a QHD
/// monitor.
const SCREENS = [
  [390, 844, 3, true],
  [768, 1024, 2, true],
  [1024, 768, 1, false],
  [1024, 768, 2, true],
  [1280, 800, 1, false],
  [1280, 800, 2, false],
  [1440, 900, 2, false],
  [1920, 1080, 1, false],
  [2560, 1440, 1, false],
];
/// The course's decisions in order: number, title, option count and right call (see the file).
const COURSE = JSON.parse(fs.readFileSync(path.join(repo, 'web', 'test', 'course.json'))).steps;
/// The option shown on each decision: its right call; step 0 has none (see above).
const SHOWN = COURSE.map((step) => step.right ?? 1);
/// Link page numbers (src/app/share.rs): 0 the introduction, then each decision, then these.
const RECAP = COURSE.length + 1;
const SANDBOX = RECAP + 1;
const LIBRARY = SANDBOX + 1;
const CHALLENGES = LIBRARY + 2;

const server = await serve();
const browser = await launch();
const results = [];

/// A link to page `step` showing `file` (a scenario in tests/), made as the app makes them:
/// raw deflate, base64url without padding.
function link(file, step) {
  const toml = fs.readFileSync(path.join(repo, file));
  return `v=2&step=${step}&scenario=${zlib.deflateRawSync(toml, { level: 9 }).toString('base64url')}`;
}

/// What the app says about its layout, read from the page.
async function layout(page) {
  return page.evaluate(() => ({
    screen: document.documentElement.dataset.screen,
    topBar: JSON.parse(document.documentElement.dataset.topBar ?? '[]'),
    drawn: JSON.parse(document.documentElement.dataset.drawn ?? '[[], []]'),
    css: [innerWidth, innerHeight, devicePixelRatio],
  }));
}

/// Checks the page on screen and keeps its screenshot as `<screen>-<name>.png`.
async function looks(page, log, screen, name) {
  // egui finds what it draws in the frame after a change of page; let both frames run.
  await page.waitForTimeout(400);
  const { screen: size, topBar, drawn, css } = await layout(page);
  const [width, height, ratio] = css;
  // Points may differ from CSS pixels by the rounding of the drawing buffer to whole pixels.
  const [, w, h, r] = /^([\d.]+)x([\d.]+)@([\d.]+)$/.exec(size ?? '') ?? [];
  assert.ok(
    Math.abs(w - width) < 1 && Math.abs(h - height) < 1 && Number(r) === ratio,
    `${name}: the app's size ${size} is the page's CSS size ${width}x${height}@${ratio}`,
  );
  // The name, the course's pages (each decision by its number, or the one picker they fold
  // into where they do not fit one row), the tools, and the buttons.
  const names = topBar.map(([item]) => item.trim());
  const course = names.includes('course') ? ['course'] : ['Intro', ...COURSE.map((step) => step.number), 'Recap'];
  const pages = ['locksim', ...course, 'Sandbox', 'Library', 'Challenges', 'Glossary'];
  assert.deepEqual(names.slice(0, pages.length), pages, `${name}: the top bar has every page`);
  assert.deepEqual(names.slice(pages.length).sort(), ['?', 'Dark', 'Presenter'], `${name}: and its buttons`);
  // From a tablet up the bar keeps to one row (in presenter mode's larger type, from a
  // projector's 1024 px up): a second would take the lesson's room.
  if (width >= (name.startsWith('presenter') ? 1024 : 768)) {
    const [, [, y0, , h0]] = topBar[0];
    for (const [item, [, y, , h]] of topBar) {
      assert.ok(y < y0 + h0 / 2 && y0 + h0 / 2 < y + h, `${name}: ${item} is on the top bar's one row`);
    }
  }
  for (const [i, [item, [x, y, w, h]]] of topBar.entries()) {
    assert.ok(x >= 0 && x + w <= width + 0.5, `${name}: ${item} is inside the page (${x}+${w} of ${width})`);
    for (const [other, [ox, oy, ow, oh]] of topBar.slice(i + 1)) {
      const apart = x + w <= ox + 0.5 || ox + ow <= x + 0.5 || y + h <= oy + 0.5 || oy + oh <= y + 0.5;
      assert.ok(apart, `${name}: ${item} [${x},${y},${w},${h}] overlaps ${other} [${ox},${oy},${ow},${oh}]`);
    }
  }
  // Every label of a timeline (a bar's, a mark's, a placed fault's chip) lies within a lane's
  // height and covers no other: lanes are never shorter than their labels need.
  const [lanes, labels] = drawn;
  for (const [i, [x, y, w, h]] of labels.entries()) {
    const lane = lanes.find(([lx, ly, lw, lh]) => ly - 0.5 <= y && y + h <= ly + lh + 0.5 && x < lx + lw && lx < x + w);
    assert.ok(lane, `${name}: the label at [${x},${y},${w},${h}] lies in a lane of ${JSON.stringify(lanes)}`);
    for (const [ox, oy, ow, oh] of labels.slice(i + 1)) {
      const apart = x + w <= ox + 0.5 || ox + ow <= x + 0.5 || y + h <= oy + 0.5 || oy + oh <= y + 0.5;
      assert.ok(apart, `${name}: the label at [${x},${y},${w},${h}] covers the one at [${ox},${oy},${ow},${oh}]`);
    }
  }
  const picture = await page.screenshot({ path: path.join(out, `${screen}-${name}.png`) });
  const stats = pixelStats(picture);
  assert.ok(stats.colours > 50 && stats.inked > 0.005, `${name}: the page is painted (${JSON.stringify(stats)})`);
  assert.deepEqual(log.problems, [], `${name}: the console has no errors or warnings`);
}

/// A finger's swipe up the middle of the page, as a phone sends it (CDP touch events): the
/// page must take it without a console error (a touch listener the browser made passive
/// refuses a prevented default with one, every swipe).
async function swipe(page) {
  const cdp = await page.context().newCDPSession(page);
  const { innerWidth: w, innerHeight: h } = await page.evaluate(() => ({ innerWidth, innerHeight }));
  const at = (y) => [{ x: w / 2, y }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(h * 0.7) });
  for (let i = 1; i <= 8; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(h * (0.7 - i * 0.05)) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/// Presses `key` on the app (the canvas has the keyboard) and waits for the address to
/// match `hash`.
async function press(page, key, hash) {
  await page.keyboard.press(key);
  await page.waitForFunction((h) => h.test(location.hash), hash, { timeout: 10000 });
}

// `node test/screens.mjs 390x844x3 1280x800x2` runs those screens only (and no panic check).
const only = process.argv.slice(2);
for (const [width, height, ratio, touch] of SCREENS) {
  const screen = `${width}x${height}x${ratio}`;
  if (only.length && !only.includes(screen)) continue;
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: ratio,
    hasTouch: touch,
    isMobile: touch && width < 800,
  });
  const page = await context.newPage();
  const log = { problems: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') log.problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => log.problems.push(`page error: ${e.message}`));
  const started = Date.now();
  try {
    await page.goto(server.url);
    await firstFrame(page);
    await looks(page, log, screen, 'intro');
    await page.locator('canvas').focus();
    for (const [i, step] of COURSE.entries()) {
      const n = i + 1;
      await press(page, 'PageDown', new RegExp(`^#v=2&step=${n}(&|$)`));
      assert.equal(await page.title(), `locksim · Step ${step.number} · ${step.title}`);
      // The option shown, played to its end: the verdict is told.
      const choices = SHOWN.slice(0, n).join('.');
      const chosen = new RegExp(`^#v=2&step=${n}&choices=${choices.replaceAll('.', '\\.')}$`);
      await press(page, String(SHOWN[i] + 1), chosen);
      await page.waitForTimeout(200); // the run is made in the frame after the choice
      await page.keyboard.press('End');
      if (touch && step.number === '5') await swipe(page);
      await looks(page, log, screen, `step${step.number}`);
    }
    await press(page, 'PageDown', new RegExp(`^#v=2&step=${RECAP}&`));
    await looks(page, log, screen, 'recap');
    for (const [name, fragment, title] of [
      ['sandbox', link('assets/scenarios/step5-pause-unfenced.toml', SANDBOX), /^locksim · Sandbox · Step 5/],
      ['library', link('assets/scenarios/step5-fencing-token.toml', LIBRARY), /^locksim · Library · Step 5/],
      ['challenges', `v=2&step=${CHALLENGES}&challenge=pause-past-lease`, /^locksim · Challenges · Pause past the lease$/],
    ]) {
      await page.goto(`${server.url}#${fragment}`);
      await firstFrame(page);
      assert.match(await page.title(), title);
      await looks(page, log, screen, name);
    }
    // Presenter mode, on the steps a class watches most closely: the fencing tokens, quorum.
    const { topBar } = await layout(page);
    const [, [px, py, pw, ph]] = topBar.find(([item]) => item === 'Presenter');
    await page.mouse.click(px + pw / 2, py + ph / 2);
    // Kept with the progress (saved every 2 s), which a link's page reads as it opens.
    await page.waitForTimeout(2500);
    for (const number of ['5', '6']) {
      const n = COURSE.findIndex((step) => step.number === number) + 1;
      await page.goto(`${server.url}#v=2&page=${number}`);
      await firstFrame(page);
      await page.waitForFunction((h) => h.test(location.hash), new RegExp(`^#v=2&step=${n}(&|$)`), { timeout: 10000 });
      await page.locator('canvas').focus();
      // The link carries no call: the right one, played to its end.
      await press(page, String(SHOWN[n - 1] + 1), /&choices=/);
      await page.waitForTimeout(200);
      await page.keyboard.press('End');
      await looks(page, log, screen, `presenter-step${number}`);
    }
    results.push(true);
    console.log(`ok   ${screen}: every page (${Date.now() - started} ms)`);
  } catch (error) {
    results.push(false);
    console.log(`FAIL ${screen}\n     ${String(error.stack ?? error).replaceAll('\n', '\n     ')}`);
    await page.screenshot({ path: path.join(out, `${screen}-failure.png`) }).catch(() => {});
  } finally {
    await context.close();
  }
}

// A panic is never a blank page: the page says what stopped, offers a reload, and keeps the
// progress saved before it.
if (!only.length) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  try {
    await page.goto(`${server.url}#v=2&step=2&choices=0.1`);
    await firstFrame(page);
    await page.waitForFunction(() => localStorage.getItem('locksim-progress')?.includes('Step(1)'), null, {
      timeout: 10000,
    });
    const saved = await page.evaluate(() => localStorage.getItem('locksim-progress'));
    const outcome = await page.evaluate(() =>
      import('./locksim.js').then((m) => m.panic_for_test()).then(() => 'returned', (e) => `threw: ${e}`),
    );
    assert.match(outcome, /^threw/, 'the panic ends the call');
    const stopped = page.locator('#stopped');
    assert.ok(await stopped.isVisible(), 'the message is shown');
    assert.ok(await page.locator('canvas').isHidden(), 'the dead canvas is hidden');
    assert.match(
      await page.locator('#stopped-reason').textContent(),
      /^locksim stopped: a panic on purpose, for the browser test \(at src\/app\/web\.rs:\d+\)$/,
    );
    assert.ok(errors.some((e) => e.includes('a panic on purpose')), 'the console has the panic too');
    await page.screenshot({ path: path.join(out, 'stopped.png') });
    assert.equal(await page.evaluate(() => localStorage.getItem('locksim-progress')), saved, 'progress is kept');
    await Promise.all([page.waitForEvent('load'), page.locator('#reload').click()]);
    await firstFrame(page);
    assert.ok(await page.locator('#stopped').isHidden(), 'after the reload the app runs again');
    assert.equal(await page.title(), `locksim · Step ${COURSE[1].number} · ${COURSE[1].title}`);
    results.push(true);
    console.log('ok   a panic shows its message, a reload button, and keeps progress');
  } catch (error) {
    results.push(false);
    console.log(`FAIL a panic\n     ${String(error.stack ?? error).replaceAll('\n', '\n     ')}`);
  } finally {
    await context.close();
  }
}

// A trap (what running out of memory ends in) stops the app with the same page, not a dead
// canvas.
if (!only.length) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}#v=2&step=2`);
    await firstFrame(page);
    await page.evaluate(() => import('./locksim.js').then((m) => setTimeout(() => m.trap_for_test())));
    await page.locator('#stopped').waitFor({ state: 'visible', timeout: 5000 });
    assert.ok(await page.locator('canvas').isHidden(), 'the dead canvas is hidden');
    assert.match(
      await page.locator('#stopped-reason').textContent(),
      /^locksim stopped: its WebAssembly failed \(.+\), most often because the page ran out of memory$/,
    );
    assert.equal(await page.locator('#stopped-address').getAttribute('href'), page.url(), 'the address is kept');
    results.push(true);
    console.log('ok   a trap shows the stopped page with the address');
  } catch (error) {
    results.push(false);
    console.log(`FAIL a trap\n     ${String(error.stack ?? error).replaceAll('\n', '\n     ')}`);
  } finally {
    await context.close();
  }
}

await browser.close();
await server.close();
const failed = results.filter((ok) => !ok).length;
console.log(`${results.length - failed} passed, ${failed} failed; screenshots in web/test/out/screens/`);
process.exit(failed ? 1 : 0);
