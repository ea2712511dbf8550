#!/bin/sh
# Runs every experiment and renders every figure into plots/ (PNG and SVG).
# Usage: plots/make_figures.sh path/to/cloth [FIGURE[:PART,...]]...
#   (make figures calls it with the cloth alone: every figure).  Naming figures runs only
#   those (FIGURES="hanging stability" does the same); FIGURE:PART,... runs only those parts
#   of a figure that has parts (self_contact: its scenes stack, drape3, spin, pile, flat;
#   energy_drift: spring, chain; avatar: cape, skirt; work_precision: ode, verlet, bw,
#   tau, drape) and renders nothing, since the figure's other parts were not run.  --list prints every figure with its parts.
# Each figure is a function below: it runs its scenes into $OUT/<figure>/ (build/figures),
# copies the data behind the figure to $DATA (plots/data) without timing columns
# (copy_data), and calls its gnuplot script (RENDER=0: not).  Timings (wall_ms,
# collide_ms) differ from machine to machine and from run to run, so they stay in
# build/figures/, and a re-run leaves plots/data/ as it was.  DATA and OUT elsewhere (with
# RENDER=0) run the same runs into a scratch folder: tests/figures/check_data.sh does
# that for a sample and compares the files with plots/data byte for byte.
set -eu
# the figures and their parts (a part is one sweep or one scene of the figure)
FIGURE_LIST="hanging drape_cond stability strain_ablation ablation_grid energy_drift:spring,chain
convergence pcg_iters self_contact:stack,drape3,spin,pile,flat avatar:cape,skirt garments
work_precision:ode,verlet,bw,tau,drape"
if [ "${1:-}" = --list ]; then
    echo "$FIGURE_LIST" | tr ' ' '\n'
    exit 0
fi
CLOTH=${1:-build/cloth}
[ $# -gt 0 ] && shift
# DATA and OUT given relative to the caller's folder
here=$(pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$here/$1" ;; esac; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLOTH=$(cd "$(dirname "$CLOTH")" && pwd)/$(basename "$CLOTH")
# (by default plots/data and build/figures, as make figures has always passed them to
# gnuplot)
DATA=${DATA:+$(abs "$DATA")}
DATA=${DATA:-plots/data}
OUT=${OUT:+$(abs "$OUT")}
OUT=${OUT:-build/figures}
RENDER=${RENDER:-1}
cd "$ROOT"
mkdir -p "$OUT" "$DATA"
export OPENBLAS_NUM_THREADS=1
START=$(date +%s)
TABLE=""

# run_case FIGURE LABEL SCENE [--set k=v]...: one run into build/figures/FIGURE/LABEL
run_case() {
    fig=$1 label=$2 scene=$3
    shift 3
    dir="$OUT/$fig/$label"
    printf '[%4ss] %s: %s ...\n' "$(($(date +%s) - START))" "$fig" "$label"
    rc=0
    "$CLOTH" run "$scene" "$@" --out "$dir" >"$dir.log" 2>&1 || rc=$?
    mkdir -p "$dir"
    # a diverged run (exit 1) is a result; bad input (exit 2) is a broken experiment
    if [ "$rc" -ge 2 ]; then cat "$dir.log"; exit 1; fi
    tail -n 1 "$dir.log"
}

# copy_data SRC DEST: a CSV file without its timing columns: those whose name has "ms"
# as a word between underscores (wall_ms, wall_ms_per_s, collide_ms, body_ms; the
# timings of src/harness/columns.c and of this script's tables).  Fields may be quoted
# ("a,b", a sweep's label or message).
copy_data() {
    awk '
        function fields(line, f,    n, i, c, q, cur) {
            if (index(line, "\"") == 0)
                return split(line, f, ",")
            n = 0; cur = ""; q = 0
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (c == "\"") q = !q
                if (c == "," && !q) { f[++n] = cur; cur = "" } else cur = cur c
            }
            f[++n] = cur
            return n
        }
        { n = fields($0, f) }
        NR == 1 { for (i = 1; i <= n; i++) drop[i] = f[i] ~ /(^|_)ms(_|$)/ }
        { out = ""; sep = ""
          for (i = 1; i <= n; i++) if (!drop[i]) { out = out sep f[i]; sep = "," }
          print out }' "$1" >"$2"
}

# kernel_names: this build's kernels, in the table's order, separated by spaces
kernel_names() { "$CLOTH" list --kernels | awk -F, 'NR > 1 { printf "%s%s", s, $1; s = " " }'; }

# log_file NAME: the file a run of the kernel writes its iteration log to (cloth list
# --logs), empty for a kernel without a log
log_file() { "$CLOTH" list --logs | awk -F, -v k="$1" '$1 == k { print $2 }'; }

# has_kernel NAME: true when this build's kernel table has the kernel
has_kernel() { "$CLOTH" list --kernels | cut -d, -f1 | grep -qx "$1"; }

# scene_kernel SCENE: the kernel a scene file runs (its [run] kernel)
scene_kernel() {
    awk '/^\[/ { run = ($0 ~ /^\[run\]/) }
         run && $1 == "kernel" && $2 == "=" { print $3; exit }' "$1"
}

# render FIGURE RUNS T0 [NAME]: gnuplot plots/FIGURE.gp (writing plots/NAME.png, NAME
# defaulting to FIGURE), then a line for the closing table; with RENDER=0, or when only
# some parts of the figure ran (PARTS), the line alone
render() {
    fig=$1 runs=$2 t0=$3 out=${4:-$1} # out: the figure's file name, when not the script's
    if [ "$RENDER" = 0 ] || [ -n "$PARTS" ]; then
        TABLE="$TABLE$(printf '%-28s %5s %8ss' "$1${PARTS:+:$PARTS} (data)" "$runs" \
            "$(($(date +%s) - t0))")
"
        return 0
    fi
    gnuplot -e "outdir='plots'; datadir='$DATA'; builddir='$OUT'; figname='$out'" \
        -e "kernels='$(kernel_names)'" "plots/$1.gp"
    TABLE="$TABLE$(printf '%-28s %5s %8ss' "plots/$out.png" "$runs" "$(($(date +%s) - t0))")
"
}

# 1. hanging: the Verlet cloth web demo's scene with every kernel (the scene's [sweep]
# says how each runs it); energy drift and max stretch vs time
fig_hanging() {
    t0=$(date +%s) runs=0
    mkdir -p "$OUT/hanging"
    rm -rf "$OUT/hanging/kernels"
    rm -f "$DATA"/hanging_*.csv
    # one run at a time, in the main thread, as cloth run does: newton's dpocon estimates
    # (cond_max) differ in their last digits with where the heap puts their vectors, and
    # a sweep's second thread has a heap of its own
    run_sweep hanging kernels experiments/hanging.ini 1
    # one run a kernel, labelled with its name; a kernel this build lacks has no series
    for k in $(awk -F, 'NR > 1 { print $1 }' "$OUT/hanging/kernels/sweep.csv"); do
        has_kernel "$k" || continue
        copy_data "$OUT/hanging/kernels/$k/series.csv" "$DATA/hanging_$k.csv"
        runs=$((runs + 1))
    done
    render hanging "$runs" "$t0"
}

# 2. drape_cond: the cubic-barrier article's drape test, every barrier/stiffness/schedule curve of its sweep
fig_drape_cond() {
    has_kernel "$(scene_kernel experiments/drape.ini)" || return 0
    t0=$(date +%s)
    dir="$OUT/drape_cond"
    printf '[%4ss] drape_cond: sweep of experiments/drape.ini ...\n' "$(($(date +%s) - START))"
    rm -rf "$dir"
    "$CLOTH" sweep experiments/drape.ini -j 2 --out "$dir" >"$dir.log" 2>&1 || true
    tail -n 1 "$dir.log"
    rm -f "$DATA"/drape_*.csv
    copy_data "$dir/sweep.csv" "$DATA/drape_sweep.csv"
    runs=0
    # every run of the scene's [sweep] (plots/drape_cond.gp names the curves it draws)
    for l in $(awk -F, 'NR > 1 { print $1 }' "$dir/sweep.csv"); do
        [ -f "$dir/$l/series.csv" ] || { cat "$dir.log"; exit 1; }
        copy_data "$dir/$l/series.csv" "$DATA/drape_$l.csv"
        runs=$((runs + 1))
    done
    render drape_cond "$runs" "$t0"
}

# sweep_series SWEEP_CSV PREFIX: one file PREFIX_<series>.dat per run label's first part
# (the label before the first '/'), with columns h = dt/substeps, max |drift|, status.
sweep_series() {
    rm -f "$2"_*.dat
    awk -F, -v prefix="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        {
            split($col["label"], part, "/")
            file = prefix "_" part[1] ".dat"
            if (!(file in seen)) { print "# h max_abs_drift status" > file; seen[file] = 1 }
            printf "%.10g %s %s\n", $col["dt"] / $col["substeps"], $col["max_abs_drift"],
                   $col["status"] >> file
        }' "$1"
}

# run_sweep FIGURE NAME SCENE [JOBS]: the scene's [sweep] into build/figures/FIGURE/NAME,
# JOBS runs at a time (2)
run_sweep() {
    printf '[%4ss] %s: sweep %s ...\n' "$(($(date +%s) - START))" "$1" "$3"
    "$CLOTH" sweep "$3" --out "$OUT/$1/$2" -j "${4:-2}" >"$OUT/$1/$2.log" 2>&1 || {
        cat "$OUT/$1/$2.log"; exit 1; }
    tail -n 1 "$OUT/$1/$2.log"
    SWEEP_RUNS=$(($(wc -l <"$OUT/$1/$2/sweep.csv") - 1))
}

# 5. energy_drift: undamped spring and chain, max |drift| against h, every kernel
fig_energy_drift() {
    t0=$(date +%s) runs=0
    mkdir -p "$OUT/energy_drift"
    for system in ${PARTS:-spring chain}; do
        run_sweep energy_drift "$system" "experiments/energy_drift_$system.ini"
        runs=$((runs + SWEEP_RUNS))
        sweep_series "$OUT/energy_drift/$system/sweep.csv" "$DATA/energy_drift_$system"
    done
    render energy_drift "$runs" "$t0"
}

# 6. convergence: pbd and xpbd at equal work.  A budget of B constraint passes per frame
# is spent either as B iterations of one substep or as B substeps of one iteration; the
# cloth's max stretch once it has come to rest is what the budget buys.  XPBD converges to
# the static equilibrium (reference: 8 substeps x 64 iterations), PBD with k_pbd = 1 to 0.
fig_convergence() {
    t0=$(date +%s) runs=0
    mkdir -p "$OUT/convergence"
    rm -f "$DATA"/convergence_*.csv
    scene=experiments/convergence.ini
    for v in xpbd pbd; do
        data="$OUT/convergence/convergence_$v.csv" # with wall times; plots/data without
        echo "passes,stretch_iterations,stretch_substeps,wall_ms_iterations,wall_ms_substeps" >"$data"
        for b in 1 2 4 8 16 32 64; do
            run_case convergence "$v-i$b" "$scene" --set pbd.variant="$v" \
                --set pbd.iterations="$b" --set run.substeps=1
            run_case convergence "$v-s$b" "$scene" --set pbd.variant="$v" \
                --set pbd.iterations=1 --set run.substeps="$b"
            runs=$((runs + 2))
            printf '%s,%s,%s,%s,%s\n' "$b" \
                "$(final_stretch "$OUT/convergence/$v-i$b")" \
                "$(final_stretch "$OUT/convergence/$v-s$b")" \
                "$(frame_ms "$OUT/convergence/$v-i$b")" \
                "$(frame_ms "$OUT/convergence/$v-s$b")" >>"$data"
        done
        copy_data "$data" "$DATA/convergence_$v.csv"
        # the whole run at 16 passes a frame: the cloth has come to rest by the end
        copy_data "$OUT/convergence/$v-i16/series.csv" "$DATA/convergence_series_${v}_i16.csv"
        copy_data "$OUT/convergence/$v-s16/series.csv" "$DATA/convergence_series_${v}_s16.csv"
    done
    # pd (Projective Dynamics): N local/global iterations of one step, or N steps of one;
    # its iteration log (pd.csv: the PD energy and |grad E| at every iteration) at 16 a frame
    if has_kernel pd; then
        data="$OUT/convergence/convergence_pd.csv"
        echo "passes,stretch_iterations,stretch_substeps,wall_ms_iterations,wall_ms_substeps" >"$data"
        for b in 1 2 4 8 16 32 64; do
            run_case convergence "pd-i$b" "$scene" --set run.kernel=pd \
                --set pd.iterations="$b" --set run.substeps=1
            run_case convergence "pd-s$b" "$scene" --set run.kernel=pd \
                --set pd.iterations=1 --set run.substeps="$b"
            runs=$((runs + 2))
            printf '%s,%s,%s,%s,%s\n' "$b" \
                "$(final_stretch "$OUT/convergence/pd-i$b")" \
                "$(final_stretch "$OUT/convergence/pd-s$b")" \
                "$(frame_ms "$OUT/convergence/pd-i$b")" \
                "$(frame_ms "$OUT/convergence/pd-s$b")" >>"$data"
        done
        copy_data "$data" "$DATA/convergence_pd.csv"
        copy_data "$OUT/convergence/pd-i16/series.csv" "$DATA/convergence_series_pd_i16.csv"
        copy_data "$OUT/convergence/pd-s16/series.csv" "$DATA/convergence_series_pd_s16.csv"
        copy_data "$OUT/convergence/pd-i16/$(log_file pd)" \
            "$DATA/convergence_pd_energy_i16.csv"
    fi
    run_case convergence xpbd-reference "$scene" --set pbd.variant=xpbd \
        --set pbd.iterations=64 --set run.substeps=8
    runs=$((runs + 1))
    { echo "variant,substeps,iterations,stretch_max"
      echo "xpbd,8,64,$(final_stretch "$OUT/convergence/xpbd-reference")"; } \
        >"$DATA/convergence_reference.csv"
    render convergence "$runs" "$t0"
}

# final_stretch DIR: stretch_max of the last frame of a run
final_stretch() { tail -n 1 "$1/series.csv" | cut -d, -f9; }

# frame_ms DIR: mean kernel wall time per frame (ms) of a run
frame_ms() { awk -F, 'NR == 2 { printf "%.4g", $NF / $6 }' "$1/summary.csv"; }

# summary_field DIR NAME: one column of a run's summary.csv, found by name
summary_field() {
    awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
                          NR == 2 { print $c[name] }' "$1/summary.csv"
}

# ablation_row LABEL TAU DIR: one strain_ablation table row of a run: its largest stretch
# on both measures over all frames (series.csv's stretch_max, springs' l/l0 - 1, and
# stretch_sigma_max, triangles' sigma1 - 1), work per step (the kernel's iterations:
# Provot or isotropic sweeps, pbd passes, Newton iterations), unconverged steps, steps,
# mean condition number (newton) and kernel wall time
ablation_row() {
    awk -F, -v label="$1" -v tau="$2" '
        function fmax(a, b) { return a == "" || b + 0 > a + 0 ? b : a }
        FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
        FILENAME ~ /series/ { e = fmax(e, $c["stretch_max"]); s = fmax(s, $c["stretch_sigma_max"]) }
        FILENAME ~ /summary/ { steps = $c["substeps"] * $c["frames"]
            printf "%s,%s,%.17g,%.17g,%.6g,%d,%d,%s,%.1f\n", label, tau, e, s,
                $c["total_iterations"] / steps, $c["not_converged"], steps,
                $c["cond_mean"], $c["wall_ms"] }' "$3/series.csv" "$3/summary.csv"
}

# ablation_series NAME [--set k=v]... (TAU in the values is replaced by each limit): the
# limits off, 20, 10, 5, 2, 1 % of one kernel and measure into strain_ablation_NAME.csv
ablation_series() {
    name=$1
    shift
    table=$OUT/strain_ablation/strain_ablation_$name.csv
    echo "label,tau,max_stretch,max_sigma,work_per_step,not_converged_steps,steps,cond_mean,wall_ms" \
        >"$table.part"
    for tau in off 0.20 0.10 0.05 0.02 0.01; do
        value=$tau
        [ "$tau" = off ] && value=0
        sets=$(echo "$*" | sed "s/TAU/$value/g")
        # shellcheck disable=SC2086
        run_case strain_ablation "${name}_$tau" "$scene" $sets
        ablation_row "$tau" "$value" "$OUT/strain_ablation/${name}_$tau" >>"$table.part"
        runs=$((runs + 1))
    done
    mv "$table.part" "$table"
    copy_data "$table" "$DATA/${table##*/}"
}

# 3. strain_ablation: the corner-pinned cloth of experiments/strain_ablation.ini under
# every family's strain limit, on each measure the family has, at tau in {off, 20, 10, 5,
# 2, 1 %}: explicit (Provot on springs, 10 substeps), verlet (Provot on springs, isotropic
# limiting on triangles, 10 substeps), pbd (unilateral spring or triangle constraints in
# 200 XPBD passes, 10 substeps), newton (the strain barrier in ZOZO's band, beta = 0.5, log
# and cubic, one substep, dpocon condition estimate), and every other kernel of the table
# that has a strain_limit key (Provot-style, on springs).  Each run is read on both
# measures; the figure plots both.
fig_strain_ablation() {
    t0=$(date +%s) runs=0
    mkdir -p "$OUT/strain_ablation"
    scene=experiments/strain_ablation.ini
    rm -f "$DATA"/strain_ablation_*.csv
    ablation_series explicit_edge --set run.kernel=explicit --set explicit.strain_limit=TAU \
        --set explicit.strain_passes=200
    for m in edge triangle; do
        ablation_series "verlet_$m" --set run.kernel=verlet --set verlet.strain_limit=TAU \
            --set verlet.strain_measure="$m"
        ablation_series "pbd_$m" --set run.kernel=pbd --set pbd.iterations=200 \
            --set pbd.strain_limit=TAU --set pbd.strain_measure="$m"
    done
    for m in triangle edge; do
        for barrier in log cubic; do
            ablation_series "newton_${m}_$barrier" --set run.kernel=newton --set run.substeps=1 \
                --set newton.barrier="$barrier" --set newton.strain_measure="$m" \
                --set newton.strain_band=0.5 --set newton.strain_limit=TAU \
                --set newton.cond=estimate
        done
    done
    # kernels added later (bw, pd, ...) that declare a strain_limit key: their own default
    # measure and settings, at the substeps a frame their table entry gives
    for ks in $("$CLOTH" list --kernels | awk -F, 'NR > 1 { print $1 ":" $NF }'); do
        k=${ks%%:*} sub=${ks#*:}
        # kernel names by design: the four whose series are set above
        case $k in explicit | verlet | pbd | newton) continue ;; esac
        "$CLOTH" list | grep -q "^  $k\.strain_limit " || continue
        ablation_series "${k}_default" --set run.kernel="$k" --set "$k.strain_limit=TAU" \
            --set run.substeps="$sub"
    done
    render strain_ablation "$runs" "$t0"
}

# 4. stability: energy against time for several h, and the largest stable h against the
# stiffness beside the bound 2/omega_max.  A run is stable when it neither diverges nor
# lets |drift| exceed 1 (its energy never grows past the scale it started with).
stable() { # stable --set ...: exit 0 when that run of the stability scene is stable
    dir="$OUT/stability/probe"
    "$CLOTH" run experiments/stability.ini "$@" --out "$dir" >/dev/null 2>&1 || return 1
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
             NR == 2 { exit !($c["status"] == "ok" && $c["max_abs_drift"] < 1) }' \
        "$dir/summary.csv"
}

# scheme_sets SCHEME: the overrides that select an explicit scheme, verlet, or one of
# newton's integrators (newton-euler, newton-bdf2, newton-midpoint; no barrier, no
# condition numbers: plain implicit integration)
scheme_sets() {
    case $1 in
        verlet) echo "--set run.kernel=verlet" ;;
        # bw: its conditions take the material's k over each triangle's rest area
        bw) echo "--set run.kernel=bw" ;;
        # pd: 10 local/global iterations a step (its default)
        pd) echo "--set run.kernel=pd" ;;
        newton-*) echo "--set run.kernel=newton --set newton.integrator=${1#newton-}" \
            "--set newton.barrier=none --set newton.cond=off" ;;
        *) echo "--set explicit.scheme=$1" ;;
    esac
}

fig_stability() {
    t0=$(date +%s) runs=0
    mkdir -p "$OUT/stability"
    table="$DATA/stability_h.csv"
    echo "k_structural,omega_max,h_bound,h_forward,h_symplectic,h_verlet,h_velocity_verlet,h_rk4,h_newton_euler,h_newton_bdf2,h_newton_midpoint,h_bw,h_pd" \
        >"$table.part"
    for k in 50 100 200 500 1000 2000 5000; do
        stiff="--set material.k_structural=$k --set material.k_shear=$((k * 2 / 5))"
        stiff="$stiff --set material.k_bend=$((k / 10))"
        # shellcheck disable=SC2086
        hb=$("$CLOTH" stability experiments/stability.ini $stiff | awk '/h_max/ { print $2 }')
        w=$(awk "BEGIN { printf \"%.10g\", 2 / $hb }")
        row="$k,$w,$hb"
        for scheme in forward symplectic verlet velocity-verlet rk4 newton-euler newton-bdf2 \
            newton-midpoint bw pd; do
            # bisection on h in [h_bound/64, 4 h_bound]: 12 halvings; a scheme stable at
            # 4 h_bound (the implicit ones) is recorded there, as "at least the cap"
            lo=$(awk "BEGIN { print $hb / 64 }") hi=$(awk "BEGIN { print 4 * $hb }")
            i=0
            # shellcheck disable=SC2086
            if stable $stiff $(scheme_sets $scheme) --set run.dt="$hi"; then
                lo=$hi i=12
            fi
            runs=$((runs + 1))
            while [ $i -lt 12 ]; do
                mid=$(awk "BEGIN { printf \"%.10g\", ($lo + $hi) / 2 }")
                # shellcheck disable=SC2086
                if stable $stiff $(scheme_sets $scheme) --set run.dt="$mid"; then
                    lo=$mid
                else
                    hi=$mid
                fi
                i=$((i + 1)) runs=$((runs + 1))
            done
            row="$row,$lo"
        done
        echo "$row" >>"$table.part"
        # kernel names by design: the schemes of this experiment (the loop above)
        printf '[%4ss] stability: k = %s N/m: 2/omega_max = %s s; forward, symplectic, verlet, velocity-verlet, rk4, newton euler, bdf2, midpoint, bw, pd: %s\n' \
            "$(($(date +%s) - START))" "$k" "$hb" "$(echo "$row" | cut -d, -f4-)"
    done
    mv "$table.part" "$table"
    # energy against time at k = 500 N/m for steps around the bound, 0.4 s each
    hb=$("$CLOTH" stability experiments/stability.ini | awk '/h_max/ { print $2 }')
    rm -f "$DATA"/stability_energy_*.csv
    for case in symplectic:0.5 symplectic:0.95 symplectic:1.02 verlet:0.95 forward:0.1 \
        forward:0.5 newton-euler:4 newton-bdf2:4 newton-midpoint:4 bw:4 pd:4; do
        scheme=${case%:*} frac=${case#*:}
        h=$(awk "BEGIN { printf \"%.10g\", $frac * $hb }")
        frames=$(awk "BEGIN { printf \"%d\", 0.4 / $h }")
        # shellcheck disable=SC2046
        run_case stability "$scheme-$frac" experiments/stability.ini $(scheme_sets $scheme) \
            --set run.dt="$h" --set run.frames="$frames"
        copy_data "$OUT/stability/$scheme-$frac/series.csv" \
            "$DATA/stability_energy_$scheme-$frac.csv"
        runs=$((runs + 1))
    done
    render stability "$runs" "$t0"
}

# 7. pcg_iters: the drape at 64 x 64 by PCG, log vs cubic x each kappa rule: PCG
# iterations per Newton iteration beside the exact condition number of each matrix
fig_pcg_iters() {
    has_kernel "$(scene_kernel experiments/pcg_iters.ini)" || return 0
    t0=$(date +%s)
    mkdir -p "$OUT/pcg_iters"
    rm -rf "$OUT/pcg_iters/runs"
    run_sweep pcg_iters runs experiments/pcg_iters.ini 2
    rm -f "$DATA"/pcg_iters_*.csv
    copy_data "$OUT/pcg_iters/runs/sweep.csv" "$DATA/pcg_iters_sweep.csv"
    runs=0
    for l in log-fixed log-ipc log-dynamic cubic-fixed cubic-ipc cubic-dynamic; do
        log="$OUT/pcg_iters/runs/$l/$(log_file newton)"
        [ -f "$log" ] || { cat "$OUT/pcg_iters/runs.log"; exit 1; }
        copy_data "$log" "$DATA/pcg_iters_$l.csv"
        runs=$((runs + 1))
    done
    render pcg_iters "$runs" "$t0"
}

# 8. self_contact: the cloth-cloth contact scenes of issue 14 (a sheet dropped onto
# another, three sheets onto a sphere, a cloth on a spinning sphere, a cloth pushed into a
# pile) and issue 32's flat sheet drop, each with every kernel through its [sweep]: per frame crossings, gaps, Newton's
# iterations and condition number, wall time.  One run at a time, as for hanging: the
# condition numbers' last digits must not depend on a second thread's heap.
fig_self_contact() {
    t0=$(date +%s) runs=0
    mkdir -p "$OUT/self_contact"
    # (e) flat: experiments/flat_sheet_drop.ini (issue 32), the sheet that the vertex
    # pairs let through unseen by the crossings (its tunnelled column); each scene's sweep
    # runs explicit, verlet and pbd with run.self_collision = on, proximity and particles.
    # plots/self_contact.gp draws the scenes of its `scenes` (stack drape3 spin pile):
    # flat and the tunnelled and collide_ms rows still wait for it.
    for scene in ${PARTS:-stack drape3 spin pile flat}; do
        rm -rf "${OUT:?}/self_contact/$scene"
        rm -f "$DATA/self_contact_sweep_$scene.csv" "$DATA"/self_contact_"$scene"_*.csv
        ini="experiments/self_contact_$scene.ini"
        [ "$scene" = flat ] && ini=experiments/flat_sheet_drop.ini
        run_sweep self_contact "$scene" "$ini" 1
        copy_data "$OUT/self_contact/$scene/sweep.csv" "$DATA/self_contact_sweep_$scene.csv"
        # one series a run, named for its label (a kernel, or KERNEL-variant); a kernel
        # this build lacks has none
        for l in $(awk -F, 'NR > 1 { print $1 }' "$OUT/self_contact/$scene/sweep.csv"); do
            [ -f "$OUT/self_contact/$scene/$l/series.csv" ] || continue
            copy_data "$OUT/self_contact/$scene/$l/series.csv" \
                "$DATA/self_contact_${scene}_$l.csv"
            runs=$((runs + 1))
        done
    done
    render self_contact "$runs" "$t0"
}

# 9. ablation_grid: strain limit tau x kernel x resolution x substeps
# (experiments/ablation_grid.ini, 429 runs).  By default the reduced grid: the scene's
# [sweep] with only tau in {off, 10 %, 2 %}, 16^2 and 32^2, 1 and 16 substeps (96 runs:
# 16 substeps is where the explicit Hooke forces of explicit and verlet are stable),
# written as plots/ablation_grid_reduced.png and
# plots/data/ablation_grid_reduced.csv; FULL=1 runs the scene's whole sweep into
# plots/ablation_grid.png and plots/data/ablation_grid.csv (docs/figures.md, ablation_grid).
# One table row per run and heat-map cell: row (0 explicit, 1 verlet, 2 pbd, 3 newton
# log, 4 newton cubic, 5 bw, 6 pd; newton-off, the same run for both barriers, fills both), x (tau group * 4 +
# resolution), y (substeps), miss = max stretch - tau, and the wall time per simulated
# second (build/figures only).
fig_ablation_grid() {
    t0=$(date +%s)
    dir="$OUT/ablation_grid"
    scene=experiments/ablation_grid.ini
    if [ "${FULL:-0}" = 1 ]; then
        # the full grid resumes: a stopped one goes on with the runs that have no result;
        # COLLECT=1 only collects what is there (a run without a result is "missing")
        grid=full
        [ -f "$dir/grid" ] && [ "$(cat "$dir/grid")" = full ] || rm -rf "$dir"
        mkdir -p "$dir"
        echo full >"$dir/grid"
    else
        rm -rf "$dir"
        mkdir -p "$dir"
        grid=reduced
        awk '/^\[/ { sw = ($0 ~ /^\[sweep\]/) }
             sw && /^run *=/ { split($3, p, "-")
                               if (p[2] !~ /^(off|0\.10|0\.02)$/ || p[3] == "n64:") next }
             sw && /^vary *= *run\.substeps/ { print "vary = run.substeps: 1, 16"; next }
             { print }' "$scene" >"$dir/reduced.ini"
        scene=$dir/reduced.ini
    fi
    # diverged and failed runs are cells of the grid, so the sweep's exit code is not
    # checked; a scene that does not parse leaves no sweep.csv
    printf '[%4ss] ablation_grid: %s grid, sweep of %s ...\n' "$(($(date +%s) - START))" \
        "$grid" "$scene"
    if [ "$grid" = reduced ]; then
        "$CLOTH" sweep "$scene" --out "$dir/runs" -j 2 >"$dir/runs.log" 2>&1 || true
    elif [ "${COLLECT:-0}" = 1 ]; then
        "$CLOTH" sweep --collect "$dir/runs" >"$dir/collect.log" 2>&1 || true
        tail -n 1 "$dir/collect.log"
    else
        "$CLOTH" sweep "$scene" --resume --out "$dir/runs" -j 2 >>"$dir/runs.log" 2>&1 || true
    fi
    [ -f "$dir/runs/sweep.csv" ] || { cat "$dir/runs.log"; exit 1; }
    [ "${COLLECT:-0}" = 1 ] || tail -n 1 "$dir/runs.log"
    table=$dir/ablation_grid.csv
    # each run's largest sigma1 - 1 over triangles, from its series (label,sigma)
    echo label,max_sigma >"$dir/sigma.csv"
    awk -F, 'NR > 1 { print $1 }' "$dir/runs/sweep.csv" | while read -r l; do
        s=$dir/runs/$(printf %s "$l" | tr / _)/series.csv # a run's folder: its label, / as _
        [ -f "$s" ] || continue
        awk -F, -v l="$l" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { v = $c["stretch_sigma_max"] + 0; if (NR == 2 || v > m) m = v }
            END { printf "%s,%.6g\n", l, m }' "$s"
    done >>"$dir/sigma.csv"
    # the grid's rows: the kernels of the table, newton once a barrier (log, cubic), and
    # newton in ZOZO's configuration (newton.preset = zozo) once a barrier, rows 7 and 8
    # of the table (not drawn); the last columns: the largest sigma1 - 1, the kernel's
    # iterations in all (solves for the zozo rows) and its steps not converged
    awk -F, -v grid="$grid" -v kernels="$(kernel_names)" '
        BEGIN { nk = split(kernels, ks, " ")
                for (i = 1; i <= nk; i++)
                    if (ks[i] == "newton") { rows[++n_rows] = "newton_log"; rows[++n_rows] = "newton_cubic" }
                    else rows[++n_rows] = ks[i]
                for (i = 1; i <= nk; i++)
                    if (ks[i] == "newton") { rows[++n_rows] = "zozo_log"; rows[++n_rows] = "zozo_cubic" } }
        FNR == NR { sigma[$1] = $2; next }
        FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                  print "grid,row,x,y,kernel,tau,n,substeps,status,max_stretch,miss,frames,wall_ms,wall_ms_per_s,max_sigma,iterations,not_converged"
                  next }
        {
            split($1, part, "/"); split(part[1], p, "-")
            # a missing run has no columns but its label (".../run.substeps=S")
            if ($c["substeps"] == "") { split(part[2], sv, "="); $c["substeps"] = sv[2] }
            g["off"] = 0; g["0.20"] = 1; g["0.10"] = 2; g["0.05"] = 3; g["0.02"] = 4; g["0.01"] = 5
            r["n16"] = 0; r["n32"] = 1; r["n64"] = 2
            y["1"] = 0; y["4"] = 1; y["16"] = 2
            tau = (p[2] == "off" ? 0 : p[2])
            x = g[p[2]] * 4 + r[p[3]]
            st = $c["status"]
            frames = $c["frames"]; dt = $c["dt"]
            line = sprintf("%s,%s,%s,%s,%s,%.17g,%s,%s,%s,%.6g,%s,%s",
                p[1], tau, substr(p[3], 2), $c["substeps"], st, $c["max_stretch"],
                $c["max_stretch"] - tau, frames, $c["wall_ms"],
                (frames > 0 ? $c["wall_ms"] / (frames * dt) : 0), x, y[$c["substeps"]])
            more = sprintf("%s,%s,%s", sigma[$1], $c["total_iterations"], $c["not_converged"])
            if (st == "missing")   # no result: no numbers
                line = sprintf("%s,%s,%s,%s,%s,,,,,,%s,%s", p[1], tau, substr(p[3], 2),
                    $c["substeps"], st, x, y[$c["substeps"]])
            if (st == "missing") more = ",,"
            for (k = 1; k <= n_rows; k++)
                if (rows[k] == p[1] || (p[1] == "newton" && index(rows[k], "newton_") == 1) ||
                    (p[1] != "newton" && index(rows[k], p[1] "_") == 1)) {
                    n = split(line, f, ",")
                    printf "%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", grid, k - 1,
                        f[11], f[12], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10],
                        more
                }
        }' "$dir/sigma.csv" "$dir/runs/sweep.csv" >"$table.part"
    mv "$table.part" "$table"
    # the reduced grid has names of its own: the committed full grid's table and figure
    # (plots/data/ablation_grid.csv, plots/ablation_grid.png) are left alone
    out=ablation_grid
    [ "$grid" = full ] || out=ablation_grid_reduced
    copy_data "$table" "$DATA/$out.csv"
    runs=$(($(wc -l <"$dir/runs/sweep.csv") - 1))
    render ablation_grid "$runs" "$t0" "$out"
}

# 10. avatar: the cape on the turning mannequin and the tube skirt on the walking one,
# every kernel that collides with a body and the capsules comparison (each scene's
# [sweep]): body_depth per frame against offset/2 (docs/avatar.md)
fig_avatar() {
    t0=$(date +%s) runs=0
    mkdir -p "$OUT/avatar"
    for scene in ${PARTS:-cape skirt}; do
        rm -rf "$OUT/avatar/$scene"
        rm -f "$DATA"/avatar_"$scene"_*.csv
        run_sweep avatar "$scene" "experiments/avatar_$scene.ini" 2
        for l in $(awk -F, 'NR > 1 { print $1 }' "$OUT/avatar/$scene/sweep.csv"); do
            copy_data "$OUT/avatar/$scene/$l/series.csv" "$DATA/avatar_${scene}_$l.csv"
            runs=$((runs + 1))
        done
    done
    render avatar "$runs" "$t0"
}

# 11. garments: the three shipped garments sewn on the mannequin and tried on with verlet
# (each tryon_*.ini), front and side from the OBJs, with each garment's mesh numbers and
# the try-on table per kernel (plots/data/garments_tryon.csv: made by
# experiments/garments/tryon_table.sh, 9 runs, the explicit ones with 100 substeps: not re-run here) (docs/garments.md)
fig_garments() {
    t0=$(date +%s) runs=0
    mkdir -p "$OUT/garments"
    meshes="$DATA/garments_meshes.csv"
    echo "garment,vertices,triangles,min_angle_deg,weld_frames,weld_steps,sewn_on" >"$meshes.part"
    for g in short_skirt long_skirt tshirt; do
        dir="$OUT/garments/$g"
        rm -rf "$dir"
        printf '[%4ss] %s: %s ...\n' "$(($(date +%s) - START))" garments "$g"
        # a garment that does not weld on the body within 200 frames is drawn as such
        # garment.sew_on of the scene: body (the default) or air
        on=$(awk -F' *= *' '$1 == "sew_on" { v = $2 } END { print v ? v : "body" }' \
            "experiments/garments/tryon_$g.ini")
        rc=0
        "$CLOTH" garment "experiments/garments/$g.json" --set garment.max_frames=200 \
            --avatar "experiments/garments/tryon_$g.ini" --out "$dir" >"$dir.log" 2>&1 || rc=$?
        tail -n 1 "$dir.log"
        if [ "$rc" -ge 2 ]; then cat "$dir.log"; exit 1; fi
        rm -f "$OUT/garments/$g.dat"
        if [ "$rc" = 1 ]; then
            echo "$g,,,,not welded in 200 frames,,$on" >>"$meshes.part"
            continue
        fi
        # "sewing (...): F frames, S steps to weld, ..." and "garment: V vertices, T
        # triangles, smallest angle A deg, ..."
        awk -v g="$g" -v on="$on" '/^sewing/ { split($0, a, "): "); split(a[2], w, " "); f = w[1]; s = w[3] }
            /^garment:/ { v = $2; t = $4; an = $8 }
            END { printf "%s,%s,%s,%s,%s,%s,%s\n", g, v, t, an, f, s, on }' "$dir.log" >>"$meshes.part"
        awk -v lo=0.55 -v hi=1 -f plots/obj_triangles.awk "$dir/tryon/final.obj" \
            >"$OUT/garments/$g.dat"
        runs=$((runs + 1))
    done
    # the same T pose for all three: one body (the avatar's surface, as any try-on wrote it)
    awk -v lo=0 -v hi=0.45 -f plots/obj_triangles.awk "$(ls "$OUT"/garments/*/tryon/body.obj |
        head -n 1)" >"$OUT/garments/body.dat"
    mv "$meshes.part" "$meshes"
    render garments "$runs" "$t0"
}

# 12. work_precision (issue 49): the smooth scenes of experiments/work_precision/ (swing,
# wind, flag; 8 x 8, 1 s), each with a reference made and checked by wp.sh reference (it
# stops the figure when a check fails), then every method over its cost knob (wp.sh
# sweep; the timed runs one at a time, the least of WP_REPEAT = 3 kept in build/figures/
# only).  plots/data gets the errors, the references and the fitted orders.  Its parts:
# ode (that), and the problems that are not the spring ODE, each against its own
# reference (wp.sh ownref: the kernel's finest step, checked by self-convergence), its
# runs timed once (WP_REPEAT = 1): verlet (verlet's relaxation, against its limit, the
# rigid pendulum) and bw (Baraff-Witkin's conditions) on the swing, tau (the strain-limited kernels at tau = 10 % against newton's
# barrier) on the swing; files work_precision_own_*, work_precision_tau_*; drape (scene
# (d), the drape onto the sphere: every method with its own contact model against
# newton's finest step, checked by self-convergence; its runs timed 3 times as the ODE's),
# files work_precision_drape*.
fig_work_precision() {
    t0=$(date +%s) runs=0
    mkdir -p "$OUT/work_precision"
    for part in ${PARTS:-ode verlet bw tau drape}; do
        if [ "$part" = ode ]; then work_precision_ode; else work_precision_own "$part"; fi
    done
    render work_precision "$runs" "$t0"
    if [ "$RENDER" != 0 ] && [ -z "$PARTS" ]; then
        for g in work_precision_own work_precision_tau work_precision_drape; do
            gnuplot -e "outdir='plots'; datadir='$DATA'; builddir='$OUT'; figname='$g'" "plots/$g.gp"
        done
    fi
}

# work_precision_own PROBLEM (verlet, bw, tau, drape): the problem's reference and sweep
# on the swing (drape: on its scene, drape.ini) (wp.sh ownref, WP_TABLE), its data:
# work_precision_own_PROBLEM_swing.csv (or work_precision_tau_swing.csv,
# work_precision_drape.csv), the reference's positions, and its self-convergence check
# (..._check.csv); the observed orders of verlet and bw in
# work_precision_own_PROBLEM_orders.csv, of newton's integrators on the drape in
# work_precision_drape_orders.csv (the others converge to their own contact model, a
# model gap from newton's: no order to fit)
work_precision_own() {
    s=swing tag=_swing repeat=1
    stem=work_precision_own_$1
    [ "$1" = tau ] && stem=work_precision_tau
    [ "$1" = drape ] && s=drape tag="" stem=work_precision_drape repeat=3
    dir=$OUT/work_precision/$1-$s
    rm -rf "$dir"
    rm -f "$DATA/${stem}"_* "$DATA/${stem}$tag.csv"
    mkdir -p "$dir"
    printf '[%4ss] work_precision: %s reference (its own) ...\n' "$(($(date +%s) - START))" "$1"
    CLOTH=$CLOTH experiments/work_precision/wp.sh ownref "$1" \
        "experiments/work_precision/$s.ini" "$dir/ref" >"$dir/ref.log" 2>&1 || {
        cat "$dir/ref.log"; exit 1; }
    printf '[%4ss] work_precision: %s sweep ...\n' "$(($(date +%s) - START))" "$1"
    CLOTH=$CLOTH WP_TABLE=$1 WP_IE=0 WP_REPEAT=$repeat experiments/work_precision/wp.sh sweep \
        "experiments/work_precision/$s.ini" "$dir/ref" "$dir" >"$dir/sweep.log" 2>&1 || {
        cat "$dir/sweep.log"; exit 1; }
    copy_data "$dir/points.csv" "$DATA/${stem}$tag.csv"
    cp "$dir/ref/selfref.csv" "$DATA/${stem}${tag}_check.csv"
    cp "$dir/ref/ref_1.obj" "$DATA/${stem}_ref${tag}_1.obj"
    cp "$dir/ref/ref_2.obj" "$DATA/${stem}_ref${tag}_2.obj"
    # the fit above the reference's own error: 1 mm (verlet's rigid pendulum is exact,
    # bw's own estimate is 0.9 mm RMS), below the 1 m of a lost motion; on the drape
    # newton's integrators alone (the others' contact model is not the reference's), over
    # the max error at T from 2e-5 m (above the floor the midpoint and implicit Euler
    # reach there, docs/figures.md) to 1 cm
    case $1 in
    tau) ;;
    drape) awk -v scene="$s" -v lo=2e-5 -v hi=1e-2 -f experiments/work_precision/orders.awk \
        "$dir/points.csv" | awk -F, 'NR == 1 || $2 ~ /^newton-/' >"$DATA/${stem}_orders.csv"
        # the cheapest run within 1 cm, 1 mm, 0.1 mm (a timing: build/figures only)
        { echo "| scene | error at T within | cheapest run (max error, CPU ms) | cheapest run of another method |"
          echo "|---|---|---|---|"
          awk -v scene="$s" -f experiments/work_precision/cheapest.awk "$dir/points.csv"
        } >"$OUT/work_precision/cheapest_drape.md" ;;
    *) awk -v scene="$s" -v lo=1e-3 -v hi=1 -f experiments/work_precision/orders.awk \
        "$dir/points.csv" >"$DATA/${stem}_orders.csv" ;;
    esac
    runs=$((runs + $(find "$dir" -name summary.csv | wc -l)))
}

# work_precision_ode: the spring ODE's scenes against the checked RK4 reference
work_precision_ode() {
    for s in swing wind flag; do
        rm -f "$DATA/work_precision_$s.csv" "$DATA/work_precision_ref_${s}"_*.obj
    done
    orders="$DATA/work_precision_orders.csv"
    echo "scene,method,expected,observed,points,h_min,h_max" >"$orders.part"
    for s in swing wind flag; do
        dir=$OUT/work_precision/$s
        rm -rf "$dir"
        mkdir -p "$dir"
        printf '[%4ss] work_precision: %s reference ...\n' "$(($(date +%s) - START))" "$s"
        CLOTH=$CLOTH experiments/work_precision/wp.sh reference \
            "experiments/work_precision/$s.ini" "$dir/ref" >"$dir/ref.log" 2>&1 || {
            cat "$dir/ref.log"; exit 1; }
        printf '[%4ss] work_precision: %s sweep ...\n' "$(($(date +%s) - START))" "$s"
        CLOTH=$CLOTH experiments/work_precision/wp.sh sweep \
            "experiments/work_precision/$s.ini" "$dir/ref" "$dir" >"$dir/sweep.log" 2>&1 || {
            cat "$dir/sweep.log"; exit 1; }
        copy_data "$dir/points.csv" "$DATA/work_precision_$s.csv"
        cp "$dir/ref/ref_1.obj" "$DATA/work_precision_ref_${s}_1.obj"
        cp "$dir/ref/ref_2.obj" "$DATA/work_precision_ref_${s}_2.obj"
        awk -v scene="$s" -f experiments/work_precision/orders.awk "$dir/points.csv" |
            tail -n +2 >>"$orders.part"
        runs=$((runs + $(find "$dir" -name summary.csv | wc -l)))
    done
    mv "$orders.part" "$orders"
    # the cheapest run within 1 cm, 1 mm, 0.1 mm of each scene, by kernel CPU time: a
    # timing, so in build/figures only (docs/figures.md, work-precision, quotes one)
    { echo "| scene | error at T within | cheapest run (max error, CPU ms) | cheapest run of another method |"
      echo "|---|---|---|---|"
      for s in swing wind flag; do
          awk -v scene="$s" -f experiments/work_precision/cheapest.awk \
              "$OUT/work_precision/$s/points.csv"
      done; } >"$OUT/work_precision/cheapest.md"
}

# the figures named on the command line, or in FIGURES, or every one
ALL=${*:-${FIGURES:-$(echo "$FIGURE_LIST" | sed 's/:[^ ]*//g' | tr '\n' ' ')}}
COUNT=$(echo $ALL | wc -w) INDEX=0
for arg in $ALL; do
    INDEX=$((INDEX + 1))
    fig=${arg%%:*} PARTS=""
    [ "$fig" = "$arg" ] || PARTS=$(echo "${arg#*:}" | tr ',' ' ')
    # the figure must exist, and each part named must be one of its parts
    echo "$FIGURE_LIST" | tr ' ' '\n' | cut -d: -f1 | grep -qx "$fig" ||
        { echo "make_figures.sh: no figure $fig (--list lists them)" >&2; exit 2; }
    for p in $PARTS; do
        echo "$FIGURE_LIST" | tr ' ' '\n' | awk -F: -v f="$fig" '$1 == f { print $2 }' |
            tr ',' '\n' | grep -qx "$p" || {
            echo "make_figures.sh: figure $fig has no part $p (--list lists them)" >&2; exit 2; }
    done
    printf '[%4ss] === figure %d of %d: %s (%d left after it)\n' "$(($(date +%s) - START))" \
        "$INDEX" "$COUNT" "$arg" "$((COUNT - INDEX))"
    "fig_$fig"
done

printf '\n%-28s %5s %9s\n' "figure" "runs" "wall"
printf '%s' "$TABLE"
printf 'total: %ss\n' "$(($(date +%s) - START))"
