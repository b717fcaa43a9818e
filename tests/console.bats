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
