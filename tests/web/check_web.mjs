// make check-web: the viewer in Debian's chromium, driven like a person would.
//   node tests/web/check_web.mjs --cloth build/cloth --out build/web
// Loads the page, waits for frames, moves the Wind Z slider both ways and checks the
// cloth's mean position moves downwind, drags a vertex and checks it follows the mouse,
// presses Freeze (positions stop changing while frames keep coming), presses Reset (the
// rest shape returns), pins and frees a corner, orbits and zooms, blows up explicit
// Euler and recovers, saves screenshots under --out, and measures the frame rate of the
// 30 x 24 hanging scene (verlet with the Verlet cloth web demo's 5 substeps x 12 passes when that kernel
// exists), reported, not asserted.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { arg, check, launchBrowser, root, startServer } from './common.mjs';

const cloth = path.resolve(root, arg('--cloth', 'build/cloth'));
const outDir = path.resolve(root, arg('--out', 'build/web'));
mkdirSync(outDir, { recursive: true });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const server = await startServer(cloth, 'experiments/hanging.ini');
const browser = await launchBrowser();
let failed = null;
try {
  const page = await browser.context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
  await page.goto(server.url);
  await page.waitForFunction(() => window.clothViewer && window.clothViewer.simFrames > 30,
    null, { timeout: 20000 });
  const V = (fn, a) => page.evaluate(fn, a);
  const hello = await V(() => ({ n: clothViewer.hello.n, nx: clothViewer.hello.nx,
    ny: clothViewer.hello.ny, kernels: clothViewer.hello.kernels }));
  check(hello.n === 720 && hello.nx === 30 && hello.ny === 24, 'the page got the 30 x 24 mesh');
  const webgl = await V(() => !!document.querySelector('canvas').getContext('webgl2'));
  check(webgl, 'WebGL works in headless chromium');
  await page.screenshot({ path: path.join(outDir, '1-loaded.png') });

  // mean z over about a second of frames
  const meanZ = () => V(async () => {
    let sum = 0, count = 0;
    for (let k = 0; k < 10; k++) {
      const p = clothViewer.positions;
      let z = 0;
      for (let i = 2; i < p.length; i += 3) z += p[i];
      sum += z / (p.length / 3);
      count++;
      await new Promise((r) => setTimeout(r, 100));
    }
    return sum / count;
  });
  // clicks the named lil-gui slider at a fraction of its width
  const slide = async (name, key, fraction) => {
    const c = page.locator('.lil-gui .controller', { has: page.locator('.name', { hasText: new RegExp(`^${name}$`) }) });
    const box = await c.locator('.slider').boundingBox();
    await page.mouse.click(box.x + fraction * box.width, box.y + box.height / 2);
    // the server's state comes back with the slider's value
    const shown = Number(await c.locator('input').inputValue());
    await page.waitForFunction(([k, want]) => Math.abs(clothViewer.state.params[k] - want) < 1e-9,
      [key, shown], { timeout: 5000 });
  };

  // ---------------------------------------------------------------- wind
  const z0 = await meanZ();
  await slide('Wind Z', 'wind_z', 0.95);
  const windUp = await V(() => clothViewer.state.params.wind_z);
  check(windUp > 10, `the Wind Z slider set the server's wind to ${windUp.toFixed(1)} m/s`);
  await sleep(3000);
  const z1 = await meanZ();
  check(z1 > z0 + 0.15, `wind +z moves the cloth downwind: mean z ${z0.toFixed(3)} -> ${z1.toFixed(3)} m`);
  await page.screenshot({ path: path.join(outDir, '2-wind.png') });
  await slide('Wind Z', 'wind_z', 0.05);
  await sleep(3000);
  const z2 = await meanZ();
  check(z2 < z0 - 0.15, `wind -z moves it the other way: mean z ${z2.toFixed(3)} m`);
  await slide('Wind Z', 'wind_z', 0.5);
  const windMid = await V(() => clothViewer.state.params.wind_z);
  check(Math.abs(windMid) < 0.5, `the slider's middle is calm (${windMid} m/s)`);
  await sleep(2500);

  // ---------------------------------------------------------------- drag
  // aim at a still cloth (the swinging one moves away from the pointer between the
  // screen projection and the server's pick), then let it run while dragging
  await V(() => clothViewer.send({ type: 'freeze', on: true }));
  await page.waitForFunction(() => clothViewer.state.frozen, null, { timeout: 5000 });
  // the state comes before the positions of a frame stepped just before the freeze: two
  // more binary frames and the page holds the frozen positions, however loaded the machine
  const framesNow = await V(() => clothViewer.binaryFrames);
  await page.waitForFunction((n) => clothViewer.binaryFrames >= n + 2, framesNow, { timeout: 5000 });
  const v = (hello.ny - 1) * hello.nx + hello.nx / 2;  // bottom row, middle
  const [mx, my] = await V((i) => clothViewer.project(i), v);
  const before = await V((i) => Array.from(clothViewer.positions.slice(3 * i, 3 * i + 3)), v);
  await page.mouse.move(mx, my);
  await page.mouse.down();
  await page.waitForFunction(() => clothViewer.state.grabbed >= 0, null, { timeout: 5000 });
  const grabbed = await V(() => clothViewer.state.grabbed);
  check(grabbed >= 0, `left-press on the cloth grabs vertex ${grabbed} (aimed at ${v})`);
  await V(() => clothViewer.send({ type: 'freeze', on: false }));
  await page.waitForFunction(() => !clothViewer.state.frozen, null, { timeout: 5000 });
  const tx = mx + 120, ty = my - 60;
  await page.mouse.move(tx, ty, { steps: 15 });
  await sleep(600);
  const held = await V((i) => ({ screen: clothViewer.project(i),
    p: Array.from(clothViewer.positions.slice(3 * i, 3 * i + 3)) }), grabbed);
  const off = Math.hypot(held.screen[0] - tx, held.screen[1] - ty);
  const moved = Math.hypot(held.p[0] - before[0], held.p[1] - before[1], held.p[2] - before[2]);
  check(off < 8, `the dragged vertex follows the mouse (${off.toFixed(1)} px from the pointer)`);
  check(moved > 0.3, `it moved ${moved.toFixed(2)} m in the world`);
  const pinnedWhileDragging = await V(() => clothViewer.state.grabbed);
  check(pinnedWhileDragging === grabbed, 'it is held while the button is down');
  await page.screenshot({ path: path.join(outDir, '3-drag.png') });
  await page.mouse.up();
  await page.waitForFunction(() => clothViewer.state.grabbed === -1, null, { timeout: 5000 })
    .catch(() => {});
  check(await V(() => clothViewer.state.grabbed) === -1, 'mouse-up releases it');
  await sleep(1500);
  const after = await V((i) => Array.from(clothViewer.positions.slice(3 * i, 3 * i + 3)), grabbed);
  check(Math.hypot(after[0] - held.p[0], after[1] - held.p[1], after[2] - held.p[2]) > 0.05,
    'released, it swings back');

  // --------------------------------------------------------------- freeze
  await page.getByRole('button', { name: 'Freeze', exact: true }).click();
  await page.waitForFunction(() => clothViewer.state.frozen, null, { timeout: 5000 });
  await sleep(300);
  const a = await V(() => ({ p: Array.from(clothViewer.positions), n: clothViewer.binaryFrames }));
  await sleep(1000);
  const b = await V(() => ({ p: Array.from(clothViewer.positions), n: clothViewer.binaryFrames }));
  const change = Math.max(...a.p.map((x, i) => Math.abs(x - b.p[i])));
  check(b.n > a.n + 20, `frames keep coming while frozen (${b.n - a.n} in 1 s)`);
  check(change === 0, `Freeze stops the cloth (largest change ${change})`);
  await page.screenshot({ path: path.join(outDir, '4-frozen.png') });

  // ---------------------------------------------------------------- reset
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await sleep(500);
  const restErr = await V(() => {
    const p = clothViewer.positions, r = clothViewer.hello.rest;
    let e = 0;
    for (let i = 0; i < r.length; i++) e = Math.max(e, Math.abs(p[i] - r[i]));
    return e;
  });
  check(restErr < 1e-6, `Reset brings back the rest shape (largest difference ${restErr.toExponential(1)} m)`);
  await page.screenshot({ path: path.join(outDir, '5-reset.png') });
  await page.getByRole('button', { name: 'Resume', exact: true }).click();
  await page.waitForFunction(() => !clothViewer.state.frozen, null, { timeout: 5000 });

  // ----------------------------------------------------------------- pins
  const corner = (hello.ny - 1) * hello.nx; // bottom left
  await page.locator('.lil-gui .controller', { has: page.locator('.name', { hasText: /^bottom left$/ }) })
    .locator('input').click();
  await page.waitForFunction((i) => clothViewer.state.pins.includes(i), corner, { timeout: 5000 });
  await sleep(300);
  const pinAt = await V((i) => Array.from(clothViewer.positions.slice(3 * i, 3 * i + 3)), corner);
  await sleep(1000);
  const pinNow = await V((i) => Array.from(clothViewer.positions.slice(3 * i, 3 * i + 3)), corner);
  check(pinAt.every((x, k) => x === pinNow[k]), 'the "bottom left" box pins that corner where it is');
  await page.locator('.lil-gui .controller', { has: page.locator('.name', { hasText: /^bottom left$/ }) })
    .locator('input').click();
  await page.waitForFunction((i) => !clothViewer.state.pins.includes(i), corner, { timeout: 5000 });
  check(true, 'clicking it again frees the corner');

  // ------------------------------------------------------ orbit and zoom
  const cam0 = await V(() => clothViewer.camera());
  await page.mouse.move(900, 400);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(760, 340, { steps: 10 });
  await page.mouse.up({ button: 'right' });
  await sleep(300);
  const cam1 = await V(() => clothViewer.camera());
  const turned = Math.hypot(...cam1.position.map((x, k) => x - cam0.position[k]));
  check(turned > 0.2 && Math.abs(cam1.distance - cam0.distance) < 1e-6 * cam0.distance,
    `right-drag orbits the camera (moved ${turned.toFixed(2)} m at the same distance)`);
  check(await V(() => clothViewer.state.grabbed) === -1, 'right-drag grabs nothing');
  await page.mouse.wheel(0, -400);
  await sleep(500);
  const cam2 = await V(() => clothViewer.camera());
  check(cam2.distance < 0.95 * cam1.distance,
    `the wheel zooms in (${cam1.distance.toFixed(2)} -> ${cam2.distance.toFixed(2)} m)`);

  // ------------------------------------------------------------- blow-up
  // explicit Euler with 3x the stiffness at 5 substeps diverges (SPEC 8: a result, not a
  // crash): the page says so, keeps its last frame, and Reset recovers
  const errorsBefore = await V(() => clothViewer.errors.length);
  if ((await V(() => clothViewer.state.params.kernel)) === 'explicit') {
    await V(() => {
      clothViewer.send({ type: 'set', name: 'substeps', value: 5 });
      clothViewer.send({ type: 'set', name: 'stiffness', value: 3 });
    });
    await page.waitForFunction(() => clothViewer.state.diverged, null, { timeout: 20000 });
    const said = await V(() => clothViewer.errors.join(' '));
    check(/diverged/.test(said), 'a blown-up run is reported to the page');
    await page.screenshot({ path: path.join(outDir, '6-diverged.png') });
    await V(() => {
      clothViewer.send({ type: 'set', name: 'substeps', value: 20 });
      clothViewer.send({ type: 'set', name: 'stiffness', value: 1 });
    });
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await page.waitForFunction(() => !clothViewer.state.diverged, null, { timeout: 5000 });
    const fr = await V(() => clothViewer.metrics.frame);
    await page.waitForFunction((f) => clothViewer.metrics.frame > f + 30, fr, { timeout: 10000 });
    check(true, 'Reset recovers and the frames run again');
  }

  // ------------------------------------------------------------ frame rate
  const kernel = hello.kernels.includes('verlet') ? 'verlet' : null;
  if (kernel) {
    await V(() => {
      clothViewer.send({ type: 'set', name: 'kernel', value: 'verlet' });
      clothViewer.send({ type: 'set', name: 'substeps', value: 5 });
      clothViewer.send({ type: 'set', name: 'iterations', value: 12 });
    });
    await page.waitForFunction(() => clothViewer.state.params.kernel === 'verlet' &&
      clothViewer.state.params.substeps === 5 && clothViewer.state.params.iterations === 12,
    null, { timeout: 5000 });
  }
  await sleep(1000);
  const f0 = await V(() => ({ n: clothViewer.simFrames, t: performance.now() }));
  const walls = [];
  for (let k = 0; k < 25; k++) {
    await sleep(200);
    walls.push(await V(() => clothViewer.metrics.wall_ms));
  }
  const f1 = await V(() => ({ n: clothViewer.simFrames, t: performance.now(),
    p: clothViewer.state.params, render: clothViewer.renderFps }));
  const fps = (1000 * (f1.n - f0.n)) / (f1.t - f0.t);
  const wall = walls.reduce((s, w) => s + w, 0) / walls.length;
  console.log(`frame rate: ${fps.toFixed(1)} frames/s received by the page for the 30 x 24 hanging ` +
    `scene, kernel ${f1.p.kernel}, ${f1.p.substeps} substeps, iterations ${f1.p.iterations}; ` +
    `kernel time ${wall.toFixed(2)} ms/frame (server cap 60 frames/s); the page drew ` +
    `${f1.render.toFixed(1)} frames/s (headless chromium, software WebGL)`);
  if (!kernel) console.log('note: no verlet kernel in this build; measured with the scene\'s own kernel');
  // measured and reported, never asserted (STYLE 13: no timed assertions)
  check(fps > 0, 'frames keep arriving while the rate is measured');
  await page.screenshot({ path: path.join(outDir, '7-running.png') });

  const serverErrors = await V((k) => clothViewer.errors.slice(0, k), errorsBefore);
  check(serverErrors.length === 0, `no error replies before the blow-up (${serverErrors.join('; ')})`);
  check(pageErrors.length === 0, `no errors in the page (${pageErrors.join('; ')})`);

  // the same settings without a page that draws (software WebGL shares the 2 cores):
  // a bare WebSocket client counts the frames the server delivers
  await page.close();
  const bare = await browser.context.newPage();
  await bare.goto(`${server.url}no-such-page`);
  const alone = await bare.evaluate(async () => {
    const ws = new WebSocket(`ws://${location.host}/`, 'cloth');
    const seen = new Set();
    let wall = 0;
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      const m = JSON.parse(ev.data);
      if (m.type === 'frame' && !seen.has(m.frame)) { seen.add(m.frame); wall += m.wall_ms; }
    };
    await new Promise((r) => { ws.onopen = r; });
    await new Promise((r) => setTimeout(r, 1000));
    const n0 = seen.size, w0 = wall, t0 = performance.now();
    await new Promise((r) => setTimeout(r, 4000));
    const fps = (1000 * (seen.size - n0)) / (performance.now() - t0);
    ws.close();
    return { fps, wall: (wall - w0) / Math.max(1, seen.size - n0) };
  });
  console.log(`frame rate without drawing: ${alone.fps.toFixed(1)} frames/s delivered, kernel time ` +
    `${alone.wall.toFixed(2)} ms/frame`);
  check(alone.fps > 0, 'a client that does not draw gets frames too');

  // newton on the same scene (2070 unknowns, PCG as the viewer sets it): frames per second and the kernel's
  // time per frame, reported (measured, never asserted beyond frames arriving)
  const withNewton = await bare.evaluate(async () => {
    const ws = new WebSocket(`ws://${location.host}/`, 'cloth');
    const seen = new Set();
    let wall = 0, kernel = '', error = '';
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      const m = JSON.parse(ev.data);
      if (m.type === 'state' && m.params) kernel = m.params.kernel;
      if (m.type === 'error') error = m.message;
      if (m.type === 'frame' && kernel === 'newton' && !seen.has(m.frame)) {
        seen.add(m.frame); wall += m.wall_ms;
      }
    };
    await new Promise((r) => { ws.onopen = r; });
    // the scene as it is written (earlier checks moved the wind), newton's own 50
    // iterations at most, from the initial shape
    ws.send(JSON.stringify({ type: 'set', name: 'wind_z', value: 2 }));
    ws.send(JSON.stringify({ type: 'set', name: 'wind_x', value: 0 }));
    ws.send(JSON.stringify({ type: 'set', name: 'substeps', value: 1 }));
    ws.send(JSON.stringify({ type: 'set', name: 'kernel', value: 'newton' }));
    ws.send(JSON.stringify({ type: 'set', name: 'iterations', value: 50 }));
    ws.send(JSON.stringify({ type: 'reset' }));
    await new Promise((r) => setTimeout(r, 2000));
    const n0 = seen.size, w0 = wall, t0 = performance.now();
    await new Promise((r) => setTimeout(r, 5000));
    const fps = (1000 * (seen.size - n0)) / (performance.now() - t0);
    ws.close();
    return { fps, kernel, error, wall: (wall - w0) / Math.max(1, seen.size - n0) };
  });
  console.log(`frame rate with newton: ${withNewton.fps.toFixed(1)} frames/s delivered, kernel ` +
    `time ${withNewton.wall.toFixed(2)} ms/frame (30 x 24 hanging scene, 2070 unknowns, ` +
    `newton.solver = pcg (its interactive_set), one step a frame, wind as in the scene, from the initial shape)`);
  check(withNewton.kernel === 'newton', `the viewer switched to newton (${withNewton.error})`);
  check(withNewton.fps > 0, 'newton frames keep arriving');
} catch (e) {
  failed = e;
} finally {
  await browser.close();
  const { code, signal } = await server.stop();
  if (!failed && code !== 0) failed = new Error(`cloth serve exited with ${code} ${signal}: ${server.output().err}`);
}
if (failed) {
  console.error(failed.message);
  console.error(`screenshots so far in ${outDir}`);
  process.exit(1);
}
console.log(`check-web: all passed; screenshots in ${path.relative(root, outDir)}/`);
