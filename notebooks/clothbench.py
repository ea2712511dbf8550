"""clothbench from Python: the C library (build/libcloth.so, or an installed copy) through
ctypes.

    import clothbench as cb
    sim = cb.Sim("../experiments/hanging.ini", **{"run.kernel": "explicit"})
    x = sim.positions          # an (n, 3) numpy view of the library's own buffer
    frame = sim.step()         # one frame; a dict of the metrics of series.csv
    series = sim.run(100)      # 100 frames; a dict of numpy arrays, one per column

Overrides are "section.key" = value pairs, exactly the keys of `cloth list` and of the
scene files.  Errors from the library raise ClothError with the library's message
("FILE:LINE: key: what is wrong").  Positions and velocities are views, not copies: a
step changes them in place, and writing to them changes the simulation.
"""

import collections
import ctypes
import ctypes.util
import os
import subprocess

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
_BUILD_LIB = os.path.join(_HERE, "..", "build", "libcloth.so")

MSG_MAX = 512
NAME_MAX = 32
# cloth_table of cloth.h: the files whose rows are structs; TABLE_LOG + i is kernel i's
# iteration log (log_table)
TABLE_SERIES, TABLE_SUMMARY, TABLE_LOG = 0, 1, 2


class ClothError(Exception):
    """An error reported by the library, with its message."""


class _Mesh(ctypes.Structure):
    """The leading fields of struct cloth_mesh that Python reads."""
    _fields_ = [("n", ctypes.c_int), ("rest", ctypes.POINTER(ctypes.c_double)),
                ("x0", ctypes.POINTER(ctypes.c_double)),
                ("mass", ctypes.POINTER(ctypes.c_double)),
                ("inv_mass", ctypes.POINTER(ctypes.c_double)),
                ("pinned", ctypes.POINTER(ctypes.c_ubyte)), ("n_pinned", ctypes.c_int),
                ("n_springs", ctypes.c_int), ("springs", ctypes.c_void_p),
                ("family_count", ctypes.c_int * 3), ("n_tris", ctypes.c_int),
                ("tris", ctypes.POINTER(ctypes.c_int)), ("n_hinges", ctypes.c_int),
                ("hinges", ctypes.POINTER(ctypes.c_int)), ("nx", ctypes.c_int),
                ("ny", ctypes.c_int), ("rest_diag", ctypes.c_double),
                ("area", ctypes.c_double), ("layers", ctypes.c_int)]


def _find_library(build_lib=_BUILD_LIB, environ=os.environ):
    """The library to load, first found of: $CLOTHBENCH_LIB (or its older name $CLOTH_LIB),
    the build tree's, libcloth.so.2 in the libdir of pkg-config's clothbench (`make
    install`; PKG_CONFIG_PATH as for a C program), and what the dynamic loader finds
    (ldconfig's cache, LD_LIBRARY_PATH).  None when there is none."""
    for var in ("CLOTHBENCH_LIB", "CLOTH_LIB"):
        if environ.get(var):
            return environ[var]
    if os.path.exists(build_lib):
        return build_lib
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "clothbench"],
                                capture_output=True, text=True, env=dict(environ),
                                check=True).stdout.strip()
        for name in ("libcloth.so.2", "libcloth.so"):
            if libdir and os.path.exists(os.path.join(libdir, name)):
                return os.path.join(libdir, name)
    except (OSError, subprocess.CalledProcessError):
        pass
    return ctypes.util.find_library("cloth")


def _load_library(path=None):
    path = path or _find_library()
    if path is None:
        raise ClothError("libcloth not found: build it with 'make' at the top of the project, "
                         "install it with 'make install', or set CLOTHBENCH_LIB to its path")
    if os.path.sep in path and not os.path.exists(path):
        raise ClothError(f"{path} not found: build it with 'make' at the top of the project")
    lib = ctypes.CDLL(path)
    P, I, D = ctypes.c_void_p, ctypes.c_int, ctypes.c_double
    S = ctypes.c_char_p
    sigs = {
        "cloth_scene_size": (ctypes.c_size_t, []),
        "cloth_default_scene": (None, [P]),
        "cloth_scene_load": (I, [S, P, P]),
        "cloth_scene_set": (I, [P, S, I, P]),
        "cloth_sim_create": (I, [P, ctypes.POINTER(P), P]),
        "cloth_sim_destroy": (None, [P]),
        "cloth_sim_reset": (None, [P]),
        "cloth_sim_frame": (I, [P, P, P]),          # a cloth_frame: _Frame below
        "cloth_sim_measure": (None, [P, P]),
        "cloth_sim_positions": (ctypes.POINTER(D), [P]),
        "cloth_sim_velocities": (ctypes.POINTER(D), [P]),
        "cloth_sim_mesh": (ctypes.POINTER(_Mesh), [P]),
        "cloth_sim_time": (D, [P]),
        "cloth_sim_scene": (P, [P]),
        "cloth_scene_get": (I, [P, S, ctypes.c_char_p, ctypes.c_size_t, P]),
        "cloth_sim_log": (I, [P, ctypes.POINTER(P)]),  # cloth_iter rows: log_table
        "cloth_kernel_count": (I, []),
        "cloth_kernel_find": (I, [S]),
        "cloth_kernel_name": (S, [I]),
        "cloth_kernel_summary": (S, [I]),
        "cloth_table_file": (S, [I]),
        "cloth_table_row_size": (ctypes.c_size_t, [I]),
        "cloth_table_fields": (I, [I]),
        "cloth_table_columns": (I, [I]),
        "cloth_field_name": (S, [I, I]),
        "cloth_field_type": (I, [I, I]),
        "cloth_field_offset": (ctypes.c_size_t, [I, I]),
        "cloth_field_size": (ctypes.c_size_t, [I, I]),
        "cloth_field_present": (I, [I, I]),
        "cloth_field_meaning": (S, [I, I]),
        "cloth_ccd_point_triangle": (I, [ctypes.POINTER(D)] * 8 + [D, ctypes.POINTER(D)]),
        "cloth_ccd_edge_edge": (I, [ctypes.POINTER(D)] * 8 + [D, ctypes.POINTER(D)]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


_lib = _load_library()


# ------------------------------------------------------------------ row structs
# The rows of series.csv, summary.csv and a kernel's iteration log are the structs
# cloth_frame, cloth_summary and cloth_iter; the library lists their fields (name, type,
# offset, size; a log's are the kernel's columns) and we build the ctypes structs from
# that list, so no layout is copied here.

Field = collections.namedtuple("Field", "name type offset size present meaning column")

# cloth_value_type of cloth.h; a name (3) is char[size]; a run status (4) is an int
_VALUE_NAME = 3
_VALUE_CTYPES = {0: ctypes.c_int, 1: ctypes.c_long, 2: ctypes.c_double, 4: ctypes.c_int}


def table_fields(table):
    """The fields of a table's row struct as the library lists them: the file's columns
    first (column=True), in file order, then the fields only the struct has."""
    columns = _lib.cloth_table_columns(table)
    return [Field(_lib.cloth_field_name(table, i).decode(), _lib.cloth_field_type(table, i),
                  _lib.cloth_field_offset(table, i), _lib.cloth_field_size(table, i),
                  _lib.cloth_field_present(table, i),
                  _lib.cloth_field_meaning(table, i).decode(), i < columns)
            for i in range(_lib.cloth_table_fields(table))]


def _row_struct(table, name):
    """A ctypes.Structure with every field of the table at the library's offset (explicit
    padding between fields) and the library's size."""
    layout, end = [], 0
    for f in sorted(table_fields(table), key=lambda f: f.offset):
        if f.offset > end:
            layout.append((f"_pad{end}", ctypes.c_ubyte * (f.offset - end)))
        ctype = ctypes.c_char * f.size if f.type == _VALUE_NAME else _VALUE_CTYPES[f.type]
        layout.append((f.name, ctype))
        end = f.offset + f.size
    size = _lib.cloth_table_row_size(table)
    if size > end:
        layout.append((f"_pad{end}", ctypes.c_ubyte * (size - end)))
    return type(name, (ctypes.Structure,), {"_fields_": layout})


_Frame = _row_struct(TABLE_SERIES, "_Frame")
SERIES_COLUMNS = tuple(f.name for f in table_fields(TABLE_SERIES) if f.column)
SUMMARY_COLUMNS = tuple(f.name for f in table_fields(TABLE_SUMMARY) if f.column)


def log_table(kernel):
    """The table of a kernel's iteration log (TABLE_LOG + its index): its columns are
    table_fields(log_table(kernel)), none for a kernel without a log."""
    i = _lib.cloth_kernel_find(kernel.encode())
    if i < 0:
        raise ClothError(f"{kernel}: no such kernel (kernels() lists them)")
    return TABLE_LOG + i


def log_file(kernel):
    """The file a run writes the kernel's iteration log to ("newton.csv"), or None."""
    name = _lib.cloth_table_file(log_table(kernel))
    return name.decode() if name else None


def log_columns(kernel):
    """The columns of the kernel's iteration log, in file order (empty without a log)."""
    return tuple(f.name for f in table_fields(log_table(kernel)) if f.column)


def _row_reader(table):
    """row -> dict of every field but the presence flags; a value whose flag is 0 is NaN
    (the empty field of the CSV file)."""
    fields = table_fields(table)
    flags = {f.present for f in fields if f.present >= 0}
    keep = [(f.name, fields[f.present].name if f.present >= 0 else None)
            for i, f in enumerate(fields) if i not in flags]

    def read(row):
        return {name: getattr(row, name) if flag is None or getattr(row, flag)
                else float("nan") for name, flag in keep}
    return read


_frame_dict = _row_reader(TABLE_SERIES)
_logs = {}  # kernel -> (row struct, row reader) of its log, built on first use


def _log_reader(kernel):
    if kernel not in _logs:
        t = log_table(kernel)
        _logs[kernel] = (_row_struct(t, "_Iter_" + kernel), _row_reader(t))
    return _logs[kernel]


def kernels():
    """The kernels of this build: {name: one-line summary}."""
    return {_lib.cloth_kernel_name(i).decode(): _lib.cloth_kernel_summary(i).decode()
            for i in range(_lib.cloth_kernel_count())}


def _ccd(fn, start, end, dmin):
    pts = [np.ascontiguousarray(p, dtype=np.float64).reshape(3) for p in (*start, *end)]
    toi = ctypes.c_double()
    hit = fn(*[p.ctypes.data_as(ctypes.POINTER(ctypes.c_double)) for p in pts], float(dmin),
             ctypes.byref(toi))
    if hit < 0:
        raise ClothError("ccd: dmin must be finite and >= 0, and every coordinate finite")
    return bool(hit), toi.value


def ccd_point_triangle(start, end, dmin=0.0):
    """Continuous collision detection of a point p and a triangle (a, b, c), each vertex
    moving on a straight line from start = (p, a, b, c) at t = 0 to end = (p, a, b, c) at
    t = 1 (cloth_ccd_point_triangle of cloth.h: additive CCD).  Returns (hit, toi): hit
    when the distance may come within dmin during the motion, and toi, a time up to which
    it provably stays above dmin (1 without a hit)."""
    return _ccd(_lib.cloth_ccd_point_triangle, start, end, dmin)


def ccd_edge_edge(start, end, dmin=0.0):
    """The same for an edge (a, b) and an edge (c, d): start and end are (a, b, c, d)
    (cloth_ccd_edge_edge)."""
    return _ccd(_lib.cloth_ccd_edge_edge, start, end, dmin)


def _check(status, err):
    if status != 0:
        raise ClothError(err.value.decode(errors="replace"))


def _value_text(value):
    """Python values as the scene files write them: 3-vectors with spaces."""
    if isinstance(value, (list, tuple, np.ndarray)):
        return " ".join(repr(float(v)) for v in value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


class Scene:
    """A scene: a file (or the defaults) plus overrides {"section.key": value}."""

    def __init__(self, path=None, **overrides):
        self._buf = ctypes.create_string_buffer(_lib.cloth_scene_size())
        err = ctypes.create_string_buffer(MSG_MAX)
        if path is None:
            _lib.cloth_default_scene(self._buf)
        else:
            _check(_lib.cloth_scene_load(os.fsencode(path), self._buf, err), err)
        self.set(**overrides)

    def set(self, **overrides):
        """Applies overrides; keys are "section.key" (pass them as **{"run.dt": 0.01})."""
        err = ctypes.create_string_buffer(MSG_MAX)
        for i, (key, value) in enumerate(overrides.items(), 1):
            text = f"{key}={_value_text(value)}".encode()
            _check(_lib.cloth_scene_set(self._buf, text, i, err), err)
        return self


class Sim:
    """A simulation of a scene: Sim(path, **overrides) or Sim(scene=Scene(...))."""

    def __init__(self, path=None, scene=None, **overrides):
        if scene is None:
            scene = Scene(path, **overrides)
        elif overrides:
            scene.set(**overrides)
        self.scene = scene
        err = ctypes.create_string_buffer(MSG_MAX)
        handle = ctypes.c_void_p()
        _check(_lib.cloth_sim_create(scene._buf, ctypes.byref(handle), err), err)
        self._sim = handle
        mesh = _lib.cloth_sim_mesh(self._sim).contents
        self.n = mesh.n
        self.nx, self.ny = mesh.nx, mesh.ny
        self.layers = mesh.layers     # grid layers: layer l is vertices l*nx*ny ..
        self.rest_diag = mesh.rest_diag
        # views onto the library's buffers: no copies per step
        self.positions = np.ctypeslib.as_array(_lib.cloth_sim_positions(self._sim),
                                               shape=(self.n, 3))
        self.velocities = np.ctypeslib.as_array(_lib.cloth_sim_velocities(self._sim),
                                                shape=(self.n, 3))
        self.mass = np.ctypeslib.as_array(mesh.mass, shape=(self.n,)).copy()
        self.pinned = np.ctypeslib.as_array(mesh.pinned, shape=(self.n,)).astype(bool)
        self.rest = np.ctypeslib.as_array(mesh.rest, shape=(self.n, 3)).copy()
        self.triangles = (np.ctypeslib.as_array(mesh.tris, shape=(mesh.n_tris, 3)).copy()
                          if mesh.n_tris else np.zeros((0, 3), dtype=np.int32))

    def __del__(self):
        if getattr(self, "_sim", None):
            _lib.cloth_sim_destroy(self._sim)
            self._sim = None

    def measure(self):
        """The metrics of the current state: a dict with the series.csv columns (an empty
        field is NaN) and the frame's not_converged and regularized counts."""
        fr = _Frame()
        _lib.cloth_sim_measure(self._sim, ctypes.byref(fr))
        return _frame_dict(fr)

    def step(self):
        """Advances one frame; returns its metrics.  Raises ClothError if it diverged."""
        fr = _Frame()
        err = ctypes.create_string_buffer(MSG_MAX)
        _check(_lib.cloth_sim_frame(self._sim, ctypes.byref(fr), err), err)
        return _frame_dict(fr)

    def run(self, frames, stop_on_divergence=True):
        """frames frames from the current state: a dict of arrays, starting with the
        current state's row.  A divergence ends the series early (with
        stop_on_divergence) instead of raising."""
        rows = [self.measure()]
        for _ in range(frames):
            try:
                rows.append(self.step())
            except ClothError:
                if not stop_on_divergence:
                    raise
                break
        return {k: np.array([r[k] for r in rows]) for k in rows[0]}

    def reset(self):
        """Back to frame 0."""
        _lib.cloth_sim_reset(self._sim)

    @property
    def time(self):
        return _lib.cloth_sim_time(self._sim)

    @property
    def kernel(self):
        """The kernel running now (run.kernel)."""
        buf = ctypes.create_string_buffer(NAME_MAX)
        err = ctypes.create_string_buffer(MSG_MAX)
        _check(_lib.cloth_scene_get(_lib.cloth_sim_scene(self._sim), b"run.kernel", buf,
                                    NAME_MAX, err), err)
        return buf.value.decode()

    def log(self):
        """The iterations of the last frame (an iterative kernel's log: newton, pd), as a
        list of dicts with the columns of its file (log_columns(sim.kernel)); [] for a
        kernel without a log."""
        rows = ctypes.c_void_p()
        n = _lib.cloth_sim_log(self._sim, ctypes.byref(rows))
        if n <= 0:
            return []
        struct, read = _log_reader(self.kernel)
        rows = ctypes.cast(rows, ctypes.POINTER(struct))
        return [read(rows[i]) for i in range(n)]
