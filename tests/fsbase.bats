#!/usr/bin/env bats
# The FS base (docs/design.md, "The FS base"): umk runs with or without
# FSGSBASE, --nofsgsbase forces the arch_prctl path, the kernel never touches
# a program's TLS on either path, and a system call that needs no host
# facility costs no host call but the trap and its rt_sigreturn.

load helper

# Both paths on every host: the default (FSGSBASE where the host has it)
# and the fallback.
PATHS=("" --nofsgsbase)

@test "--help documents --nofsgsbase" {
	umk --help
	assert_output --partial "--nofsgsbase"
	grep -q -- --nofsgsbase README.md || fail "README.md does not mention --nofsgsbase"
}

@test "the kernel leaves a program's TLS area untouched on both paths, traced or not" {
	for p in "${PATHS[@]}"; do
		for t in "" --trace=/dev/null --trace-format=json; do
			same_as_native $p $t $H/fsbase guard
			assert_output --partial "words of the TLS area changed: 0"
		done
	done
	same_as_native --nofsgsbase --clock=virtual --timeline="$BATS_TEST_TMPDIR/t.svg" $H/fsbase guard
}

@test "threads keep their own __thread data and errno through preemption, handlers, sleeps and yields, on both paths" {
	for p in "${PATHS[@]}"; do
		for c in "" --clock=virtual; do
			same_as_native $p $c $H/tlsthreads 8 40
			assert_output "8 threads x 40 rounds: 0 mismatches
every handler ran on a worker, in its own TLS: yes"
		done
	done
}

@test "AT_HWCAP2 offers FSGSBASE only on the path that reads a program's wrfsbase back" {
	umk --nofsgsbase $H/fsbase hwcap
	assert_output "AT_HWCAP2 has FSGSBASE: no"
	# The default path is the host's: where the host offers FSGSBASE, so
	# does umk, and a base set with wrfsbase survives traps.
	same_as_native $H/fsbase hwcap
	if [[ $output == *yes* ]]; then
		assert_line "a base set with wrfsbase survives traps: yes"
	fi
}

@test "on a host that hides FSGSBASE umk takes the arch_prctl path by itself" {
	export LD_PRELOAD=$ROOT/$B/tests/hidefsgsbase.so
	umk $H/fsbase hwcap
	assert_output "AT_HWCAP2 has FSGSBASE: no"
	umk $H/fsbase guard
	assert_output --partial "words of the TLS area changed: 0"
	umk $H/tlsthreads 4 20
	assert_line "4 threads x 20 rounds: 0 mismatches"
	# And it says nothing about it: FSGSBASE is no requirement.
	assert_equal "$stderr" ""
}

@test "an FS base outside the user address space is EPERM for arch_prctl and clone, as on Linux" {
	for p in "${PATHS[@]}"; do
		same_as_native $p $H/fsbase eperm
	done
	assert_line "arch_prctl(ARCH_SET_FS, 1 << 47) = -1 EPERM"
	assert_line "clone(CLONE_VM|CLONE_SETTLS|SIGCHLD, tls 1 << 47) = -1 EPERM"
}

@test "ARCH_GET_GS answers the GS base, 0 for a program that never set it, on both paths" {
	for p in "${PATHS[@]}"; do
		same_as_native $p $H/fsbase gs
	done
	assert_output 'arch_prctl(ARCH_GET_GS, &base) = 0
base: 0
arch_prctl(ARCH_GET_GS, 8) = -1 EFAULT'
}

# host_calls FILE: the host system calls in an strace -c summary, less
# rt_sigreturn (one per trap, the floor).
host_calls() {
	awk '$1 ~ /^[0-9.]+$/ && $NF != "total" && $NF != "rt_sigreturn" { n += $4 }
		END { print n + 0 }' "$1"
}

# strace_bench PATH PROBE N: strace -c of bench PROBE N under umk on PATH,
# in $BATS_TEST_TMPDIR/N.
strace_bench() {
	echo "\$ strace -f -c $UMK $1 $H/bench $2 $3"
	run timeout 60 strace -f -c -o "$BATS_TEST_TMPDIR/$3" $UMK $1 $H/bench "$2" "$3"
	assert_success
	cat "$BATS_TEST_TMPDIR/$3"
}

@test "a getpid costs no host call but the trap and its rt_sigreturn, on both paths" {
	require_umk
	for p in "${PATHS[@]}"; do
		strace_bench "$p" getpid 1000
		strace_bench "$p" getpid 5000
		local few many
		few=$(host_calls "$BATS_TEST_TMPDIR/1000")
		many=$(host_calls "$BATS_TEST_TMPDIR/5000")
		echo "path '${p:-default}': $few host calls for 1000 getpids, $many for 5000"
		# 4000 more getpids, no more host calls (a timer tick may add a few).
		assert [ $((many - few)) -lt 20 ]
		run grep -w rt_sigreturn "$BATS_TEST_TMPDIR/5000"
		assert [ "$(awk '{ print $4 }' <<<"$output")" -ge 5000 ]
	done
}

@test "under --nofsgsbase, switching between two threads loads each FS base once per switch" {
	require_umk
	if umk_asan; then
		skip "under ASan: the switch tells ASan of the stack change, whose runtime needs glibc's FS base (arch/asan.c), so glibc's base is loaded too"
	fi
	run timeout 60 strace -f -c -o "$BATS_TEST_TMPDIR/y" $UMK --nofsgsbase $H/bench yield 2000
	assert_success
	cat "$BATS_TEST_TMPDIR/y"
	run awk '$NF == "arch_prctl" { print $4 }' "$BATS_TEST_TMPDIR/y"
	# 4000 switches: the next thread's base on its way out, and nothing
	# for the switch itself (arch_switch_to runs no glibc).
	assert [ "$output" -ge 4000 ]
	assert [ "$output" -le 4400 ]
}

@test "a switch between two threads makes no host call of its own, on both paths" {
	require_umk
	for p in "${PATHS[@]}"; do
		strace_bench "$p" yield 1000
		strace_bench "$p" yield 5000
		local few many
		few=$(host_calls "$BATS_TEST_TMPDIR/1000")
		many=$(host_calls "$BATS_TEST_TMPDIR/5000")
		# less the one FS base load per switch of the arch_prctl path:
		# --nofsgsbase, and the default on a host without FSGSBASE
		if [[ -n $p ]] || ! grep -qw fsgsbase /proc/cpuinfo; then
			few=$((few - $(awk '$NF == "arch_prctl" { print $4 }' "$BATS_TEST_TMPDIR/1000")))
			many=$((many - $(awk '$NF == "arch_prctl" { print $4 }' "$BATS_TEST_TMPDIR/5000")))
		fi
		echo "path '${p:-default}': $few host calls for 2 x 1000 yields, $many for 2 x 5000"
		# 8000 more switches: no rt_sigprocmask (swapcontext made one per
		# switch); the slice timer's reprogramming may add a few.
		assert [ $((many - few)) -lt 400 ]
	done
}

@test "under --nofsgsbase, a lone sleeper's wake-ups load no FS base: idle and the host timer run no glibc" {
	# Each 1 ms sleep: the trap, idle's wait on the host, the timer
	# interrupt, back to the same task. Nothing there needs glibc's base,
	# so the user's stays loaded and __restore_rt has nothing to set (each
	# cost 2 arch_prctl before: 3.6 us apiece on a PVM guest).
	require_umk
	if umk_asan; then
		skip "under ASan: the switches to and from idle tell ASan of the stack change, whose runtime needs glibc's FS base (arch/asan.c)"
	fi
	local n
	for n in 10 60; do
		run timeout 60 strace -f -c -o "$BATS_TEST_TMPDIR/$n" $UMK --nofsgsbase $H/sleepers 1 $n
		assert_success
		cat "$BATS_TEST_TMPDIR/$n"
	done
	local few many
	few=$(awk '$NF == "arch_prctl" { print $4 }' "$BATS_TEST_TMPDIR/10")
	many=$(awk '$NF == "arch_prctl" { print $4 }' "$BATS_TEST_TMPDIR/60")
	echo "arch_prctl: $few for 10 sleeps, $many for 60"
	assert_equal "$many" "$few"
	# the sleeps did wait on the host, each on a timer it armed
	run awk '$NF == "rt_sigsuspend" || $NF == "timer_settime" { print $NF, $4 }' "$BATS_TEST_TMPDIR/60"
	assert_line --regexp '^rt_sigsuspend ([6-9][0-9]|[1-9][0-9][0-9])$'
	assert_line --regexp '^timer_settime ([6-9][0-9]|[1-9][0-9][0-9])$'
}
