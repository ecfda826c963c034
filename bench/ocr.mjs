// `npm run bench ocr` (issue 33, docs/decisions/0047): reading scanned pages through the server's
// own pipeline (upload → job → pdftoppm → tesseract → stored text) against the `tesseract` command
// line on the same page picture in the same run — pages per minute per core, budget ≥ 80 % of the
// command line — and the server's resident memory while it reads a 200-page image-only PDF
// (budget ≤ 512 MB; its OCR child processes are reported beside it). The server reads with
// TEXT_WORKERS=1, i.e. one core. BENCH_OCR_PAGES (200), BENCH_OCR_CLI_RUNS (3, before and after).
// Writes JSON to bench/results/. Reported, never asserted.
import { execFileSync, execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { median, rssOf, signUpAndLogIn, startServer, writeResults } from './lib.mjs';

const RSS_BUDGET_MB = 512;
const RATIO_BUDGET = 0.8;

/** An A4 page at 300 dpi of typed lab-report lines, black on white (PNG). */
async function scannedPage() {
  const lines = [];
  for (let i = 0; i < 28; i += 1) {
    lines.push(
      `${i + 1}. Ferritin ${10 + i} ng/mL, haemoglobin ${(11 + i / 10).toFixed(1)} g/dL, reviewed on ${String((i % 28) + 1).padStart(2, '0')}/03/2026`,
    );
  }
  const text = await sharp({ text: { text: lines.join('\n'), font: 'DejaVu Sans 10', dpi: 300, spacing: 16, width: 2200 } })
    .negate({ alpha: false })
    .png()
    .toBuffer();
  return sharp(text)
    .resize({ width: 2200, fit: 'inside' })
    .extend({ top: 200, bottom: 200, left: 140, right: 140, background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();
}

async function imageOnlyPdf(png, pages) {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  for (let i = 0; i < pages; i += 1) {
    const page = doc.addPage([595, 842]);
    const scale = Math.min(595 / image.width, 842 / image.height);
    page.drawImage(image, { x: 0, y: 842 - image.height * scale, width: image.width * scale, height: image.height * scale });
  }
  return Buffer.from(await doc.save());
}

/** The server process and its descendants (the OCR children), from /proc. */
function tree(pid) {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const all = [pid];
  for (let i = 0; i < all.length; i += 1) for (const [child, parent] of parents) if (parent === all[i]) all.push(child);
  return all;
}

const safeRss = (pid) => {
  try {
    return rssOf(pid);
  } catch {
    return 0;
  }
};

/** CPU seconds a process and the children it has waited for have used (/proc/<pid>/stat). */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  // utime, stime, cutime, cstime, in clock ticks (100 a second on Linux).
  return (f[11] + f[12] + f[13] + f[14]) / 100;
}

const seconds = (text) => {
  const m = /^(\d+)m(\d+(?:\.\d+)?)s$/.exec(text.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

/**
 * `tesseract` on `picture`, one thread, as the server runs it: pages per minute of wall-clock time
 * and per minute of CPU time (bash's `times`: what its child used).
 */
function cliPagesPerMinute(picture, runs) {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    const out = execFileSync('bash', ['-c', 'tesseract "$0" stdout -l eng --oem 1 --psm 3 >/dev/null 2>&1; times', picture], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      encoding: 'utf8',
    });
    wall.push((performance.now() - t0) / 1000);
    const [user, system] = (out.trim().split('\n')[1] ?? '').split(' ');
    cpu.push(seconds(user) + seconds(system));
  }
  return { perMinute: 60 / median(wall), perCpuMinute: 60 / median(cpu), wall, cpu };
}

export async function runOcr(root) {
  const pages = Number(process.env.BENCH_OCR_PAGES ?? 200);
  const runs = Number(process.env.BENCH_OCR_CLI_RUNS ?? 3);
  if (!process.env.BENCH_SKIP_BUILD) {
    console.log('Building the server…');
    execSync('npm run build -w @kinchart/server', { cwd: root, stdio: 'inherit' });
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kinchart-ocr-'));
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir);
  const loadBefore = os.loadavg();
  const server = await startServer(root, dataDir, { TEXT_WORKERS: '1', MAX_UPLOAD_MB: '256' });
  try {
    const pdf = await imageOnlyPdf(await scannedPage(), pages);
    // The page picture exactly as the server makes it (pdftoppm, long side 3500, gray PGM).
    const picture = path.join(work, 'page.pgm');
    fs.writeFileSync(
      picture,
      execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-scale-to', '3500', '-gray', '-'], { input: pdf, maxBuffer: 256 * 1024 * 1024 }),
    );
    const before = cliPagesPerMinute(picture, runs);
    const show = (r) =>
      console.log(
        `tesseract command line: ${r.perCpuMinute.toFixed(1)} pages per CPU minute, ${r.perMinute.toFixed(1)} pages/min (CPU ${r.cpu.map((c) => c.toFixed(2)).join(', ')} s)`,
      );
    show(before);

    const { client } = await signUpAndLogIn(server.url, 0);
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'scans.pdf');
    let serverRss = 0;
    let treeRss = 0;
    const sampler = setInterval(() => {
      serverRss = Math.max(serverRss, safeRss(server.child.pid));
      treeRss = Math.max(
        treeRss,
        tree(server.child.pid).reduce((sum, pid) => sum + safeRss(pid), 0),
      );
    }, 200);
    const t0 = performance.now();
    const cpu0 = cpuSeconds(server.child.pid);
    const up = await client.request('POST', '/api/user/files', form);
    if (up.status !== 201) throw new Error(`upload ${up.status} ${up.text}`);
    let file;
    for (;;) {
      // Seldom: the answers cost the server CPU that is not the pipeline's.
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const list = await client.request('GET', '/api/user/files');
      file = list.json.find((f) => f.id === up.json.id);
      if (file.text_status !== 'pending' && file.text_status !== 'processing') break;
    }
    const wallSeconds = (performance.now() - t0) / 1000;
    const serverCpu = cpuSeconds(server.child.pid) - cpu0;
    clearInterval(sampler);
    if (file.text_status !== 'done') throw new Error(`the server could not read the pages: ${file.text_status} ${file.text_reason}`);
    const text = await client.request('GET', `/api/user/files/${file.id}/text`);
    const read = text.json.pages.filter((p) => p.text.includes('Ferritin')).length;
    const serverPerMinute = (pages * 60) / wallSeconds;
    const serverPerCpuMinute = (pages * 60) / serverCpu;

    const after = cliPagesPerMinute(picture, runs);
    show(after);
    // Per core: CPU time, which load from elsewhere on the machine does not stretch as it does wall-clock time.
    const cli = (before.perCpuMinute + after.perCpuMinute) / 2;
    const ratio = serverPerCpuMinute / cli;
    const wallRatio = serverPerMinute / ((before.perMinute + after.perMinute) / 2);
    const mb = (bytes) => Math.round(bytes / 1024 / 1024);
    const results = [
      {
        figure: 'OCR pages per minute per core, server pipeline / tesseract CLI',
        value: Number(ratio.toFixed(3)),
        unit: 'ratio',
        budget: `≥ ${RATIO_BUDGET}`,
        ok: ratio >= RATIO_BUDGET,
        serverPagesPerCpuMinute: Number(serverPerCpuMinute.toFixed(1)),
        cliPagesPerCpuMinute: Number(cli.toFixed(1)),
        wallClockRatio: Number(wallRatio.toFixed(3)),
      },
      {
        figure: `server RSS during a ${pages}-page backfill (max)`,
        value: mb(serverRss),
        unit: 'MB',
        budget: `≤ ${RSS_BUDGET_MB}`,
        ok: mb(serverRss) <= RSS_BUDGET_MB,
        withOcrChildren: mb(treeRss),
      },
    ];
    console.log('');
    console.log(
      `server: ${pages} pages read in ${wallSeconds.toFixed(1)} s = ${serverPerMinute.toFixed(1)} pages/min; ${serverCpu.toFixed(1)} CPU s = ${serverPerCpuMinute.toFixed(1)} pages per CPU minute (pages with the word found: ${read}/${pages}); wall-clock ratio ${wallRatio.toFixed(2)}`,
    );
    for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'MISS'} ${r.figure}: ${r.value} ${r.unit} (budget ${r.budget})`);
    console.log(`  server and its OCR children together, max: ${mb(treeRss)} MB`);
    writeResults(root, 'ocr', { loadBefore, pages, results });
  } finally {
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
