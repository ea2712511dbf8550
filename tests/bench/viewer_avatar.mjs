// The viewer on the avatar's cape (make viewer-avatar): how many frames per second the
// page shows, and the screenshot of docs/viewer.md, of the dressed mannequin.  A measurement, never
// a test: nothing here fails on a slow machine.
//   node tests/bench/viewer_avatar.mjs --cloth build/cloth [--seconds 8]
//        [--screenshot plots/viewer_avatar.png] [--kernels verlet,pbd | --kernels none]
// For each kernel (verlet, pbd) it serves experiments/avatar_cape.ini, lets the page run
// 3 s, then counts over --seconds:
//   shown     draws that showed a frame not drawn before (what the user sees move)
//   received  frames with a new frame number that reached the page
//   drawn     the page's draws per second (requestAnimationFrame), new frame or not
//   kernel    the server's kernel time per frame (wall_ms)
// and, with a bare WebSocket client that draws nothing, the frames the server delivers.
// The load average is printed beside: the 2-core machines this runs on are shared.
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { arg, launchBrowser, root, startServer } from '../web/common.mjs';

const cloth = path.resolve(root, arg('--cloth', 'build/cloth'));
const seconds = Number(arg('--seconds', '8'));
const shot = arg('--screenshot', null);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const browser = await launchBrowser();
const rows = [];
try {
  const kernels = arg('--kernels', 'verlet,pbd');
  for (const kernel of kernels === 'none' ? [] : kernels.split(',')) {
    const server = await startServer(cloth, 'experiments/avatar_cape.ini', ['--set', `run.kernel=${kernel}`]);
    try {
      const page = await browser.context.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => window.clothViewer && clothViewer.body && clothViewer.simFrames > 5,
        null, { timeout: 60000 });
      await sleep(3000);
      const V = (fn) => page.evaluate(fn);
      const count = () => V(() => ({ shown: clothViewer.shownFrames, sim: clothViewer.simFrames,
        t: performance.now() }));
      const a = await count();
      const walls = [];
      for (let k = 0; k < 4 * seconds; k++) {
        await sleep(250);
        walls.push(await V(() => clothViewer.metrics.wall_ms));
      }
      const b = await count();
      const drawn = await V(() => clothViewer.renderFps);
      const dt = (b.t - a.t) / 1000;
      // the same server without a page that draws
      await page.close();
      const bare = await browser.context.newPage();
      await bare.goto(`${server.url}no-such-page`);
      const alone = await bare.evaluate(async (s) => {
        const ws = new WebSocket(`ws://${location.host}/`, 'cloth');
        const seen = new Set();
        ws.onmessage = (ev) => {
          if (typeof ev.data !== 'string') return;
          const m = JSON.parse(ev.data);
          if (m.type === 'frame') seen.add(m.frame);
        };
        await new Promise((r) => { ws.onopen = r; });
        await new Promise((r) => setTimeout(r, 1000));
        const n0 = seen.size, t0 = performance.now();
        await new Promise((r) => setTimeout(r, 1000 * s));
        const fps = (1000 * (seen.size - n0)) / (performance.now() - t0);
        ws.close();
        return fps;
      }, seconds);
      await bare.close();
      rows.push({ kernel, shown: (b.shown - a.shown) / dt, received: (b.sim - a.sim) / dt, drawn,
        kernel_ms: walls.reduce((s, w) => s + w, 0) / walls.length, bare: alone,
        load: os.loadavg()[0] });
    } finally {
      await server.stop();
    }
  }

  if (shot) {
    // the cape on the turning mannequin, seen from behind and aside, after 2.5 s
    const server = await startServer(cloth, 'experiments/avatar_cape.ini');
    try {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: 1000, height: 800 });
      await page.goto(server.url);
      await page.waitForFunction(() => window.clothViewer && clothViewer.body &&
        clothViewer.metrics && clothViewer.metrics.frame >= 150, null, { timeout: 120000 });
      await page.evaluate(() => clothViewer.send({ type: 'freeze', on: true }));
      await page.waitForFunction(() => clothViewer.state.frozen, null, { timeout: 5000 });
      await sleep(1000);
      await page.evaluate(() => {
        clothViewer.setCamera([-1.25, 1.6, -2.0], [0, 1.0, 0]);
        for (const id of ['plot', 'help', 'status']) document.getElementById(id).style.display = 'none';
        document.querySelector('.lil-gui').style.display = 'none';
      });
      await sleep(1500);
      const file = path.resolve(root, shot);
      mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file });
      console.log(`screenshot: ${path.relative(root, file)} (frame ${await page.evaluate(() => clothViewer.metrics.frame)})`);
    } finally {
      await server.stop();
    }
  }
} finally {
  await browser.close();
}
console.log('kernel,shown_fps,received_fps,drawn_fps,kernel_ms,bare_client_fps,load_avg_1min');
for (const r of rows)
  console.log([r.kernel, r.shown.toFixed(1), r.received.toFixed(1), r.drawn.toFixed(1),
    r.kernel_ms.toFixed(2), r.bare.toFixed(1), r.load.toFixed(2)].join(','));
