// Writes a .br and a .gz copy beside every text file of the build, once, at the highest levels,
// so the server sends them with @fastify/static's `preCompressed` instead of compressing on each
// request or not at all (DESIGN §9: the first load of / and /login on slow 4G). Browsers send
// `br` over HTTPS only, so the gzip copy is what plain-HTTP clients get.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? 'dist');
const TEXT = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;
// Below this, the answer's headers outweigh what compression saves.
const MIN_BYTES = 512;

function* textFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue; // .vite/manifest.json is read at build time, never served
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* textFiles(file);
    else if (TEXT.test(entry.name)) yield file;
  }
}

let files = 0;
let raw = 0;
let gzipped = 0;
for (const file of textFiles(dist)) {
  const body = fs.readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION });
  // A copy that is not smaller is left out; the server then sends the file itself.
  if (br.length < body.length) fs.writeFileSync(`${file}.br`, br);
  if (gz.length < body.length) fs.writeFileSync(`${file}.gz`, gz);
  files += 1;
  raw += body.length;
  gzipped += Math.min(gz.length, body.length);
}
console.log(`precompress: ${files} files, ${(raw / 1024).toFixed(0)} KB → ${(gzipped / 1024).toFixed(0)} KB gzip`);
