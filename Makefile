# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng: plain GNU Makefile.  make, make run, make check, make bench.
# V=1 shows commands, WERROR=1 makes warnings errors, SAN=1 adds ASan+UBSan.

PROG     := dbench-ng
PREFIX   ?= /usr/local
CC       ?= cc
CFLAGS   ?= -O2 -g
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo 0.1)

override CFLAGS   += -std=gnu11 -Wall -Wextra -Wshadow -Wmissing-prototypes \
		     -Wstrict-prototypes -Wformat=2 -fno-strict-aliasing
override CPPFLAGS += -Isrc -D_GNU_SOURCE -MMD -MP
ifdef WERROR
override CFLAGS += -Werror
endif
ifdef SAN
override CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer \
		     -fno-sanitize-recover=undefined
override LDFLAGS += -fsanitize=address,undefined
endif

PKGS     := zlib jansson
LIBS     = $(shell pkg-config --libs $(PKGS)) -lm
CMOCKA   = $(shell pkg-config --cflags --libs cmocka)

SRC      := $(wildcard src/*.c src/backends/*.c)
OBJ      := $(SRC:%.c=build/%.o)
LIB_OBJ  := $(filter-out build/src/main.o,$(OBJ))
UT_SRC   := $(wildcard tests/unit/test_*.c)
UT_BIN   := $(UT_SRC:tests/unit/%.c=build/tests/%)
# the tests' own helper programs: the probes of tests/cli/*.sh, faultfs and
# the libFuzzer targets (compiled only: tests/cli/fuzz.sh builds the real
# fuzzers with clang).  The tests build their own copies; make test-progs
# builds them all with $(CC) and the flags above, for the compiler check
PROBE_BIN  := $(patsubst %.c,build/%,$(wildcard tests/cli/*.c))
FUZZ_OBJ   := $(patsubst %.c,build/%.o,$(wildcard tests/fuzz/fuzz_*.c))
TEST_PROGS := $(UT_BIN) $(PROBE_BIN) $(FUZZ_OBJ) build/tests/faultfs \
	      build/tools/gen_netbench


ifndef V
Q_CC = @echo '  CC      $@';
Q_LD = @echo '  LD      $@';
endif

.PHONY: all deps deps-check run check bench install clean format lint workload \
	test-progs

all: $(PROG)

deps:
	@scripts/install-deps.sh build

deps-check:
	@scripts/install-deps.sh check

$(PROG): $(OBJ) build/flags.txt
	$(Q_LD)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJ) $(LIBS)

# every object depends on the compiler flags, so switching SAN=1 or
# WERROR=1 on or off rebuilds instead of mixing instrumented objects
build/flags.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(CFLAGS) $(LDFLAGS)' | cmp -s - $@ || \
		echo '$(CC) $(CFLAGS) $(LDFLAGS)' > $@

build/%.o: %.c build/flags.txt
	@mkdir -p $(@D)
	$(Q_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# the version is compiled into version.o only, rebuilt when it changes
build/version.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
build/src/version.o: build/version.txt
build/src/version.o: override CPPFLAGS += -DDBNG_VERSION='"$(VERSION)"'
.PHONY: FORCE
FORCE:

# the built-in workload is embedded with .incbin
build/src/builtin.o: loadfiles/netbench.load

build/tests/unit/%.o: tests/unit/%.c build/flags.txt
	@mkdir -p $(@D)
	$(Q_CC)$(CC) $(CPPFLAGS) $(CFLAGS) $(shell pkg-config --cflags cmocka) \
		-c -o $@ $<

build/tests/test_%: build/tests/unit/test_%.o $(LIB_OBJ)
	$(Q_LD)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) $(CMOCKA)

# every program of the tests, built with $(CC): make CC=clang WERROR=1
# test-progs is the compiler check of CI (.ci/run)
test-progs: $(TEST_PROGS)

$(PROBE_BIN): build/tests/cli/%: build/tests/cli/%.o $(LIB_OBJ)
	$(Q_LD)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# the fault-injecting FUSE pass-through of the tests (needs libfuse3-dev);
# the tests build their own copy, this target is for use by hand
build/tests/faultfs: tests/faultfs/faultfs.c build/flags.txt
	@mkdir -p $(@D)
	$(Q_LD)$(CC) $(CPPFLAGS) $(CFLAGS) $(shell pkg-config --cflags fuse3) \
		$(LDFLAGS) -o $@ $< $(shell pkg-config --libs fuse3)

build/tools/gen_netbench: tools/gen_netbench.c build/flags.txt
	@mkdir -p $(@D)
	$(Q_LD)$(CC) $(CFLAGS) -o $@ $<

# Regenerate the built-in workload (it is committed; see loadfiles/README.md)
workload: build/tools/gen_netbench
	build/tools/gen_netbench > loadfiles/netbench.load

# Build (installing missing Debian packages first), then run a short
# benchmark of the built-in workload in a temporary directory.
run: deps
	@$(MAKE) --no-print-directory $(PROG)
	@d=$$(mktemp -d /tmp/dbench-ng.XXXXXX) && \
	trap 'rm -rf "$$d"' EXIT INT TERM && \
	echo "make run: ./$(PROG) -t 10 -D $$d 2" && \
	./$(PROG) -t 10 -D "$$d" 2

# Build everything and run every test; the last line is
# "check: N passed, N failed, N skipped".
check: deps-check
	@$(MAKE) --no-print-directory $(PROG) $(UT_BIN) build/tools/gen_netbench
	@tests/run.sh $(UT_BIN) tests/cli/*.sh

bench: deps-check $(PROG)
	bench/vs-dbench.sh

install: $(PROG)
	install -D -m 755 $(PROG) $(DESTDIR)$(PREFIX)/bin/$(PROG)
	install -D -m 644 docs/dbench-ng.1 $(DESTDIR)$(PREFIX)/share/man/man1/dbench-ng.1

format:
	clang-format -i $(SRC) src/*.h tests/unit/*.c tests/faultfs/*.c

# cppcheck: every finding of the classes error, warning, performance and
# portability fails (style is left out: mostly variableScope, a matter of
# taste here).  A false positive is suppressed where it is, with the reason:
#   /* cppcheck-suppress ID ; why it cannot happen */
LINT_DIRS := src tests/unit tests/cli tests/faultfs tests/fuzz tools
lint:
	@scripts/install-deps.sh lint
	cppcheck --quiet --error-exitcode=1 --inline-suppr \
		--enable=warning,performance,portability \
		--library=posix --library=gnu --library=zlib \
		--std=c11 -Isrc $(LINT_DIRS)

clean:
	rm -rf build $(PROG)

.SECONDARY:
-include $(shell find build -name '*.d' 2>/dev/null)
