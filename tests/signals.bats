#!/usr/bin/env bats
# The signal system calls and signal delivery, beyond the restart decision:
# rt_sigtimedwait, queueing, the order of several pending handlers, alarm
# and ITIMER_REAL, sigaltstack, broken frames, SIGCHLD and faults. Each test
# runs a harness program natively (the host kernel is the reference) and
# under umk, requires the same stdout and exit status, then asserts the
# lines that state the behaviour. Times are printed rounded to 50 ms.

load helper

@test "rt_sigtimedwait takes a pending signal at once, times out with EAGAIN and is ended by a handled signal with EINTR" {
	same_as_native $H/sigcalls timedwait
	assert_line 'rt_sigtimedwait({SIGUSR1}) with SIGUSR1 pending = 10'
	assert_line '  si_signo=SIGUSR1 si_code=SI_TKILL'
	assert_line 'rt_sigtimedwait({SIGUSR1}, 100ms) at=100ms = -1 EAGAIN'
	assert_line 'rt_sigtimedwait({SIGUSR1}, 0) at=0ms = -1 EAGAIN'
	assert_line 'rt_sigtimedwait({SIGUSR1}), SIGUSR2 at 100ms, at=100ms = -1 EINTR'
	assert_line 'rt_sigtimedwait({SIGUSR1}), SA_RESTART SIGUSR2 at 100ms, at=100ms = -1 EINTR'
	assert_line '  handler SIGUSR2 si_code=SI_TKILL'
}

@test "rt_sigtimedwait rejects a bad sigsetsize, timeout or pointer" {
	same_as_native $H/sigcalls timedwait
	assert_line 'rt_sigtimedwait(sigsetsize 4) = -1 EINVAL'
	assert_line 'rt_sigtimedwait(sigsetsize 16) = -1 EINVAL'
	assert_line 'rt_sigtimedwait(set=1) = -1 EFAULT'
	assert_line 'rt_sigtimedwait(timeout=1) = -1 EFAULT'
	assert_line 'rt_sigtimedwait(tv_nsec 1e9) = -1 EINVAL'
	assert_line 'rt_sigtimedwait(tv_sec -1) = -1 EINVAL'
	assert_line 'rt_sigtimedwait(info=1) with SIGUSR1 pending = -1 EFAULT'
	assert_line 'SIGUSR1 still pending after the EFAULT: no'
}

@test "queued real-time signals run their handler once each with their values in order, a standard signal once" {
	same_as_native $H/sigcalls queue
	assert_line 'SIGRTMIN pending: yes'
	assert_output --partial 'unblock SIGRTMIN
  handler SIGRTMIN si_code=SI_QUEUE value=10
  handler SIGRTMIN si_code=SI_QUEUE value=20
  handler SIGRTMIN si_code=SI_QUEUE value=30
SIGRTMIN pending after: no'
	assert_output --partial 'unblock SIGUSR1
  handler SIGUSR1 si_code=SI_TKILL
rt_sigqueueinfo'
}

@test "rt_sigqueueinfo may forge a kernel or kill si_code only to the caller itself" {
	same_as_native $H/sigcalls queue
	assert_line 'rt_sigqueueinfo(self, SIGUSR1, si_code=SI_USER) = 0'
	assert_line 'rt_sigqueueinfo(self, SIGUSR1, si_code=SI_KERNEL) = 0'
	assert_line '  handler SIGUSR1 si_code=SI_KERNEL'
	assert_line 'rt_sigqueueinfo(child, SIGUSR1, si_code=SI_USER) = -1 EPERM'
	assert_line 'rt_sigqueueinfo(child, SIGUSR1, si_code=SI_TKILL) = -1 EPERM'
	assert_line 'rt_sigqueueinfo(child, SIGUSR1, si_code=SI_KERNEL) = -1 EPERM'
	assert_line 'rt_sigqueueinfo(child, SIGTERM, si_code=SI_QUEUE) = 0'
	assert_line 'child: killed by SIGTERM'
	assert_line 'rt_sigqueueinfo(self, SIGUSR1, info=1) = -1 EFAULT'
}

@test "signals unblocked together stack their frames: the last one dequeued runs first, sa_mask defers one" {
	same_as_native $H/sigcalls order
	assert_output - <<'OUT'
unblock SIGUSR1, SIGUSR2, SIGRTMIN+1 at once
  handler SIGRTMIN+1 si_code=SI_TKILL
  leave SIGRTMIN+1
  handler SIGUSR2 si_code=SI_TKILL
  leave SIGUSR2
  handler SIGUSR1 si_code=SI_TKILL
  leave SIGUSR1
again, SIGUSR1's sa_mask holding SIGUSR2
  handler SIGRTMIN+1 si_code=SI_TKILL
  leave SIGRTMIN+1
  handler SIGUSR1 si_code=SI_TKILL
  leave SIGUSR1
  handler SIGUSR2 si_code=SI_TKILL
  leave SIGUSR2
again, SIGUSR1 and SIGRTMIN+1 by kill, SIGUSR2 by raise
  handler SIGRTMIN+1 si_code=SI_USER
  leave SIGRTMIN+1
  handler SIGUSR1 si_code=SI_USER
  leave SIGUSR1
  handler SIGUSR2 si_code=SI_TKILL
  leave SIGUSR2
OUT
}

@test "ITIMER_PROF and ITIMER_VIRTUAL signal on CPU time spent, not while asleep, and fork does not inherit them" {
	same_as_native $H/sigcalls itimer-cpu
	assert_line 'getitimer(ITIMER_PROF): interval 100 ms, value running'
	assert_line 'child: getitimer(ITIMER_PROF): interval 0 ms, value 0'
	assert_line '3 SIGPROF while spinning: yes, si_code SI_KERNEL, after 250 to 600 ms of CPU: yes'
	assert_line 'SIGPROF while asleep 300 ms: 0'
	assert_line 'SIGVTALRM while spinning: once, after 50 to 400 ms of CPU: yes'
	assert_line 'setitimer(3) = -1 EINVAL'
}

@test "kill and rt_sigqueueinfo to a thread's id signal its process: the named thread takes it unless it blocks it" {
	same_as_native $H/sigcalls tidkill
	assert_output 'a thread that takes SIGUSR1:
kill(tid, 0) = 0
kill(tid, SIGUSR1) = 0
  handled by: the thread named
rt_sigqueueinfo(tid, SIGUSR1) = 0
  handled by: the thread named
a thread that blocks SIGUSR1:
kill(tid, 0) = 0
kill(tid, SIGUSR1) = 0
  handled by: the main thread
rt_sigqueueinfo(tid, SIGUSR1) = 0
  handled by: the main thread
kill(the joined thread'"'"'s tid, 0) = -1 ESRCH'
}

@test "alarm and a 50 ms ITIMER_REAL deliver SIGALRM on time, and SIGALRM ends pause with EINTR" {
	same_as_native $H/sigcalls itimer
	assert_line 'alarm(1) = 0'
	assert_line 'alarm(0) = 1'
	assert_line '  it_interval=0.050000 it_value in (0, 50ms]: yes'
	assert_line 'SIGALRM count: 5'
	assert_line '  it_interval=0.000000 it_value=0.000000'
	assert_line '  SIGALRM handler ran: 1'
	assert_line 'pause(), ITIMER_REAL of 100ms, at=100ms = -1 EINTR'
	assert_line 'setitimer(tv_usec 1000000) = -1 EINVAL'
	assert_line 'setitimer(interval tv_usec 1000000) = -1 EINVAL'
	assert_line 'setitimer(value=1) = -1 EFAULT'
}

@test "SIGALRM from an expired ITIMER_REAL or alarm carries si_code SI_KERNEL, as Linux's it_real_fn sends it" {
	same_as_native $H/sigcalls alarm-sicode
	assert_output - <<'OUT'
setitimer(ITIMER_REAL, 50ms):
  handler SIGALRM si_code=SI_KERNEL
alarm(1):
  handler SIGALRM si_code=SI_KERNEL
OUT
}

@test "an SA_ONSTACK handler runs on the sigaltstack, which it may not change, and sigaltstack checks its arguments" {
	same_as_native $H/sigcalls altstack
	assert_output --partial 'in the handler (SA_ONSTACK):
  sigaltstack(NULL, &old) = 0
  old: ss_flags=SS_ONSTACK ss_sp=altstack ss_size=64K
  local variable inside the altstack: yes
  sigaltstack(&new) on it = -1 EPERM'
	assert_output --partial 'in the handler (no SA_ONSTACK):
  sigaltstack(NULL, &old) = 0
  old: ss_flags=0 ss_sp=altstack ss_size=64K
  local variable inside the altstack: no'
	assert_line 'sigaltstack(SS_DISABLE) = 0'
	assert_line '  old: ss_flags=SS_DISABLE ss_sp=NULL ss_size=0'
	assert_line 'sigaltstack(ss_size 2047) = -1 ENOMEM'
	assert_line 'sigaltstack(ss_size 2048) = 0'
	assert_line 'sigaltstack(ss_flags 0x10) = -1 EINVAL'
	assert_line 'sigaltstack(ss=1) = -1 EFAULT'
}

@test "a frame's uc_stack holds the registered altstack without SS_ONSTACK, and SS_AUTODISARM disables it while the handler runs" {
	same_as_native $H/sigcalls altstack-frame
	assert_output - <<'OUT'
sigaltstack(64K) = 0
in the handler (SA_ONSTACK):
  sigaltstack(NULL, &old) = 0
  old: ss_flags=SS_ONSTACK ss_sp=altstack ss_size=64K
  uc_stack: ss_flags=0 ss_sp=altstack ss_size=64K
  local variable inside the altstack: yes
sigaltstack(64K, SS_AUTODISARM) = 0
in the handler (SA_ONSTACK, SS_AUTODISARM):
  sigaltstack(NULL, &old) = 0
  old: ss_flags=SS_DISABLE ss_sp=NULL ss_size=0
  uc_stack: ss_flags=SS_AUTODISARM ss_sp=altstack ss_size=64K
  local variable inside the altstack: yes
sigaltstack(NULL, &old) after = 0
  old: ss_flags=SS_AUTODISARM ss_sp=altstack ss_size=64K
OUT
}

@test "a handler without SA_RESTORER, or a fault with SIGSEGV blocked or ignored, kills the process with SIGSEGV" {
	same_as_native $H/sigfault frames no-restorer blocked-segv ignored-segv
	assert_output - <<'OUT'
child: rt_sigaction(SIGUSR1) without SA_RESTORER = 0
no-restorer: killed by SIGSEGV
child: SIGSEGV blocked, writing to NULL
blocked-segv: killed by SIGSEGV
child: SIGSEGV ignored, writing to NULL
ignored-segv: killed by SIGSEGV
OUT
}

@test "rt_sigreturn on a stack of zeros kills the process with SIGSEGV" {
	same_as_native $H/sigfault frames sigreturn-zeros
	assert_line 'sigreturn-zeros: killed by SIGSEGV'
}

@test "rt_sigreturn on a stack of garbage kills the process with SIGSEGV, and umk keeps running (bug: umk oopses reading uc_mcontext.fpstate)" {
	same_as_native $H/sigfault frames sigreturn-ones sigreturn-0xab
	assert_output - <<'OUT'
child: rt_sigreturn on a stack of 0xff bytes
sigreturn-ones: killed by SIGSEGV
child: rt_sigreturn on a stack of 0xab bytes
sigreturn-0xab: killed by SIGSEGV
OUT
}

@test "a SIGCHLD handler sees CLD_EXITED, CLD_KILLED, CLD_STOPPED and CLD_CONTINUED with si_status" {
	same_as_native $H/sigchld
	assert_output --partial 'child exits 3
  SIGCHLD CLD_EXITED si_status=3 (exit code) from the child: yes
  wait: exit 3
child killed by SIGTERM
  SIGCHLD CLD_KILLED si_status=15 (SIGTERM) from the child: yes
  wait: killed by SIGTERM
child stopped and continued
kill(child, SIGSTOP)
  SIGCHLD CLD_STOPPED si_status=19 (SIGSTOP) from the child: yes
kill(child, SIGCONT)
  SIGCHLD CLD_CONTINUED si_status=18 (SIGCONT) from the child: yes
kill(child, SIGKILL)
  SIGCHLD CLD_KILLED si_status=9 (SIGKILL) from the child: yes'
}

@test "SA_NOCLDSTOP silences stop and continue notifications, and an ignored SIGCHLD reaps children itself" {
	same_as_native $H/sigchld
	assert_output --partial 'the same with SA_NOCLDSTOP
kill(child, SIGSTOP)
  SIGCHLD in 100ms: 0
  waitpid(WUNTRACED): SIGSTOP
kill(child, SIGCONT)
  SIGCHLD in 100ms: 0
  waitpid(WCONTINUED): continued
kill(child, SIGKILL)
  SIGCHLD CLD_KILLED si_status=9 (SIGKILL) from the child: yes'
	assert_output --partial 'SIGCHLD ignored
wait4(-1) = -1 ECHILD
wait4(child) = -1 ECHILD'
}

@test "faults caught by SA_SIGINFO handlers carry Linux's si_code and si_addr, and siglongjmp resumes the program" {
	same_as_native $H/sigfault faults
	assert_output - <<'OUT'
write to NULL: SIGSEGV si_code=1 (SEGV_MAPERR) si_addr=0
write to 0x1008: SIGSEGV si_code=1 (SEGV_MAPERR) si_addr=0x1008
write to a PROT_READ page: SIGSEGV si_code=2 (SEGV_ACCERR) si_addr=page+8
write to an unmapped page between two regions: SIGSEGV si_code=1 (SEGV_MAPERR) si_addr=hole+8
idiv by zero: SIGFPE si_code=1 (FPE_INTDIV) si_addr=the instruction rip=the instruction
ud2: SIGILL si_code=2 (ILL_ILLOPN) si_addr=the instruction rip=the instruction
int3: SIGTRAP si_code=128 (SI_KERNEL) si_addr=0 rip=after it
write to NULL again: SIGSEGV si_code=1 (SEGV_MAPERR) si_addr=0
after the siglongjmps: SIGSEGV blocked: no
the program continues
OUT
}
