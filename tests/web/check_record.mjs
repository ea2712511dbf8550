// make check-web, record and replay: the viewer playing a recording, and a viewer
// session replayed headless.
//   node tests/web/check_record.mjs --cloth build/cloth --out build/web
// 1. `cloth run --record` writes cloth.pc2; `cloth serve --replay DIR` plays it: the page
//    gets its frame count, pauses, and the frame slider seeks; the positions drawn are the
//    cache's sample of the frame shown, read here by a PC2 reader of this file's own.
// 2. `cloth serve SCENE --events DIR` while the page drags a vertex and moves a slider;
//    `cloth replay DIR/events.jsonl` then gives the session's series.csv again, apart
//    from wall_ms.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { arg, check, launchBrowser, readPc2, root, startServer } from './common.mjs';

const cloth = path.resolve(root, arg('--cloth', 'build/cloth'));
const outDir = path.resolve(root, arg('--out', 'build/web'));
mkdirSync(outDir, { recursive: true });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const work = mkdtempSync(path.join(os.tmpdir(), 'cloth-record-'));

// series.csv without its last column (wall_ms)
const withoutWall = (file) => readFileSync(file, 'utf8').trimEnd().split('\n')
  .map((l) => l.slice(0, l.lastIndexOf(','))).join('\n');

let failed = null;
const browser = await launchBrowser();
let server = null;
try {
  // ------------------------------------------------------- play a recording
  const rec = path.join(work, 'rec');
  execFileSync(cloth, ['run', 'experiments/hanging.ini', '--set', 'run.frames=60', '--record',
    '--out', rec], { cwd: root, stdio: ['ignore', 'ignore', 'ignore'] });
  const pc2 = readPc2(path.join(rec, 'cloth.pc2'));
  check(pc2.magic === 'POINTCACHE2\0' && pc2.version === 1 && pc2.samples === 61,
    `cloth run --record wrote a PC2 of ${pc2.samples} samples of ${pc2.points} points`);

  server = await startServer(cloth, ['--replay', rec]);
  let page = await browser.context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(server.url);
  await page.waitForFunction(() => window.clothViewer && clothViewer.hello && clothViewer.state,
    null, { timeout: 20000 });
  const V = (fn, a) => page.evaluate(fn, a);
  const hello = await V(() => clothViewer.hello.replay);
  check(hello.frames === 61, `the page plays a replay of ${hello.frames} frames at ${hello.fps} frames/s`);
  const f0 = await V(() => clothViewer.metrics?.frame ?? -1);
  await page.waitForFunction((f) => clothViewer.metrics && clothViewer.metrics.frame !== f, f0,
    { timeout: 5000 });
  check(true, 'it plays: the frame shown moves on');
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.waitForFunction(() => !clothViewer.state.playback.playing, null, { timeout: 5000 });
  check(true, 'Pause stops it');

  // scrub: type frames into the Frame slider's box; the frame shown is that one and the
  // drawn positions are that sample of the cache
  const slider = page.locator('.lil-gui .controller', { has: page.locator('.name', { hasText: /^Frame$/ }) });
  for (const want of [15, 48, 30]) {
    await slider.locator('input').fill(String(want));
    await slider.locator('input').press('Enter');
    await page.waitForFunction((k) => clothViewer.state.playback.frame === k &&
      clothViewer.metrics.frame === k, want, { timeout: 5000 }).catch(async (e) => {
      throw new Error(`${e.message}: want ${want}, ` + await V(() => JSON.stringify({
        p: clothViewer.state.playback, m: clothViewer.metrics.frame, e: clothViewer.errors })));
    });
    const frames = await V(() => clothViewer.binaryFrames);
    await page.waitForFunction((n) => clothViewer.binaryFrames >= n + 2, frames, { timeout: 5000 });
    const shown = await V(() => Array.from(clothViewer.positions));
    const cached = pc2.sample(want);
    const same = shown.length === cached.length && shown.every((x, i) => x === cached[i]);
    check(same, `scrubbing to frame ${want} shows it, bit for bit the PC2 sample`);
  }
  await page.screenshot({ path: path.join(outDir, '8-replay.png') });
  const refused = await V(async () => {
    const n = clothViewer.errors.length;
    clothViewer.send({ type: 'reset' });
    for (let k = 0; k < 50 && clothViewer.errors.length === n; k++) await new Promise((r) => setTimeout(r, 50));
    return clothViewer.errors.slice(n).join(' ');
  });
  check(/only play and seek/.test(refused), `a replay refuses other messages (${refused})`);
  check(pageErrors.length === 0, `no errors in the replay page (${pageErrors.join('; ')})`);
  await page.close();
  let { code } = await server.stop();
  server = null;
  check(code === 0, 'the replay server stops cleanly');

  // --------------------------------------------- a session, replayed headless
  const ev = path.join(work, 'session');
  server = await startServer(cloth, 'experiments/hanging.ini', ['--set', 'run.kernel=pbd',
    '--events', ev]);
  page = await browser.context.newPage();
  await page.goto(server.url);
  await page.waitForFunction(() => window.clothViewer && clothViewer.simFrames > 20, null,
    { timeout: 20000 });
  const W = (fn, a) => page.evaluate(fn, a);
  // a slider, then a drag of the bottom middle vertex aimed at a still cloth
  const wind = page.locator('.lil-gui .controller', { has: page.locator('.name', { hasText: /^Wind X$/ }) });
  const wbox = await wind.locator('.slider').boundingBox();
  await page.mouse.click(wbox.x + 0.8 * wbox.width, wbox.y + wbox.height / 2);
  await page.waitForFunction(() => clothViewer.state.params.wind_x > 1, null, { timeout: 5000 });
  await sleep(500);
  await W(() => clothViewer.send({ type: 'freeze', on: true }));
  await page.waitForFunction(() => clothViewer.state.frozen, null, { timeout: 5000 });
  const bf = await W(() => clothViewer.binaryFrames);
  await page.waitForFunction((n) => clothViewer.binaryFrames >= n + 2, bf, { timeout: 5000 });
  const h = await W(() => ({ nx: clothViewer.hello.nx, ny: clothViewer.hello.ny }));
  const [mx, my] = await W((i) => clothViewer.project(i), (h.ny - 1) * h.nx + h.nx / 2);
  await page.mouse.move(mx, my);
  await page.mouse.down();
  await page.waitForFunction(() => clothViewer.state.grabbed >= 0, null, { timeout: 5000 });
  await W(() => clothViewer.send({ type: 'freeze', on: false }));
  await page.waitForFunction(() => !clothViewer.state.frozen, null, { timeout: 5000 });
  await page.mouse.move(mx + 100, my - 50, { steps: 12 });
  await sleep(400);
  await page.mouse.up();
  await page.waitForFunction(() => clothViewer.state.grabbed === -1, null, { timeout: 5000 });
  await sleep(1000);
  await page.close();
  ({ code } = await server.stop());
  server = null;
  check(code === 0, 'the recording server stops cleanly');

  const events = readFileSync(path.join(ev, 'events.jsonl'), 'utf8').trimEnd().split('\n')
    .map((l) => JSON.parse(l));
  const ops = events.slice(1).map((e) => e.op);
  check(events[0].scene === 'experiments/hanging.ini' && ops.includes('set') &&
    ops.includes('grab') && ops.filter((o) => o === 'drag').length >= 2 &&
    ops.includes('release') && ops.at(-1) === 'end',
  `events.jsonl holds the slider, the grab, ${ops.filter((o) => o === 'drag').length} drags, ` +
    `the release and the end (${events.at(-1).frame} frames)`);
  const again = path.join(ev, 'replay');
  execFileSync(cloth, ['replay', path.join(ev, 'events.jsonl'), '--out', again],
    { cwd: root, stdio: ['ignore', 'ignore', 'ignore'] });
  const live = withoutWall(path.join(ev, 'series.csv'));
  const replayed = withoutWall(path.join(again, 'series.csv'));
  const rows = live.split('\n').length - 1;
  check(rows === events.at(-1).frame + 1 && live === replayed,
    `cloth replay gives the session's series.csv again (${rows} rows, apart from wall_ms)`);
} catch (e) {
  failed = e;
} finally {
  await browser.close();
  if (server) await server.stop();
  rmSync(work, { recursive: true, force: true });
}
if (failed) {
  console.error(failed.message);
  process.exit(1);
}
console.log('check-web record: all passed');
