#!/usr/bin/env bats
# The kernel's timer queue in isolation (kernel/lib/timerqueue.c): a binary
# min-heap against a reference, by the latest time each timer may run,
# FIFO among equal ones.

load helper

@test "the timer queue keeps (expiry + slack, order armed) order through random adds, deletes and pops" {
	run --separate-stderr timeout 60 $B/tests/timerqueue
	assert_success
	assert_output --regexp '^timerqueue: [0-9]+ adds, [0-9]+ deletes, [0-9]+ pops match the reference$'
}
