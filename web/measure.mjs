// Prints the web build's two budget figures (issue #4) and fails if either is over:
//   wasm size gzipped  ≤ 1.43 MB     (gzip -9 of dist/locksim_bg.wasm; the module was 1.416 MB
//                                     when this was set, with the challenges, the fault editor
//                                     and the transcript in it, after the fonts lost their
//                                     hinting — benches/wasm_bytes.sh says where the bytes go;
//                                     the goal is 1.2 MB)
//   first painted frame ≤ 1.2 s      (the median of 5 page loads in headless Chromium, local
//                                     server, fresh profile each: navigation start → the
//                                     animation frame after the app's first paint, as marked
//                                     by web/main.js)
// Run from web/: `npm run measure` (after web/build.sh). LOCKSIM_RUNS sets the page loads.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, firstFrame, pixelStats, dist } from './test/harness.mjs';

const MB = 1_000_000; // decimal megabytes
const SIZE_BUDGET = 1.43 * MB; // decimal: 1 430 000 bytes
const PAINT_BUDGET_MS = 1200;
const runs = Number(process.env.LOCKSIM_RUNS ?? 5);

const wasm = fs.readFileSync(path.join(dist, 'locksim_bg.wasm'));
const gzipped = zlib.gzipSync(wasm, { level: 9 }).length;
const js = fs.statSync(path.join(dist, 'locksim.js')).size;
const mb = (n) => `${(n / MB).toFixed(2)} MB`;
console.log(`wasm: ${wasm.length} bytes raw (${mb(wasm.length)}), ${gzipped} bytes gzipped (${mb(gzipped)}); budget ${mb(SIZE_BUDGET)} gzipped`);
console.log(`glue: locksim.js ${js} bytes`);

const server = await serve();
const browser = await launch();
const times = [];
for (let i = 0; i < runs; i++) {
  // A new context per run: empty HTTP cache, so every run downloads and compiles the module.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await firstFrame(page);
  const ms = await page.evaluate(
    () => performance.getEntriesByName('locksim-first-frame')[0].startTime,
  );
  const stats = pixelStats(await page.screenshot());
  if (stats.inked < 0.02) throw new Error(`run ${i + 1}: the first frame is blank`);
  times.push(ms);
  await context.close();
}
await browser.close();
await server.close();

times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`first painted frame: median ${median.toFixed(0)} ms, best ${times[0].toFixed(0)} ms, worst ${times.at(-1).toFixed(0)} ms over ${runs} loads; budget ${PAINT_BUDGET_MS} ms`);

const over = [];
if (gzipped > SIZE_BUDGET) over.push('wasm size');
if (median > PAINT_BUDGET_MS) over.push('first paint');
if (over.length) {
  console.log(`OVER BUDGET: ${over.join(', ')}`);
  process.exit(1);
}
