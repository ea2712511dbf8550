# clothbench — see README.md.  The two commands a user needs: `make figures`, `make check`.

CC      ?= cc
BUILD   ?= build
WARN     = -Wall -Wextra -pedantic -Wstrict-prototypes -Wmissing-prototypes -Werror
CFLAGS  ?= -O2 -g
# OpenMP runs the coloured loops on run.threads threads (src/kernels/coloured.h); empty,
# they run on one with the same results.  The library reads no errno from the maths:
# -fno-math-errno lets GCC vectorise loops that take square roots (same values).
OPENMP  ?= -fopenmp
# override: `make CFLAGS=...` (sanitize, valgrind) replaces the optimisation and debug flags
# above, never these (the language, the reproducible arithmetic, the warnings)
USER_CFLAGS := $(CFLAGS)
override CFLAGS += -std=c11 -D_DEFAULT_SOURCE -fPIC -ffp-contract=off -fno-math-errno $(OPENMP) $(WARN)
# CHOLMOD (SuiteSparse) and ARPACK link LAPACK and BLAS themselves (src/linalg/README.md)
CJSON_LIBS   = $(shell pkg-config --libs libcjson 2>/dev/null)
# cJSON: the garment layer reads pattern files, the harness events.jsonl
LDLIBS   = $(CJSON_LIBS) -lcholmod -larpack -llapacke -lopenblas -lm -pthread $(OPENMP)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)
WEB_LIBS     = $(shell pkg-config --libs libwebsockets libcjson 2>/dev/null)

# src/ is layered (docs/architecture.md; tests/check_layers.py checks it): core < linalg < terms
# < body < sim < kernels < garment < assemble < harness < app.  The library is every layer
# but app/; app/ is the CLI and the viewer's server, so libcloth needs no web libraries.
LAYERS   = core linalg terms body sim kernels garment assemble harness
LIB_SRC  = $(foreach d,$(LAYERS),$(shell find src/$(d) -name '*.c' | sort))
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
CORE_OBJ = $(filter $(BUILD)/obj/core/%,$(LIB_OBJ))
APP_SRC  = $(shell find src/app -name '*.c' | sort)
APP_OBJ  = $(APP_SRC:src/%.c=$(BUILD)/obj/%.o)
TEST_SRC = $(wildcard tests/*.c) tests/golden/golden.c
TEST_OBJ = $(TEST_SRC:tests/%.c=$(BUILD)/obj/tests/%.o)
HEADERS  = $(shell find src -name '*.h') $(wildcard tests/*.h tests/*/*.h)

# Debian packages the build, the tests, the figures, the viewer's server, the notebooks
# and the parallel sweep engine (GNU parallel) need.
DEB_PKGS = build-essential pkg-config libopenblas-dev liblapacke-dev libsuitesparse-dev \
           libarpack2-dev check gnuplot-nox libwebsockets-dev libcjson-dev \
           jupyter-nbconvert python3-nbclient python3-ipykernel python3-numpy \
           python3-matplotlib parallel
# Debian's Python (python3 on PATH may be another interpreter without these packages)
PYTHON   = /usr/bin/python3
NOTEBOOKS = $(wildcard notebooks/*.ipynb)

.PHONY: all deps install-debs deps-web deps-check-web check sanitize check-web viewer-avatar serve \
        check-lane-0 check-lane-1 sanitize-build fuzz-build figures notebooks bench install uninstall check-install clean deps-fuzz fuzz golden \
        valgrind sweep deps-slurm check-slurm assignment grade check-kit autograder release docs report
all: $(BUILD)/cloth $(BUILD)/libcloth.a $(BUILD)/libcloth.so

# Installs whatever of DEB_PKGS is missing; does nothing when all are there.
deps:
	@$(MAKE) --no-print-directory install-debs PKGS="$(DEB_PKGS)"

install-debs:
	@missing=""; for p in $(PKGS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; exit 0; fi; \
	echo "deps: installing$$missing"; \
	if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	elif command -v sudo >/dev/null; then SUDO=sudo; \
	else echo "deps: run as root: apt-get install -y$$missing"; exit 1; fi; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq$$missing

$(BUILD)/obj/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@$(CC) $(CFLAGS) -Isrc -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@$(CC) $(CFLAGS) $(CHECK_CFLAGS) -Isrc -c $< -o $@

$(BUILD)/libcloth.a: $(LIB_OBJ)
	@echo "  AR   $@"
	@rm -f $@ && ar rcs $@ $^

# The core layer alone: its tests link it without any kernel or LAPACK.
$(BUILD)/libcloth_core.a: $(CORE_OBJ)
	@echo "  AR   $@"
	@rm -f $@ && ar rcs $@ $^

$(BUILD)/test_core: $(BUILD)/obj/tests/core/test_core.o $(BUILD)/libcloth_core.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -o $@ $^ $(CHECK_LIBS) -lm

# The shared library carries its SONAME (libcloth.so.$(SOVERSION)); install names the file
# libcloth.so.$(VERSION) and links the other two names to it.
$(BUILD)/libcloth.so: $(LIB_OBJ)
	@echo "  LD   $@"
	@$(CC) -shared -Wl,-soname,libcloth.so.$(SOVERSION) -o $@ $^ $(LDLIBS)

$(BUILD)/cloth: $(APP_OBJ) $(BUILD)/libcloth.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -o $@ $^ $(WEB_LIBS) $(LDLIBS)

# Fault injection (tests/faults/): the linker sends the library's allocations and file
# opens, closes and renames through tests/faults/inject.c, which can make the k-th fail.
FAULT_WRAP = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc \
             -Wl,--wrap=free,--wrap=fopen,--wrap=fclose,--wrap=rename
FAULT_OBJ  = $(BUILD)/obj/tests/faults/test_faults.o $(BUILD)/obj/tests/faults/inject.o \
             $(BUILD)/obj/tests/testutil.o

$(BUILD)/test_faults: $(FAULT_OBJ) $(BUILD)/libcloth.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) $(FAULT_WRAP) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

# The viewer's commands are tested without sockets: the tests link them and cJSON.
VIEWER = app/serve/commands app/serve/effectors app/serve/replay app/serve/stream \
         app/serve/viewer
$(BUILD)/test_cloth: $(TEST_OBJ) $(VIEWER:%=$(BUILD)/obj/%.o) $(BUILD)/libcloth.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -o $@ $^ $(CHECK_LIBS) $(CJSON_LIBS) $(LDLIBS)

# The Check suite; its last line is Check's summary.  Tests that run the CLI find it
# through CLOTH_BIN; OpenBLAS is pinned to one thread so results are reproducible.
# After the builds, three jobs at once on the two cores (-Otarget: a job's output whole,
# when it ends): the kit (check-kit: small builds and test programs, much of it waiting on
# them), and two lanes, each with half of the scripted checks, half of the fault-injection
# tries (test_faults K/2) and half of the suites (test_cloth K/2).  Lane 0 starts with the
# layering of src/ and the core layer's own tests, linked without kernels.
check: deps
	@$(MAKE) --no-print-directory $(BUILD)/cloth $(BUILD)/test_cloth $(BUILD)/test_core \
	  $(BUILD)/test_faults $(FUZZ_TARGETS:%=$(BUILD)/replay_%)
	@$(MAKE) --no-print-directory -j3 -Otarget check-lane-0 check-lane-1 \
	  $(if $(filter 0,$(KIT_CHECK)),,check-kit)

check-lane-0:
	@tests/check_layers.sh $(BUILD)
	@$(TEST_RUNNER) $(BUILD)/test_core
	@[ "$(SCRIPT_CHECKS)" = 0 ] || tests/new_kernel/check.sh $(BUILD) "$(USER_CFLAGS)"
	@[ "$(SCRIPT_CHECKS)" = 0 ] || tests/work_precision/check.sh $(BUILD)/cloth
	@[ "$(SCRIPT_CHECKS)" = 0 ] || tests/work_precision/report_check.sh $(BUILD)/cloth
	@[ "$(SCRIPT_CHECKS)" = 0 ] || tests/docs/check_docs.sh $(BUILD)/cloth
	cd tests && $(TEST_FAULTS) 0/2
	cd tests && $(TEST_CLOTH) 0/2

check-lane-1:
	@for t in $(FUZZ_TARGETS); do case $$t in obj) ex=experiments/meshes;; commands|events|bvh) ex=;; \
	  *) ex=experiments;; esac; \
	  $(BUILD)/replay_$$t tests/fuzz/regressions/$$t tests/fuzz/seeds/$$t $$ex || exit 1; done
	@[ "$(SCRIPT_CHECKS)" = 0 ] || tests/engines/check_engines.sh $(BUILD)/cloth
	@# the committed figure data: a sample of make figures' runs again, byte for byte (~70 s)
	@[ "$(SCRIPT_CHECKS)" = 0 ] || tests/figures/check_data.sh $(BUILD)/cloth
	cd tests && $(TEST_FAULTS) 1/2
	cd tests && $(TEST_CLOTH) 1/2

# test_cloth as `make check` runs it from tests/ (append K/N for a share of the suites)
TEST_CLOTH = CLOTH_BIN=../$(BUILD)/cloth OPENBLAS_NUM_THREADS=1 $(TEST_RUNNER) ../$(BUILD)/test_cloth
TEST_FAULTS = OPENBLAS_NUM_THREADS=1 ../$(BUILD)/test_faults

# The key reference (docs/keys.md) from `cloth list`; make check fails when it is stale.
docs: $(BUILD)/cloth
	@tests/docs/make_keys.sh $(BUILD)/cloth >docs/keys.md.part && mv docs/keys.md.part docs/keys.md
	@echo "docs: docs/keys.md written from $(BUILD)/cloth list"

# ------------------------------------------------------------------ coursework kit
# assignments/ (docs/coursework.md): `make assignment` lists the assignments;
# NAME=... cuts one into build/assignments/NAME/ (its marked parts of src/ replaced by
# stubs, the handout, the public tests).  `make grade NAME=... SUBMISSION=DIR` builds DIR's
# marked files in a scratch copy and runs the public and hidden tests, TIME_LIMIT seconds
# each, as a probe (the submission's code) and a judge (the pristine tree's, which
# decides); the hidden tests' inputs come from a seed drawn per run (KIT_SEED=N replays
# one): results.json (Gradescope, with the seed) and summary.txt in GRADE_OUT.
TIME_LIMIT ?= 10
GRADE_OUT  ?= $(BUILD)/grade/$(NAME)
assignment:
	@if [ -z "$(NAME)" ]; then $(PYTHON) assignments/kit.py list; \
	else $(PYTHON) assignments/kit.py cut $(NAME) $(BUILD)/assignments/$(NAME) && \
	  echo "assignment: $(BUILD)/assignments/$(NAME)/ (HANDOUT.md)"; fi

grade:
	@[ -n "$(NAME)" ] && [ -n "$(SUBMISSION)" ] || \
	  { echo "make grade NAME=assignment SUBMISSION=DIR [TIME_LIMIT=s] [GRADE_OUT=DIR]"; exit 2; }
	@$(PYTHON) assignments/kit.py grade $(NAME) $(SUBMISSION) $(GRADE_OUT) $(TIME_LIMIT)

# Gradescope's autograder for NAME: build/assignments/NAME-autograder.zip (setup.sh,
# run_autograder, the student tree with the hidden tests; no reference bodies).
autograder:
	@[ -n "$(NAME)" ] || { echo "make autograder NAME=assignment [TIME_LIMIT=s]"; exit 2; }
	@$(PYTHON) assignments/kit.py autograder $(NAME) $(BUILD)/assignments/$(NAME)-autograder.zip \
	  $(TIME_LIMIT)

# The reference bodies of NAME, for after its deadline: build/assignments/NAME-release/
# (each file with NAME's parts, the reference between the markers; RELEASE.md).
release:
	@[ -n "$(NAME)" ] || { echo "make release NAME=assignment"; exit 2; }
	@$(PYTHON) assignments/kit.py release $(NAME) $(BUILD)/assignments/$(NAME)-release

# Every assignment: the reference scores 100 %, the untouched student tree 0 without a
# crash, no cut tree holds a reference body of any assignment or a twin of one (the leak
# check), every run of the kernel in the untouched tree calls the student's parts or is
# refused, every handout command runs in the tree, the autograder zip holds no reference
# body but its needs', the exploits (exit(0), a constructor printing PASS, PASS lines, a
# fake results.json, an endless loop) score 0 through make grade and the zip's
# run_autograder, no near-twin substitution passes the hidden tests, each deliberately
# broken solution loses exactly the tests listed for it (assignments/NAME/broken.json).
# make check runs it (KIT_CHECK=0 skips it, as make sanitize and make valgrind do: it
# builds its own trees, without their flags; its time: docs/coursework.md).
check-kit:
	@$(PYTHON) assignments/check_kit.py $(BUILD)/kit-check --jobs=2

# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer.  The jittered
# drapes run 3 of their 10 seeds here (CLOTH_TEST_SEEDS, tests/testutil.h): the same code
# under the sanitizers, a third of the CPU; make check runs all ten.  The scripted checks
# (a kernel added from the docs, the work-precision reference, the docs, the sweep engines,
# the figure data: SCRIPT_CHECKS=0) and the kit run in make check only: they test files
# and scripts, and the sanitized test_cloth already runs the same library paths.
# sanitize-build: the sanitized programs alone (.ci/run builds them while the Slurm and
# install checks wait)
sanitize-build: deps
	@$(MAKE) --no-print-directory build/sanitize/cloth build/sanitize/test_cloth \
	  build/sanitize/test_core build/sanitize/test_faults \
	  $(FUZZ_TARGETS:%=build/sanitize/replay_%) BUILD=build/sanitize CFLAGS="$(SAN_CFLAGS)"

sanitize: deps
	@CLOTH_TEST_SEEDS=3 $(MAKE) --no-print-directory check BUILD=build/sanitize CFLAGS="$(SAN_CFLAGS)" KIT_CHECK=0 \
	  SCRIPT_CHECKS=0

# The suite in one process (CK_FORK=no) under valgrind's memcheck, built -O1 -g without
# -march (no AVX-512, which valgrind cannot run); a leak or memory error fails it.  Takes
# about 5 minutes of CPU (12 on a busy machine), so CI does not run it.
VALGRIND = valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
           --show-leak-kinds=definite

valgrind: deps
	@$(MAKE) --no-print-directory install-debs PKGS=valgrind
	@$(MAKE) --no-print-directory check BUILD=build/valgrind CFLAGS="-O1 -g" KIT_CHECK=0 \
	  TEST_RUNNER="CK_FORK=no $(VALGRIND)"

# The browser viewer's page: node with npm (Debian's nodejs and npm unless some node is
# already installed) and the page's npm packages (three, lil-gui, and playwright-core for
# the browser test) from src/app/serve/web/package-lock.json.  Only the browser test
# needs a browser: deps-check-web adds Debian's chromium.
WEB_DEB_PKGS = chromium
SAN_CFLAGS   = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
PORT        ?= 8080

deps-web: deps
	@command -v npm >/dev/null || $(MAKE) --no-print-directory install-debs PKGS="nodejs npm"
	@$(MAKE) --no-print-directory src/app/serve/web/node_modules/.installed

deps-check-web: deps-web
	@$(MAKE) --no-print-directory install-debs PKGS="$(WEB_DEB_PKGS)"

src/app/serve/web/node_modules/.installed: src/app/serve/web/package.json src/app/serve/web/package-lock.json
	cd src/app/serve/web && npm ci --no-audit --no-fund
	@touch $@

# The viewer in headless chromium (tests/web/check_web.mjs), record and replay through it
# (tests/web/check_record.mjs), the avatar's body, a hand pulled by IK and a garment
# try-on (tests/web/check_body.mjs), then a fuzz of the server
# built with ASan+UBSan (tests/web/fuzz.mjs).  Screenshots go to build/web/.
check-web: deps-check-web
	@$(MAKE) --no-print-directory $(BUILD)/cloth
	@$(MAKE) --no-print-directory build/sanitize/cloth BUILD=build/sanitize CFLAGS="$(SAN_CFLAGS)"
	node tests/web/check_web.mjs --cloth $(BUILD)/cloth --out $(BUILD)/web
	node tests/web/check_record.mjs --cloth $(BUILD)/cloth --out $(BUILD)/web
	node tests/web/check_body.mjs --cloth $(BUILD)/cloth --out $(BUILD)/web
	node tests/web/fuzz.mjs --cloth build/sanitize/cloth

# The viewer on the avatar's cape in headless chromium: frames per second shown (verlet,
# pbd; a measurement, printed) and the screenshot of docs/viewer.md, plots/viewer_avatar.png.
viewer-avatar: deps-check-web
	@$(MAKE) --no-print-directory $(BUILD)/cloth
	node tests/bench/viewer_avatar.mjs --cloth $(BUILD)/cloth --screenshot plots/viewer_avatar.png

# The viewer on the Verlet cloth web demo's hanging scene: open the URL it prints.
serve: deps-web
	@$(MAKE) --no-print-directory $(BUILD)/cloth
	./$(BUILD)/cloth serve experiments/hanging.ini --port $(PORT)

# Targets that build after `deps` do so in a sub-make, which reads the pkg-config flags
# of the libraries deps may just have installed.
figures: deps
	@$(MAKE) --no-print-directory all
	@./plots/make_figures.sh $(BUILD)/cloth

# The report card of one kernel on the work-precision suite (docs/figures.md, "The report
# card"): make report KERNEL=name [SETS="--set k=v ..."] writes $(BUILD)/report/NAME/.
report: deps
	@[ -n "$(KERNEL)" ] || { echo 'usage: make report KERNEL=name [SETS="--set k=v ..."]' >&2; exit 2; }
	@$(MAKE) --no-print-directory $(BUILD)/cloth
	@./experiments/work_precision/report.sh $(BUILD)/cloth $(KERNEL) $(SETS)

# The wrapper's tests, then every notebook executed headless; a failing cell fails.
# The executed copies go to build/notebooks/ (the committed notebooks carry no outputs).
notebooks: deps
	@$(MAKE) --no-print-directory all
	cd notebooks && OPENBLAS_NUM_THREADS=1 $(PYTHON) test_clothbench.py
	@mkdir -p $(BUILD)/notebooks
	@# two at a time (each is one Python kernel, one core, much of it starting up)
	@for nb in $(NOTEBOOKS); do echo "$$nb"; done | xargs -P 2 -n 1 sh -c 'nb=$$0; \
	  start=$$(date +%s); log=$(BUILD)/notebooks/$$(basename $$nb).log; \
	  OPENBLAS_NUM_THREADS=1 $(PYTHON) -m nbconvert --to notebook --execute \
	    --ExecutePreprocessor.timeout=600 --output-dir $(BUILD)/notebooks "$$nb" \
	    >/dev/null 2>$$log || { echo "  FAIL $$nb"; cat $$log; exit 1; }; \
	  echo "  RAN  $$nb: $$(($$(date +%s) - start)) s"'

# A scene's [sweep] through an engine: make sweep SCENE=experiments/NAME.ini
# ENGINE=local|parallel|slurm [JOBS=N] [OUT=DIR] (experiments/sweep.sh, README Sweeps).
# Not after deps: on a cluster's login node (maybe no Debian, no root) only the build
# and, for ENGINE=parallel, GNU parallel are needed.
ENGINE ?= local
JOBS   ?= $(shell nproc)
OUT    ?= $(BUILD)/sweeps/$(basename $(notdir $(SCENE)))
sweep:
	@[ -n "$(SCENE)" ] || { echo "make sweep: SCENE=experiments/NAME.ini [ENGINE=local|parallel|slurm]"; exit 2; }
	@[ "$(ENGINE)" != parallel ] || command -v parallel >/dev/null || \
	  $(MAKE) --no-print-directory install-debs PKGS=parallel
	@$(MAKE) --no-print-directory $(BUILD)/cloth
	experiments/sweep.sh $(ENGINE) $(BUILD)/cloth $(SCENE) $(OUT) $(JOBS)

# The slurm engine against a real single-node Slurm (tests/engines/check_slurm.sh starts
# munged, slurmctld and slurmd without systemd, as root, and stops them); not in make check.
SLURM_DEB_PKGS = slurm-wlm munge
deps-slurm: deps
	@$(MAKE) --no-print-directory install-debs PKGS="$(SLURM_DEB_PKGS)"

check-slurm: deps-slurm
	@$(MAKE) --no-print-directory $(BUILD)/cloth
	tests/engines/check_slurm.sh $(BUILD)/cloth

# Benchmarks are programs, never timed tests; results are kept per machine.
# bench: every kernel's time per frame; newton_bench: a Newton iteration stage by stage
# (private headers: it reads the newton kernel's profile); delaunay_bench: Bowyer–Watson
# on 10^3 .. 10^5 random points (src/garment); avatar_bench: the body's field,
# back-transform, IK and the avatar scenes (docs/avatar.md); cond_bench: the exact condition
# number by dsyevd against ARPACK, size by size (newton.cond_exact_max).  One thread.
# chol_bench (built, not run): one CHOLMOD factorisation of a matrix that
# `newton_bench dump` wrote, by ordering (docs/kernels/newton.md, issue 34).
BENCH_OUT = tests/bench/results/$$(uname -m)-$$(nproc)cores
bench: deps
	@$(MAKE) --no-print-directory all $(BUILD)/bench $(BUILD)/newton_bench $(BUILD)/delaunay_bench \
	  $(BUILD)/avatar_bench $(BUILD)/cond_bench $(BUILD)/chol_bench
	@mkdir -p tests/bench/results
	OPENBLAS_NUM_THREADS=1 ./$(BUILD)/bench | tee $(BENCH_OUT).csv
	OPENBLAS_NUM_THREADS=1 ./$(BUILD)/newton_bench | tee $(BENCH_OUT)-newton.csv
	OPENBLAS_NUM_THREADS=1 ./$(BUILD)/cond_bench | tee $(BENCH_OUT)-cond.csv
	./$(BUILD)/delaunay_bench | tee $(BENCH_OUT)-delaunay.csv
	OPENBLAS_NUM_THREADS=1 ./$(BUILD)/avatar_bench | tee $(BENCH_OUT)-avatar.csv

$(BUILD)/bench $(BUILD)/newton_bench $(BUILD)/delaunay_bench $(BUILD)/avatar_bench \
		$(BUILD)/cond_bench $(BUILD)/chol_bench: $(BUILD)/%: \
		tests/bench/%.c $(BUILD)/libcloth.a $(HEADERS)
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -Isrc -o $@ $< $(BUILD)/libcloth.a $(LDLIBS)

# The built-in mannequin as an OBJ body (docs/avatar.md): surface and skeleton files.
$(BUILD)/export_mannequin: experiments/avatar/export_mannequin.c $(BUILD)/libcloth.a $(HEADERS)
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -Isrc -o $@ $< $(BUILD)/libcloth.a $(LDLIBS)
experiments/avatar/mannequin.obj experiments/avatar/mannequin.bvh: $(BUILD)/export_mannequin
	./$(BUILD)/export_mannequin experiments/avatar/mannequin.obj experiments/avatar/mannequin.bvh

# ------------------------------------------------------------------ install
# The header, both libraries, the CLI and a pkg-config file.  PREFIX is where the files
# will live, DESTDIR a staging folder put in front of every path (packagers).  Programs
# find the library with `pkg-config --cflags --libs clothbench`; the .pc file names the
# libraries libcloth.a needs as Libs.private (`pkg-config --static`); it is written at
# install time from src/clothbench.pc.in, so it names the PREFIX of that install.
# SOVERSION 1 (0.2.0): cloth_scene no longer names each kernel's settings (one opaque
# block a kernel instead, docs/architecture.md), a change of its layout that programs
# built against libcloth.so.0 must be rebuilt for.  SOVERSION 2 (0.3.0): the iteration log
# is kernel-neutral (cloth_iter, cloth_sim_log, CLOTH_TABLE_LOG + kernel in place of
# cloth_newton_iter, cloth_sim_newton_log, CLOTH_TABLE_NEWTON; CLOTH_TABLE_SUMMARY is 1).
VERSION    = 0.3.0
SOVERSION  = 2
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
LIBDIR    ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PCDIR     ?= $(LIBDIR)/pkgconfig
INSTALLED  = $(BINDIR)/cloth $(INCLUDEDIR)/cloth.h $(LIBDIR)/libcloth.a \
             $(LIBDIR)/libcloth.so.$(VERSION) $(LIBDIR)/libcloth.so.$(SOVERSION) \
             $(LIBDIR)/libcloth.so $(PCDIR)/clothbench.pc
PC_SUBST   = -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
             -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
             -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|' \
             -e 's|@LIBS_PRIVATE@|$(LDLIBS)|'

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR)
	install -m 755 $(BUILD)/cloth $(DESTDIR)$(BINDIR)/cloth
	install -m 644 src/cloth.h $(DESTDIR)$(INCLUDEDIR)/cloth.h
	install -m 644 $(BUILD)/libcloth.a $(DESTDIR)$(LIBDIR)/libcloth.a
	install -m 755 $(BUILD)/libcloth.so $(DESTDIR)$(LIBDIR)/libcloth.so.$(VERSION)
	ln -sf libcloth.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libcloth.so.$(SOVERSION)
	ln -sf libcloth.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libcloth.so
	sed $(PC_SUBST) src/clothbench.pc.in > $(DESTDIR)$(PCDIR)/clothbench.pc
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then \
	  ldconfig; fi

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

# Installs into a temporary prefix, builds tests/example/fall.c against it with pkg-config
# (shared and static) and runs it; then stages an install under DESTDIR and uninstalls it.
check-install: deps
	@$(MAKE) --no-print-directory all
	MAKE="$(MAKE)" BUILD="$(BUILD)" CC="$(CC)" tests/example/check_install.sh

# ------------------------------------------------------------------ golden results
# make check compares every kernel's results on tests/golden/*.ini with
# tests/golden/golden.tsv (tests/test_golden.c).  When a change of results is meant,
# this rewrites the table: commit it with the change and say why in the message.
golden: deps
	@$(MAKE) --no-print-directory $(BUILD)/golden
	@rm -rf $(BUILD)/golden-runs
	OPENBLAS_NUM_THREADS=1 ./$(BUILD)/golden tests/golden $(BUILD)/golden-runs \
	  >$(BUILD)/golden.tsv
	@mv $(BUILD)/golden.tsv tests/golden/golden.tsv
	@git diff --stat -- tests/golden/golden.tsv 2>/dev/null || true

$(BUILD)/golden: tests/golden/golden_main.c $(BUILD)/obj/tests/golden/golden.o $(BUILD)/libcloth.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -Isrc -o $@ $^ $(LDLIBS)

# ------------------------------------------------------------------ fuzzing
# Each reader under libFuzzer with ASan+UBSan for FUZZ_SECONDS (tests/fuzz/README.md).
# The corpora grow in build/fuzz/corpus/; a crash stops make fuzz with the input saved
# under build/fuzz/crashes/, to be copied into tests/fuzz/regressions/<target>/ once
# fixed: make check replays those (and the seeds) through the same targets built with the
# normal compiler ($(BUILD)/replay_<target>).
FUZZ_TARGETS  = scene obj sweep commands events bvh
FUZZ_SECONDS ?= 60
FUZZ_DEB_PKGS = clang
FUZZ_CFLAGS   = -O1 -g -std=c11 -D_DEFAULT_SOURCE -ffp-contract=off -fno-omit-frame-pointer \
                -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_COMMON   = tests/fuzz/fuzz_common.c tests/fuzz/fuzz.h

# clang's libFuzzer is in libclang-rt-N-dev, which apt installs as clang's recommendation;
# installed without recommendations, it is added here.
deps-fuzz: deps
	@$(MAKE) --no-print-directory install-debs PKGS="$(FUZZ_DEB_PKGS)"
	@[ -f "$$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a)" ] || [ "$$(uname -m)" != x86_64 ] || \
	  $(MAKE) --no-print-directory install-debs \
	    PKGS="libclang-rt-$$(clang -dumpversion | cut -d. -f1)-dev"

# fuzz-build: the fuzzers and their dictionaries alone (.ci/run builds them while the
# Slurm and install checks wait); fuzz runs the targets two at a time, one a core.
fuzz-build: deps-fuzz
	@$(MAKE) --no-print-directory $(BUILD)/cloth
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=build/fuzz/fuzz_%) BUILD=build/fuzz \
	  CC=clang CFLAGS="$(FUZZ_CFLAGS)" OPENMP=
	@tests/fuzz/make_dict.sh $(BUILD)/cloth >build/fuzz/scene.dict
	@tests/fuzz/make_dict.sh $(BUILD)/cloth "[sweep]" "run = " "vary = " ": " "; " ", " \
	  >build/fuzz/sweep.dict

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do echo $$t; done | \
	  xargs -P 2 -n 1 sh -c 'tests/fuzz/run.sh $$0 $(FUZZ_SECONDS)'

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_COMMON) build/fuzz/libcloth.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -fsanitize=fuzzer -Isrc -o $@ $< tests/fuzz/fuzz_common.c \
	  build/fuzz/libcloth.a $(LDLIBS)

# The viewer's commands live in the CLI (src/app/serve, VIEWER above) and need cJSON.
build/fuzz/fuzz_commands: tests/fuzz/fuzz_commands.c $(FUZZ_COMMON) \
                          $(VIEWER:%=build/fuzz/obj/%.o) build/fuzz/libcloth.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -fsanitize=fuzzer -Isrc -o $@ $< tests/fuzz/fuzz_common.c \
	  $(VIEWER:%=build/fuzz/obj/%.o) build/fuzz/libcloth.a $(CJSON_LIBS) $(LDLIBS)

$(BUILD)/replay_commands: tests/fuzz/fuzz_commands.c tests/fuzz/replay.c $(FUZZ_COMMON) \
                          $(VIEWER:%=$(BUILD)/obj/%.o) $(BUILD)/libcloth.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -Isrc -o $@ $< tests/fuzz/replay.c tests/fuzz/fuzz_common.c \
	  $(VIEWER:%=$(BUILD)/obj/%.o) $(BUILD)/libcloth.a $(CJSON_LIBS) $(LDLIBS)

$(BUILD)/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_COMMON) $(BUILD)/libcloth.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -Isrc -o $@ $< tests/fuzz/replay.c tests/fuzz/fuzz_common.c \
	  $(BUILD)/libcloth.a $(LDLIBS)

clean:
	rm -rf build
