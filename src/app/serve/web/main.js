// The page of `cloth serve`: draws the frames the C kernels stream, sends the controls,
// and turns a left-drag into camera rays for the library's picking (the mass-spring cloth paper).
// Protocol: see src/app/serve/commands.h.  With an [avatar] the body's surface comes in
// every binary frame after the cloth's; a left-drag that starts on a hand or a foot
// pulls it, and the server poses the body by CCD IK (cloth_avatar_ik).
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import GUI from 'lil-gui';

const statusEl = document.getElementById('status');
const errorEl = document.getElementById('error');
const plotEl = document.getElementById('plot');

// ------------------------------------------------------------------ three.js scene
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio);
renderer.setSize(window.innerWidth, window.innerHeight);
document.getElementById('view').appendChild(renderer.domElement);

const scene = new THREE.Scene();
scene.background = new THREE.Color(0x1d2026);
const camera = new THREE.PerspectiveCamera(45, window.innerWidth / window.innerHeight, 0.01, 200);
scene.add(new THREE.HemisphereLight(0xddeeff, 0x303030, 1.2));
const sun = new THREE.DirectionalLight(0xffffff, 2.0);
sun.position.set(3, 6, 5);
scene.add(sun);
const grid = new THREE.GridHelper(10, 20, 0x444444, 0x333333);
scene.add(grid);

const controls = new OrbitControls(camera, renderer.domElement);
controls.mouseButtons = { LEFT: null, MIDDLE: THREE.MOUSE.DOLLY, RIGHT: THREE.MOUSE.ROTATE };
controls.enablePan = false;
renderer.domElement.addEventListener('contextmenu', (e) => e.preventDefault());

const clothMaterial = new THREE.MeshStandardMaterial({
  color: 0xc8553d, roughness: 0.8, metalness: 0.0, side: THREE.DoubleSide,
});
const sphereMesh = new THREE.Mesh(new THREE.SphereGeometry(1, 48, 24),
  new THREE.MeshStandardMaterial({ color: 0x4f8fc0, roughness: 0.5 }));
sphereMesh.visible = false;
scene.add(sphereMesh);
const barMesh = new THREE.Mesh(new THREE.CylinderGeometry(1, 1, 1, 16),
  new THREE.MeshStandardMaterial({ color: 0x999999, metalness: 0.6, roughness: 0.3 }));
barMesh.visible = false;
scene.add(barMesh);
const pinGeometry = new THREE.SphereGeometry(1, 12, 8);
const pinMaterial = new THREE.MeshStandardMaterial({ color: 0xeeeeee });
let pinMarkers = null;
const grabMarker = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 8),
  new THREE.MeshStandardMaterial({ color: 0xffdd33, emissive: 0x664400 }));
grabMarker.visible = false;
scene.add(grabMarker);
// Lambert shading: the body has ten thousand triangles, and a browser without a GPU
// (software WebGL) draws it noticeably faster than with the cloth's physical material
const bodyMaterial = new THREE.MeshLambertMaterial({ color: 0xb9a58f });
let bodyMesh = null;
const effectorMaterial = new THREE.MeshStandardMaterial({ color: 0x55ccff, emissive: 0x113344 });
const heldMaterial = new THREE.MeshStandardMaterial({ color: 0xffdd33, emissive: 0x664400 });
let effectorMarkers = [];

// ---------------------------------------------------------------------- state
const viewer = {            // also the browser test's window onto the page
  hello: null,              // the server's hello (mesh, kernels, ...)
  state: null,              // the latest state message
  positions: null,          // Float32Array 3n of the latest frame
  sphere: null,             // [cx, cy, cz, r]
  metrics: null,            // the latest frame's metrics
  binaryFrames: 0,          // binary frames received
  simFrames: 0,             // frames with a new frame number
  fps: 0,                   // simulated frames per second received, over the last second
  renderFps: 0,             // frames drawn per second by the browser
  shownFrames: 0,           // draws that showed a binary frame not drawn before
  errors: [],               // error messages from the server
  grabbed: -1,
  body: null,               // Float32Array 3 body.n: the body's surface in the latest frame
  effectors: {},            // joint name -> [x, y, z] of the ends a drag may pull
  ikJoint: null,            // the joint this page holds, or null
  connected: false,
};
window.clothViewer = viewer;
viewer.send = (msg) => send(msg);

let clothMesh = null;
let freshFrame = false;     // a binary frame arrived since the last draw
let ws = null;
const history = [];         // [stretch_max, drift] per frame for the plot
const HISTORY = 300;

// ----------------------------------------------------------------- connection
function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/`, 'cloth');
  ws.binaryType = 'arraybuffer';
  ws.onopen = () => { viewer.connected = true; };
  ws.onclose = () => {
    viewer.connected = false;
    statusEl.textContent = 'disconnected — is `cloth serve` running? retrying…';
    setTimeout(connect, 1000);
  };
  ws.onmessage = (ev) => {
    if (typeof ev.data !== 'string') return onFrame(new Float32Array(ev.data));
    const msg = JSON.parse(ev.data);
    if (msg.type === 'hello') onHello(msg);
    else if (msg.type === 'state') onState(msg);
    else if (msg.type === 'frame') onMetrics(msg);
    else if (msg.type === 'grab') { viewer.grabbed = msg.vertex; viewer.ikJoint = msg.joint ?? null; }
    else if (msg.type === 'error') showError(msg.message);
  };
}

let errorTimer = null;
function showError(text) {
  viewer.errors.push(text);
  errorEl.textContent = text;
  errorEl.style.display = 'block';
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { errorEl.style.display = 'none'; }, 4000);
}

// --------------------------------------------------------------- the cloth
function onHello(msg) {
  viewer.hello = msg;
  if (clothMesh) { scene.remove(clothMesh); clothMesh.geometry.dispose(); }
  const geometry = new THREE.BufferGeometry();
  const pos = new Float32Array(msg.rest);
  geometry.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  geometry.setIndex(msg.triangles);
  geometry.computeVertexNormals();
  clothMesh = new THREE.Mesh(geometry, clothMaterial);
  scene.add(clothMesh);
  viewer.positions = pos.slice();

  // frame the rest shape: look at its centre from the front, a little above and aside
  geometry.computeBoundingSphere();
  const { center, radius } = geometry.boundingSphere;
  controls.target.copy(center);
  camera.position.set(center.x + 0.9 * radius, center.y + 0.5 * radius, center.z + 2.6 * radius);
  controls.update();
  grid.position.y = center.y - 1.6 * radius;

  buildBody(msg);
  buildGui(msg);
  onState(msg);
}

// The avatar's surface (positions from the frames) and a marker on each end a drag may
// pull; the camera frames the whole body on the first frame that has it.
let frameBody = false;
function buildBody(msg) {
  if (bodyMesh) { scene.remove(bodyMesh); bodyMesh.geometry.dispose(); bodyMesh = null; }
  effectorMarkers.forEach((m) => scene.remove(m));
  effectorMarkers = [];
  viewer.body = null;
  viewer.effectors = {};
  if (!msg.body) return;
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * msg.body.n), 3));
  geometry.setIndex(msg.body.triangles);
  bodyMesh = new THREE.Mesh(geometry, bodyMaterial);
  bodyMesh.frustumCulled = false; // no bounding sphere to recompute every frame
  bodyMesh.visible = false;
  scene.add(bodyMesh);
  for (const name of msg.effectors) {
    const m = new THREE.Mesh(new THREE.SphereGeometry(0.045, 16, 8), effectorMaterial);
    m.name = name;
    scene.add(m);
    effectorMarkers.push(m);
  }
  frameBody = true;
  document.getElementById('help').textContent = msg.replay ? document.getElementById('help').textContent
    : 'left-drag: pull the cloth, or a hand or foot (blue) to pose the body · right-drag: orbit · wheel: zoom';
}

function updateBody(data, offset) {
  const h = viewer.hello;
  if (!bodyMesh) return;
  viewer.body = data.subarray(offset, offset + 3 * h.body.n);
  const attr = bodyMesh.geometry.getAttribute('position');
  attr.array.set(viewer.body);
  attr.needsUpdate = true;
  bodyMesh.geometry.computeVertexNormals();
  bodyMesh.visible = true;
  let at = offset + 3 * h.body.n;
  const held = viewer.state ? viewer.state.ik_joint : null;
  h.effectors.forEach((name, e) => {
    const p = Array.from(data.subarray(at + 3 * e, at + 3 * e + 3));
    viewer.effectors[name] = p;
    effectorMarkers[e].position.set(p[0], p[1], p[2]);
    effectorMarkers[e].material = name === held ? heldMaterial : effectorMaterial;
  });
  if (frameBody) {
    // the body and the cloth in view, from the front and a little above
    frameBody = false;
    const box = new THREE.Box3().setFromBufferAttribute(attr);
    box.union(new THREE.Box3().setFromBufferAttribute(clothMesh.geometry.getAttribute('position')));
    const center = box.getCenter(new THREE.Vector3());
    const size = box.getSize(new THREE.Vector3());
    const radius = 0.5 * Math.max(size.x, size.y, size.z);
    controls.target.copy(center);
    camera.position.set(center.x + 0.9 * radius, center.y + 0.35 * radius, center.z + 3.0 * radius);
    controls.update();
    grid.position.y = box.min.y;
  }
}

function onFrame(data) {
  if (!viewer.hello) return;
  const n = viewer.hello.n;
  for (let i = 0; i < 3 * n; i++) if (!(Math.abs(data[i]) < 1e4)) return; // not drawable
  viewer.binaryFrames++;
  freshFrame = true;
  viewer.positions = data.subarray(0, 3 * n);
  viewer.sphere = Array.from(data.subarray(3 * n, 3 * n + 4));
  const attr = clothMesh.geometry.getAttribute('position');
  attr.array.set(viewer.positions);
  attr.needsUpdate = true;
  clothMesh.geometry.computeVertexNormals();
  clothMesh.geometry.computeBoundingSphere();
  const [cx, cy, cz, r] = viewer.sphere;
  sphereMesh.visible = r > 0;
  sphereMesh.position.set(cx, cy, cz);
  sphereMesh.scale.setScalar(Math.max(r, 1e-3));
  updateBody(data, 3 * n + 4);
  updatePins();
}

// The bar through the pinned top row, a small ball on every other pin, and the grab.
function updatePins() {
  const st = viewer.state, h = viewer.hello, p = viewer.positions;
  if (!st || !h || !p) return;
  const pins = st.pins;
  const rest = h.rest;
  const spacing = h.nx > 1 ? Math.hypot(rest[3] - rest[0], rest[4] - rest[1], rest[5] - rest[2]) : 0.1;
  const top = h.nx > 1 ? pins.filter((i) => i < h.nx) : [];
  if (top.length >= 2) {
    const a = new THREE.Vector3(p[3 * top[0]], p[3 * top[0] + 1], p[3 * top[0] + 2]);
    const b = new THREE.Vector3(p[3 * top.at(-1)], p[3 * top.at(-1) + 1], p[3 * top.at(-1) + 2]);
    const len = a.distanceTo(b) + spacing;
    barMesh.visible = true;
    barMesh.position.copy(a).add(b).multiplyScalar(0.5);
    barMesh.scale.set(0.15 * spacing, len, 0.15 * spacing);
    barMesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), b.clone().sub(a).normalize());
  } else {
    barMesh.visible = false;
  }
  const others = top.length >= 2 ? pins.filter((i) => i >= h.nx) : pins;
  if (!pinMarkers || pinMarkers.count !== others.length) {
    if (pinMarkers) scene.remove(pinMarkers);
    pinMarkers = new THREE.InstancedMesh(pinGeometry, pinMaterial, Math.max(others.length, 1));
    pinMarkers.count = others.length;
    scene.add(pinMarkers);
  }
  const m = new THREE.Matrix4();
  others.forEach((i, k) => {
    m.makeScale(0.3 * spacing, 0.3 * spacing, 0.3 * spacing);
    m.setPosition(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    pinMarkers.setMatrixAt(k, m);
  });
  pinMarkers.instanceMatrix.needsUpdate = true;
  const g = st.grabbed;
  grabMarker.visible = g >= 0;
  if (g >= 0) {
    grabMarker.position.set(p[3 * g], p[3 * g + 1], p[3 * g + 2]);
    grabMarker.scale.setScalar(0.35 * spacing);
  }
}

// ------------------------------------------------------------------ metrics
let fpsWindowStart = performance.now(), fpsWindowFrames = 0;
function onMetrics(msg) {
  if (viewer.metrics && msg.frame < viewer.metrics.frame) history.length = 0; // a reset
  if (!viewer.metrics || msg.frame !== viewer.metrics.frame) {
    viewer.simFrames++;
    fpsWindowFrames++;
    history.push([msg.stretch_max, msg.drift]);
    if (history.length > HISTORY) history.shift();
  }
  viewer.metrics = msg;
  if (viewer.hello && viewer.hello.replay) showReplayFrame(msg.frame);
  const now = performance.now();
  if (now - fpsWindowStart >= 1000) {
    viewer.fps = (1000 * fpsWindowFrames) / (now - fpsWindowStart);
    fpsWindowStart = now;
    fpsWindowFrames = 0;
  }
  const st = viewer.state;
  statusEl.textContent =
    `${viewer.hello?.replay ? 'replay' : st ? st.params.kernel : ''} · frame ${msg.frame} · t = ${(msg.time ?? 0).toFixed(2)} s · ` +
    `${viewer.fps.toFixed(1)} frames/s${msg.frozen ? ' (frozen)' : ''}\n` +
    `kernel ${(msg.wall_ms ?? 0).toFixed(2)} ms/frame · ${msg.iterations} iterations/frame · ` +
    `max stretch ${fmtPct(msg.stretch_max)} · drift ${fmt(msg.drift)}`;
  drawPlot();
}

// The slider follows the frame shown, unless the user is moving it.
function showReplayFrame(k) {
  if (!ctl.frame || replay.frame === k || ctl.frame.domElement.contains(document.activeElement)) return;
  replay.frame = k;
  ctl.frame.updateDisplay();
}

const fmt = (v) => (v === null || v === undefined ? '—' : v.toExponential(2));
const fmtPct = (v) => (v === null || v === undefined ? '—' : `${(100 * v).toFixed(2)} %`);

// Max stretch (%) and energy drift over the last HISTORY frames, each on its own scale.
function drawPlot() {
  const ctx = plotEl.getContext('2d');
  const W = plotEl.width, H = plotEl.height, pad = 16, top = 34;
  ctx.clearRect(0, 0, W, H);
  const series = [
    { i: 0, color: '#ffb347', label: 'max stretch' },
    { i: 1, color: '#6ec6ff', label: 'energy drift' },
  ];
  series.forEach((s, k) => {
    const vals = history.map((h) => h[s.i]).filter((v) => v !== null && Number.isFinite(v));
    if (!vals.length) return;
    let lo = Math.min(0, ...vals), hi = Math.max(0, ...vals);
    if (hi - lo < 1e-12) hi = lo + 1e-12;
    ctx.strokeStyle = s.color;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    history.forEach((h, x) => {
      const v = h[s.i];
      if (v === null || !Number.isFinite(v)) return;
      const px = pad + ((W - 2 * pad) * x) / (HISTORY - 1);
      const py = H - pad - ((H - pad - top) * (v - lo)) / (hi - lo);
      if (x === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
    });
    ctx.stroke();
    ctx.fillStyle = s.color;
    const last = vals.at(-1);
    const text = s.i === 0 ? `${s.label} ${fmtPct(last)} (max ${fmtPct(hi)})`
      : `${s.label} ${fmt(last)} [${fmt(lo)}, ${fmt(hi)}]`;
    ctx.fillText(text, pad, 12 + 12 * k);
  });
  ctx.fillStyle = '#888';
  ctx.fillText(`last ${HISTORY} frames`, W - 90, H - 4);
}

// ---------------------------------------------------------------------- GUI
let gui = null;
const params = {};
const ctl = {};
const pinFlags = {};
const actions = {
  Reset: () => send({ type: 'reset' }),
  Freeze: () => send({ type: 'freeze', on: !(viewer.state && viewer.state.frozen) }),
};

// A replay (cloth serve --replay DIR): Play/Pause and the frame slider only.
const replay = { frame: 0 };
function buildReplayGui(h) {
  gui = new GUI({ title: 'clothbench replay' });
  ctl.play = gui.add({ Play: () => send({ type: 'play', on: !viewer.state?.playback?.playing }) }, 'Play');
  ctl.frame = gui.add(replay, 'frame', 0, h.replay.frames - 1, 1).name('Frame')
    .onChange((k) => send({ type: 'seek', frame: k }));
  document.getElementById('help').textContent =
    `replay: ${h.replay.frames} frames at ${h.replay.fps.toFixed(0)} frames/s · right-drag: orbit · wheel: zoom`;
}

function buildGui(h) {
  if (gui) gui.destroy();
  if (h.replay) return buildReplayGui(h);
  gui = new GUI({ title: 'clothbench' });
  Object.assign(params, h.params);
  const set = (name) => (value) => send({ type: 'set', name, value });
  ctl.gravity = gui.add(params, 'gravity', 0, 30, 0.01).name('Gravity').onChange(set('gravity'));
  ctl.wind_x = gui.add(params, 'wind_x', -15, 15, 0.1).name('Wind X').onChange(set('wind_x'));
  ctl.wind_z = gui.add(params, 'wind_z', -15, 15, 0.1).name('Wind Z').onChange(set('wind_z'));
  ctl.stiffness = gui.add(params, 'stiffness', 0.1, 3, 0.01).name('Stiffness').onChange(set('stiffness'));
  ctl.damping = gui.add(params, 'damping', 0, 0.05, 0.0005).name('Damping').onChange(set('damping'));
  if (params.sphere_radius === null) params.sphere_radius = 0;
  ctl.sphere_radius = gui.add(params, 'sphere_radius', 0.05, 1.5, 0.01).name('Sphere radius')
    .onChange(set('sphere_radius'));
  if (h.params.sphere_radius === null) ctl.sphere_radius.disable();
  ctl.kernel = gui.add(params, 'kernel', h.kernels).name('Kernel').onChange(set('kernel'));
  ctl.substeps = gui.add(params, 'substeps', 1, 40, 1).name('Substeps').onChange(set('substeps'));
  if (params.iterations === null) params.iterations = 1;
  ctl.iterations = gui.add(params, 'iterations', 1, 60, 1).name('Iterations').onChange(set('iterations'));
  ctl.reset = gui.add(actions, 'Reset');
  ctl.freeze = gui.add(actions, 'Freeze');
  if (h.nx > 1 && h.ny > 1) {
    const pf = gui.addFolder('Pins');
    const corners = {
      'top left': [0], 'top right': [h.nx - 1],
      'bottom left': [(h.ny - 1) * h.nx], 'bottom right': [h.ny * h.nx - 1],
      'bar (top row)': [...Array(h.nx).keys()],
    };
    for (const [name, verts] of Object.entries(corners)) {
      pinFlags[name] = false;
      ctl['pin ' + name] = pf.add(pinFlags, name).onChange((on) => {
        for (const v of verts) send({ type: 'pin', vertex: v, on });
      });
      ctl['pin ' + name].verts = verts;
    }
  }
}

// Controls follow the server's values (after Reset, a kernel switch, another page).
function onState(msg) {
  viewer.state = msg;
  if (msg.ik_joint === null) viewer.ikJoint = null;
  if (msg.playback) {
    if (ctl.play) ctl.play.name(msg.playback.playing ? 'Pause' : 'Play');
    showReplayFrame(msg.playback.frame);
    return updatePins();
  }
  if (msg.diverged) showError('the run diverged: press Reset (and lower Stiffness or raise Substeps)');
  for (const k of Object.keys(msg.params)) {
    if (!ctl[k] || msg.params[k] === null) continue;
    if (params[k] !== msg.params[k]) { params[k] = msg.params[k]; ctl[k].updateDisplay(); }
  }
  if (ctl.iterations) {
    if (msg.params.iterations === null) ctl.iterations.disable(); else ctl.iterations.enable();
  }
  if (ctl.freeze) ctl.freeze.name(msg.frozen ? 'Resume' : 'Freeze');
  const pinned = new Set(msg.pins);
  for (const name of Object.keys(pinFlags)) {
    const c = ctl['pin ' + name];
    const on = c.verts.every((v) => pinned.has(v));
    if (pinFlags[name] !== on) { pinFlags[name] = on; c.updateDisplay(); }
  }
  updatePins();
}

// ----------------------------------------------------------------- dragging
// Left-drag: the camera ray under the mouse goes to the server, which picks the vertex
// (cloth_pick_ray) and moves it along P2 = P1 + (dir2 - dir1) dist (cloth_drag_point).
const raycaster = new THREE.Raycaster();
function rayAt(ev) {
  const rect = renderer.domElement.getBoundingClientRect();
  const ndc = new THREE.Vector2(((ev.clientX - rect.left) / rect.width) * 2 - 1,
    -((ev.clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  const { origin, direction } = raycaster.ray;
  return { origin: origin.toArray(), dir: direction.toArray() };
}
let dragging = false, pendingDrag = null;
renderer.domElement.addEventListener('pointerdown', (ev) => {
  if (ev.button !== 0 || (viewer.hello && viewer.hello.replay)) return;
  dragging = true;
  renderer.domElement.setPointerCapture(ev.pointerId);
  send({ type: 'grab', ...rayAt(ev) });
});
renderer.domElement.addEventListener('pointermove', (ev) => {
  if (dragging) pendingDrag = rayAt(ev);
});
const endDrag = (ev) => {
  // pointercancel and a lost capture carry no button: they end the drag as well
  if (!dragging || (ev.type === 'pointerup' && ev.button !== 0)) return;
  dragging = false;
  if (pendingDrag) { send({ type: 'drag', ...pendingDrag }); pendingDrag = null; }
  send({ type: 'release' });
  viewer.grabbed = -1;
  viewer.ikJoint = null;
};
renderer.domElement.addEventListener('pointerup', endDrag);
renderer.domElement.addEventListener('pointercancel', endDrag);
renderer.domElement.addEventListener('lostpointercapture', endDrag);

// The screen position (CSS pixels) of vertex i, for the browser test.
viewer.project = (i) => {
  const p = viewer.positions;
  const v = new THREE.Vector3(p[3 * i], p[3 * i + 1], p[3 * i + 2]).project(camera);
  const rect = renderer.domElement.getBoundingClientRect();
  return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
};

// The screen position (CSS pixels) of a world point, for the browser test.
viewer.projectPoint = (q) => {
  const v = new THREE.Vector3(q[0], q[1], q[2]).project(camera);
  const rect = renderer.domElement.getBoundingClientRect();
  return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
};

// The point under screen position (x, y) as far from the camera as world point p (what
// the server drags a held point to, cloth_drag_point with a still camera), for the test.
viewer.pointUnder = (x, y, p) => {
  const { origin, dir } = rayAt({ clientX: x, clientY: y });
  const d = Math.hypot(p[0] - origin[0], p[1] - origin[1], p[2] - origin[2]);
  return [0, 1, 2].map((k) => origin[k] + d * dir[k]);
};

// The camera's position and distance to its target, for the browser test.
viewer.camera = () => ({ position: camera.position.toArray(),
  distance: camera.position.distanceTo(controls.target) });

// ------------------------------------------------------------------ the loop
window.addEventListener('resize', () => {
  camera.aspect = window.innerWidth / window.innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(window.innerWidth, window.innerHeight);
});
let renderStart = performance.now(), renderCount = 0;
renderer.setAnimationLoop(() => {
  renderCount++;
  const now = performance.now();
  if (now - renderStart >= 1000) {
    viewer.renderFps = (1000 * renderCount) / (now - renderStart);
    renderStart = now;
    renderCount = 0;
  }
  if (pendingDrag) { send({ type: 'drag', ...pendingDrag }); pendingDrag = null; }
  controls.update();
  renderer.render(scene, camera);
  if (freshFrame) { viewer.shownFrames++; freshFrame = false; }
});

// Puts the camera at position looking at target, for screenshots.
viewer.setCamera = (position, target) => {
  controls.target.set(...target);
  camera.position.set(...position);
  controls.update();
};
connect();
