#!/usr/bin/env bats
# The system-call restart mechanism, scenario by scenario: sleeps, pipe
# reads, pause, sigsuspend and wait4 across stops, continues and handlers
# (with and without SA_RESTART, nested, SA_NODEFER, SA_RESETHAND), and
# restart_syscall itself. Each test runs a script of harness/scenarios/ with the
# scenario shell natively (the host kernel is the reference) and under umk,
# requires the same stdout and exit status, then asserts the lines that
# state the behaviour. Times are rounded to the script's tolerance (50 ms).

load helper

# scenario [--trace] NAME: run harness/scenarios/NAME.scn natively, then
# under umk (with --trace: the trace lands in $stderr); both must exit 0
# with the same stdout.
scenario() {
	local trace=()
	if [[ $1 == --trace ]]; then trace=(--trace); shift; fi
	local scn=harness/scenarios/$1.scn
	[[ -f $scn ]] || fail "no scenario $scn"
	same_as_native "${trace[@]}" $H/scenario "$scn"
}

# trace_line REGEX: the number of the first untimed trace line matching REGEX.
trace_line() {
	untimed "$stderr" | grep -nE "$1" | head -1 | cut -d: -f1
}

@test "nanosleep stopped and continued returns 0 at its end, rmtp holding what was left at the stop" {
	scenario --trace nanosleep-stop-cont
	assert_output - <<'OUT'
wait A = stopped by SIGSTOP at=100ms
wait A = continued at=400ms
A nanosleep(500ms) = 0 rem=400ms at=500ms
wait A = exited 0 at=500ms
OUT
	trace_has '^[0-9]+ restart nanosleep ERESTART_RESTARTBLOCK -> restart_syscall( |$)'
	trace_has '^[0-9]+ restart restart_syscall -> hrtimer_nanosleep_restart$'
	local decided resumed
	decided=$(trace_line ' restart nanosleep ERESTART_RESTARTBLOCK -> restart_syscall')
	resumed=$(trace_line ' restart restart_syscall -> hrtimer_nanosleep_restart')
	((decided < resumed)) || fail "restart_syscall ran before the restart decision"
}

@test "a sleep interrupted by a handled signal returns EINTR with the time left, with or without SA_RESTART" {
	scenario --trace nanosleep-handler
	assert_line 'A handler SIGUSR1 ran at=100ms'
	assert_line 'A nanosleep(500ms) = -1 EINTR rem=400ms at=100ms'
	assert_line 'R handler SIGUSR1 ran at=300ms'
	assert_line 'R nanosleep(700ms) = -1 EINTR rem=400ms at=300ms'
	trace_has '^[0-9]+ restart nanosleep ERESTART_RESTARTBLOCK -> EINTR'
	! untimed "$stderr" | grep -q 'restart_syscall' || fail "restart_syscall after a handler"
}

@test "clock_nanosleep: TIMER_ABSTIME returns EINTR and leaves rmtp alone, relative writes it, stopped absolute keeps its deadline" {
	scenario --trace clock-nanosleep
	assert_line 'A clock_nanosleep(MONOTONIC, abs, 500ms) = -1 EINTR rem=untouched at=100ms'
	assert_line 'B clock_nanosleep(MONOTONIC, rel, 700ms) = -1 EINTR rem=400ms at=300ms'
	assert_line 'C clock_nanosleep(REALTIME, abs, 900ms) = 0 rem=untouched at=900ms'
	trace_has '^[0-9]+ restart clock_nanosleep ERESTARTNOHAND -> EINTR'
}

@test "a pipe read restarts after a handler with SA_RESTART and returns the data written later" {
	scenario --trace read-restart
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A read = 5 "hello" at=300ms
wait A = exited 0 at=300ms
OUT
	trace_has '^[0-9]+ restart read ERESTARTSYS -> restart'
}

@test "a pipe read interrupted by a handler without SA_RESTART returns EINTR" {
	scenario read-eintr
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A read = -1 EINTR at=100ms
A read = 5 "hello" at=300ms
wait A = exited 0 at=300ms
OUT
}

@test "a pipe read stopped and continued restarts with no trace in the program" {
	scenario --trace read-stop-cont
	assert_output - <<'OUT'
A read = 5 "hello" at=300ms
wait A = exited 0 at=300ms
OUT
	trace_has '^[0-9]+ restart read ERESTARTSYS -> restart'
}

@test "pause keeps waiting across stop and continue and returns EINTR after a handler" {
	scenario pause-stop-cont
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=300ms
A pause = -1 EINTR at=300ms
wait A = exited 0 at=300ms
OUT
}

@test "sigsuspend keeps waiting across stop and continue, its mask holds SIGUSR2 off, EINTR after a handler" {
	scenario sigsuspend
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=400ms
A handler SIGUSR2 ran at=400ms
A sigsuspend(SIGUSR2) = -1 EINTR at=400ms
A mask = none at=400ms
wait A = exited 0 at=400ms
OUT
}

@test "restart_syscall called after a handler returned gives EINTR" {
	scenario --trace restart-syscall
	assert_line 'A nanosleep(500ms) = -1 EINTR rem=400ms at=100ms'
	assert_line 'A restart_syscall = -1 EINTR at=100ms'
	assert_line 'B restart_syscall = -1 EINTR at=200ms'
	# Linux leaves a finished continuation in place: it runs again.
	assert_line 'C nanosleep(500ms) = 0 rem=200ms at=500ms'
	assert_line 'C restart_syscall = 0 at=500ms'
	trace_has '^[0-9]+ restart restart_syscall -> do_no_restart_syscall$'
}

@test "signals during user-mode computation run their handlers and leave every register, rax included, intact" {
	scenario spin
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A handler SIGUSR1 ran at=200ms
A handler SIGUSR1 ran at=500ms
A spin(700ms) regs=intact handlers=3 at=700ms
A count SIGUSR1 = 3 at=700ms
wait A = exited 0 at=700ms
OUT
}

@test "ignored signals never interrupt a sleep" {
	scenario ignored
	assert_output - <<'OUT'
A nanosleep(500ms) = 0 rem=untouched at=500ms
wait A = exited 0 at=500ms
OUT
}

@test "a blocked signal does not interrupt a sleep and is delivered when unblocked" {
	scenario blocked
	assert_output - <<'OUT'
A nanosleep(300ms) = 0 rem=untouched at=300ms
A mask = SIGUSR1 at=300ms
A handler SIGUSR1 ran at=300ms
A mask = none at=300ms
wait A = exited 0 at=300ms
OUT
}

@test "SIGKILL ends a stopped task" {
	scenario kill-stopped
	assert_output - <<'OUT'
wait A = stopped by SIGSTOP at=100ms
wait A = killed by SIGKILL at=200ms
OUT
}

@test "SIGTERM's default action ends a sleeping task with WTERMSIG 15" {
	scenario sigterm
	assert_output 'wait A = killed by SIGTERM at=100ms'
}

@test "a handler's own sleep interrupted by another handler returns EINTR, then the outer sleep does" {
	scenario nested
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A handler SIGUSR2 ran at=200ms
A nanosleep(300ms) = -1 EINTR rem=200ms at=200ms
A handler SIGUSR1 return at=200ms
A nanosleep(1000ms) = -1 EINTR rem=900ms at=200ms
wait A = exited 0 at=200ms
OUT
}

@test "a read under a sleeping SA_RESTART handler restarts once the nested handlers are done" {
	scenario nested-restart
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A handler SIGUSR2 ran at=200ms
A nanosleep(300ms) = -1 EINTR rem=200ms at=200ms
A handler SIGUSR1 return at=200ms
A read = 5 "hello" at=400ms
wait A = exited 0 at=400ms
OUT
}

@test "a signal waits for its own handler to return, unless SA_NODEFER" {
	scenario nested-same
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A nanosleep(200ms) = 0 rem=untouched at=300ms
A handler SIGUSR1 return at=300ms
A handler SIGUSR1 ran at=300ms
A nanosleep(200ms) = 0 rem=untouched at=500ms
A handler SIGUSR1 return at=500ms
A pause = -1 EINTR at=500ms
wait A = exited 0 at=500ms
B handler SIGUSR1 ran at=700ms
B handler SIGUSR1 ran at=800ms
B nanosleep(300ms) = 0 rem=untouched at=1100ms
B handler SIGUSR1 return at=1100ms
B nanosleep(300ms) = -1 EINTR rem=200ms at=1100ms
B handler SIGUSR1 return at=1100ms
B pause = -1 EINTR at=1100ms
wait B = exited 0 at=1100ms
OUT
}

@test "wait4 restarts after a handler with SA_RESTART and returns EINTR without it" {
	scenario --trace wait4
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=200ms
B nanosleep(400ms) = 0 rem=untouched at=400ms
A wait4(B) = B exited 3 at=400ms
wait A = exited 0 at=400ms
C handler SIGUSR1 ran at=700ms
C wait4(D) = -1 EINTR at=700ms
D nanosleep(900ms) = 0 rem=untouched at=900ms
C wait4(D) = D exited 4 at=900ms
wait C = exited 0 at=900ms
OUT
	trace_has '^[0-9]+ restart wait4 ERESTARTSYS -> restart'
	trace_has '^[0-9]+ restart wait4 ERESTARTSYS -> EINTR'
}

@test "SA_RESETHAND handles once then the default applies; SA_ONSTACK runs on the sigaltstack" {
	scenario flags
	assert_output - <<'OUT'
A handler SIGUSR1 ran at=100ms
A pause = -1 EINTR at=100ms
wait A = killed by SIGUSR1 at=200ms
B handler SIGUSR2 ran on altstack at=300ms
B pause = -1 EINTR at=300ms
B handler SIGUSR1 ran at=400ms
B pause = -1 EINTR at=400ms
wait B = exited 0 at=400ms
OUT
}
