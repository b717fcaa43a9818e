#!/usr/bin/env bats
# umk-eintr (harness/umk-eintr/, docs/usage.md) and what it stands on: runs that
# repeat byte for byte under --clock=virtual, preemption included
# (docs/design.md, "Deterministic runs"), and umk --inject=CALL#N:SIG
# (kernel/inject.c, docs/usage.md "Interrupting a blocking call").

load helper

EINTR=$B/umk-eintr

# same_trace_10 ARG...: umk --clock=virtual --trace ARG... ten times: the
# traces (and stdout) must be byte-identical. The first is left in t1.
same_trace_10() {
	local n first
	for n in $(seq 10); do
		umk --clock=virtual --trace="$BATS_TEST_TMPDIR/t$n" "$@"
		echo "$output" >>"$BATS_TEST_TMPDIR/t$n"
	done
	first=$(md5sum <"$BATS_TEST_TMPDIR/t1")
	for n in $(seq 2 10); do
		[[ $(md5sum <"$BATS_TEST_TMPDIR/t$n") == "$first" ]] \
			|| fail "run $n differs: $(diff "$BATS_TEST_TMPDIR/t1" "$BATS_TEST_TMPDIR/t$n" | head)"
	done
}

# sweep ARG...: umk-eintr ARG..., checked for a hang; $output is its report.
sweep() {
	require_umk
	echo "\$ $EINTR $*"
	UMK_TIMEOUT=300 _timed --separate-stderr timeout -k 5 300 "$EINTR" "$@"
}

# diffs: the DIFF lines of $output, each cut before its reproducer.
diffs() {
	grep '^DIFF ' <<<"$output" | sed 's/ — .*//' || true
}

@test "python3 running a subprocess after a sleep gives a byte-identical trace in 10 runs under --clock=virtual" {
	same_trace_10 "$(command -v python3)" -c 'import time, subprocess; time.sleep(0.05); subprocess.run(["true"])'
	grep -q 'exit wait4 = 2' "$BATS_TEST_TMPDIR/t1" || fail "no child reaped: $(tail "$BATS_TEST_TMPDIR/t1")"
}

@test "a busybox pipeline of three processes gives a byte-identical trace in 10 runs under --clock=virtual" {
	same_trace_10 /bin/busybox sh -c 'seq 1 20000 | grep 1 | wc -l'
	[[ $(grep -c ' task fork ' "$BATS_TEST_TMPDIR/t1") -ge 3 ]] || fail "not three processes"
	assert_equal "$output" 13439
}

@test "four threads computing between calls give a byte-identical trace, preemptions included, in 10 runs" {
	same_trace_10 $H/eintr_threads
	grep -q 'timer sched_slice expired' "$BATS_TEST_TMPDIR/t1" || fail "no slice expired"
	grep -q 'switch .* (preempt)' "$BATS_TEST_TMPDIR/t1" || fail "no preemption"
	assert_equal "$output" "eintr_threads: 120 bytes, total 137400"
}

@test "under --clock=virtual /dev/urandom (as AT_RANDOM and getrandom) gives the same bytes every run, and differs on the host's clock" {
	local a b
	umk --clock=virtual /bin/busybox sh -c 'od -An -tx1 -N16 /dev/urandom'
	a=$output
	umk --clock=virtual /bin/busybox sh -c 'od -An -tx1 -N16 /dev/urandom'
	b=$output
	assert_equal "$a" "$b"
	umk /bin/busybox sh -c 'od -An -tx1 -N16 /dev/urandom'
	[[ $output != "$a" ]] || fail "the host's clock gave the fixed bytes too"
}

@test "umk --inject=read#1:SIGCHLD interrupts the first read that sleeps, while it sleeps" {
	umk -s 1 --clock=virtual --trace="$BATS_TEST_TMPDIR/t" --inject=read#1:SIGCHLD $H/eintr_pipe
	assert_equal "$stderr" "read: Interrupted system call"
	# the signal comes after the read went to sleep, and ends it
	untimed "$(cat "$BATS_TEST_TMPDIR/t")" | grep -E '^1 (enter read|switch 1 -> [0-9]+ \(sleep\))|SIGCHLD -> 1 \(thread\)|^1 exit read' \
		| head -4 >"$BATS_TEST_TMPDIR/seq"
	run cat "$BATS_TEST_TMPDIR/seq"
	assert_line -n 0 --regexp '^1 enter read\(3, '
	assert_line -n 1 --regexp '^1 switch 1 -> [0-9]+ \(sleep\)'
	assert_line -n 2 --regexp 'signal SIGCHLD -> 1 \(thread\)'
	assert_line -n 3 '1 exit read = -1 ERESTARTSYS'
}

@test "umk --inject=CALL#N:stop stops the process while the call sleeps and continues it 10 ms later" {
	umk -s 1 --clock=virtual --trace="$BATS_TEST_TMPDIR/t" --inject=epoll_pwait#1:stop $H/eintr_epoll
	assert_equal "$stderr" "epoll_wait: Interrupted system call"
	stderr=$(cat "$BATS_TEST_TMPDIR/t")
	trace_has '^[0-9]+ signal SIGSTOP -> 1$'
	trace_has '^1 deliver SIGSTOP -> stop$'
	trace_has 'timer inject_cont expired'
	trace_has 'deliver SIGCONT -> continue 1'
	# the occurrence counted is the one that sleeps: a second one never happens
	umk --clock=virtual --inject=epoll_pwait#2:stop $H/eintr_epoll
	assert_output "epoll: 4 bytes"
}

@test "a bad --inject is a usage error with one line naming it" {
	local spec
	for spec in read 'read#0:SIGCHLD' 'nosuchcall#1:SIGCHLD' 'read#1:SIGNOPE' 'read#x:stop' 'read#1:'; do
		umk -s 2 --inject="$spec" $H/hello
		assert_equal "$(wc -l <<<"$stderr")" 1
		[[ $stderr == "umk: --inject=$spec "* ]] || fail "$stderr"
	done
	umk -s 2 --inject=read#1:SIGCHLD --inject=read#2:SIGCHLD $H/hello
	[[ $stderr == *"--inject given twice"* ]] || fail "$stderr"
	umk --inject=read#1:17 $H/hello
	umk --help
	assert_output --partial '--inject=CALL#N:SIG'
}

@test "umk-eintr reports the pipe read not retried on EINTR, with SIGCHLD lacking SA_RESTART, and nothing for its twin" {
	sweep -j 2 $H/eintr_pipe
	assert_equal "$status" 1
	assert_equal "$(diffs)" 'DIFF read#1 SIGCHLD(handler, no SA_RESTART): exit 1 instead of 0; stdout -"got hello"; stderr +"read: Interrupted system call"'
	assert_line --regexp '^DIFF read#1 .* — .*umk --clock=virtual --inject=read#1:SIGCHLD .*/eintr_pipe$'
	assert_line --regexp '^umk-eintr: [0-9]+ blocking points, [0-9]+ runs, 1 differ$'
	sweep -j 2 $H/eintr_pipe_ok
	assert_equal "$status" 0
	assert_equal "$(diffs)" ''
	assert_line 'point read#1 (pid 1): SIGCHLD(handler, no SA_RESTART)'
	assert_line --regexp '^umk-eintr: [1-9][0-9]* blocking points, [1-9][0-9]* runs, 0 differ$'
}

@test "umk-eintr reports the nanosleep whose time left is dropped, and nothing for its twin" {
	sweep -j 2 $H/eintr_sleep
	assert_equal "$status" 1
	assert_equal "$(diffs)" 'DIFF nanosleep#1 SIGALRM(handler, SA_RESTART): stdout -"slept 100 ms" +"slept too little"'
	sweep -j 2 $H/eintr_sleep_ok
	assert_equal "$status" 0
	assert_equal "$(diffs)" ''
}

@test "umk-eintr --stop reports the epoll_wait loop that exits on EINTR after a stop, and nothing for its twin" {
	sweep -j 2 $H/eintr_epoll
	assert_equal "$status" 0	# no handler: nothing to deliver without --stop
	assert_line 'point epoll_pwait#1 (pid 1): no interruption'
	sweep -j 2 --stop $H/eintr_epoll
	assert_equal "$status" 1
	assert_equal "$(diffs)" 'DIFF epoll_pwait#1 stop(SIGSTOP, SIGCONT): exit 1 instead of 0; stdout -"epoll: 4 bytes"; stderr +"epoll_wait: Interrupted system call"'
	sweep -j 2 --stop $H/eintr_epoll_ok
	assert_equal "$status" 0
	assert_equal "$(diffs)" ''
}

@test "umk-eintr reports the write loop that ignores a short write, and nothing for its twin" {
	sweep -j 2 $H/eintr_write
	assert_equal "$status" 1
	assert_equal "$(diffs)" 'DIFF write#1 SIGCHLD(handler, SA_RESTART): stdout -"child got 200000 bytes" +"child got 131072 bytes"'
	sweep -j 2 $H/eintr_write_ok
	assert_equal "$status" 0
	assert_equal "$(diffs)" ''
}

@test "umk-eintr finds nothing in a program that retries everything, with every signal and stops" {
	sweep -j 2 --stop --json "$BATS_TEST_TMPDIR/r.json" $H/eintr_retry
	assert_equal "$status" 0
	assert_equal "$(diffs)" ''
	assert_line 'point epoll_pwait#1 (pid 1): SIGUSR1(handler, SA_RESTART), SIGCHLD(handler, no SA_RESTART), stop(SIGSTOP, SIGCONT)'
	# --json holds every run
	run python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(len(d["points"]), len(d["runs"]), sum(r["differs"] for r in d["runs"]))' "$BATS_TEST_TMPDIR/r.json"
	assert_output "5 15 0"
}

@test "umk-eintr --signals delivers the signals listed instead of the handled ones" {
	sweep --signals=SIGUSR1,28 $H/eintr_sleep
	assert_line 'point nanosleep#1 (pid 1): SIGUSR1(no handler), SIGWINCH(no handler)'
	assert_equal "$(diffs)" 'DIFF nanosleep#1 SIGUSR1(no handler): exit 138 instead of 0; stdout -"slept 100 ms"'
	assert_equal "$status" 1
}

@test "a sweep twice gives the same report" {
	local first
	sweep -j 2 --stop $H/eintr_write
	first=$output
	sweep -j 1 --stop $H/eintr_write
	assert_equal "$output" "$first"
}

@test "umk-eintr refuses a program whose undisturbed runs differ, with status 2" {
	sweep $H/eintr_tsc
	assert_equal "$status" 2
	[[ $stderr == *"two undisturbed runs differ"*"not deterministic enough to sweep"* ]] || fail "$stderr"
}

@test "umk-eintr's usage errors exit 2 with one line" {
	local args
	for args in "" "-j 0 $H/hello" "--signals=SIGNOPE $H/hello" "--bogus $H/hello" "no-such-program-here" "--stdin /no/such/file $H/hello"; do
		# shellcheck disable=SC2086 # each a list of words
		sweep $args
		assert_equal "$status" 2
		assert_equal "$(wc -l <<<"$stderr")" 1
		[[ $stderr == "umk-eintr: "* ]] || fail "$stderr"
	done
	sweep --help
	assert_equal "$status" 0
	assert_output --partial 'usage: umk-eintr [-j N] [--signals=LIST] [--stop] [--stdin FILE] [--json FILE]'
}

@test "a sweep of busybox sh -c 'sleep 1; echo done' completes: only SIGINT ends the shell" {
	sweep -j 2 --stop /bin/busybox sh -c 'sleep 1; echo done'
	assert_line 'point wait4#1 (pid 1): SIGINT(handler, no SA_RESTART), SIGCHLD(handler, no SA_RESTART), stop(SIGSTOP, SIGCONT)'
	assert_line 'point clock_nanosleep#1 (pid 2): stop(SIGSTOP, SIGCONT)'
	assert_equal "$(diffs)" 'DIFF wait4#1 SIGINT(handler, no SA_RESTART): exit 130 instead of 0; stdout -"done"'
	assert_line 'umk-eintr: 2 blocking points, 4 runs, 1 differ'
}

@test "a sweep of a python3 script with a SIGALRM handler completes: its sleeps resume, only the handlers' own effects differ" {
	local script='import signal, time
ticks = []
signal.signal(signal.SIGALRM, lambda s, f: ticks.append(s))
signal.setitimer(signal.ITIMER_REAL, 0.05)
time.sleep(0.2)
print("ticks", len(ticks))'
	sweep -j 2 --stop --ignore-stderr python3 -c "$script"
	assert_line 'point clock_nanosleep#1 (pid 1): SIGINT(handler, no SA_RESTART), SIGALRM(handler, no SA_RESTART), stop(SIGSTOP, SIGCONT)'
	assert_equal "$(diffs)" 'DIFF clock_nanosleep#1 SIGINT(handler, no SA_RESTART): exit 130 instead of 0; stdout -"ticks 1"
DIFF clock_nanosleep#1 SIGALRM(handler, no SA_RESTART): stdout -"ticks 1" +"ticks 2"
DIFF clock_nanosleep#2 SIGINT(handler, no SA_RESTART): exit 130 instead of 0; stdout -"ticks 1"
DIFF clock_nanosleep#2 SIGALRM(handler, no SA_RESTART): stdout -"ticks 1" +"ticks 2"'
	assert_line 'umk-eintr: 2 blocking points, 6 runs, 4 differ'
}
