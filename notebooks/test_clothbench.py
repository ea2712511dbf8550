"""Tests of the Python wrapper (run by `make notebooks`): it must give the same numbers as
the CLI to the last bit, map the library's buffers without copies, and raise the
library's messages.  Prints 'N passed, N failed' and exits non-zero on a failure."""

import csv
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

import numpy as np

import clothbench as cb

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.path.join(HERE, "..", "build", "cloth")
SCENE = os.path.join(HERE, "..", "experiments", "hanging.ini")


def test_a_wrapper_run_equals_the_cli_bit_for_bit():
    frames = 25
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([CLI, "run", SCENE, "--set", f"run.frames={frames}", "--out", out],
                       check=True, capture_output=True)
        with open(os.path.join(out, "series.csv")) as f:
            rows = list(csv.DictReader(f))
        with open(os.path.join(out, "final.obj")) as f:
            final = np.array([[float(t) for t in line.split()[1:]]
                              for line in f if line.startswith("v ")])
    sim = cb.Sim(SCENE, **{"run.frames": frames})
    series = sim.run(frames)
    assert len(rows) == frames + 1
    for name in cb.SERIES_COLUMNS:
        if name == "wall_ms":
            continue
        cli = np.array([float(r[name]) if r[name] != "" else np.nan for r in rows])
        ours = series[name].astype(float)
        same = (cli == ours) | (np.isnan(cli) & np.isnan(ours))
        assert same.all(), f"{name}: first difference at frame {np.argmin(same)}"
    assert (final == sim.positions).all(), "final positions differ from final.obj"


DRAPE = os.path.join(HERE, "..", "experiments", "drape.ini")
SMALL_DRAPE = {"mesh.nx": 4, "mesh.ny": 4, "run.frames": 3}


def _cli_run(scene, overrides, out):
    sets = [a for k, v in overrides.items() for a in ("--set", f"{k}={v}")]
    subprocess.run([CLI, "run", scene, *sets, "--out", out], check=True, capture_output=True)


def test_the_row_structs_are_the_library_tables():
    """Every field of the library's table sits at the library's offset with its size in
    the struct the wrapper built, the struct has the library's size and nothing else, and
    the columns are the headers the CLI writes."""
    for table, struct in ((cb.TABLE_SERIES, cb._Frame),
                          (cb.log_table("newton"), cb._log_reader("newton")[0]),
                          (cb.TABLE_SUMMARY, cb._row_struct(cb.TABLE_SUMMARY, "_Summary"))):
        fields = cb.table_fields(table)
        assert ctypes.sizeof(struct) == cb._lib.cloth_table_row_size(table), struct
        for f in fields:
            member = getattr(struct, f.name)
            assert (member.offset, member.size) == (f.offset, f.size), (struct, f)
        names = [n for n, _ in struct._fields_ if not n.startswith("_pad")]
        assert sorted(names) == sorted(f.name for f in fields), (struct, names)
    with tempfile.TemporaryDirectory() as out:
        _cli_run(DRAPE, SMALL_DRAPE, out)
        for name, columns in (("series.csv", cb.SERIES_COLUMNS),
                              (cb.log_file("newton"), cb.log_columns("newton")),
                              ("summary.csv", cb.SUMMARY_COLUMNS)):
            with open(os.path.join(out, name)) as f:
                assert f.readline().rstrip("\n") == ",".join(columns), name


def test_the_log_equals_the_run_s_log_file_bit_for_bit():
    """newton's and pd's logs: the same rows as the file the CLI writes, column by name."""
    for overrides in ({}, {"run.kernel": "pd", "pd.iterations": 5}):
        _check_log_against_the_cli({**SMALL_DRAPE, **overrides})


def test_a_kernel_without_a_log_has_none():
    sim = cb.Sim(DRAPE, **{**SMALL_DRAPE, "run.kernel": "explicit", "run.substeps": 20})
    sim.step()
    assert sim.log() == [] and cb.log_columns("explicit") == () and not cb.log_file("explicit")


def _check_log_against_the_cli(scene):
    sim = cb.Sim(DRAPE, **scene)
    columns = cb.log_columns(sim.kernel)
    with tempfile.TemporaryDirectory() as out:
        _cli_run(DRAPE, scene, out)
        with open(os.path.join(out, cb.log_file(sim.kernel))) as f:
            rows = list(csv.DictReader(f))
    ours = []
    for _ in range(SMALL_DRAPE["run.frames"]):
        sim.step()
        ours += sim.log()
    assert len(rows) == len(ours) > 0
    for cli, row in zip(rows, ours):
        assert list(row) == list(columns)
        for name in columns:
            if isinstance(row[name], bytes):     # a name column (cond_method)
                assert cli[name] == row[name].decode(), (name, cli, row)
                continue
            a, b = (float(cli[name]) if cli[name] != "" else np.nan), float(row[name])
            assert a == b or (np.isnan(a) and np.isnan(b)), (name, cli, row)


def test_positions_are_views_of_the_library_buffer():
    sim = cb.Sim(SCENE)
    x = sim.positions
    before = x.copy()
    sim.step()
    assert x is sim.positions and not (x == before).all(), "a step must change the view"
    # moving a free vertex up by dy changes gravity's energy by m g dy
    free = int(np.argmax(~sim.pinned))
    e0 = sim.measure()["gravity"]
    x[free, 1] += 0.5
    e1 = sim.measure()["gravity"]
    assert abs((e1 - e0) - sim.mass[free] * 9.81 * 0.5) < 1e-12


def test_a_bad_key_raises_the_library_message():
    try:
        cb.Sim(SCENE, **{"run.colour": 3})
    except cb.ClothError as e:
        assert "run.colour: unknown key in section [run]" in str(e), str(e)
    else:
        raise AssertionError("no exception for an unknown key")
    try:
        cb.Sim(SCENE, **{"run.dt": -1.0})
    except cb.ClothError as e:
        assert "run.dt: -1.0 is out of range: must be > 0" in str(e), str(e)
    else:
        raise AssertionError("no exception for a negative dt")


def test_ccd_finds_a_point_crossing_a_triangle_between_two_steps():
    tri = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    # from 0.5 above the triangle to 0.5 below: it crosses the plane at t = 0.5, inside
    hit, toi = cb.ccd_point_triangle([(0.2, 0.2, 0.5), *tri], [(0.2, 0.2, -0.5), *tri])
    assert hit and 0.49 < toi <= 0.5, (hit, toi)
    # the same motion beside the triangle (x = 2): no hit, toi = 1
    hit, toi = cb.ccd_point_triangle([(2, 0.2, 0.5), *tri], [(2, 0.2, -0.5), *tri])
    assert not hit and toi == 1.0, (hit, toi)
    # with dmin = 0.1 the hit comes at most when the distance reaches 0.1 (t = 0.4)
    hit, toi = cb.ccd_point_triangle([(0.2, 0.2, 0.5), *tri], [(0.2, 0.2, -0.5), *tri], 0.1)
    assert hit and 0.39 < toi <= 0.4, (hit, toi)
    # two crossing edges: (0,0,1)-(1,0,1) falling through (0.5,-1,0)-(0.5,1,0) at t = 0.5
    hit, toi = cb.ccd_edge_edge([(0, 0, 1), (1, 0, 1), (0.5, -1, 0), (0.5, 1, 0)],
                                [(0, 0, -1), (1, 0, -1), (0.5, -1, 0), (0.5, 1, 0)])
    assert hit and 0.49 < toi <= 0.5, (hit, toi)
    try:
        cb.ccd_edge_edge([(0, 0, 0)] * 4, [(0, 0, 0)] * 4, -1.0)
    except cb.ClothError:
        pass
    else:
        raise AssertionError("no exception for a negative dmin")


def test_layers_of_a_grid():
    sim = cb.Sim(None, **{"mesh.nx": 4, "mesh.ny": 3, "mesh.plane": "xz", "mesh.layers": 3,
                          "mesh.layer_gap": 0.04, "mesh.pins": "none"})
    assert (sim.n, sim.nx, sim.ny, sim.layers) == (36, 4, 3, 3)
    assert np.allclose(sim.positions[24:, 1] - sim.positions[:12, 1], 0.08)


def test_a_missing_file_raises():
    try:
        cb.Scene("/nonexistent.ini")
    except cb.ClothError as e:
        assert "/nonexistent.ini:0: (file): cannot open" in str(e), str(e)
    else:
        raise AssertionError("no exception for a missing file")


def test_the_library_is_looked_for_in_order():
    build = os.path.join(HERE, "..", "build", "libcloth.so")
    assert cb._find_library(build, {"CLOTHBENCH_LIB": "/x/libcloth.so"}) == "/x/libcloth.so"
    assert cb._find_library(build, {"CLOTH_LIB": "/y/libcloth.so"}) == "/y/libcloth.so"
    assert cb._find_library(build, {"PATH": os.environ["PATH"]}) == build


def test_an_installed_library_is_found_without_a_build_tree():
    """`make install` into a temporary prefix, then the wrapper alone in another folder
    (no ../build/): it loads the installed libcloth.so.2 through pkg-config's libdir."""
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "prefix")
        subprocess.run(["make", "-s", "-C", os.path.join(HERE, ".."), "install",
                        f"PREFIX={prefix}"], check=True, capture_output=True)
        os.mkdir(os.path.join(tmp, "nb"))
        shutil.copy(os.path.join(HERE, "clothbench.py"), os.path.join(tmp, "nb"))
        env = {k: v for k, v in os.environ.items() if k not in ("CLOTHBENCH_LIB", "CLOTH_LIB")}
        env["PKG_CONFIG_PATH"] = os.path.join(prefix, "lib", "pkgconfig")
        code = ("import clothbench as cb; print(cb._lib._name); "
                "print(cb.Sim(**{'mesh.nx': 4, 'mesh.ny': 4}).step()['frame'])")
        out = subprocess.run([sys.executable, "-c", code], cwd=os.path.join(tmp, "nb"),
                             env=env, check=True, capture_output=True, text=True).stdout
        assert out.split() == [os.path.join(prefix, "lib", "libcloth.so.2"), "1"], out


def main():
    tests = [(name, fn) for name, fn in sorted(globals().items())
             if name.startswith("test_") and callable(fn)]
    failed = 0
    for name, fn in tests:
        try:
            fn()
            print(f"ok   {name}")
        except Exception:
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc()
    print(f"{len(tests) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
