#!/usr/bin/env bats
# User time and system time told apart (kernel/sched/cputime.c), natively
# and under umk (harness/progs/cputime.c): getrusage, times(),
# /proc/self/stat, wait4's rusage, ITIMER_VIRTUAL on user time and
# ITIMER_PROF on both. The program prints no times, only checks of shape
# (user time far above system time, system time there at all), so both runs
# print the same lines on a loaded machine.

load helper

@test "a process spinning in user space has far more user time than system time" {
	same_as_native $H/cputime user
	refute_output --partial FAILED
}

@test "a process making many cheap system calls has system time in getrusage, times and /proc/PID/stat" {
	same_as_native $H/cputime syscalls
	refute_output --partial FAILED
}

@test "a reaped child's user and system time reach wait4's rusage, RUSAGE_CHILDREN and times" {
	same_as_native $H/cputime child
	refute_output --partial FAILED
}

@test "ITIMER_VIRTUAL does not move during a blocking sleep, and fires while the process spins" {
	same_as_native $H/cputime virtual
	refute_output --partial FAILED
}

@test "ITIMER_PROF does not move during a blocking sleep, and fires while the process spins" {
	same_as_native $H/cputime prof
	refute_output --partial FAILED
}

@test "system time moves ITIMER_PROF and leaves ITIMER_VIRTUAL alone" {
	same_as_native $H/cputime kernel
	assert_line 'ITIMER_VIRTUAL: system time not counted: ok'
	assert_line 'ITIMER_PROF: system time counted: ok'
}
