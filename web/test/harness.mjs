// Shared by the browser test and the measurement: the site served from dist/ on loopback
// (web/static.mjs), and Debian's Chromium driven by playwright-core (no browser is ever
// downloaded).
import zlib from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve as serveDir } from '../static.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..', '..');
export const dist = path.resolve(process.env.LOCKSIM_DIST ?? path.join(repo, 'dist'));

/// The site is served under this sub-path, to prove every URL in it is relative.
export const SUB_PATH = '/course/locksim/';

/// Serves `dist` under SUB_PATH on a free loopback port (web/static.mjs), as a static host
/// would, precompressed files included.
export function serve() {
  return serveDir({ root: SUB_PATH, dir: dist });
}

/// Chromium with the flags that give WebGL2 in a headless container. Playwright gives every
/// launch a fresh temporary profile.
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return browser;
}

/// Waits until the app has painted its first frame and drawn its view (web/main.js and
/// src/app/web.rs set the markers).
export async function firstFrame(page, timeout = 30000) {
  // A page opened on a link paints a notice first and the link's view on the next frame,
  // which writes the app's layout (`data-screen`, src/app/web.rs).
  await page.waitForFunction(
    () => document.documentElement.dataset.firstFrame === 'painted' && document.documentElement.dataset.screen,
    null,
    { timeout },
  );
}

/// Decodes a PNG (8-bit RGB or RGBA, not interlaced, as Chromium writes screenshots) into
/// { width, height, rgba }.
export function decodePng(buffer) {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('ascii', offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colour, , , interlace] = data.subarray(8);
      channels = { 2: 3, 6: 4 }[colour];
      if (depth !== 8 || !channels || interlace !== 0) throw new Error('unsupported PNG');
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    offset += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter];
      pixels[y * stride + x] = (line[x] + predictor) & 0xff;
    }
  }
  const rgba = Buffer.alloc(width * height * 4, 0xff);
  for (let i = 0; i < width * height; i++) {
    pixels.copy(rgba, i * 4, i * channels, i * channels + 3);
  }
  return { width, height, rgba };
}

/// How a screenshot looks, in numbers: distinct colours, and the share of pixels that differ
/// from the most common colour (the background).
export function pixelStats(png) {
  const { width, height, rgba } = decodePng(png);
  const counts = new Map();
  for (let i = 0; i < width * height; i++) {
    const key = rgba.readUInt32BE(i * 4);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const background = Math.max(...counts.values());
  return { colours: counts.size, inked: 1 - background / (width * height) };
}

/// The share of pixels that differ between two screenshots of the same size.
export function pixelDiff(a, b) {
  const x = decodePng(a);
  const y = decodePng(b);
  if (x.width !== y.width || x.height !== y.height) return 1;
  let differ = 0;
  for (let i = 0; i < x.width * x.height; i++) {
    if (x.rgba.readUInt32BE(i * 4) !== y.rgba.readUInt32BE(i * 4)) differ++;
  }
  return differ / (x.width * x.height);
}

/// How many pixels of a screenshot, within `clip` ({ x, y, width, height } in the PNG's
/// pixels; the whole picture if left out), are within `tolerance` of `rgb` in every channel.
/// Anti-aliased edges blend a colour with its background, so only a solid stroke or fill
/// counts.
export function colourCount(png, rgb, tolerance = 12, clip) {
  const { width, height, rgba } = decodePng(png);
  const { x = 0, y = 0, width: w = width, height: h = height } = clip ?? {};
  let n = 0;
  for (let row = y; row < Math.min(y + h, height); row++) {
    for (let col = x; col < Math.min(x + w, width); col++) {
      const i = (row * width + col) * 4;
      if (rgb.every((c, k) => Math.abs(rgba[i + k] - c) <= tolerance)) n++;
    }
  }
  return n;
}
