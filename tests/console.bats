#!/usr/bin/env bats
# The console: umk's fds 0-2 are the host's. Input wakes a sleeping reader
# through host SIGIO, so one task waiting for input never stops the others.

load helper

EXPECTED='tick 1
tick 2
tick 3
tick 4
read 6 "hello"
read 0 at end of input'

@test "a read waiting for console input lets other tasks run, natively too" {
	same_as_native -i 'sleep 0.4; echo hello' $H/conread
	assert_output "$EXPECTED"
}

@test "console input that arrives while umk idles wakes the reader" {
	umk --trace $H/conread < <(sleep 0.4; echo hello)
	assert_output "$EXPECTED"
	# the reader slept in the kernel, and the tick thread ran meanwhile
	untimed "$stderr" | grep -E '^1 switch 1 -> [0-9]+ \(sleep\)$'
	untimed "$stderr" | grep -E '^1 exit read = 6$'
}

@test "TIOCGWINSZ on the console answers as the host does" {
	# on a pipe the host says ENOTTY
	same_as_native $H/winsize
	assert_output --partial ENOTTY
	# on a terminal it gives the terminal's size
	require_umk
	run timeout 20 script -qec "stty rows 33 cols 101; $H/winsize; $UMK $H/winsize" /dev/null
	assert_success
	assert_output --partial 'winsize = 0 rows=33 cols=101'
	[[ $(grep -c 'winsize = 0 rows=33 cols=101' <<<"$output") == 2 ]] ||
		fail "umk and the host disagree: $output"
}

# conwrite's stderr line "ticks 100 in N ms, ...": N must stay far below the
# time the reader stalled (a stall would add all of it).
ticks_ms() {
	sed -n 's/^ticks 100 in \([0-9]*\) ms.*/\1/p' "$1"
}

@test "a console write to a host pipe nobody reads lets other tasks keep time" {
	require_umk
	local sum
	sum=$($H/conwrite 4 2>/dev/null | sha256sum)
	# the reader starts reading 4 s in: until then the pipe is full
	run timeout 30 bash -c "$UMK $H/conwrite 4 2>'$BATS_TEST_TMPDIR/err' | { sleep 4; sha256sum; }"
	assert_success
	cat "$BATS_TEST_TMPDIR/err"
	assert_output "$sum"
	grep -qx 'wrote 4194304 bytes' "$BATS_TEST_TMPDIR/err"
	local ms
	ms=$(ticks_ms "$BATS_TEST_TMPDIR/err")
	[[ -n $ms && $ms -lt 3000 ]] || fail "100 ticks of 10 ms took ${ms:-?} ms: the writer stalled umk"
}

@test "a console write to a FIFO whose reader is stopped sleeps until it runs again" {
	require_umk
	local d=$BATS_TEST_TMPDIR sum
	sum=$($H/conwrite 2 2>/dev/null | sha256sum | cut -d' ' -f1)
	mkfifo "$d/fifo"
	cat "$d/fifo" >"$d/out" &
	local reader=$!
	sleep 0.5	# cat has opened the FIFO: a stopped cat that has not would hold the writer's open
	kill -STOP $reader
	timeout 30 $UMK $H/conwrite 2 >"$d/fifo" 2>"$d/err" &
	local umk_pid=$!
	sleep 3
	kill -CONT $reader
	wait $umk_pid || fail "umk failed: $(cat "$d/err")"
	wait $reader
	cat "$d/err"
	[[ $(sha256sum <"$d/out" | cut -d' ' -f1) == "$sum" ]] || fail "the output differs"
	local ms
	ms=$(ticks_ms "$d/err")
	[[ -n $ms && $ms -lt 2500 ]] || fail "100 ticks of 10 ms took ${ms:-?} ms: the writer stalled umk"
}

@test "umk leaves the flags of the host's stdout and stderr as it found them" {
	require_umk
	# one pipe behind fds 1 and 2, shared with the shell that reads fdinfo
	run bash -c "{ grep flags /proc/self/fdinfo/1; $UMK $H/hello; grep flags /proc/self/fdinfo/1; } 2>&1 | cat"
	assert_success
	local before after
	before=$(sed -n 1p <<<"$output")
	after=$(sed -n 3p <<<"$output")
	[[ $before == flags:* && $before == "$after" ]] || fail "flags changed: $output"
}
