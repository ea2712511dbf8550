// make check-web, the body: the avatar in the viewer, its hands pulled by IK, and a
// garment try-on served and dragged.
//   node tests/web/check_body.mjs --cloth build/cloth --out build/web
// 1. experiments/avatar_cape.ini: the hello's body has as many vertices as the body.obj
//    `cloth run --record` writes, every binary frame carries them, and the turning body
//    moves between frames.  The frame rate the page shows is reported, not asserted.
// 2. A left-press on the left hand holds it (state.ik_joint); dragging the mouse pulls the
//    hand towards the point under the mouse at the hand's depth (the server's IK, at most
//    avatar.ik_max_step a frame) while the cloth keeps stepping; mouse-up lets go.
// 3. That session was recorded (--events): events.jsonl holds the IK calls with their
//    frames, and `cloth replay` gives its series.csv again, apart from wall_ms.
// 4. `cloth serve --replay` of a recording with a body plays the body: the positions the
//    page draws at a frame it seeks to are body.pc2's sample of that frame, bit for bit.
// 5. experiments/garments/tryon_short_skirt.ini (mesh.garment: sewn and welded before
//    serving) serves with the body drawn, and a skirt vertex dragged follows the mouse.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { arg, check, launchBrowser, readPc2, root, startServer } from './common.mjs';

const cloth = path.resolve(root, arg('--cloth', 'build/cloth'));
const outDir = path.resolve(root, arg('--out', 'build/web'));
mkdirSync(outDir, { recursive: true });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const work = mkdtempSync(path.join(os.tmpdir(), 'cloth-body-'));
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

// series.csv without its last column (wall_ms)
const withoutWall = (file) => readFileSync(file, 'utf8').trimEnd().split('\n')
  .map((l) => l.slice(0, l.lastIndexOf(','))).join('\n');

// Waits until the page holds positions of a frame stepped after a freeze.  The server
// answers between two frames, and a try-on frame may take seconds on a loaded machine.
async function freeze(page, on) {
  await page.evaluate((o) => clothViewer.send({ type: 'freeze', on: o }), on);
  await page.waitForFunction((o) => clothViewer.state.frozen === o, on, { timeout: 30000 });
  const n = await page.evaluate(() => clothViewer.binaryFrames);
  await page.waitForFunction((k) => clothViewer.binaryFrames >= k + 2, n, { timeout: 30000 });
}

let failed = null;
const browser = await launchBrowser();
let server = null;
try {
  // --------------------------------------------------------- the body's size
  const rec = path.join(work, 'rec');
  execFileSync(cloth, ['run', 'experiments/avatar_cape.ini', '--set', 'run.frames=30',
    '--set', 'avatar.sdf_resolution=16', '--record', '--out', rec],
  { cwd: root, stdio: ['ignore', 'ignore', 'ignore'] });
  const objVerts = readFileSync(path.join(rec, 'body.obj'), 'utf8').split('\n')
    .filter((l) => l.startsWith('v ')).length;

  // ------------------------------------------------------------ the cape
  const ev = path.join(work, 'session');
  server = await startServer(cloth, 'experiments/avatar_cape.ini', ['--events', ev]);
  let page = await browser.context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // what the page did with the mouse and sent, for a failure's report
  await page.addInitScript(() => {
    window.testLog = [];
    const log = (what) => window.testLog.push(`${performance.now().toFixed(0)} ms: ${what}`);
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (d) {
      if (typeof d === 'string' && !d.includes('"drag"')) log(`sent ${d.slice(0, 40)}`);
      return send.call(this, d);
    };
    for (const t of ['pointerdown', 'pointerup', 'pointercancel', 'lostpointercapture'])
      window.addEventListener(t, (e) => log(`${t} on ${e.target.tagName}`), true);
  });
  await page.goto(server.url);
  await page.waitForFunction(() => window.clothViewer && clothViewer.body && clothViewer.simFrames > 10,
    null, { timeout: 30000 });
  const V = (fn, a) => page.evaluate(fn, a);
  const hello = await V(() => ({ n: clothViewer.hello.body.n, tris: clothViewer.hello.body.triangles.length,
    effectors: clothViewer.hello.effectors, len: clothViewer.body.length }));
  check(hello.n === objVerts && hello.len === 3 * objVerts,
    `the body's mesh arrives: ${hello.n} vertices (body.obj of cloth run --record: ${objVerts}), ` +
    `${hello.tris / 3} triangles, in every frame`);
  check(hello.effectors.join(' ') === 'l_wrist r_wrist l_ankle r_ankle', 'hands and feet may be pulled');
  const b0 = await V(() => ({ f: clothViewer.metrics.frame, p: Array.from(clothViewer.body) }));
  await page.waitForFunction((f) => clothViewer.metrics.frame > f + 20, b0.f, { timeout: 20000 });
  const b1 = await V(() => Array.from(clothViewer.body));
  const bodyMoved = Math.max(...b1.map((x, i) => Math.abs(x - b0.p[i])));
  check(bodyMoved > 0.01, `the turning body moves in the frames (${bodyMoved.toFixed(3)} m in 20 frames)`);

  // the frame rate the page shows (reported: the bench script measures it with care)
  const s0 = await V(() => ({ shown: clothViewer.shownFrames, sim: clothViewer.simFrames, t: performance.now() }));
  await sleep(3000);
  const s1 = await V(() => ({ shown: clothViewer.shownFrames, sim: clothViewer.simFrames, t: performance.now(),
    wall: clothViewer.metrics.wall_ms, p: clothViewer.state.params }));
  console.log(`frame rate on the cape: ${(1000 * (s1.shown - s0.shown) / (s1.t - s0.t)).toFixed(1)} frames/s ` +
    `shown, ${(1000 * (s1.sim - s0.sim) / (s1.t - s0.t)).toFixed(1)} received (kernel ${s1.p.kernel}, ` +
    `${s1.p.substeps} substeps, ${s1.wall.toFixed(1)} ms a frame; headless chromium, software WebGL)`);
  await page.screenshot({ path: path.join(outDir, '9-body.png') });

  // ------------------------------------------------------------- pull a hand
  // The server gives a press the nearest along its ray of the effectors and the cloth:
  // where the flapping cape hangs in front of the hand, the press takes a cloth vertex.
  // Then let go and press again ten frames later, six times at most.
  let hand0 = null, hx = 0, hy = 0, onHand = false, tries = 0;
  for (; tries < 6 && !onHand; tries++) {
    if (tries > 0) {
      await freeze(page, false);
      const f0 = await V(() => clothViewer.metrics.frame);
      await page.waitForFunction((f) => clothViewer.metrics.frame > f + 10, f0, { timeout: 30000 });
    }
    await freeze(page, true);
    hand0 = await V(() => clothViewer.effectors.l_wrist);
    [hx, hy] = await V((p) => clothViewer.projectPoint(p), hand0);
    await V(() => { clothViewer.grabbed = undefined; }); // until the grab's reply
    await page.mouse.move(hx, hy);
    await page.mouse.down();
    await page.waitForFunction(() => clothViewer.grabbed !== undefined, null, { timeout: 30000 });
    onHand = await V(() => clothViewer.ikJoint === 'l_wrist');
    if (!onHand)
      await page.mouse.up();
  }
  check(onHand, `a left-press on the left hand holds the hand (press ${tries} of at most 6)`);
  await page.waitForFunction(() => clothViewer.state.ik_joint === 'l_wrist', null, { timeout: 30000 });
  check(await V(() => clothViewer.state.grabbed) === -1, 'a left-press on the left hand holds the hand, no cloth vertex');
  await freeze(page, false);
  // the point the server aims at: under the mouse, as far from the camera as the hand was
  const tx = hx - 40, ty = hy - 90;
  const target = await V(([p, x, y]) => clothViewer.pointUnder(x, y, p), [hand0, tx, ty]);
  const framesBefore = await V(() => clothViewer.metrics.frame);
  await page.mouse.move(tx, ty, { steps: 10 });
  // 1 cm a frame: as many frames as the distance takes, however slow the machine
  await page.waitForFunction(([t, d]) => {
    const p = clothViewer.effectors.l_wrist;
    return Math.hypot(p[0] - t[0], p[1] - t[1], p[2] - t[2]) < 0.1 * d;
  }, [target, dist(hand0, target)], { timeout: 120000 }).catch(() => {});
  const hand1 = await V(() => clothViewer.effectors.l_wrist);
  const framesDuring = (await V(() => clothViewer.metrics.frame)) - framesBefore;
  const d0 = dist(hand0, target), d1 = dist(hand1, target);
  check(d1 < 0.25 * d0 && dist(hand0, hand1) > 0.05,
    `dragging the hand pulls it towards the target: ${d0.toFixed(3)} -> ${d1.toFixed(3)} m ` +
    `(moved ${dist(hand0, hand1).toFixed(3)} m)`);
  check(framesDuring > 5, `the cloth keeps stepping while the body is posed (${framesDuring} frames)`);
  await page.mouse.up();
  const released = await page.waitForFunction(() => clothViewer.state.ik_joint === null, null,
    { timeout: 30000 }).then(() => true, () => false);
  check(released, 'mouse-up lets the hand go' + (released ? '' : ': the state still holds ' +
    JSON.stringify(await V(() => ({ ik_joint: clothViewer.state.ik_joint, frame: clothViewer.metrics.frame,
      connected: clothViewer.connected, errors: clothViewer.errors, log: window.testLog.slice(-12) })))));
  // the body keeps the pose it was pulled into (taken after the release: no screenshot
  // between a press and its release)
  await page.screenshot({ path: path.join(outDir, '10-ik.png') });
  await sleep(500);
  check(pageErrors.length === 0, `no errors in the page (${pageErrors.join('; ')})`);
  const serverErrors = await V(() => clothViewer.errors);
  check(serverErrors.length === 0, `no error replies (${serverErrors.join('; ')})`);
  await page.close();
  let { code } = await server.stop();
  server = null;
  check(code === 0, 'the server stops cleanly');

  // ------------------------------------------------- the session, replayed
  const events = readFileSync(path.join(ev, 'events.jsonl'), 'utf8').trimEnd().split('\n')
    .map((l) => JSON.parse(l));
  const iks = events.filter((e) => e.op === 'ik');
  check(iks.length > 5 && iks.every((e) => e.joint === 'l_wrist' && e.chain === 2) &&
    iks.every((e, i) => i === 0 || e.frame > iks[i - 1].frame),
  `events.jsonl holds ${iks.length} IK calls at rising frames, ${iks[0]?.frame}..${iks.at(-1)?.frame}`);
  const again = path.join(ev, 'replay');
  execFileSync(cloth, ['replay', path.join(ev, 'events.jsonl'), '--out', again],
    { cwd: root, stdio: ['ignore', 'ignore', 'ignore'] });
  const live = withoutWall(path.join(ev, 'series.csv'));
  const replayed = withoutWall(path.join(again, 'series.csv'));
  check(live === replayed, `cloth replay gives the session's series.csv again with the IK ` +
    `(${live.split('\n').length - 1} rows, apart from wall_ms)`);

  // ------------------------------------------------------ a recording's body
  const bodyPc2 = readPc2(path.join(rec, 'body.pc2'));
  server = await startServer(cloth, ['--replay', rec]);
  page = await browser.context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(server.url);
  await page.waitForFunction(() => window.clothViewer && clothViewer.state && clothViewer.body,
    null, { timeout: 20000 });
  await V(() => clothViewer.send({ type: 'play', on: false }));
  await V(() => clothViewer.send({ type: 'seek', frame: 17 }));
  await page.waitForFunction(() => clothViewer.state.playback.frame === 17 && !clothViewer.state.playback.playing,
    null, { timeout: 5000 });
  const nb = await V(() => clothViewer.binaryFrames);
  await page.waitForFunction((k) => clothViewer.binaryFrames >= k + 2, nb, { timeout: 5000 });
  const shownBody = await V(() => Array.from(clothViewer.body));
  const want = bodyPc2.sample(17);
  check(bodyPc2.samples === 31 && shownBody.length === want.length && shownBody.every((x, i) => x === want[i]),
    `--replay plays the body: frame 17 shows body.pc2's sample 17, bit for bit (${bodyPc2.points} points)`);
  await page.close();
  ({ code } = await server.stop());
  server = null;
  check(code === 0, 'the replay server stops cleanly');

  // ------------------------------------------------------ a garment try-on
  server = await startServer(cloth, 'experiments/garments/tryon_short_skirt.ini');
  page = await browser.context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(server.url);
  // the try-on steps slowly (docs/garments.md): a few frames are enough here
  await page.waitForFunction(() => window.clothViewer && clothViewer.body && clothViewer.simFrames > 2,
    null, { timeout: 60000 });
  const g = await V(() => ({ n: clothViewer.hello.n, body: clothViewer.hello.body.n }));
  check(g.n > 100 && g.body === objVerts, `the short skirt serves (${g.n} vertices, sewn and welded) on the body`);
  await freeze(page, true);
  // the hem's front-most vertex: the lowest row, nearest the camera
  const v = await V(() => {
    const p = clothViewer.positions;
    let lo = Infinity;
    for (let i = 1; i < p.length; i += 3) lo = Math.min(lo, p[i]);
    let best = -1;
    for (let i = 0; i < p.length / 3; i++)
      if (p[3 * i + 1] < lo + 0.03 && (best < 0 || p[3 * i + 2] > p[3 * best + 2])) best = i;
    return best;
  });
  const [mx, my] = await V((i) => clothViewer.project(i), v);
  await page.mouse.move(mx, my);
  await page.mouse.down();
  await page.waitForFunction(() => clothViewer.state.grabbed >= 0, null, { timeout: 30000 });
  const grabbed = await V(() => clothViewer.state.grabbed);
  check(grabbed >= 0, `left-press on the hem grabs vertex ${grabbed}`);
  await freeze(page, false);
  await page.mouse.move(mx + 40, my + 50, { steps: 10 });
  await sleep(300);
  const seen = await V(() => clothViewer.binaryFrames);
  await page.waitForFunction((k) => clothViewer.binaryFrames >= k + 2, seen, { timeout: 30000 });
  const held = await V((i) => clothViewer.project(i), grabbed);
  const off = Math.hypot(held[0] - mx - 40, held[1] - my - 50);
  check(off < 8, `the dragged skirt vertex follows the mouse (${off.toFixed(1)} px from the pointer)`);
  await page.screenshot({ path: path.join(outDir, '11-skirt.png') });
  await page.mouse.up();
  await page.waitForFunction(() => clothViewer.state.grabbed === -1, null, { timeout: 30000 });
  check(pageErrors.length === 0, `no errors in the pages (${pageErrors.join('; ')})`);
  await page.close();
  ({ code } = await server.stop());
  server = null;
  check(code === 0, 'the try-on server stops cleanly');
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
console.log('check-web body: all passed');
