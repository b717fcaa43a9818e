#!/usr/bin/env bats
# Scheduling policies (harness/progs/schedpol.c): the calls and their errors, and
# what kernel/sched/core.c does with SCHED_FIFO, SCHED_RR, SCHED_OTHER and nice
# values. Natively the programs run pinned to CPU 0 (umk has one CPU) and
# as root, which real-time policies need; the order of the lines they print
# is the order their threads ran in.

load helper

@test "policies, priorities, nice values and affinity: results and Linux's errors" {
	same_as_native -p $H/schedpol calls
	assert_output 'priority range FIFO 1..99, RR 1..99, OTHER 0..0, BATCH 0..0, IDLE 0..0
sched_get_priority_max(4) = -1 EINVAL
sched_get_priority_min(-1) = -1 EINVAL
sched_getscheduler(0) = 0
sched_getparam(0) = 0
  priority 0
sched_setscheduler(0, FIFO, 0) = -1 EINVAL
sched_setscheduler(0, OTHER, 5) = -1 EINVAL
sched_setscheduler(0, FIFO, 100) = -1 EINVAL
sched_setscheduler(0, FIFO, -1) = -1 EINVAL
sched_setscheduler(0, 4, 0) = -1 EINVAL
sched_setscheduler(0, -1, 0) = -1 EINVAL
sched_setscheduler(0, DEADLINE, 0) = -1 EINVAL
sched_setscheduler(0, OTHER, NULL) = -1 EINVAL
sched_setscheduler(-1, OTHER, 0) = -1 EINVAL
sched_setscheduler(99999, OTHER, 0) = -1 ESRCH
sched_setscheduler(0, OTHER, bad) = -1 EFAULT
sched_getscheduler(-1) = -1 EINVAL
sched_getscheduler(99999) = -1 ESRCH
sched_getparam(0, NULL) = -1 EINVAL
sched_setscheduler(0, FIFO, 10) = 0
sched_getscheduler(0) = 1
sched_setparam(0, 20) = 0
  priority 20
sched_rr_get_interval(0) for FIFO = 0
  0.000000000 s
sched_setscheduler(0, RR|RESET_ON_FORK, 5) = 0
sched_getscheduler(0) = 1073741826
sched_rr_get_interval(0) for RR = 0
  0.100000000 s
sched_rr_get_interval(0, bad) = -1 EFAULT
sched_setscheduler(0, BATCH, 0) = 0
sched_getscheduler(0) = 3
sched_setscheduler(0, OTHER, 0) = 0
sched_getaffinity(0, 16): a positive multiple of 8: yes, CPU 0 in it: yes
sched_getaffinity(0, 0) = -1 EINVAL
sched_getaffinity(0, 4) = -1 EINVAL
sched_getaffinity(99999, 8) = -1 ESRCH
sched_getaffinity(0, 8, bad) = -1 EFAULT
sched_setaffinity(0, {0}) = 0
sched_setaffinity(0, {}) = -1 EINVAL
sched_setaffinity(0, bad) = -1 EFAULT
getpriority(PRIO_PROCESS, 0) = 20
setpriority(PRIO_PROCESS, 0, 5) = 0
getpriority(PRIO_PROCESS, 0) = 15
setpriority(PRIO_PROCESS, 0, -3) as root = 0
getpriority(PRIO_PGRP, 0) = 23
setpriority(PRIO_PROCESS, 0, 100) = 0
getpriority(PRIO_PROCESS, getpid()) = 1
getpriority(3, 0) = -1 EINVAL
setpriority(-1, 0, 0) = -1 EINVAL
getpriority(PRIO_PROCESS, 99999) = -1 ESRCH
setpriority(PRIO_PROCESS, 99999, 0) = -1 ESRCH
getpriority(PRIO_USER, 54321) = -1 ESRCH
setpriority(PRIO_PROCESS, 0, 0) = 0'
}

@test "real-time threads run before SCHED_OTHER ones, higher priority first, each until it ends" {
	same_as_native -p $H/schedpol order
	assert_output 'main blocks
B (FIFO 10) starts
B (FIFO 10) ends
D (RR 10) starts
D (RR 10) ends
C (FIFO 5) starts
C (FIFO 5) ends
A (OTHER) starts
A (OTHER) ends'
}

@test "a SCHED_FIFO thread that wakes up takes the CPU from a spinning SCHED_OTHER thread" {
	same_as_native -p $H/schedpol preempt
	assert_output 'F (FIFO 10) starts, sleeps 50 ms
main (OTHER) spins 200 ms
F (FIFO 10) woke up
main (OTHER) done spinning'
}

@test "SCHED_FIFO threads of one priority keep the CPU past a time slice, and sched_yield passes it on" {
	same_as_native -p $H/schedpol yield
	assert_output 'FIFO 10, spinning without sched_yield:
P 1
P 2
P 3
Q 1
Q 2
Q 3
FIFO 10, with sched_yield:
X 1
Y 1
X 2
Y 2
X 3
Y 3'
}

@test "SCHED_RR threads of one priority take turns every 100 ms, SCHED_OTHER ones far more often" {
	same_as_native -p $H/schedpol rr
	assert_output 'RR 10: 450 ms each in 100 ms quanta: between 6 and 14 turns: yes
OTHER: 450 ms each in short slices: more than 30 turns: yes'
}

@test "the same under --clock=virtual, where time slices run on CPU time" {
	umk --clock=virtual $H/schedpol rr
	assert_output 'RR 10: 450 ms each in 100 ms quanta: between 6 and 14 turns: yes
OTHER: 450 ms each in short slices: more than 30 turns: yes'
}

@test "nice values weigh the CPU time spinning SCHED_OTHER threads get" {
	same_as_native -p $H/schedpol nice
	assert_output "nice 5 got between a fifth and a half of nice 0's CPU time: yes
nice 19 got between 0.5% and 5% of nice 0's CPU time: yes"
	umk --clock=virtual $H/schedpol nice
	assert_output "nice 5 got between a fifth and a half of nice 0's CPU time: yes
nice 19 got between 0.5% and 5% of nice 0's CPU time: yes"
}

@test "a SCHED_IDLE process among spinning processes still runs: a turn outlasts a process switch" {
	# Before umk gave every turn at least SCHED_MIN_SLICE_NS, a SCHED_IDLE
	# process's 29 us slice ended inside the process switch on hosts where
	# remapping the window costs more, and its instructions never ran.
	same_as_native -p $H/schedpol idle
	assert_output "a SCHED_IDLE process among 3 spinning ones ran its 300000 loop turns: yes"
}

@test "a thread that wakes takes the CPU from a spinning SCHED_IDLE thread at once, not at the end of its turn" {
	same_as_native -p $H/schedpol idlewake
	assert_output "20 sleeps of 1 ms while a SCHED_IDLE thread spun: done"
	umk --trace $H/schedpol idlewake
	# From the spinner's (tid 2) "wakeup 1" to its "switch 2 -> 1": a
	# few microseconds when the wake-up preempts it, up to its 0.75 ms
	# turn when it does not. The median of the 20 must be under 100 us.
	local gaps
	gaps=$(awk '$2 == 2 && $3 == "wakeup" && $4 == 1 { t = $1 }
		t && $2 == 2 && $3 == "switch" && $6 == 1 { printf "%d\n", ($1 - t) * 1e6; t = 0 }' \
		<<<"$stderr" | sort -n)
	local n
	n=$(wc -l <<<"$gaps")
	[[ $n -ge 15 ]] || fail "only $n wake-ups of the sleeper seen by the spinner: $gaps"
	local median
	median=$(sed -n "$(((n + 1) / 2))p" <<<"$gaps")
	[[ $median -lt 100 ]] || fail "median $median us from wake-up to switch (all: $(echo $gaps))"
}
