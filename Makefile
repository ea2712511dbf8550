# clothbench — see README.md.  The two commands a user needs: `make figures`, `make check`.

CC      ?= cc
BUILD   ?= build
WARN     = -Wall -Wextra -pedantic -Wstrict-prototypes -Wmissing-prototypes -Werror
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_DEFAULT_SOURCE -fPIC -ffp-contract=off $(WARN)
LDLIBS   = -llapacke -lopenblas -lm
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)
WEB_LIBS     = $(shell pkg-config --libs libwebsockets libcjson 2>/dev/null)

# serve.c is the viewer's server: in the CLI only, so libcloth needs no web libraries.
LIB_SRC  = $(filter-out src/main.c src/serve.c,$(wildcard src/*.c))
LIB_OBJ  = $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
TEST_SRC = $(wildcard tests/*.c)
TEST_OBJ = $(TEST_SRC:tests/%.c=$(BUILD)/obj/tests/%.o)
HEADERS  = $(wildcard src/*.h) $(wildcard tests/*.h)

# Debian packages the build, the tests and the figures need.
DEB_PKGS = build-essential pkg-config libopenblas-dev liblapacke-dev check gnuplot-nox \
           libwebsockets-dev libcjson-dev

.PHONY: all deps check sanitize figures bench clean
all: $(BUILD)/cloth $(BUILD)/libcloth.a $(BUILD)/libcloth.so

# Installs whatever of DEB_PKGS is missing; does nothing when all are there.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
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
	@$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@$(CC) $(CFLAGS) $(CHECK_CFLAGS) -Isrc -c $< -o $@

$(BUILD)/libcloth.a: $(LIB_OBJ)
	@echo "  AR   $@"
	@rm -f $@ && ar rcs $@ $^

$(BUILD)/libcloth.so: $(LIB_OBJ)
	@echo "  LD   $@"
	@$(CC) -shared -o $@ $^ $(LDLIBS)

$(BUILD)/cloth: $(BUILD)/obj/main.o $(BUILD)/obj/serve.o $(BUILD)/libcloth.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -o $@ $^ $(WEB_LIBS) $(LDLIBS)

$(BUILD)/test_cloth: $(TEST_OBJ) $(BUILD)/libcloth.a
	@echo "  LD   $@"
	@$(CC) $(CFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

# The Check suite; its last line is Check's summary.  Tests that run the CLI find it
# through CLOTH_BIN; OpenBLAS is pinned to one thread so results are reproducible.
check: deps
	@$(MAKE) --no-print-directory $(BUILD)/cloth $(BUILD)/test_cloth
	cd tests && CLOTH_BIN=../$(BUILD)/cloth OPENBLAS_NUM_THREADS=1 ../$(BUILD)/test_cloth

# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize: deps
	@$(MAKE) --no-print-directory check BUILD=build/sanitize \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"

figures: deps all
	@./plots/make_figures.sh $(BUILD)/cloth

bench: all
	@$(MAKE) --no-print-directory $(BUILD)/bench
	./$(BUILD)/bench

clean:
	rm -rf build
