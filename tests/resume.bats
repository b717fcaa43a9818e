#!/usr/bin/env bats
# umk's SA_RESUME (docs/design.md, "Resuming over a handler"): a call
# interrupted for a handler with the flag continues after the handler
# returns. Linux clears the flag, so most tests run under umk only and
# state the expected output; the ones about what the flag must not change
# (no handler, a handler without it, a frame forged into a restart) run
# natively too and require the same output. Scenarios are in
# harness/scenarios/resume*.scn; build/harness/resume (harness/progs/resume.c)
# runs the cases a script cannot express, on the virtual clock.

load helper

# resume_scenario NAME: run harness/scenarios/NAME.scn under umk with the
# trace on ($stderr).
resume_scenario() {
	local scn=harness/scenarios/$1.scn
	[[ -f $scn ]] || fail "no scenario $scn"
	umk --trace "$H/scenario" "$scn"
}

@test "SA_RESUME: a 500 ms sleep continues over a handler that sleeps and is interrupted, and returns 0 at 500 ms" {
	resume_scenario resume
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A handler SIGUSR2 ran at=150ms
A nanosleep(100ms) = -1 EINTR rem=50ms at=150ms
A handler SIGUSR1 return at=150ms
A nanosleep(500ms) = 0 rem=400ms at=500ms
wait A = exited 0 at=500ms
OUT
	trace_has '^[0-9]+ restart nanosleep ERESTART_RESTARTBLOCK -> resume \(handler, SA_RESUME\)$'
	trace_has '^[0-9]+ restart nanosleep ERESTART_RESTARTBLOCK -> EINTR \(handler\)$'
	trace_has '^[0-9]+ restart sigreturn -> resume nanosleep: hrtimer_nanosleep_restart \(depth 0\)$'
	trace_has '^[0-9]+ restart restart_syscall -> hrtimer_nanosleep_restart$'
	# Natively the flag is cleared: Linux's EINTR when the handler returns.
	native "$H/scenario" harness/scenarios/resume.scn
	assert_line 'A nanosleep(500ms) = -1 EINTR rem=400ms at=150ms'
}

@test "SA_RESUME three levels deep: each sleep continues to its own deadline" {
	resume_scenario resume-nested3
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A handler SIGUSR2 ran at=200ms
A handler SIGHUP ran at=300ms
A nanosleep(100ms) = 0 rem=untouched at=400ms
A handler SIGHUP return at=400ms
A nanosleep(300ms) = 0 rem=200ms at=500ms
A handler SIGUSR2 return at=500ms
A nanosleep(500ms) = 0 rem=400ms at=600ms
A handler SIGUSR1 return at=600ms
A nanosleep(1000ms) = 0 rem=900ms at=1000ms
wait A = exited 0 at=1000ms
OUT
	trace_has 'restart sigreturn -> resume nanosleep: hrtimer_nanosleep_restart \(depth 2\)$'
	trace_has 'restart sigreturn -> resume nanosleep: hrtimer_nanosleep_restart \(depth 1\)$'
	trace_has 'restart sigreturn -> resume nanosleep: hrtimer_nanosleep_restart \(depth 0\)$'
}

@test "SA_RESUME past its depth limit: the ninth nested interruption gets EINTR, the eight kept ones continue" {
	umk --trace --clock=virtual "$H/resume" depth
	assert_output - <<'OUT'
level 9 handler returns at once at=450ms
level 8 nanosleep(1s) = -1 EINTR at=450ms
level 7 nanosleep(1s) = 0 at=1350ms
level 6 nanosleep(1s) = 0 at=1350ms
level 5 nanosleep(1s) = 0 at=1350ms
level 4 nanosleep(1s) = 0 at=1350ms
level 3 nanosleep(1s) = 0 at=1350ms
level 2 nanosleep(1s) = 0 at=1350ms
level 1 nanosleep(1s) = 0 at=1350ms
level 0 nanosleep(2s) = 0 at=2000ms
OUT
	trace_has 'restart nanosleep ERESTART_RESTARTBLOCK -> EINTR \(handler, SA_RESUME: depth limit reached\)$'
	[[ $(untimed "$stderr" | grep -c 'restart nanosleep ERESTART_RESTARTBLOCK -> resume ') -eq 8 ]] ||
		fail "not 8 continuations kept"
}

@test "SA_RESUME and siglongjmp: the abandoned continuation is dropped, never resumed" {
	umk --trace --clock=virtual "$H/resume" longjmp
	assert_output - <<'OUT'
siglongjmp out of the handler at=100ms
restart_syscall by hand = -1 EINTR at=100ms
nanosleep(300ms) resumed over a handler = 0 at=400ms
OUT
	trace_has 'restart nanosleep continuation dropped \(frame 0x[0-9a-f]+\): its handler left without sigreturn$'
}

@test "SA_RESUME: a handler that edits the seq in its frame gets EINTR" {
	umk --trace --clock=virtual "$H/resume" forge
	assert_output 'nanosleep(300ms) = -1 EINTR at=100ms'
	trace_has 'restart nanosleep continuation dropped \(frame 0x[0-9a-f]+\): sigreturn through a changed or replayed frame$'
	trace_has 'restart restart_syscall -> do_no_restart_syscall$'
}

@test "a handler without SA_RESUME that rewinds its frame onto restart_syscall gets EINTR, as on Linux" {
	same_as_native "$H/resume" forge-plain
	assert_output 'nanosleep(300ms) = -1 EINTR at=100ms'
}

@test "SA_RESUME: rt_sigreturn by hand through a copy of the frame gets EINTR" {
	umk --trace --clock=virtual "$H/resume" copy
	assert_output 'nanosleep(300ms) = -1 EINTR at=100ms'
	trace_has 'restart restart_syscall -> do_no_restart_syscall$'
	! untimed "$stderr" | grep -q 'restart sigreturn -> resume' || fail "a copied frame resumed"
}

@test "SA_RESUME: a frame replayed over a later one gets EINTR, not the later continuation" {
	umk --trace --clock=virtual "$H/resume" replay
	assert_output - <<'OUT'
first nanosleep(300ms) = 0 at=300ms
second nanosleep(300ms), the first frame put back = -1 EINTR at=100ms
OUT
	trace_has 'sigreturn through a changed or replayed frame$'
}

@test "SA_RESUME: restart_syscall by hand inside the handler gets EINTR, the kept sleep still ends" {
	umk --clock=virtual "$H/resume" inhandler
	assert_output - <<'OUT'
restart_syscall by hand in the handler = -1 EINTR at=100ms
nanosleep(300ms) = 0 at=300ms
OUT
}

@test "rt_sigreturn by hand on a zeroed frame is SIGSEGV, as on Linux" {
	same_as_native -s 139 "$H/resume" zeroframe
}

@test "SA_RESUME on an ignored signal, on SIG_DFL and across a stop changes nothing" {
	same_as_native "$H/scenario" harness/scenarios/resume-disposition.scn
	assert_output - <<'OUT'
A nanosleep(500ms) = 0 rem=200ms at=500ms
wait A = killed by SIGUSR1 at=700ms
OUT
}

@test "SA_RESUME: a stop and continue inside the handler restarts its sleep, then the outer one continues" {
	resume_scenario resume-stop-cont
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A nanosleep(300ms) = 0 rem=200ms at=400ms
A handler SIGUSR1 return at=400ms
A nanosleep(600ms) = 0 rem=500ms at=600ms
wait A = exited 0 at=600ms
OUT
	trace_has 'restart nanosleep ERESTART_RESTARTBLOCK -> restart_syscall \(no handler\)$'
	trace_has 'restart sigreturn -> resume nanosleep: hrtimer_nanosleep_restart \(depth 0\)$'
}

@test "SA_RESUME: a signal pending when the handler returns runs first, and the outer sleep still continues" {
	resume_scenario resume-pending
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A nanosleep(200ms) = 0 rem=untouched at=300ms
A handler SIGUSR1 return at=300ms
A handler SIGUSR1 ran at=300ms
A nanosleep(200ms) = 0 rem=untouched at=500ms
A handler SIGUSR1 return at=500ms
A nanosleep(800ms) = 0 rem=700ms at=800ms
wait A = exited 0 at=800ms
OUT
	trace_has 'restart nanosleep continuation saved again: a handler came before its restart_syscall$'
}

@test "SA_RESUME: threads each keep their own continuation" {
	umk --clock=virtual "$H/resume" threads
	assert_output - <<'OUT'
thread 0 handler nanosleep(100ms) = 0 at=200ms
thread 1 handler nanosleep(100ms) = 0 at=250ms
thread 0 nanosleep(400ms) = 0 at=400ms
thread 1 nanosleep(600ms) = 0 at=600ms
OUT
}

@test "SA_RESUME: every call that takes part continues; pause, epoll_wait and a pipe read do not" {
	umk --trace --clock=virtual "$H/resume" calls
	# ppoll, select and pselect6 run again with the time left they wrote
	# back at 100 ms: the handler's 50 ms are not counted.
	assert_output - <<'OUT'
nanosleep(300ms) = 0 at=300ms
clock_nanosleep(rel, 300ms) = 0 at=300ms
clock_nanosleep(abs, 300ms) = 0 at=300ms
poll(300ms) = 0 at=300ms
ppoll(300ms) = 0 at=350ms
select(300ms) = 0 at=350ms
pselect6(300ms) = 0 at=350ms
futex_wait(300ms) = -1 ETIMEDOUT at=300ms
pause = -1 EINTR at=150ms
epoll_wait(300ms) = -1 EINTR at=150ms
read(pipe) = -1 EINTR at=150ms
OUT
	trace_has 'restart clock_nanosleep ERESTARTNOHAND -> resume_call \(handler, SA_RESUME\)$'
	trace_has 'restart sigreturn -> resume_call pselect6 \(depth 0\)$'
	trace_has 'restart futex ERESTART_RESTARTBLOCK -> resume \(handler, SA_RESUME\)$'
	trace_has 'restart pause ERESTARTNOHAND -> EINTR \(handler\)$'
}

@test "Linux clears SA_RESUME (sigaction's oldact has no such bit); umk keeps it" {
	native "$H/resume" probe
	assert_output - <<'OUT'
sigaction(SA_RESUME) = 0, oldact has no SA_RESUME
umk_resume_supported = 0
OUT
	umk "$H/resume" probe
	assert_output - <<'OUT'
sigaction(SA_RESUME) = 0, oldact keeps SA_RESUME
umk_resume_supported = 1
OUT
}

@test "umk-task shows the continuations SA_RESUME keeps, and the one sigreturn reinstalled" {
	require_umk
	run timeout -k 5 120 gdb -nx -batch -x harness/gdb/umk.gdb \
		-ex 'break resume_sigreturn' -ex run -ex umk-task -ex continue -ex finish -ex umk-task \
		-ex kill --args "$UMK" --clock=virtual "$H/scenario" harness/scenarios/resume.scn
	echo "$output"
	refute_output --partial 'Traceback'
	assert_line 'SA_RESUME: 1 continuation kept, newest last:'
	assert_line --regexp '^  \[0\] nanosleep for the frame at 0x[0-9a-f]+, seq 1: back to ip 0x[0-9a-f]+ sp 0x[0-9a-f]+ through restart_syscall$'
	assert_line '      nanosleep.expires  500000000 ns = 0.500000000 s on CLOCK_MONOTONIC'
	assert_line --regexp '^SA_RESUME: restart_syscall at ip 0x[0-9a-f]+ is to run the reinstalled continuation of nanosleep$'
	assert_line --regexp '^restart_block: fn hrtimer_nanosleep_restart '
}

@test "the SA_RESUME scenarios tell the same story under --clock=virtual as on the host's clock" {
	local scn host
	for scn in harness/scenarios/resume*.scn; do
		umk "$H/scenario" "$scn"
		host=$output
		umk --clock=virtual "$H/scenario" "$scn"
		assert_equal "$output" "$host"
	done
}
