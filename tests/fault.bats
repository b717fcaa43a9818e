#!/usr/bin/env bats
# User faults: a fault kills the faulting task with its signal, as Linux's
# default action does, and nothing else; umk itself keeps running.

load helper

@test "a NULL dereference kills the program with SIGSEGV, natively too" {
	native -s 139 $H/nullderef
	assert_output 'before'
}

@test "a NULL dereference under umk exits 139 after the program's output" {
	umk -s 139 $H/nullderef
	assert_output 'before'
	refute_output --partial 'after'
}

@test "a user fault is traced with its signal and address" {
	umk -s 139 --trace $H/nullderef
	untimed "$stderr" | grep -E '^1 fault SIGSEGV addr=0x0$' ||
		fail "no fault line in: $stderr"
}

@test "a child killed by SIGSEGV leaves its parent and umk running" {
	umk $H/waitstatus
	assert_line 'segv: wait4 status=0x000b WIFEXITED=0 WEXITSTATUS=0 WIFSIGNALED=1 WTERMSIG=11'
	assert_line 'segv: waitid si_signo=SIGCHLD si_code=CLD_KILLED si_status=11 si_pid=child'
	assert_line --index -1 'wait4(-1) with no children = -1 ECHILD'
}

@test "a signal sent to umk from outside reaches its program, whose handler runs" {
	for sig in INT TERM; do
		same_as_native -s 5 -k $sig:0.3 $H/catchint
		assert_output "caught SIG$sig"
	done
}

@test "^C to umk kills a program without a handler, and umk exits 130 as the program would" {
	same_as_native -s 130 -k INT:0.3 --trace $H/sleeper 3000
	untimed "$stderr" | grep -qxE '[01] signal SIGINT from the host -> every process' ||
		fail "no forwarded SIGINT in: $stderr"
}
