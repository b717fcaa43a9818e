#!/usr/bin/env bats
# Finding a task by pid in isolation (kernel/pid.c): a hash table of
# chains against a walk of every task.

load helper

@test "the pid table finds what a walk of every task finds through attaches, detaches, execs and deaths" {
	run --separate-stderr timeout 60 $B/tests/pid
	assert_success
	assert_output --regexp '^pid: [0-9]+ attaches, [0-9]+ detaches, [0-9]+ pid changes, [0-9]+ deaths match the walk; [0-9]+ tasks at once found$'
}
