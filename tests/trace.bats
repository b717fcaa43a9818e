#!/usr/bin/env bats
# --trace: one line per event, "<seconds> <pid> <event> <details>", on stderr
# or in a file. Tests match from the pid on, never the time.

load helper

@test "every trace line starts with the time since boot and a pid" {
	umk --trace $H/hello
	assert_output 'hello, world'
	[[ -n $stderr ]] || fail "no trace"
	local bad
	bad=$(grep -vE '^[0-9]+\.[0-9]{6} [0-9]+ [a-z_]+( |$)' <<<"$stderr" || true)
	[[ -z $bad ]] || fail "malformed trace lines: $bad"
}

@test "the trace shows write's entry with decoded arguments and its return" {
	umk --trace $H/hello
	trace_has '^1 enter write\(1, "hello, world\\n", 13\)$'
	trace_has '^1 exit write = 13$'
	local enter exit
	enter=$(untimed "$stderr" | grep -n '^1 enter write(' | head -1 | cut -d: -f1)
	exit=$(untimed "$stderr" | grep -n '^1 exit write = ' | head -1 | cut -d: -f1)
	(( enter < exit )) || fail "the exit line comes before the enter line"
}

@test "the trace shows exit_group and the task's exit status" {
	umk -s 3 --trace $H/exitcode 3
	trace_has '^1 enter exit_group\(3\)$'
	trace_has '^1 task exit 1 status=0x0300$'
}

@test "a failing call is traced with its errno name" {
	umk --trace $H/efault
	trace_has '^1 exit nanosleep = -1 EFAULT$'
	trace_has '^1 exit clock_gettime = -1 EFAULT$'
}

@test "an unimplemented system call is traced as nosys" {
	umk --trace $H/sysnr 103
	assert_output '103 = -1 ENOSYS'
	trace_has '^1 nosys syslog$'
}

@test "spawning a task is traced as fork and exec" {
	umk --trace $H/spawn
	trace_has '^1 task fork 2 \(mm [0-9]+, shared\)$'
	trace_has '^2 task exec .*hello$'
	trace_has '^2 task exit 2 status=0x0000$'
}

@test "preemption and sleeping are traced as switches, the wake-up as a timer" {
	umk --trace $H/cpuhog
	trace_has '^[0-9]+ switch [0-9]+ -> [0-9]+ \(preempt\)$'
	trace_has '^1 switch 1 -> [0-9]+ \(sleep\)$'
	trace_has '^[0-9]+ timer .*nanosleep.* expired$'
}

@test "an epoll wait and a timerfd read are traced as sleeps, the timerfd's expiry as a timer that wakes both" {
	umk --trace $H/evwait
	assert_output 'epoll_wait = 1, fd 3 ready
read(timerfd) = 8, 1 expiration'
	trace_has '^2 enter epoll_pwait\(6, 0x[0-9a-f]+, 1, -1, NULL, 8\)$'
	trace_has '^2 switch 2 -> [0-9]+ \(sleep\)$'
	trace_has '^3 enter read\(3, 0x[0-9a-f]+, 8\)$'
	trace_has '^3 switch 3 -> [0-9]+ \(sleep\)$'
	trace_has '^[0-9]+ timer timerfd expired$'
	trace_has '^[0-9]+ wakeup 2$'
	trace_has '^[0-9]+ wakeup 3$'
	trace_has '^2 exit epoll_pwait = 1$'
	trace_has '^3 exit read = 8$'
}

@test "--trace=FILE writes the trace to FILE and leaves stdout and stderr clean" {
	local f=$BATS_TEST_TMPDIR/trace.txt
	umk --trace="$f" $H/hello
	assert_output 'hello, world'
	assert_equal "$stderr" ''
	[[ -s $f ]] || fail "$f is empty or missing"
	stderr=$(<"$f")
	trace_has '^1 enter write\(1, "hello, world\\n", 13\)$'
}

@test "without --trace umk prints nothing of its own" {
	umk $H/hello
	assert_equal "$stderr" ''
}

@test "a trace file that cannot be written (a full disk) is dropped with one line" {
	umk --trace=/dev/full $H/hello
	assert_output 'hello, world'
	[[ $stderr == 'umk: trace to /dev/full: write failed (ENOSPC): the run goes on without it' ]] ||
		fail "stderr: $stderr"
	umk --trace=/dev/full --trace-format=json $H/hello
	assert_output 'hello, world'
	[[ $(wc -l <<<"$stderr") == 1 ]] || fail "stderr: $stderr"
}

@test "the trace ring's TSC clock stays within a microsecond of CLOCK_MONOTONIC, and never goes back" {
	# arch/time.c outside umk: half a second of readings, each between
	# two of the host clock's; a scale wrong by 0.01% fails it
	run --separate-stderr timeout 60 $B/tests/trace_clock
	assert_success
	assert_output --regexp '^trace_clock: [0-9]+ readings, the worst [0-9]+ ns outside'
}
