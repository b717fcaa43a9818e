#!/usr/bin/env bats
# Core dumps (kernel/fs/coredump.c): a signal whose default action dumps
# core writes an ELF core file when RLIMIT_CORE allows, the exit status
# gets the core bit (WCOREDUMP, CLD_DUMPED), and the host's gdb reads the
# file with the program. harness/progs/coredump.c reads the core back;
# its output is the same natively and under umk.

load helper

# The native side writes "core" in the working directory only with the
# kernel's default pattern.
require_core_pattern() {
	[[ $(cat /proc/sys/kernel/core_pattern) == core ]] ||
		skip "the host's kernel.core_pattern is not 'core'"
	[[ $(cat /proc/sys/kernel/core_uses_pid) == 0 ]] ||
		skip "the host's kernel.core_uses_pid is set"
}

@test "without RLIMIT_CORE a fatal SIGSEGV writes no core: CLD_KILLED, no WCOREDUMP" {
	require_core_pattern
	local d=$BATS_TEST_TMPDIR
	same_as_native --rw="$d" $H/coredump nolimit "$d"
	assert_output 'waitid: CLD_KILLED
child: killed by SIGSEGV, WCOREDUMP no
core file: absent'
}

@test "a SIGSEGV with RLIMIT_CORE unlimited writes an ELF core: a status per thread, the signal's siginfo, auxv, the memory" {
	require_core_pattern
	local d=$BATS_TEST_TMPDIR
	same_as_native --rw="$d" $H/coredump segv "$d"
	assert_output 'waitid: CLD_DUMPED
child: killed by SIGSEGV, WCOREDUMP yes
core file: present, mode 0600
ELF: yes, type ET_CORE, machine x86-64
first NT_PRSTATUS: signal SIGSEGV, the child'"'"'s pid: yes, orig_rax none (a fault)
NT_PRPSINFO: coredump, pid the child'"'"'s: yes
NT_SIGINFO: SIGSEGV, code 1, address 0
NT_AUXV: AT_ENTRY present
threads (NT_PRSTATUS notes): 2
PT_LOAD segments: several
the marker'"'"'s bytes at its address: yes
the sleeping thread'"'"'s stack: dumped'
}

@test "SIGQUIT to a task asleep in pause, and abort(), dump core; MADV_DONTDUMP leaves a region out" {
	require_core_pattern
	local d=$BATS_TEST_TMPDIR
	same_as_native --rw="$d" $H/coredump quit "$d"
	assert_line 'child: killed by SIGQUIT, WCOREDUMP yes'
	assert_line "first NT_PRSTATUS: signal SIGQUIT, the child's pid: yes, orig_rax pause"
	same_as_native --rw="$d" $H/coredump abort "$d"
	assert_line 'child: killed by SIGABRT, WCOREDUMP yes'
	same_as_native --rw="$d" $H/coredump dontdump "$d"
	assert_line "the marker's bytes at its address: not dumped"
}

@test "a core written in umk's tmpfs reads back as one written on the host" {
	local d=$BATS_TEST_TMPDIR
	umk $H/coredump segv /tmp
	local in_tmpfs=$output
	umk --rw="$d" $H/coredump segv "$d"
	assert_equal "$in_tmpfs" "$output"
	assert_line 'threads (NT_PRSTATUS notes): 2'
}

@test "the host's gdb opens umk's core with the program: the faulting line and both threads" {
	command -v gdb >/dev/null || skip "no gdb"
	local d=$BATS_TEST_TMPDIR
	umk --rw="$d" $H/coredump segv "$d"
	run timeout 60 gdb -nx -batch -ex 'info threads' -ex bt $H/coredump "$d/core"
	assert_line --partial 'Program terminated with signal SIGSEGV, Segmentation fault.'
	assert_line --regexp '^#0 +0x[0-9a-f]+ in crash_here \(\) at harness/progs/coredump.c:[0-9]+$'
	assert_line --regexp '^\* 1 +LWP 2 +0x[0-9a-f]+ in crash_here \(\) '
	assert_line --regexp '^  2 +LWP 3 '
	assert_line --regexp '^#1 +0x[0-9a-f]+ in main \('
}

@test "the host's bash killed by SIGSEGV under umk leaves a core gdb reads with bash" {
	command -v gdb >/dev/null || skip "no gdb"
	local d=$BATS_TEST_TMPDIR
	umk -s 139 --rw="$d" /bin/bash -c "cd $d && ulimit -c unlimited && kill -SEGV \$\$"
	run timeout 60 gdb -nx -batch -ex bt /bin/bash "$d/core"
	assert_line --partial 'Program terminated with signal SIGSEGV, Segmentation fault.'
	assert_line --regexp '^#0 .* (kill|__GI_kill|syscall) '
}

@test "a bad case is one line on stderr and exit status 99" {
	run -99 $H/coredump nosuch "$BATS_TEST_TMPDIR"
	assert_output "harness: coredump: unknown case 'nosuch'"
}
