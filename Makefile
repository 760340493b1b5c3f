# clkit: one Makefile for the labs, the solutions, the grader and the tests.
# Objects go to build/; quiet unless V=1.

CC      ?= cc
CFLAGS  ?= -O2 -g
# What the kit needs whatever the user's CFLAGS, CPPFLAGS and LDFLAGS say (make CFLAGS=-O0 still builds).
KIT_CPPFLAGS := -D_DEFAULT_SOURCE -DCL_TARGET_OPENCL_VERSION=120 -Icommon
KIT_CFLAGS   := -std=c11 -Wall -Wextra -Werror
DEPFLAGS = -MMD -MP
# The kit's version, from VERSION (a release tag is v followed by it).
VERSION := $(shell cat VERSION 2>/dev/null || echo unknown)

# CLBlast, where installed, gives the matmul benchmark a vendor reference (make CLBLAST=1 forces it).
CLBLAST ?= $(if $(shell pkg-config --exists clblast 2>/dev/null && echo y),1)
PKGS    := OpenCL libcjson $(if $(filter 1,$(CLBLAST)),clblast)
ifeq ($(CLBLAST),1)
KIT_CPPFLAGS += -DCLKIT_HAVE_CLBLAST
endif
# pkg-config runs once per make for the kit's packages, once for Check's (tests only, where it is needed).
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS     := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lOpenCL -lcjson $(if $(filter 1,$(CLBLAST)),-lclblast)) -lm
COMPILE     = $(CC) $(KIT_CPPFLAGS) $(PKG_CFLAGS) $(CPPFLAGS) $(KIT_CFLAGS) $(CFLAGS) $(DEPFLAGS)
LINK        = $(CC) $(KIT_CFLAGS) $(CFLAGS) $(LDFLAGS)

ifeq ($(V),1)
Q :=
else
Q := @
endif

PACKAGES    := gcc g++ make ocl-icd-opencl-dev opencl-headers pocl-opencl-icd check pkg-config libcjson-dev libxml2-utils python3-yaml oclgrind liboclgrind-dev llvm-14-dev bubblewrap
# The labs: one spec file each under grader/labs/, in lab order (lab10 after lab9); nothing else lists them.
LABS        := $(shell ls grader/labs 2>/dev/null | sed -n 's/^\(lab[0-9]*\)\.c$$/\1/p' | sort -V)
REGISTRY_LIST := build/gen/registry_list.h
COMMON_OBJ  := $(patsubst %.c,build/%.o,$(wildcard common/*.c))
LIB         := build/libclkit.a
LAB_BINS    := $(LABS:%=build/labs/%/host)
# A student release has no solutions/: everything builds without them.
SOL_BINS    := $(if $(wildcard solutions),$(LABS:%=build/solutions/%/host))

GRADER_OBJ  := $(patsubst %.c,build/%.o,$(filter-out grader/runner/runner.c,$(wildcard grader/*.c grader/*/*.c grader/*/*/*.c)))
GRADER      := build/grader/grade
# The runner: the only grader process that runs submitted code (see README, Security).
RUNNER      := build/grader/clkit-runner
# It is built from its own folders, the wire and the lab catalogue only: it cannot link judging code.
RUNNER_OBJ  := $(patsubst %.c,build/%.o,$(wildcard grader/runner/*.c grader/wire/*.c grader/labs/*.c grader/labs/*/*.c))
# How the grader builds a submitted host program: the compiler, its flags, "--", the libraries (one per line).
HOST_FLAGS  := build/host-flags
# The OpenCL calls the grader's host programs (a submission's, the solutions') make through common/ledger.c, which
# tells the grader what they created, released and launched.
LEDGER_CALLS := clCreateContext clCreateContextFromType clCreateCommandQueue clCreateProgramWithSource \
                clCreateProgramWithBinary clBuildProgram clCreateKernel clCreateBuffer clEnqueueNDRangeKernel \
                clEnqueueReadBuffer clEnqueueWriteBuffer clGetEventProfilingInfo clRetainContext clReleaseContext \
                clRetainCommandQueue clReleaseCommandQueue clRetainProgram clReleaseProgram clRetainKernel \
                clReleaseKernel clRetainMemObject clReleaseMemObject clRetainEvent clReleaseEvent \
                clCreateCommandQueueWithProperties clCreateSubBuffer clSetKernelArg clEnqueueTask \
                clEnqueueCopyBuffer clEnqueueFillBuffer clEnqueueMapBuffer clEnqueueUnmapMemObject \
                clEnqueueMarkerWithWaitList clEnqueueBarrierWithWaitList clEnqueueMarker clEnqueueBarrier \
                clEnqueueWaitForEvents clFinish clFlush clWaitForEvents clCreateUserEvent clSetUserEventStatus \
                clGetEventInfo
LEDGER_WRAP := -Wl$(subst $(eval) ,,$(foreach call,$(LEDGER_CALLS),,--wrap=$(call)))

.SECONDARY:
.PHONY: all all-labs $(LABS) solutions grader check clean setup student-release gradescope dist docs bench FORCE
all: $(LAB_BINS) $(SOL_BINS) $(GRADER)
grader: $(GRADER)
$(GRADER): $(RUNNER) $(HOST_FLAGS)
$(LABS): %: build/labs/%/host
all-labs: $(LAB_BINS)
solutions: $(SOL_BINS)

$(LIB): $(COMMON_OBJ)
	@echo "  AR      $@"
	$(Q)$(AR) rcs $@ $^

build/common/%.o: common/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(COMPILE) -c $< -o $@

# A host program finds its kernel beside its source, wherever it is run from.
build/grader/cli/cli.o: KIT_CPPFLAGS += -DCLK_VERSION='"$(VERSION)"'
build/grader/cli/cli.o: VERSION

build/labs/%/host.o build/solutions/%/host.o: KIT_CPPFLAGS += -DCLK_SOURCE_DIR='"$(abspath $(dir $<))"'
build/labs/%/host.o: labs/%/host.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(COMPILE) -c $< -o $@
build/solutions/%/host.o: solutions/%/host.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(COMPILE) -c $< -o $@

# The registry's list of labs, rewritten only when the set of spec files changes.
$(REGISTRY_LIST): FORCE
	@mkdir -p $(@D)
	$(Q){ echo '/* Written by the Makefile from grader/labs/; do not edit. */'; \
	  for lab in $(LABS); do echo "REGISTRY_LAB($$lab)"; done; \
	  echo '#define REGISTRY_LAB_COUNT $(words $(LABS))'; } > $@.$$$$.new && \
	  { cmp -s $@.$$$$.new $@ && rm -f $@.$$$$.new || mv -f $@.$$$$.new $@; }
build/grader/labs/registry.o: $(REGISTRY_LIST)
build/grader/labs/registry.o: KIT_CPPFLAGS += -I$(dir $(REGISTRY_LIST))

# The grader finds the kit through CLKIT_ROOT (set by ./grade), else where it was built.
build/grader/%.o: KIT_CPPFLAGS += -Igrader -DCLK_ROOT='"$(abspath .)"'
build/grader/%.o: grader/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(COMPILE) -c $< -o $@

$(GRADER): $(GRADER_OBJ) $(LIB)
	@echo "  LD      $@"
	$(Q)$(LINK) $(GRADER_OBJ) $(LIB) $(LDLIBS) -o $@

$(RUNNER): $(RUNNER_OBJ) $(LIB)
	@echo "  LD      $@"
	$(Q)$(LINK) $^ $(LDLIBS) -o $@

$(HOST_FLAGS): Makefile
	@mkdir -p $(@D)
	$(Q)printf '%s\n' $(CC) $(filter-out -Icommon,$(KIT_CPPFLAGS)) $(PKG_CFLAGS) $(CPPFLAGS) $(KIT_CFLAGS) $(CFLAGS) -- \
	    $(LEDGER_WRAP) $(LDFLAGS) $(LDLIBS) > $@

# The coalescing plugin for Oclgrind, built where liboclgrind-dev is installed (Oclgrind is built without RTTI).
PLUGIN := $(if $(wildcard /usr/include/oclgrind/Plugin.h),build/grader/oclgrind/libclkit-coalesce.so)
$(GRADER): | $(PLUGIN)
# Where LLVM's headers are (those of the LLVM that Oclgrind links, 14 on Ubuntu 22.04 and 24.04), the plugin tells
# __constant loads from global ones by the instruction (lab 9); without them lab 9 judges only the halo tile.
PLUGIN_LLVM_DIR := $(firstword $(patsubst %/llvm/IR/Instructions.h,%,$(wildcard /usr/lib/llvm-14/include/llvm/IR/Instructions.h /usr/lib/llvm-*/include/llvm/IR/Instructions.h)))
PLUGIN_LLVM := $(if $(PLUGIN_LLVM_DIR),-isystem $(PLUGIN_LLVM_DIR) -DCLKIT_HAVE_LLVM -DLLVM_DISABLE_ABI_BREAKING_CHECKS_ENFORCING=1)
build/grader/oclgrind/libclkit-coalesce.so: grader/oclgrind/coalesce.cpp
	@mkdir -p $(@D)
	@echo "  CXX     $<"
	$(Q)$(CXX) -std=c++17 -O2 -fPIC -fno-rtti -shared -Wall -Wextra -Werror $(PLUGIN_LLVM) $< -loclgrind -o $@

build/%/host: build/%/host.o $(LIB)
	@echo "  LD      $@"
	$(Q)$(LINK) $^ $(LDLIBS) -o $@

# The solutions' host programs, which the grader runs as they are, keep the ledger a submission's is built with.
build/solutions/%/host: build/solutions/%/host.o $(LIB) Makefile
	@echo "  LD      $@"
	$(Q)$(LINK) $(LEDGER_WRAP) $(filter %.o %.a,$^) $(LDLIBS) -o $@

# What the solutions reach on this machine's default device: a table, and docs/results/bench-<device>.*, with
# the device's bar, roofline and matmul ladder charts drawn by docs/charts.py from every bench-*.csv there (the one
# chart writer of that data)
bench: all
	./grade --bench all --bench-out docs/results
	$(Q)python3 docs/charts.py --write

# Installs the Debian/Ubuntu packages the kit needs, or says that they are all there (see ./setup, which needs
# no make and so works on a bare image).
setup:
	@./setup

# The kit's own tests: one Check runner over every tests/check_*.c, linked with common/ and the grader.
# Programs the tests run, each its own main: the Oclgrind plugin's stride probe, a device-memory hog; and a
# measurement of how long a driver takes to start (docs/results/driver-starts-nvidia-h100.txt).
TEST_PROGRAMS := build/tests/stride_probe build/tests/device_hog build/tests/driver_starts
TEST_OBJ    := $(patsubst %.c,build/%.o,$(filter-out $(TEST_PROGRAMS:build/%=%.c),$(wildcard tests/*.c)))
TEST_RUNNER := build/tests/run_tests
GRADER_LIB_OBJ := $(filter-out build/grader/main.o,$(GRADER_OBJ))

CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
build/tests/%.o: KIT_CPPFLAGS += -Igrader $(CHECK_CFLAGS)
build/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(COMPILE) -c $< -o $@

# The suites: one per tests/check_NAME.c, whose NAME_suite() makes it; nothing else lists them.
SUITE_LIST := build/gen/suite_list.h
$(SUITE_LIST): FORCE
	@mkdir -p $(@D)
	$(Q){ echo '/* Written by the Makefile from tests/check_*.c; do not edit. */'; \
	  for suite in $(patsubst tests/check_%.c,%,$(sort $(wildcard tests/check_*.c))); do echo "SUITE($$suite)"; done; } \
	  > $@.$$$$.new && { cmp -s $@.$$$$.new $@ && rm -f $@.$$$$.new || mv -f $@.$$$$.new $@; }
build/tests/run_tests.o: $(SUITE_LIST)
build/tests/run_tests.o: KIT_CPPFLAGS += -I$(dir $(SUITE_LIST))

$(TEST_RUNNER): $(TEST_OBJ) $(GRADER_LIB_OBJ) $(LIB)
	@echo "  LD      $@"
	$(Q)$(LINK) $^ $(CHECK_LIBS) $(LDLIBS) -o $@

ifneq ($(wildcard tests/run_tests.c),)
$(TEST_PROGRAMS): build/tests/%: build/tests/%.o $(LIB)
	@echo "  LD      $@"
	$(Q)$(LINK) $^ $(LDLIBS) -o $@

# The suites (the longest split by case) in processes side by side, CHECK_JOBS at a time: one more than the cores,
# since many tests wait (on a deadline, a sleep, a hang's limit); each unit's log prints whole as it ends.
# build/tests/run_tests alone runs every suite in one process, in turn.
CHECK_JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# The build first, on every core unless make was given -j (a plain make check would build serially, and the fresh
# build is part of its time).
check:
	$(Q)$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1)) \
	  all $(TEST_RUNNER) $(TEST_PROGRAMS)
	$(TEST_RUNNER) --jobs $(CHECK_JOBS)
else
check:
	@echo "check: this is a student release; the kit's own tests ship with the instructor's copy"
endif

# A tree for students: the stubs, common/, kernels/, the grader with its profiles, the handout and the
# classroom workflow; no solutions/ and no tests/ (whose fixtures and checks use the solutions).
DEST ?= dist/clkit-student
RELEASE_FILES := Makefile setup VERSION grade README.md HANDOUT.md .gitignore common kernels labs grader $(wildcard docs)
# Kernels that answer a lab stay out of a student's copy (lab 8's baseline is lab 6's tiled kernel, lab 7's
# going-further transpose a better lab 7, lab 8's warp-tiled matmul a better lab 8, lab 10's replicated bins a better
# lab 10, lab 9's separable filter its halo tile); the Gradescope autograder, which students never see, keeps them.
RELEASE_KEEP_OUT := kernels/matmul_tiled.cl kernels/transpose_wide.cl kernels/matmul_warptile.cl \
                    kernels/histogram_replicated.cl kernels/conv_separable.cl
student-release:
	@test ! -e "$(DEST)" || { echo "student-release: $(DEST) exists; remove it or choose DEST=..."; exit 2; }
	@mkdir -p "$(DEST)/.github/workflows"
	$(Q)tar cf - $(addprefix --exclude=,$(RELEASE_KEEP_OUT)) $(RELEASE_FILES) | tar xf - -C "$(DEST)"
	$(Q)cp .github/classroom/grade.yml "$(DEST)/.github/workflows/classroom.yml"
	@# Without solutions/ and tests/, the README's quick start for instructors has nothing to run: leave it out.
	$(Q)sed -i '/^<!--instructors-->$$/,/^<!--\/instructors-->$$/d' "$(DEST)/README.md"
	@echo "student-release: wrote $(DEST)"

# Gradescope's autograder zip: the student release with setup.sh and run_autograder at its root (Gradescope
# unpacks it into /autograder/source, runs setup.sh once as root, then run_autograder for each submission).
GRADESCOPE_ZIP ?= dist/clkit-gradescope-$(VERSION).zip
# The labs the assignment grades, e.g. GRADESCOPE_LABS="lab3 lab4": its zip grades and totals only them.
GRADESCOPE_LABS ?= all
gradescope:
	@rm -rf build/gradescope && mkdir -p "$(dir $(GRADESCOPE_ZIP))"
	$(Q)$(MAKE) -s student-release DEST=build/gradescope/kit >/dev/null
	$(Q)rm -rf build/gradescope/kit/.github
	$(Q)cp grader/gradescope/setup.sh grader/gradescope/run_autograder build/gradescope/kit/
	$(Q)cp $(RELEASE_KEEP_OUT) build/gradescope/kit/kernels/
	$(Q)echo $(GRADESCOPE_LABS) > build/gradescope/kit/gradescope-labs
	$(Q)rm -f "$(GRADESCOPE_ZIP)" && cd build/gradescope/kit && python3 -m zipfile -c "$(abspath $(GRADESCOPE_ZIP))" $$(ls -A)
	@echo "gradescope: wrote $(GRADESCOPE_ZIP) (upload it as the assignment's autograder)"

# The handout's diagrams, its expected outputs (a real run) and the measured figures the documents quote, filled
# from docs/results (make check fails when they differ). An expected output is made again only where it is stale
# (docs/outputs.py says why); DOCS_ALL=1 makes every one again.
DOCS_WITH_FIGURES := HANDOUT.md README.md
docs:
	$(Q)python3 docs/figures.py --write
	$(Q)python3 docs/charts.py --write
	$(Q)python3 docs/outputs.py --write $(if $(DOCS_ALL),--all) HANDOUT.md
	$(Q)python3 docs/numbers.py --write $(DOCS_WITH_FIGURES)
	$(Q)python3 docs/answers.py --write
	@echo "docs: diagrams and charts drawn, expected outputs run, figures in $(DOCS_WITH_FIGURES) filled from docs/results, labs/*/answers.md from the questions"

# A versioned tarball of the instructor's kit, from the committed tree (tag the commit v$(VERSION)).
dist:
	@mkdir -p dist
	$(Q)git archive --format=tar.gz --prefix=clkit-$(VERSION)/ -o dist/clkit-$(VERSION).tar.gz HEAD
	@echo "dist: wrote dist/clkit-$(VERSION).tar.gz from $$(git rev-parse --short HEAD)"

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
