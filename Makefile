# umk: a process-hosted mini kernel for Linux's system-call restart mechanism.
#
#   make            build build/umk and the user programs in build/harness/
#   make run        build, then run the demo under umk with the trace on,
#                   drawing its timeline in build/demo.svg
#   make shell [TRACE=FILE]   busybox's shell under umk on this terminal
#   make test       build, then run every Bats test in tests/
#   make bench [PEERS="uml gvisor"]   build, then measure umk beside the host
#                   and the peers: build/bench/BENCH.md (harness/bench/bench.sh)
#   make gdb PROG=build/harness/hello [ARGS=...] [CLOCK=host]   debug umk running PROG
#   make SANITIZE=undefined [test]   the same with UBSan in arch/ and kernel/,
#                   in build-ubsan/ (BUILD=DIR chooses another directory)
#   make SANITIZE=address [test]   the same with ASan, in build-asan/; the
#                   user window is then the 2 GiB below ASan's shadow
#                   (include/umk/mm.h), and two tests say why they skip
#   make fuzz [FUZZ_SECONDS=600]   fuzz the ELF loader's checks (libFuzzer)
#                   and the system calls (build/harness/fuzz), each that long
#   make fuzz-coverage [FUZZ_SECONDS=60]   the system-call fuzzer under a
#                   umk built with gcov (COVERAGE=1, in build-cov/): the
#                   lines of kernel/ it reached, per file and in all
#   make WERROR=1 ...   the same with every warning an error (-Werror) in
#                   umk, the vDSO, the unit tests and the harness (all but
#                   make fuzz's clang); .ci/run builds so
#
# Each target's headers come from the compiler (-MMD -MP, in TARGET.d
# beside it: build/kernel/pid.o.d): touching a header rebuilds only what
# includes it. The build's scripts are in scripts/ (the wall check);
# kernel/syscalltbl.sh generates the system-call headers and the fuzzer's
# list from kernel/syscall_64.tbl.
#
# kernel/ is built against include/, the headers generated into
# $(BUILD)/include/generated/ and the compiler's freestanding headers only
# (-nostdinc): a host header included there fails the build. arch/ is the
# only code built against the host's headers.

CC      := gcc
MUSLCC  := musl-gcc
SANITIZE ?=
COVERAGE ?=
ifneq ($(COVERAGE),)
ifneq ($(SANITIZE),)
$(error COVERAGE=$(COVERAGE) and SANITIZE=$(SANITIZE): one at a time)
endif
BUILD   := build-cov
else ifeq ($(SANITIZE),)
BUILD   := build
else ifeq ($(SANITIZE),undefined)
BUILD   := build-ubsan
else ifeq ($(SANITIZE),address)
BUILD   := build-asan
else
$(error SANITIZE=$(SANITIZE): only SANITIZE=undefined and SANITIZE=address are supported)
endif
GCC_INC := $(shell $(CC) -print-file-name=include)

WERROR ?=
WERROR_CFLAGS := $(if $(WERROR),-Werror)
COMMON_CFLAGS := -std=gnu11 -Og -g3 -fno-omit-frame-pointer -Wall -Wextra $(WERROR_CFLAGS) \
	-Wno-unused-parameter -Werror=implicit-function-declaration \
	-Werror=missing-prototypes -Iinclude -I$(BUILD)/include
# The headers each target includes, written beside it as TARGET.d and read
# back at the end (-include). A target whose .d is missing (built before
# the Makefile made them) is rebuilt: it names its .d as a prerequisite.
DEPFLAGS = -MMD -MP -MF $@.d -MT $@
KERNEL_CFLAGS := $(COMMON_CFLAGS) -ffreestanding -nostdinc -isystem $(GCC_INC) \
	-fno-stack-protector
ARCH_CFLAGS   := $(COMMON_CFLAGS) -D_GNU_SOURCE -fno-stack-protector
# Every arch/ function loads the kernel's FS base before its body runs,
# unless marked __tls_free (arch/fsbase.c, docs/design.md "The FS base").
ARCH_KCFLAGS  := $(ARCH_CFLAGS) -finstrument-functions
LDFLAGS       := -g -rdynamic
LDLIBS        :=

# SANITIZE=undefined: UBSan in umk's own code (arch/, kernel/), not in the
# user programs, the vDSO or the renderer. A report stops umk at once. Its
# handlers run glibc and libubsan, so they must not run on a user's FS base
# (docs/design.md "The FS base"): the linker sends every handler call to
# arch/ubsan.c's __wrap_ functions, instrumented arch/ code that loads
# glibc's FS base first. UBSAN_HANDLERS lists them; the wall check fails the
# build if umk calls a handler the list lacks.
UBSAN_HANDLERS := $(addprefix __ubsan_handle_,add_overflow_abort sub_overflow_abort \
	mul_overflow_abort negate_overflow_abort divrem_overflow_abort \
	shift_out_of_bounds_abort out_of_bounds_abort type_mismatch_v1_abort \
	pointer_overflow_abort load_invalid_value_abort builtin_unreachable missing_return \
	vla_bound_not_positive_abort nonnull_arg_abort nonnull_return_v1_abort \
	invalid_builtin_abort float_cast_overflow_abort alignment_assumption_abort)
comma := ,
ifeq ($(SANITIZE),undefined)
SAN_CFLAGS  := -fsanitize=undefined -fno-sanitize-recover=all -DUMK_UBSAN
SAN_LDFLAGS := -fsanitize=undefined
KERNEL_CFLAGS += $(SAN_CFLAGS)
ARCH_KCFLAGS  += $(SAN_CFLAGS)
LDFLAGS       += $(SAN_LDFLAGS) $(addprefix -Wl$(comma)--wrap=,$(UBSAN_HANDLERS))
WALL_ALLOWED  := $(UBSAN_HANDLERS)
endif
# SANITIZE=address: ASan in umk's own code (arch/, kernel/), with the user
# window below ASan's shadow (include/umk/mm.h). Its runtime calls that use
# TLS (a report, unpoisoning the stack before a noreturn call) go through
# arch/asan.c's __wrap_ functions, which load glibc's FS base first, as
# UBSan's handlers do; ASAN_WRAPPED lists them, the other __asan_ symbols
# kernel/ may import (ASAN_ALLOWED) touch no TLS or run only before main.
ASAN_WRAPPED := __asan_handle_no_return $(foreach a,load store, \
	$(addprefix __asan_report_$(a),1 2 4 8 16 _n))
ASAN_ALLOWED := __asan_init __asan_version_mismatch_check_v8 __asan_register_globals \
	__asan_unregister_globals __asan_poison_stack_memory __asan_unpoison_stack_memory
ifeq ($(SANITIZE),address)
SAN_CFLAGS  := -fsanitize=address --param asan-use-after-return=0 -DUMK_ASAN
SAN_LDFLAGS := -fsanitize=address
KERNEL_CFLAGS += $(SAN_CFLAGS)
ARCH_KCFLAGS  += $(SAN_CFLAGS)
LDFLAGS       += $(SAN_LDFLAGS) $(addprefix -Wl$(comma)--wrap=,$(ASAN_WRAPPED))
WALL_ALLOWED  := $(ASAN_WRAPPED) $(ASAN_ALLOWED)
endif

# COVERAGE=1: gcov's counters in kernel/ (plain global increments: no TLS,
# no call), written out by arch/boot.c's os_exit (__gcov_dump), which the
# wall lets kernel/'s objects name; `make fuzz-coverage` reads them. The
# unit tests link kernel/ objects with SAN_LDFLAGS, so libgcov goes there.
ifneq ($(COVERAGE),)
SAN_LDFLAGS   := --coverage
KERNEL_CFLAGS += --coverage
ARCH_KCFLAGS  += -DUMK_COVERAGE
LDFLAGS       += $(SAN_LDFLAGS)
WALL_ALLOWED  := __gcov_init __gcov_exit __gcov_merge_add
endif

KERNEL_SRCS := $(sort $(wildcard kernel/*.c kernel/*/*.c))
ARCH_SRCS   := $(sort $(wildcard arch/*.c arch/*.S))
OBJS := $(patsubst %.c,$(BUILD)/%.o,$(patsubst %.S,$(BUILD)/%.o,$(KERNEL_SRCS) $(ARCH_SRCS)))

# User programs: static-pie musl executables. Debian's musl-gcc -static-pie
# alone makes a dynamically linked PIE that needs /lib/ld-musl-x86_64.so.1;
# naming musl's self-relocating rcrt1.o and the linker options makes a real
# one (readelf -l: type DYN, no INTERP segment).
MUSL_LIB   := /usr/lib/x86_64-linux-musl
USER_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra $(WERROR_CFLAGS) -Wno-unused-parameter -fPIE -static-pie
USER_LDFLAGS := -nostartfiles -Wl,-static,-pie,--no-dynamic-linker,-z,text
USER_PRE  = $(MUSL_LIB)/rcrt1.o $(MUSL_LIB)/crti.o $(shell $(CC) -print-file-name=crtbeginS.o)
USER_POST = $(shell $(CC) -print-file-name=crtendS.o) $(MUSL_LIB)/crtn.o
# harness/progs/ holds the test programs, harness/bench/ and harness/fuzz/
# the programs of make bench and make fuzz: each .c file is one program,
# built as build/harness/NAME whichever folder it is in.
HARNESS_PROG_DIRS := harness/progs harness/bench harness/fuzz
HARNESS_SRCS := $(sort $(wildcard $(HARNESS_PROG_DIRS:%=%/*.c)))
HARNESS_COMMON := $(wildcard harness/lib/*.c)
# A program of several files is a directory with a main.c: harness/NAME/.
# harness/umk-trace/ is one: the trace renderer, run on the host (umk spawns
# it for --timeline and --trace-format=chrome, from build/harness/).
HARNESS_DIRS := $(patsubst %/main.c,%,$(wildcard harness/*/main.c))
HARNESS_PROGS := $(addprefix $(BUILD)/harness/,$(basename $(notdir $(HARNESS_SRCS)))) \
	$(patsubst harness/%,$(BUILD)/harness/%,$(HARNESS_DIRS))
GDB_CONSTANTS := $(BUILD)/gdb/umk/constants.py
# Generated from kernel/syscall_64.tbl, the one list of system calls.
GENERATED := $(BUILD)/include/generated
# fuzz_calls.h is the system-call fuzzer's (harness/fuzz/fuzz.c).
SYSCALL_HEADERS := $(GENERATED)/unistd_64.h $(GENERATED)/syscalls_64.h $(GENERATED)/fuzz_calls.h
# Broken ELF programs, generated by tests/fuzz/elf_seeds.py.
ELF_SEEDS := $(BUILD)/tests/elf-seeds
# Unit tests: host programs, built as $(BUILD)/tests/NAME (below).
UNIT_TESTS := $(addprefix $(BUILD)/tests/,restart_decision nosud timerqueue vma_tree trace_clock \
	pid elf_replay vsprintf hidefsgsbase.so host_socket)

DYN := $(BUILD)/dyn
DYN_PROGS := $(DYN)/libumkdyn.so $(DYN)/needlib $(DYN)/badinterp $(DYN)/leak $(DYN)/libaio \
	$(DYN)/pthread

.PHONY: all run test bench gdb deps clean plain fuzz fuzz-deps fuzz-coverage shell
all: $(BUILD)/umk $(HARNESS_PROGS) $(UNIT_TESTS) $(ELF_SEEDS)/.stamp $(GDB_CONSTANTS) $(DYN_PROGS)

# umk-eintr (harness/umk-eintr/, README.md): a Python 3 host tool that sweeps
# a program's blocking calls with umk --inject; it finds umk beside itself.
all: $(BUILD)/umk-eintr
$(BUILD)/umk-eintr: harness/umk-eintr/umk-eintr.py | $(BUILD)/harness
	@echo "  INSTALL $@"
	$(Q)python3 -c 'import concurrent.futures, difflib, json, shlex' 2>/dev/null \
		|| { echo "make: umk-eintr needs python3 (Debian package python3)" >&2; exit 1; }
	$(Q)install -m 755 $< $@

# Dynamically linked host programs (gcc and the host's C library, not
# musl), for the dynamic loader's tests: needlib finds libumkdyn.so beside
# it; badinterp names a PT_INTERP that does not exist; leak is valgrind's
# patient (tests/valgrind.bats), built without optimisation so that its
# lost block and its uninitialized read stay; libaio uses Debian's libaio
# (tests/aio.bats); pthread makes a thread with glibc's pthread_create
# (tests/clone3.bats).
$(DYN):
	$(Q)mkdir -p $@

$(DYN)/libumkdyn.so: harness/progs/dyn/libumkdyn.c | $(DYN)
	@echo "  CC      $@"
	$(Q)$(CC) -O1 -fPIC -shared -o $@ $<

$(DYN)/needlib: harness/progs/dyn/needlib.c $(DYN)/libumkdyn.so | $(DYN)
	@echo "  CC      $@"
	$(Q)$(CC) -O1 -o $@ $< -L$(DYN) -lumkdyn -Wl,-rpath,'$$ORIGIN'

$(DYN)/badinterp: harness/progs/dyn/needlib.c $(DYN)/libumkdyn.so | $(DYN)
	@echo "  CC      $@"
	$(Q)$(CC) -O1 -o $@ $< -L$(DYN) -lumkdyn -Wl,-rpath,'$$ORIGIN' \
		-Wl,--dynamic-linker=/no/such/ld-linux-x86-64.so.2

$(DYN)/leak: harness/progs/dyn/leak.c | $(DYN)
	@echo "  CC      $@"
	$(Q)$(CC) -O0 -g -o $@ $<

$(DYN)/libaio: harness/progs/dyn/libaio.c | $(DYN) deps
	@echo "  CC      $@"
	$(Q)$(CC) -O1 -o $@ $< -laio

$(DYN)/pthread: harness/progs/dyn/pthread.c | $(DYN)
	@echo "  CC      $@"
	$(Q)$(CC) -O1 -pthread -o $@ $<

# V=1 shows the commands.
Q := $(if $(V),,@)

$(BUILD)/umk: $(OBJS) $(BUILD)/wall.ok
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

# The wall around kernel/ (docs/design.md "The FS base"), checked by
# scripts/check-wall.sh (its header lists the rules): kernel objects may
# take from outside umk only these C library functions, which touch no
# thread-local state; everything else comes from kernel/ or arch/. No
# object of umk's has a %fs operand: only glibc and user programs use %fs.
# And arch/ sees the kernel only through its interface headers.
KERNEL_HOST_SYMBOLS := memcmp memcpy memmove memset strcmp strlen strncmp strnlen strrchr
$(BUILD)/wall.ok: $(OBJS) scripts/check-wall.sh
	@echo "  CHECK   the host wall"
	$(Q)WALL_HOST_SYMBOLS="$(KERNEL_HOST_SYMBOLS) $(WALL_ALLOWED)" \
		WALL_UBSAN_HANDLERS="$(UBSAN_HANDLERS)" WALL_ASAN_WRAPPED="$(ASAN_WRAPPED)" \
		sh scripts/check-wall.sh $(BUILD) $(OBJS) $(wildcard arch/*.c arch/*.h arch/*.S)
	$(Q)touch $@

# The generated headers are order-only prerequisites: they must exist
# before the first build compiles anything; after it, each target's .d
# names those it includes.
$(BUILD)/kernel/%.o: kernel/%.c $(BUILD)/kernel/%.o.d | $(BUILD)/kernel $(SYSCALL_HEADERS)
	@echo "  CC      $<"
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(KERNEL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/arch/%.o: arch/%.c $(BUILD)/arch/%.o.d | $(BUILD)/arch $(SYSCALL_HEADERS)
	@echo "  CC      $<"
	$(Q)$(CC) $(ARCH_KCFLAGS) $(DEPFLAGS) -c -o $@ $<

# The vDSO (arch/vdso/): a small shared object that runs in user mode with
# the user's FS base and stack, so no stack protector, no C library, no
# instrumentation. Linked at 0 with its data page below it (vdso.lds); the
# image must need no relocation and have no %fs operand. arch/vdso_image.S
# embeds it in umk.
VDSO_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra $(WERROR_CFLAGS) -Wno-unused-parameter -Werror=missing-prototypes -fPIC \
	-ffreestanding -nostdinc -isystem $(GCC_INC) -Iinclude -fno-stack-protector \
	-fno-builtin -fcf-protection=none -fasynchronous-unwind-tables -fno-omit-frame-pointer
VDSO_LDFLAGS := -nostdlib -shared -Wl,--hash-style=both -Wl,-soname=linux-vdso.so.1 \
	-Wl,--version-script=arch/vdso/vdso.map -Wl,-T,arch/vdso/vdso.lds -Wl,-Bsymbolic \
	-Wl,--eh-frame-hdr -Wl,-z,noexecstack -Wl,--build-id=sha1 -Wl,--no-undefined
$(BUILD)/arch/vdso/vdso.so: arch/vdso/vclock_gettime.c arch/vdso/vdso.lds arch/vdso/vdso.map \
		$(BUILD)/arch/vdso/vdso.so.d
	@echo "  VDSO    $@"
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(VDSO_CFLAGS) $(DEPFLAGS) $(VDSO_LDFLAGS) -o $@.tmp arch/vdso/vclock_gettime.c
	$(Q)if readelf -rW $@.tmp | grep -q 'R_X86_64'; then \
		echo "make: the vDSO needs relocations: $$(readelf -rW $@.tmp | grep R_X86_64)" >&2; \
		exit 1; fi
	$(Q)if objdump -d $@.tmp | grep -q '%fs[:,]'; then \
		echo "make: the vDSO uses %fs (it runs on the user's FS base)" >&2; exit 1; fi
	$(Q)mv $@.tmp $@

$(BUILD)/arch/vdso_image.o: $(BUILD)/arch/vdso/vdso.so
$(BUILD)/arch/vdso_image.o: ARCH_CFLAGS += -Wa,-I$(BUILD)/arch/vdso

$(BUILD)/arch/%.o: arch/%.S $(BUILD)/arch/%.o.d | $(BUILD)/arch $(SYSCALL_HEADERS)
	@echo "  AS      $<"
	$(Q)$(CC) $(ARCH_CFLAGS) $(DEPFLAGS) -c -o $@ $<

define harness_prog_rule
$$(BUILD)/harness/%: $(1)/%.c $$(HARNESS_COMMON) $$(wildcard harness/lib/*.h) | $$(BUILD)/harness deps
	@echo "  MUSLCC  $$<"
	$$(Q)$$(MUSLCC) $$(USER_CFLAGS) -Iharness/lib -Iinclude $$(USER_LDFLAGS) -o $$@ $$(USER_PRE) $$< \
		$$(HARNESS_COMMON) $$(USER_POST)
endef
$(foreach d,$(HARNESS_PROG_DIRS),$(eval $(call harness_prog_rule,$(d))))

# The system-call fuzzer's list of calls and argument types, from the table.
$(BUILD)/harness/fuzz: $(GENERATED)/fuzz_calls.h
$(BUILD)/harness/fuzz: USER_CFLAGS += -I$(GENERATED)

# Unit tests: tests/unit/NAME.c, a host program, linked with the objects
# named below as prerequisites of $(BUILD)/tests/NAME (kernel files with no
# dependencies), with its UNIT_FLAGS.
$(BUILD)/tests/restart_decision: $(BUILD)/kernel/signal/restart.o
$(BUILD)/tests/timerqueue: $(BUILD)/kernel/lib/timerqueue.o
$(BUILD)/tests/vma_tree: $(BUILD)/kernel/mm/vma_tree.o
$(BUILD)/tests/pid: $(BUILD)/kernel/pid.o
# arch/time.c's trace clock against the host's CLOCK_MONOTONIC.
$(BUILD)/tests/trace_clock: $(BUILD)/arch/time.o
$(BUILD)/tests/trace_clock: UNIT_FLAGS := -ldl
# arch/net.c's host sockets: never waiting, SIGIO for each change.
$(BUILD)/tests/host_socket: $(BUILD)/arch/net.o
# The kernel's formatter (ksnprintf) against glibc's snprintf.
$(BUILD)/tests/vsprintf: $(BUILD)/kernel/lib/vsprintf.o
$(BUILD)/tests/vsprintf: UNIT_FLAGS := -Wno-format
# A host without Syscall User Dispatch, faked with seccomp (nosud), and a
# host without FSGSBASE, faked by hiding it from getauxval (a library umk
# preloads): no sanitizer's runtime in either.
$(BUILD)/tests/nosud $(BUILD)/tests/hidefsgsbase.so: SAN_LDFLAGS :=
$(BUILD)/tests/hidefsgsbase.so: UNIT_FLAGS := -shared -fPIC
# kernel/fs/binfmt_elf.c's header checks on files, outside umk
# (tests/fuzz/elf_fuzz.c, also make fuzz's target), and the broken programs
# they are checked on.
$(BUILD)/tests/elf_replay: UNIT_FLAGS := -DELF_REPLAY
define unit_test
	@echo "  CC      $<"
	$(Q)$(CC) $(ARCH_CFLAGS) $(DEPFLAGS) $(SAN_LDFLAGS) -o $@ $(filter %.c %.o,$^) $(UNIT_FLAGS)
endef
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/tests/%.d | $(BUILD)/tests $(SYSCALL_HEADERS)
	$(unit_test)
$(BUILD)/tests/%.so: tests/unit/%.c $(BUILD)/tests/%.so.d | $(BUILD)/tests
	$(unit_test)
$(BUILD)/tests/elf_replay: tests/fuzz/elf_fuzz.c $(BUILD)/kernel/fs/binfmt_elf.o \
		$(BUILD)/tests/elf_replay.d | $(BUILD)/tests $(SYSCALL_HEADERS)
	$(unit_test)

$(ELF_SEEDS)/.stamp: tests/fuzz/elf_seeds.py $(BUILD)/harness/hello | deps
	@echo "  GEN     $(ELF_SEEDS)/"
	$(Q)rm -rf $(ELF_SEEDS) && python3 $< $(BUILD)/harness/hello $(ELF_SEEDS) && touch $@

# $$ expands at the second pass: each program's own files.
.SECONDEXPANSION:
$(patsubst harness/%,$(BUILD)/harness/%,$(HARNESS_DIRS)): $(BUILD)/harness/%: \
		$$(wildcard harness/%/*.c harness/%/*.h) $(HARNESS_COMMON) $(wildcard harness/lib/*.h) \
		$(wildcard include/umk/uapi/*.h) \
		| $(BUILD)/harness deps
	@echo "  MUSLCC  harness/$*/"
	$(Q)$(MUSLCC) $(USER_CFLAGS) -Iharness/lib -Iinclude $(USER_LDFLAGS) -o $@ $(USER_PRE) \
		$(wildcard harness/$*/*.c) $(HARNESS_COMMON) $(USER_POST)

# gdb's Python helpers (harness/gdb/umk/) take umk's constants from the C
# headers through the preprocessor, as Linux's scripts/gdb does: the lines
# above the end-c-headers marker are the headers' own output.
$(GDB_CONSTANTS): harness/gdb/umk/constants.py.in $(GDB_CONSTANTS).d | $(BUILD)/gdb/umk $(SYSCALL_HEADERS)
	@echo "  GEN     $@"
	$(Q)$(CC) -E -P -x c -ffreestanding -nostdinc -isystem $(GCC_INC) -Iinclude -I$(BUILD)/include \
		$(DEPFLAGS) -o $@.i $<
	$(Q)sed '1,/^<!-- end-c-headers -->$$/d' $@.i > $@.tmp
	$(Q)mv $@.tmp $@ && rm -f $@.i

# The numbers, names and call table of every system call, from the one
# table (kernel/syscall_64.tbl); a malformed line stops the build there.
$(SYSCALL_HEADERS) &: kernel/syscall_64.tbl kernel/syscalltbl.sh | $(GENERATED)
	@echo "  SYSTBL  $<"
	$(Q)sh kernel/syscalltbl.sh $< $(GENERATED)

$(BUILD)/kernel $(BUILD)/arch $(BUILD)/harness $(BUILD)/tests $(BUILD)/gdb/umk $(GENERATED):
	$(Q)mkdir -p $@

# Debian packages the build and the tests need: command:package pairs.
DEPS := musl-gcc:musl-tools bats:bats /usr/lib/bats/bats-assert/load.bash:bats-assert \
	/usr/lib/bats/bats-support/load.bash:bats-support gdb:gdb strace:strace \
	xmllint:libxml2-utils python3:python3 \
	/usr/share/doc/busybox-static:busybox-static tmux:tmux valgrind:valgrind \
	/usr/include/libaio.h:libaio-dev
deps:
	@for d in $(DEPS); do \
	  c=$${d%%:*}; p=$${d##*:}; \
	  if [ -e "$$c" ] || command -v "$$c" >/dev/null 2>&1; then continue; fi; \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "make: installing Debian package $$p"; \
	    (apt-get install -y -qq "$$p" || (apt-get update -qq && apt-get install -y -qq "$$p")) >/dev/null 2>&1 \
	      || { echo "make: cannot install Debian package $$p: install it and retry" >&2; exit 1; }; \
	  else echo "make: missing $$c: install the Debian package $$p" >&2; exit 1; fi; \
	done

run: all
	$(BUILD)/umk --trace --timeline $(BUILD)/demo.svg $(BUILD)/harness/demo
	@echo "make: the run's timeline is $(BUILD)/demo.svg (open it in a browser)"

# busybox's shell under umk, on this terminal, with job control: ^Z, fg,
# bg, jobs (docs/usage.md, "A shell on a terminal"). TRACE=FILE traces it.
BUSYBOX ?= /bin/busybox
shell: all
	$(BUILD)/umk $(if $(TRACE),--trace=$(TRACE)) $(BUSYBOX) sh

# The second pass runs the tests of threads, signals, restarts and the trace
# again on the FS base path of hosts without FSGSBASE (docs/design.md). On
# such a host the first pass ran that path already, so there is no second.
NOFSGSBASE_TESTS := differential epoll matrix process restart resume scenario sched select signals syscalls trace
# UMK_BUILD tells the tests which build to run (build-ubsan/ or build-asan/
# for SANITIZE).
# The tests of the build itself (the wall, the syscall table, make run and
# make gdb) check the plain build in build/, which SANITIZE=... test makes
# too.
# The tests' own make commands must not inherit SANITIZE.
TEST_ENV := env -u MAKEFLAGS -u MAKEOVERRIDES -u MFLAGS -u SANITIZE -u BUILD UMK_BUILD=$(BUILD)
test: all $(if $(SANITIZE),plain)
	$(TEST_ENV) bats tests/
	@if grep -qw fsgsbase /proc/cpuinfo; then \
		echo "# again with umk --nofsgsbase: $(NOFSGSBASE_TESTS)"; \
		$(TEST_ENV) UMK_OPTS=--nofsgsbase bats $(NOFSGSBASE_TESTS:%=tests/%.bats); \
	else \
		echo "# no --nofsgsbase pass: this host has no FSGSBASE, so the first pass took that path"; \
	fi

plain:
	$(MAKE) SANITIZE= BUILD=build all

# Every probe of harness/bench/bench.probes natively, under umk and under the
# PEERS asked for ("uml gvisor": their Debian packages user-mode-linux and
# runsc, which make bench never installs), pinned to one CPU, interleaved,
# ROUNDS times: build/bench/BENCH.md and build/bench/bench.svg. N, ROUNDS,
# PROBES and the others harness/bench/bench.sh lists reach it from the command
# line (make bench N=1000 ROUNDS=1 PROBES=getpid).
PEERS ?=
bench: all
	PEERS="$(PEERS)" BUILD=$(BUILD) harness/bench/bench.sh

# umk runs on its virtual clock under gdb: time stands still while gdb holds
# it at a breakpoint, so no timer fires behind the debugger's back.
# CLOCK=host runs it on the host's clock.
PROG ?= $(BUILD)/harness/hello
CLOCK ?= virtual
gdb: all
	gdb -q -x harness/gdb/umk.gdb --args $(BUILD)/umk --clock=$(CLOCK) $(PROG) $(ARGS)

# Fuzzing. The ELF target is kernel/fs/binfmt_elf.c itself, built by clang
# with libFuzzer, ASan and UBSan, run with the generated broken programs,
# the harness programs, the host's busybox if it has one, and
# tests/elf-regress/ as seeds; what it finds (crash-*, timeout-*, oom-*
# and leak-* files) lands in tests/elf-regress/, which
# tests/elf_loader.bats replays: commit them with the fix. Then the
# system-call fuzzer runs under umk for as long, from a seed taken from the
# clock and printed first: sh harness/fuzz/fuzz-umk.sh build/umk
# build/harness/fuzz -s SEED -t SECONDS runs the same calls again (the
# signals' timing differs).
FUZZ_SECONDS ?= 30
CLANG := clang
FUZZ := $(BUILD)/fuzz
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Wno-unused-parameter \
	-Werror=missing-prototypes -fsanitize=address,undefined -fno-sanitize-recover=all \
	-Iinclude -I$(BUILD)/include

fuzz-deps:
	@$(MAKE) -s deps DEPS="clang:clang"
	@v=$$($(CLANG) -dumpversion | cut -d. -f1); r=$$($(CLANG) -print-resource-dir); \
	$(MAKE) -s deps DEPS="$$r/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-$$v-dev"

$(FUZZ)/binfmt_elf.o: kernel/fs/binfmt_elf.c $(FUZZ)/binfmt_elf.o.d | fuzz-deps $(SYSCALL_HEADERS)
	@echo "  CLANG   $<"
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link -ffreestanding -nostdinc \
		-isystem $$($(CLANG) -print-resource-dir)/include -c -o $@ $<

$(FUZZ)/elf_fuzz: tests/fuzz/elf_fuzz.c $(FUZZ)/binfmt_elf.o $(FUZZ)/elf_fuzz.d
	@echo "  CLANG   $<"
	$(Q)$(CLANG) $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer -D_GNU_SOURCE -o $@ $< $(FUZZ)/binfmt_elf.o

fuzz: all $(FUZZ)/elf_fuzz
	$(Q)mkdir -p $(FUZZ)/elf-corpus $(FUZZ)/elf-seeds tests/elf-regress
	$(Q)cp $(ELF_SEEDS)/* $(filter-out $(BUILD)/harness/umk-trace,$(HARNESS_PROGS)) \
		$(firstword $(wildcard /bin/busybox /usr/bin/busybox)) $(FUZZ)/elf-seeds/
	$(FUZZ)/elf_fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=5 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix=tests/elf-regress/ \
		$(FUZZ)/elf-corpus $(FUZZ)/elf-seeds tests/elf-regress
	sh harness/fuzz/fuzz-umk.sh $(BUILD)/umk $(BUILD)/harness/fuzz -s $$(date +%s) -n 1000 \
		-t $(FUZZ_SECONDS) -v

# The system-call fuzzer's reach: kernel/'s lines that a run of
# FUZZ_SECONDS executed (gcov), with the seed printed first as make fuzz
# does. Counts start from zero at each run.
fuzz-coverage:
	$(Q)$(MAKE) -s COVERAGE=1 all
	$(Q)find build-cov/kernel -name '*.gcda' -delete
	sh harness/fuzz/fuzz-umk.sh build-cov/umk build-cov/harness/fuzz -s $$(date +%s) -n 1000 \
		-t $(FUZZ_SECONDS)
	$(Q)cd build-cov && for f in $(KERNEL_SRCS); do gcov -n -o $$(dirname $$f) ../$$f; done 2>/dev/null | \
		awk '/^File/ { f = $$2; gsub("\047", "", f) } \
		/^Lines executed/ && f ~ /^kernel\// { split($$2, a, ":"); n = $$4; \
		printf "fuzz-coverage: %-32s %5.1f%% of %4d lines\n", f, a[2], n; \
		H += a[2] * n / 100; N += n; f = "" } \
		END { printf "fuzz-coverage: kernel/ in all: %.0f of %d lines (%.1f%%)\n", H, N, 100 * H / N }'

clean:
	rm -rf $(BUILD)

# Every .d a target names: a missing one is "made" by doing nothing, which
# remakes the target (DEPFLAGS).
DEPFILES := $(addsuffix .d,$(OBJS) $(UNIT_TESTS) $(BUILD)/arch/vdso/vdso.so $(GDB_CONSTANTS) \
	$(FUZZ)/binfmt_elf.o $(FUZZ)/elf_fuzz)
$(DEPFILES):
-include $(wildcard $(DEPFILES))
