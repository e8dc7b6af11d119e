# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng: plain GNU Makefile.  make, make run, make check, make bench.
# V=1 shows commands, WERROR=1 makes warnings errors, SAN=1 adds ASan+UBSan.

PROG     := dbench-ng
.DEFAULT_GOAL := all
PREFIX   ?= /usr/local
CC       ?= cc
CFLAGS   ?= -O2 -g
# the release and the commit (docs/install.md): scripts/version.sh says
# "VERSION COMMIT", from a tag vX.Y.Z, NEWS.md or a tarball's VERSION file
VERSION_COMMIT := $(shell scripts/version.sh)
VERSION  := $(word 1,$(VERSION_COMMIT))
COMMIT   := $(word 2,$(VERSION_COMMIT))

override CFLAGS   += -std=gnu11 -Wall -Wextra -Wshadow -Wmissing-prototypes \
		     -Wstrict-prototypes -Wformat=2 -fno-strict-aliasing
override CPPFLAGS += -D_GNU_SOURCE -MMD -MP
ifdef WERROR
override CFLAGS += -Werror
endif
ifdef SAN
override CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer \
		     -fno-sanitize-recover=undefined
override LDFLAGS += -fsanitize=address,undefined
endif

PKGS     = zlib jansson $(PKGS_BE) $(PKGS_BPF)
LIBS     = $(shell pkg-config --libs $(PKGS)) -lm
CMOCKA   = $(shell pkg-config --cflags --libs cmocka)

# The layers, lowest first (docs/design.md §3).  Each folder src/LAYER
# builds into the static library build/libLAYER.a.  USES_x lists the layers
# x may use, itself first and in link order: it is both the include path
# of x's files (a header of a layer not listed is not found) and the
# libraries a program of layer x links (a call into a layer not listed
# does not link).  Every unit test, probe and fuzz target names its layer.
LAYERS        := base workload results backends engine report analysis server \
		 record cli
# the layer of dbench-ng-mpi (docs/mpi.md), above cli, only when pkg-config
# finds Open MPI's development files: dbench-ng itself never links MPI
MPI_PROG      := dbench-ng-mpi
MPI_PKG       := ompi-c
MPI_FOUND     := $(shell pkg-config --exists $(MPI_PKG) && echo y)
LAYERS        += $(if $(MPI_FOUND),mpi)
USES_base     := base
USES_workload := workload base
USES_results  := results workload base
USES_backends := backends workload base
USES_engine   := engine backends results workload base
USES_report   := report results workload base
USES_analysis := analysis results workload base
USES_server   := server base
USES_record   := record engine backends results workload base
USES_cli      := cli record analysis report server backends engine results \
		 workload base
USES_mpi      := mpi cli record analysis report server backends engine \
		 results workload base

incs_of = $(foreach l,$(USES_$(1)),-Isrc/$(l))
libs_of = $(foreach l,$(USES_$(1)),build/lib$(l).a)
$(foreach l,$(LAYERS),$(eval SRC_$(l) := $(sort $(filter-out %.bpf.c,$(shell \
	find src/$(l) -name '*.c')))))

# Backends that need a library, as NAME:PKGCONFIG:DEBIAN-PACKAGE.  One whose
# library pkg-config finds is built from src/backends/NAME/ (its registry
# entry under HAVE_BACKEND_NAME, its library linked); the others are left
# out, the link says so, and -B NAME names the package to install
# (docs/backends.md).
OPT_BACKENDS ?= nfs:libnfs:libnfs-dev smb:smbclient:libsmbclient-dev
be_field   = $(word $(2),$(subst :, ,$(1)))
BE_FOUND   := $(foreach b,$(OPT_BACKENDS),$(if $(shell pkg-config --exists \
		'$(call be_field,$(b),2)' && echo y),$(b)))
BE_MISSING := $(filter-out $(BE_FOUND),$(OPT_BACKENDS))
SRC_backends := $(filter-out $(foreach b,$(BE_MISSING),src/backends/$(call \
		be_field,$(b),1)/%),$(SRC_backends))
# Of those, the ones whose library the backend loads with dlopen when it
# runs, never linked: libsmbclient brings in about a hundred shared
# libraries, whose loading made every start of dbench-ng 0.15 s slower
BE_DLOPEN  ?= smb
PKGS_BE    := $(foreach b,$(BE_FOUND),$(if $(filter $(call be_field,$(b),1),\
		$(BE_DLOPEN)),,$(call be_field,$(b),2)))
# what registry.c is told, also a file so that a change rebuilds it
BE_DEFS    := $(foreach b,$(BE_FOUND),-DHAVE_BACKEND_$(call be_field,$(b),1)) \
	      -DDBNG_MISSING_BACKENDS='"$(foreach b,$(BE_MISSING),$(call \
		be_field,$(b),1):$(call be_field,$(b),3) )"'
# BPF tracing of the clients' off-CPU time for the stall watchdog
# (src/engine/offcpu_bpf.c, docs/design.md §9): built when pkg-config
# finds libbpf and clang and bpftool are there (NO_BPF=1: never).  The BPF
# object is compiled with clang against a hand-written CO-RE header (no
# kernel BTF is needed to build), bpftool makes its skeleton; without
# them the program says at run time that BPF is unavailable and why.
BPF_CLANG ?= clang
BPFTOOL   ?= $(or $(shell command -v bpftool 2>/dev/null),$(wildcard \
		/usr/sbin/bpftool))
BPF_PKG   ?= libbpf
ifndef NO_BPF
BPF_FOUND := $(and $(shell pkg-config --exists '$(BPF_PKG)' && echo y),$(shell \
		command -v $(BPF_CLANG) 2>/dev/null),$(BPFTOOL))
endif
PKGS_BPF  := $(if $(BPF_FOUND),$(BPF_PKG))
BPF_DEFS  := $(if $(BPF_FOUND),-DHAVE_BPF -Ibuild/bpf)
SRC      := $(foreach l,$(LAYERS),$(SRC_$(l)))
OBJ      := $(SRC:%.c=build/%.o)
MAIN_OBJ := build/src/cli/main.o
MPI_MAIN_OBJ := build/src/mpi/mpi_main.o
LIBS_ALL := $(call libs_of,cli)
$(foreach l,$(LAYERS),$(eval build/lib$(l).a: $(filter-out $(MAIN_OBJ) $(MPI_MAIN_OBJ),$(SRC_$(l):%.c=build/%.o))))
$(foreach l,$(LAYERS),$(eval build/src/$(l)/%.o: LAYER_INC := $(call incs_of,$(l))))

# unit tests: tests/unit/test_NAME.c tests the layer UT_LAYER_NAME
UT_SRC   := $(wildcard tests/unit/test_*.c)
UT_BIN   := $(UT_SRC:tests/unit/%.c=build/tests/%)
UT_LAYER_sha256      := base
UT_LAYER_num         := base
UT_LAYER_utf8        := base
UT_LAYER_sockopt     := base
UT_LAYER_iobuf       := base
UT_LAYER_loadfile    := workload
UT_LAYER_loadfile_nfs3 := backends
UT_LAYER_histogram   := results
UT_LAYER_result      := results
UT_LAYER_result_own  := results
UT_LAYER_dblog       := results
UT_LAYER_env         := results
UT_LAYER_ticks       := engine
UT_LAYER_coord       := engine
UT_LAYER_watchdog    := engine
UT_LAYER_shm         := engine
UT_LAYER_offcpu      := engine
UT_LAYER_pace        := engine
UT_LAYER_deadline    := engine
UT_LAYER_reapwalk    := engine
UT_LAYER_disturb     := engine
UT_LAYER_foreign     := engine
UT_LAYER_client      := engine
UT_LAYER_checkpoint  := engine
UT_LAYER_slotstats   := engine
UT_LAYER_registry    := backends
UT_LAYER_nfs         := backends
UT_LAYER_sockio      := backends
UT_LAYER_frame       := server
UT_LAYER_report_text := report
UT_LAYER_report_busy := report
UT_LAYER_sigtest     := analysis
UT_LAYER_compare     := analysis
UT_LAYER_compare_own := cli
UT_LAYER_workload    := analysis
UT_LAYER_options     := cli
UT_LAYER_record      := record
UT_LAYER_strace      := record
PROBE_LAYER_htmlprobe  := report
PROBE_LAYER_multiprobe := report
PROBE_LAYER_dblogprobe := results
PROBE_LAYER_envprobe   := results
PROBE_LAYER_ckptprobe  := results
PROBE_LAYER_recwork    := base
FUZZ_LAYER_fuzz_loadfile := workload
FUZZ_LAYER_fuzz_json     := results
FUZZ_LAYER_fuzz_options  := cli
FUZZ_LAYER_fuzz_strace   := record
layer_of = $(or $($(1)),$(error $(1) is not set: name the layer of $(2) in the Makefile))
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
Q_AR = @echo '  AR      $@';
Q_BPF = @echo '  BPF     $@';
Q_GEN = @echo '  GEN     $@';
endif

.PHONY: all deps deps-check run check check-quick bench install clean format lint workload \
	test-progs print-backends print-bpf mpi-note

all: $(PROG) $(if $(MPI_FOUND),$(MPI_PROG),mpi-note)

deps:
	@scripts/install-deps.sh build

deps-check:
	@scripts/install-deps.sh check

$(PROG): $(MAIN_OBJ) $(LIBS_ALL) build/flags.txt
	$(Q_LD)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(LIBS_ALL) $(LIBS)
	@$(foreach b,$(BE_MISSING),echo "note: backend '$(call \
		be_field,$(b),1)' not built: pkg-config finds no \
		$(call be_field,$(b),2) (apt-get install $(call \
		be_field,$(b),3), then make)" >&2;)
	@$(if $(BPF_FOUND)$(NO_BPF),,echo "note: BPF tracing of stalls not \
		built: needs libbpf (pkg-config), clang and bpftool \
		(apt-get install libbpf-dev clang bpftool, then make)" >&2)

# dbench-ng-mpi: the mpi layer and the MPI library, only here
$(MPI_PROG): $(MPI_MAIN_OBJ) $(call libs_of,mpi) build/flags.txt
	$(Q_LD)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(MPI_MAIN_OBJ) \
		$(call libs_of,mpi) $(LIBS) $(shell pkg-config --libs $(MPI_PKG))
build/src/mpi/%.o: override CPPFLAGS += $(shell pkg-config --cflags $(MPI_PKG))

mpi-note:
	@echo "note: $(MPI_PROG) not built: pkg-config finds no $(MPI_PKG)" \
		"(apt-get install libopenmpi-dev openmpi-bin, then make)" >&2

# which optional backends this build has, and which it leaves out
print-backends:
	@echo "built:$(if $(BE_FOUND), $(strip $(foreach \
		b,$(BE_FOUND),$(call be_field,$(b),1))))"
	@echo "not built:$(if $(BE_MISSING), $(strip $(foreach \
		b,$(BE_MISSING),$(call be_field,$(b),1) (needs $(call \
		be_field,$(b),3)))))"

# whether this build traces stalls with BPF
print-bpf:
	@echo "bpf: $(if $(BPF_FOUND),built,not built (needs libbpf-dev, clang, \
		bpftool))"

build/lib%.a:
	$(Q_AR)rm -f $@ && $(AR) rcs $@ $^

# every object depends on the compiler flags, so switching SAN=1 or
# WERROR=1 on or off rebuilds instead of mixing instrumented objects
build/flags.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(CFLAGS) $(LDFLAGS)' | cmp -s - $@ || \
		echo '$(CC) $(CFLAGS) $(LDFLAGS)' > $@

build/src/%.o: src/%.c build/flags.txt
	@mkdir -p $(@D)
	$(Q_CC)$(CC) $(CPPFLAGS) $(LAYER_INC) $(CFLAGS) -c -o $@ $<

# the version is compiled into version.o only, rebuilt when it changes
build/version.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(VERSION) $(COMMIT)' | cmp -s - $@ || echo '$(VERSION) $(COMMIT)' > $@
build/src/base/version.o: build/version.txt
build/src/base/version.o: override CPPFLAGS += -DDBNG_VERSION='"$(VERSION)"' \
	-DDBNG_COMMIT='"$(COMMIT)"'
build/backends.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(BE_DEFS)' | cmp -s - $@ || echo '$(BE_DEFS)' > $@
build/src/backends/registry.o: build/backends.txt
build/src/backends/registry.o: override CPPFLAGS += $(BE_DEFS)
$(foreach b,$(BE_FOUND),$(eval build/src/backends/$(call be_field,$(b),1)/%.o: \
	override CPPFLAGS += $(shell pkg-config --cflags $(call be_field,$(b),2))))
# the BPF objects and their skeletons (a header embedding the object),
# made only when BPF_FOUND; NAME_bpf.o is rebuilt when BPF_FOUND changes:
# offcpu (the stall watchdog's tracing), foreign (own latencies)
BPF_PROGS := offcpu foreign
build/bpf.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(BPF_DEFS)' | cmp -s - $@ || echo '$(BPF_DEFS)' > $@
$(foreach p,$(BPF_PROGS),$(eval build/src/engine/$(p)_bpf.o: build/bpf.txt \
	$(if $(BPF_FOUND),build/bpf/$(p).skel.h)))
$(foreach p,$(BPF_PROGS),$(eval build/src/engine/$(p)_bpf.o: override \
	CPPFLAGS += $(BPF_DEFS) $(if $(BPF_FOUND),$(shell pkg-config \
	--cflags $(BPF_PKG)))))
build/bpf/offcpu.bpf.o: src/engine/offcpu_rec.h
build/bpf/foreign.bpf.o: src/engine/foreign_acct.h
build/bpf/%.bpf.o: src/engine/bpf/%.bpf.c src/engine/bpf/vmlinux_min.h
	@mkdir -p $(@D)
	$(Q_BPF)$(BPF_CLANG) -target bpf -g -O2 -Wall $(if $(WERROR),-Werror) \
		-Isrc/engine -Isrc/engine/bpf \
		$(shell pkg-config --cflags $(BPF_PKG)) -c -o $@ $<
build/bpf/%.skel.h: build/bpf/%.bpf.o
	$(Q_GEN)$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && \
		mv $@.tmp $@
# the recorder's program (src/record/bpf, docs/record.md): the same way,
# on x86_64, whose system-call registers it reads (elsewhere the recorder
# says BPF is unavailable and names --from-strace)
REC_BPF      := $(if $(filter x86_64,$(shell uname -m)),$(BPF_FOUND))
REC_BPF_DEFS := $(if $(REC_BPF),-DHAVE_REC_BPF -Ibuild/bpf)
build/rec_bpf.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(REC_BPF_DEFS)' | cmp -s - $@ || echo '$(REC_BPF_DEFS)' > $@
build/src/record/bpf_rec.o: build/rec_bpf.txt $(if $(REC_BPF),build/bpf/record.skel.h)
build/src/record/bpf_rec.o: override CPPFLAGS += $(REC_BPF_DEFS) \
	$(if $(REC_BPF),$(shell pkg-config --cflags $(BPF_PKG)))
build/bpf/record.bpf.o: src/record/bpf/record.bpf.c src/record/bpf/vmlinux_min.h \
		src/record/rec_bpf.h
	@mkdir -p $(@D)
	$(Q_BPF)$(BPF_CLANG) -target bpf -g -O2 -Wall $(if $(WERROR),-Werror) \
		-D__TARGET_ARCH_x86 -Isrc/record -Isrc/record/bpf \
		$(shell pkg-config --cflags $(BPF_PKG)) -c -o $@ $<
build/bpf/record.skel.h: build/bpf/record.bpf.o
	$(Q_GEN)$(BPFTOOL) gen skeleton $< name record_bpf > $@.tmp && \
		mv $@.tmp $@
.PHONY: FORCE
FORCE:

# the built-in workload and the HTML page's style sheet are embedded
# with .incbin
build/src/workload/builtin.o: loadfiles/netbench.load
build/src/report/html/css.o: src/report/html/page.css

.SECONDEXPANSION:
build/tests/unit/test_%.o: tests/unit/test_%.c build/flags.txt
	@mkdir -p $(@D)
	$(Q_CC)$(CC) $(CPPFLAGS) $(call incs_of,$(call layer_of,UT_LAYER_$*,$<)) \
		$(CFLAGS) $(shell pkg-config --cflags cmocka) -c -o $@ $<

build/tests/test_%: build/tests/unit/test_%.o $$(call libs_of,$$(UT_LAYER_$$*))
	$(Q_LD)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		$(call libs_of,$(UT_LAYER_$*)) $(LIBS) $(CMOCKA)

# every program of the tests, built with $(CC): make CC=clang WERROR=1
# test-progs is the compiler check of CI (.ci/run)
test-progs: $(TEST_PROGS)

build/tests/cli/%.o: tests/cli/%.c build/flags.txt
	@mkdir -p $(@D)
	$(Q_CC)$(CC) $(CPPFLAGS) $(call incs_of,$(call layer_of,PROBE_LAYER_$*,$<)) \
		$(CFLAGS) -c -o $@ $<

$(PROBE_BIN): build/tests/cli/%: build/tests/cli/%.o $$(call libs_of,$$(PROBE_LAYER_$$*))
	$(Q_LD)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		$(call libs_of,$(PROBE_LAYER_$*)) $(LIBS) -lpthread

build/tests/fuzz/%.o: tests/fuzz/%.c build/flags.txt
	@mkdir -p $(@D)
	$(Q_CC)$(CC) $(CPPFLAGS) $(call incs_of,$(call layer_of,FUZZ_LAYER_$*,$<)) \
		$(CFLAGS) -c -o $@ $<

# the compiler flags of LAYER's files (tests/cli/fuzz.sh builds with them)
print-incs-%:
	@echo $(call incs_of,$*)

# the fault-injecting FUSE pass-through of the tests (needs libfuse3-dev);
# the tests build their own copy, this target is for use by hand
FAULTFS_SRC := $(wildcard tests/faultfs/*.c)
build/tests/faultfs: $(FAULTFS_SRC) tests/faultfs/faultfs.h build/flags.txt
	@mkdir -p $(@D)
	$(Q_LD)$(CC) $(CPPFLAGS) $(CFLAGS) $(shell pkg-config --cflags fuse3) \
		$(LDFLAGS) -o $@ $(FAULTFS_SRC) $(shell pkg-config --libs fuse3)

GEN_SRC := tools/gen_netbench.c $(wildcard tools/netbench/*.c)
build/tools/gen_netbench: $(GEN_SRC) tools/netbench/netbench.h build/flags.txt
	@mkdir -p $(@D)
	$(Q_LD)$(CC) $(CFLAGS) -o $@ $(GEN_SRC)

# Regenerate the built-in workload (it is committed; see loadfiles/README.md)
workload: build/tools/gen_netbench
	build/tools/gen_netbench > loadfiles/netbench.load

# Build (installing missing Debian packages first), then run a short
# benchmark of the built-in workload in a temporary directory.
run: deps
	@$(MAKE) --no-print-directory $(PROG)
	@d=$$(mktemp -d "$${TMPDIR:-/tmp}/dbench-ng.XXXXXX") && \
	trap 'rm -rf "$$d"' EXIT INT TERM && \
	echo "make run: ./$(PROG) -c builtin:netbench -t 10 -D $$d 2" && \
	./$(PROG) -c builtin:netbench -t 10 -D "$$d" 2

# Build everything and run every test; the last line is
# "check: N passed, N failed, N skipped".
check: deps-check
	@$(MAKE) --no-print-directory $(PROG) $(UT_BIN) $(PROBE_BIN) \
		build/tools/gen_netbench $(if $(MPI_FOUND),$(MPI_PROG))
	@tests/run.sh tests/cli/*.sh $(UT_BIN)

# The quick suite: the unit tests and the shell tests that need no root
# (no mount, namespace, server, strace or BPF: each passes as an ordinary
# user), about 90 s two at a time on 2 CPUs.  The longest start first
# (the four scripts, then test_compare among the unit tests), so that the
# two lanes end together.  Same runner, same last line as make check.
QUICK_SH := json behaviour compare html dblog workload fatal usage handles \
	    nfs_usage optbackends
QUICK    := $(patsubst %,tests/cli/%.sh,$(wordlist 1,4,$(QUICK_SH))) \
	    $(UT_BIN) $(patsubst %,tests/cli/%.sh,$(wordlist 5,99,$(QUICK_SH)))
check-quick:
	@scripts/install-deps.sh quick
	@$(MAKE) --no-print-directory $(PROG) $(UT_BIN) $(PROBE_BIN) \
		build/tools/gen_netbench
	@tests/run.sh $(QUICK)

bench: deps-check $(PROG)
	bench/vs-dbench.sh

# install, uninstall, dist, deb
include mk/install.mk

format:
	clang-format -i $(SRC) $(shell find src -name '*.h' -o -name '*.bpf.c') \
		tests/unit/*.c \
		tests/faultfs/*.c tests/faultfs/*.h

# cppcheck: every finding of the classes error, warning, performance and
# portability fails (style is left out: mostly variableScope, a matter of
# taste here).  A false positive is suppressed where it is, with the reason:
#   /* cppcheck-suppress ID ; why it cannot happen */
LINT_DIRS := src tests/unit tests/cli tests/faultfs tests/fuzz tools
# the BPF program is clang's (-Wall) and the verifier's: not C for cppcheck
LINT_SKIP := src/engine/bpf src/record/bpf
lint:
	@scripts/install-deps.sh lint
	cppcheck --quiet --error-exitcode=1 --inline-suppr \
		--enable=warning,performance,portability \
		--library=posix --library=gnu --library=zlib \
		--std=c11 $(foreach l,$(LAYERS),-Isrc/$(l)) \
		$(foreach d,$(LINT_SKIP),-i$(d)) $(LINT_DIRS)
	@# the man page: mandoc's warnings and errors, its style notes but
	@# for long source lines, and groff's warnings
	@out=$$(mandoc -T lint -W style docs/dbench-ng.1 2>&1 | \
		grep -v 'input text line longer than 80 bytes'; \
		groff -man -ww -z docs/dbench-ng.1 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi
	scripts/lint-paths.sh

clean:
	rm -rf build $(PROG) $(MPI_PROG)

.SECONDARY:
-include $(shell find build -name '*.d' 2>/dev/null)
