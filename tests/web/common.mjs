// Shared by the browser test and the fuzz test: start `cloth serve` on a free port,
// launch Debian's chromium headless through playwright-core, stop both.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
const { chromium } = await import(path.join(root, 'src/app/serve/web/node_modules/playwright-core/index.mjs'));

export function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// Starts the server and resolves once it prints its URL.  scene: a scene file, or the
// arguments that stand for one (['--replay', DIR]).
export async function startServer(cloth, scene, extra = [], env = {}) {
  const port = await freePort();
  const proc = spawn(cloth, ['serve', ...[].concat(scene), '--port', String(port), '--web',
    path.join(root, 'src/app/serve/web'), ...extra], { cwd: root, env: { ...process.env, ...env } });
  let out = '', err = '';
  proc.stdout.on('data', (d) => { out += d; });
  proc.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 15000;
  while (!out.includes('http://')) {
    if (proc.exitCode !== null) throw new Error(`cloth serve exited: ${err}`);
    if (Date.now() > deadline) throw new Error(`cloth serve did not start: ${out} ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}/`, port, proc,
    output: () => ({ out, err }),
    async stop() { proc.kill('SIGTERM'); return exited; },
    exited,
  };
}

export async function launchBrowser() {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'cloth-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run',
      '--enable-unsafe-swiftshader'],
  });
  return {
    context,
    async close() { await context.close(); rmSync(userDataDir, { recursive: true, force: true }); },
  };
}

export function check(cond, what) {
  if (!cond) throw new Error(`FAILED: ${what}`);
  console.log(`ok: ${what}`);
}

// The PC2 layout (src/harness/pc2.c): a 32-byte header, then float32 xyz per point per
// sample, little-endian.
export function readPc2(file) {
  const buf = readFileSync(file);
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const magic = buf.subarray(0, 12).toString('latin1');
  const points = dv.getInt32(16, true), samples = dv.getInt32(28, true);
  const sample = (k) => {
    const out = new Float32Array(3 * points);
    for (let i = 0; i < 3 * points; i++) out[i] = dv.getFloat32(32 + 12 * points * k + 4 * i, true);
    return out;
  };
  return { magic, version: dv.getInt32(12, true), points, samples, sample };
}
