#!/usr/bin/env node
// Renders the web app manifest's PNG icons from public/favicon.svg with the Chromium the e2e
// suite uses (playwright-core, CHROME_PATH or /usr/bin/chromium). Run once when the logo
// changes and commit the PNGs: the build and the server never draw or download icons.
//   node apps/web/scripts/render-icons.mjs
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));
const svg = await readFile(`${publicDir}favicon.svg`, 'utf8');
// Maskable: the launcher crops to its own shape, so the background fills the square (no rounded
// corners) and the cross stays well inside the 80 % safe zone (it reaches 59 % of the radius).
const maskable = svg.replace(/ rx="[^"]*"/, '');

const icons = [
  { file: 'pwa-192x192.png', size: 192, source: svg },
  { file: 'pwa-512x512.png', size: 512, source: svg },
  { file: 'pwa-maskable-512x512.png', size: 512, source: maskable },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox'],
});
try {
  for (const { file, size, source } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const sized = source.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await writeFile(
      `${publicDir}${file}`,
      await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }),
    );
    await page.close();
    console.log(`wrote public/${file}`);
  }
} finally {
  await browser.close();
}
