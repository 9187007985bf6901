// Prints the web build's budget figures and fails if any is over:
//   wasm size gzipped  ≤ 1.43 MB     (gzip -9 of dist/locksim_bg.wasm; the module was 1.416 MB
//                                     when this was set, with the challenges, the fault editor
//                                     and the transcript in it, after the fonts lost their
//                                     hinting — benches/wasm_bytes.sh says where the bytes go;
//                                     the goal is 1.2 MB)
//   first painted frame ≤ 1.2 s      (the median of 5 page loads in headless Chromium, local
//                                     server, fresh profile each: navigation start → the
//                                     animation frame after the app's first paint, as marked
//                                     by web/main.js)
//   in a classroom:                  (the same page loads under Chromium's own emulation of
//     first painted frame ≤ 4 s                         school Wi-Fi and an old laptop:
//     bytes sent ≤ 1.13 MB                              10 Mbit/s, 40 ms round trip, the
//                                                       CPU 4× slower; the site served as a
//                                                       static host serves precompressed
//                                                       files, so the bytes are the page's
//                                                       bodies as sent, brotli where accepted)
// Run from web/: `npm run measure` (after web/build.sh). LOCKSIM_RUNS sets the page loads.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, firstFrame, pixelStats, dist } from './test/harness.mjs';

const MB = 1_000_000; // decimal megabytes
const SIZE_BUDGET = 1.43 * MB; // decimal: 1 430 000 bytes
const PAINT_BUDGET_MS = 1200;
/// Ceilings above where the classroom load stands today (first paint 2.2–3.5 s by the load on
/// the machine; 1.12 MB sent, the module 1.11 MB of it with brotli), not yet the goals (1 500 ms,
/// 1.10 MB): they catch a regression, and only ever go down.
const CLASSROOM_PAINT_BUDGET_MS = 4000;
const CLASSROOM_BYTES_BUDGET = 1.13 * MB;
/// School Wi-Fi: 10 Mbit/s each way (in bytes per second, as the DevTools protocol takes it),
/// 40 ms round trip; an old laptop: the CPU 4× slower.
const CLASSROOM = {
  network: { offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 },
  cpuSlowdown: 4,
};
const runs = Number(process.env.LOCKSIM_RUNS ?? 5);

const wasm = fs.readFileSync(path.join(dist, 'locksim_bg.wasm'));
const gzipped = zlib.gzipSync(wasm, { level: 9 }).length;
const js = fs.statSync(path.join(dist, 'locksim.js')).size;
const mb = (n) => `${(n / MB).toFixed(2)} MB`;
console.log(`wasm: ${wasm.length} bytes raw (${mb(wasm.length)}), ${gzipped} bytes gzipped (${mb(gzipped)}); budget ${mb(SIZE_BUDGET)} gzipped`);
console.log(`glue: locksim.js ${js} bytes`);

const server = await serve();
const browser = await launch();

/// Loads the page `runs` times, each in a new context (empty HTTP cache, so every load
/// downloads and compiles the module), under `conditions` if given. Returns the first-paint
/// times in ms, sorted, and the bytes the server sent for each load, with their encodings.
async function loads(conditions) {
  const times = [];
  const bytes = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    if (conditions) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', conditions.network);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: conditions.cpuSlowdown });
    }
    const before = server.sent.length;
    await page.goto(server.url);
    await firstFrame(page, 60000);
    const ms = await page.evaluate(
      () => performance.getEntriesByName('locksim-first-frame')[0].startTime,
    );
    const stats = pixelStats(await page.screenshot());
    if (stats.inked < 0.02) throw new Error(`run ${i + 1}: the first frame is blank`);
    times.push(ms);
    bytes.push(server.sent.slice(before));
    await context.close();
  }
  times.sort((a, b) => a - b);
  return { times, bytes };
}

const median = (times) => times[Math.floor(times.length / 2)];
const spread = (times) => `best ${times[0].toFixed(0)} ms, worst ${times.at(-1).toFixed(0)} ms over ${runs} loads`;

const local = await loads(null);
console.log(`first painted frame: median ${median(local.times).toFixed(0)} ms, ${spread(local.times)}; budget ${PAINT_BUDGET_MS} ms`);

const classroom = await loads(CLASSROOM);
const sentBytes = Math.max(...classroom.bytes.map((load) => load.reduce((n, r) => n + r.bytes, 0)));
const module = classroom.bytes[0].find((r) => r.path.endsWith('/locksim_bg.wasm'));
console.log(`in a classroom (10 Mbit/s, 40 ms round trip, CPU 4× slower): first painted frame median ${median(classroom.times).toFixed(0)} ms, ${spread(classroom.times)}; budget ${CLASSROOM_PAINT_BUDGET_MS} ms`);
console.log(`  bytes sent for the page: ${sentBytes} (${mb(sentBytes)}; the module ${module?.bytes} as ${module?.encoding}); budget ${mb(CLASSROOM_BYTES_BUDGET)}`);
await browser.close();
await server.close();

const over = [];
if (gzipped > SIZE_BUDGET) over.push('wasm size');
if (median(local.times) > PAINT_BUDGET_MS) over.push('first paint');
if (median(classroom.times) > CLASSROOM_PAINT_BUDGET_MS) over.push('first paint in a classroom');
if (sentBytes > CLASSROOM_BYTES_BUDGET) over.push('bytes sent in a classroom');
if (over.length) {
  console.log(`OVER BUDGET: ${over.join(', ')}`);
  process.exit(1);
}
