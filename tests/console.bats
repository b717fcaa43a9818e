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
	run --separate-stderr timeout 20 bash -c "(sleep 0.4; echo hello) | $H/conread"
	assert_success
	assert_output "$EXPECTED"
	run --separate-stderr timeout 20 bash -c "(sleep 0.4; echo hello) | $UMK $H/conread"
	assert_success
	assert_output "$EXPECTED"
}

@test "console input that arrives while umk idles wakes the reader" {
	run --separate-stderr timeout 20 bash -c "(sleep 0.4; echo hello) | $UMK --trace $H/conread"
	assert_success
	# the reader slept in the kernel, and the tick thread ran meanwhile
	untimed "$stderr" | grep -E '^1 switch 1 -> [0-9]+ \(sleep\)$'
	untimed "$stderr" | grep -E '^1 exit read = 6$'
}

@test "TIOCGWINSZ on the console answers as the host does" {
	# on a pipe the host says ENOTTY
	native $H/winsize
	local host=$output
	umk $H/winsize
	assert_output "$host"
	assert_output --partial ENOTTY
	# on a terminal it gives the terminal's size
	run timeout 20 script -qec "stty rows 33 cols 101; $H/winsize; $UMK $H/winsize" /dev/null
	assert_success
	assert_output --partial 'winsize = 0 rows=33 cols=101'
	[[ $(grep -c 'winsize = 0 rows=33 cols=101' <<<"$output") == 2 ]] ||
		fail "umk and the host disagree: $output"
}
