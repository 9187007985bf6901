// A static server for locksim's built site, on the loopback interface only, that answers as a
// static host serving precompressed files does: each file in the best encoding the browser
// accepts of those web/build.sh wrote beside it (NAME.br, NAME.gz), else as it is. Used by
// web/serve, the browser test and the measurement; it needs nothing but Node.js.
//   node web/static.mjs [PORT] [DIR]      # defaults: 8765, dist
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
};

/// The encodings a static host can send for a file precompressed beside it (web/build.sh
/// writes `NAME.br` and `NAME.gz`), best first.
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

/// The encoding to send `file` in for a request's `Accept-Encoding` header, as a static host
/// that serves precompressed files does: the best one the browser accepts (a q of 0 refuses)
/// whose file exists; `null` for the file as it is.
function negotiate(file, acceptEncoding = '') {
  const accepted = new Set();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  for (const [encoding, suffix] of ENCODINGS) {
    if ((accepted.has(encoding) || accepted.has('*')) && fs.existsSync(file + suffix)) {
      return { encoding, file: file + suffix };
    }
  }
  return null;
}

/// Serves `dist` on 127.0.0.1 as a static host would: each file in the best precompressed
/// encoding the request accepts (`Content-Encoding`, `Vary: Accept-Encoding`), else as it is.
/// Options: `port` (0: a free one), `root` (the sub-path the site is served under, ending in
/// `/`), `dir` (the folder served).
/// Returns { origin, url, served, sent, close }: `served` lists each request's path, `sent`
/// each answered request's { path, encoding, bytes } (body bytes on the wire).
export async function serve({ port = 0, root = '/', dir }) {
  dir = path.resolve(dir);
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir}/index.html is missing: run web/build.sh first`);
  }
  const served = [];
  const sent = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    served.push(url.pathname);
    let rel = url.pathname.startsWith(root) ? url.pathname.slice(root.length) : null;
    if (rel === '') rel = 'index.html';
    const file = rel && path.join(dir, rel);
    if (!file || !file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    const chosen = negotiate(file, req.headers['accept-encoding']);
    const body = chosen ? chosen.file : file;
    const headers = {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': fs.statSync(body).size,
      'Cache-Control': 'no-store',
      Vary: 'Accept-Encoding',
    };
    if (chosen) headers['Content-Encoding'] = chosen.encoding;
    res.writeHead(200, headers);
    sent.push({ path: url.pathname, encoding: chosen?.encoding ?? 'identity', bytes: headers['Content-Length'] });
    fs.createReadStream(body).pipe(res);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address();
  return {
    origin: `http://127.0.0.1:${bound}`,
    url: `http://127.0.0.1:${bound}${root}`,
    served,
    sent,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? 8765);
  const dir = process.argv[3] ?? 'dist';
  const { url } = await serve({ port, dir });
  console.log(`locksim: ${url}`);
}
