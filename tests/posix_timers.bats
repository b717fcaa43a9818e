#!/usr/bin/env bats
# POSIX timers (timer_create, timer_settime, timer_gettime, timer_getoverrun,
# timer_delete) and clock_nanosleep on the CPU-time clocks, natively and
# under umk (harness/progs/ptimers.c; kernel/time/posix-timers.c and
# posix-cpu-timers.c). The program prints no times, only checks against
# generous bounds, so both runs print the same lines on a loaded machine.

load helper

# host_kernel_at_least MAJOR MINOR: the host runs Linux MAJOR.MINOR or later.
host_kernel_at_least() {
	local v major minor
	v=$(uname -r)
	major=${v%%.*}
	minor=${v#*.}
	minor=${minor%%[!0-9]*}
	((major > $1 || (major == $1 && minor >= $2)))
}

@test "timer_create hands out ids from 0, refuses bad clocks and sigevents as Linux, and each call has Linux's errors" {
	same_as_native $H/ptimers create
	assert_line 'timer_create(CLOCK_THREAD_CPUTIME_ID, NULL) = 0'
	assert_line 'timer_create(CLOCK_MONOTONIC_RAW, NULL) = -1 EOPNOTSUPP'
	assert_line 'timer_create(clock 12, NULL) = -1 EINVAL'
	assert_line 'timer_create(SIGEV_SIGNAL, signal 65) = -1 EINVAL'
	assert_line 'timer_create(SIGEV_THREAD_ID, a child process) = -1 EINVAL'
	assert_line 'timer_create(bad clock, bad sigevent pointer) = -1 EFAULT'
	assert_line '  id 12: the failures after the sigevent was read took ids'
	assert_line 'RLIMIT_SIGPENDING 0: timer_create = -1 EAGAIN'
	assert_line 'timer_settime(1 s, bad old pointer) = -1 EFAULT'
	assert_line '  armed all the same: yes'
	assert_line 'timer_gettime(deleted) = -1 EINVAL'
	assert_line '  id 13: a deleted timer'"'"'s id is not handed out again at once'
}

@test "a timer's signal carries SI_TIMER, its id and value; a NULL sigevent sends SIGALRM with the id as value" {
	same_as_native $H/ptimers signal
	assert_line '  handler SIGUSR1 si_code=SI_TIMER si_timerid=1 si_overrun=0 si_value=41'
	assert_line '  handler SIGUSR1 si_code=SI_TIMER si_timerid=2 si_overrun=0 si_value=42'
	assert_line '  handler SIGALRM si_code=SI_TIMER si_timerid=3 si_overrun=0 si_value=3'
	assert_line '  timer_gettime after it fired: it_value 0.000000000 it_interval 0.000000000'
}

@test "a periodic timer's blocked signal is queued once: si_overrun counts the rest, timer_getoverrun agrees, DELAYTIMER_MAX caps it" {
	same_as_native $H/ptimers overrun
	assert_line --index 2 '  rt_sigtimedwait = SIGUSR1 si_code=SI_TIMER si_timerid=0 si_value=0'
	assert_line '  si_overrun >= 10: yes; timer_getoverrun = si_overrun: yes'
	refute_line --partial ': no'
	assert_line 'timer_gettime: it_interval 0.005000000, it_value in (0, 5 ms]: yes'
	assert_line '  si_overrun 2147483647, timer_getoverrun 2147483647'
}

@test "SIGEV_NONE timers count down in timer_gettime, on the monotonic and the process CPU clock, and signal nothing" {
	same_as_native $H/ptimers none
	assert_line '  50 ms later, at least 50 ms less: yes'
	assert_line '  after 50 ms of CPU, at least 50 ms less: yes'
	assert_line '  SIGALRM or any signal pending: no'
	assert_line '  expired: it_value 0.000000000 it_interval 0.000000000'
	assert_line '  after 100 ms: it_interval 0.030000000, it_value in (0, 30 ms]: yes'
	assert_line '  timer_getoverrun (never delivered) = 0'
}

@test "TIMER_ABSTIME on CLOCK_MONOTONIC, CLOCK_REALTIME and CLOCK_BOOTTIME; timer_settime returns the old value" {
	same_as_native $H/ptimers abstime
	refute_line --partial ': no'
	assert_line '  rt_sigtimedwait = SIGUSR1 si_code=SI_TIMER si_timerid=2 si_value=0'
	assert_line '  rt_sigtimedwait = SIGUSR1 si_code=SI_TIMER si_timerid=3 si_value=0'
	assert_line '  old it_value in (0, 1 s]: yes, it_interval 0.250000000'
	assert_line '  old: it_value 0.000000000 it_interval 0.000000000'
}

@test "SIGEV_THREAD_ID signals the chosen thread only; a thread gone gets nothing; the C library's SIGEV_THREAD works" {
	same_as_native $H/ptimers thread
	assert_line '  ran in thread A: yes (main: no)'
	assert_line '  pending on thread B: yes; on main: no'
	assert_line 'timer_create(SIGEV_THREAD_ID, a thread that has exited) = -1 EINVAL'
	assert_line '  any signal: no'
	assert_line '  called with value 7, in another thread: yes'
}

@test "a forked child has none of its parent's timers, and its ids start from 0" {
	same_as_native $H/ptimers fork
	assert_line 'child: timer_gettime(parent'"'"'s armed timer) = -1 EINVAL'
	assert_line 'child:   id 0'
	assert_line 'parent: still armed: yes'
}

@test "exec deletes the timers and their pending signal, and the next id follows the old ones" {
	same_as_native $H/ptimers exec
	assert_output 'before exec: timers 0 (every 5 ms) and 1 (10 s); SIGUSR2 blocked, pending: yes
after exec: SIGUSR2 still blocked: yes, pending: no
after exec: timer_gettime(first) = -1 EINVAL
after exec: timer_gettime(second) = -1 EINVAL
after exec: timer_create = 0
  id 2
30 ms later, SIGUSR2 pending: no'
}

@test "sigwaitinfo and rt_sigtimedwait take a timer's blocked signal, and a periodic timer goes on after each" {
	same_as_native $H/ptimers sigwait
	assert_line '  sigwaitinfo = SIGRTMIN+1 si_code=SI_TIMER si_timerid=0 si_value=99'
	assert_line --index 5 '  rt_sigtimedwait = SIGRTMIN+1 si_code=SI_TIMER si_timerid=0 si_value=99'
	assert_line 'disarmed: rt_sigtimedwait(50 ms) = -1 EAGAIN'
}

@test "timers on the process and thread CPU clocks fire after that much CPU, count overruns, and stop with their thread" {
	same_as_native $H/ptimers cputime
	refute_line --partial ': no'
	assert_line '  no signal: yes; still more than 20 ms to go: yes'
	assert_line '  handler SIGUSR1 si_code=SI_TIMER si_timerid=2 si_overrun=0 si_value=2'
	assert_line '  pending on return: yes'
	assert_line '  timer_settime = -1 ESRCH'
}

@test "clock_nanosleep: EOPNOTSUPP on the thread CPU clock; the process clock sleeps, is interrupted, and restarts after a stop" {
	same_as_native --trace $H/ptimers nsleep
	assert_line 'clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 1 ms) = -1 EOPNOTSUPP'
	assert_line 'clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, bad pointer) = -1 EOPNOTSUPP'
	assert_line 'clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 50 ms), another thread spinning = 0'
	refute_line --partial ': no'
	assert_line 'child: clock_nanosleep(CLOCK_PROCESS_CPUTIME_ID, 10 s) = -1 EINTR'
	trace_has '^[0-9]+ restart clock_nanosleep ERESTART_RESTARTBLOCK -> restart_syscall \(no handler\)$'
	trace_has '^[0-9]+ restart restart_syscall -> posix_cpu_nsleep_restart$'
	trace_has '^[0-9]+ restart clock_nanosleep ERESTARTNOHAND -> EINTR \(handler\)$'
}

@test "Linux 6.13's rules: a re-set or deleted timer's queued signal is dropped; an ignored periodic timer's comes back with its handler" {
	host_kernel_at_least 6 13 || skip "the host runs Linux $(uname -r), before these rules"
	same_as_native $H/ptimers modern
	assert_line '  rt_sigtimedwait(0): the signal is stale = -1 EAGAIN'
	assert_line '  rt_sigtimedwait(0) = -1 EAGAIN'
	assert_line '  pending at once: yes'
	assert_line '  handler ran: no'
	assert_line '  pending once ignored: no'
	assert_line '  pending with the handler back: yes'
	assert_line '  si_overrun >= 3 (the ignored expiries): yes'
	assert_line '  si_overrun >= 6: yes'
}

@test "a process's timers go with it: none fires after its exit" {
	same_as_native --trace $H/ptimers exit
	local after
	after=$(untimed "$stderr" | sed -n '/^2 task exit 2 /,$p')
	[[ -n $after ]] || fail "no exit of pid 2 in the trace: $stderr"
	if grep -q 'timer posix' <<<"$after"; then
		fail "a timer fired after the exit: $after"
	fi
	untimed "$stderr" | sed '/^2 task exit 2 /q' | grep -qE '^[0-9]+ timer posix_timer expired$' ||
		fail "the child's timer never fired: $stderr"
}

@test "the timer calls are traced with their arguments" {
	umk --trace $H/ptimers signal
	trace_has '^1 enter timer_create\(1, 0x[0-9a-f]+, 0x[0-9a-f]+\)$'
	trace_has '^1 enter timer_settime\(0, 0, 0x[0-9a-f]+, NULL\)$'
	trace_has '^1 enter timer_gettime\(0, 0x[0-9a-f]+\)$'
	trace_has '^1 enter timer_getoverrun\(0\)$'
	trace_has '^[0-9]+ timer posix_timer expired$'
	trace_has '^[0-9]+ signal SIGUSR1 -> 1$'
}

@test "every scenario tells the same story under --clock=virtual" {
	local s scenarios=(create signal overrun none abstime thread fork exec sigwait cputime nsleep exit)
	host_kernel_at_least 6 13 && scenarios+=(modern)
	for s in "${scenarios[@]}"; do
		same_as_native --clock=virtual $H/ptimers "$s"
	done
}
