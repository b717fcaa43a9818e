#!/usr/bin/env bats
# ptrace (kernel/ptrace.c; docs/design.md, "ptrace"): build/harness/ptracer
# traces its own children natively and under umk, and the output must be
# identical; each test then asserts the lines that state Linux's behaviour,
# so that a harness or a host that behaves otherwise fails too. The program
# prints errno names and facts, never pids or addresses. The strace tests
# run the host's strace under umk against the same strace natively.

load helper

@test "ptrace: TRACEME, signal-delivery-stops suppress and change a signal, exec's SIGTRAP" {
	same_as_native $H/ptracer traceme
	assert_line 'wait tracee: stopped SIGUSR1'
	assert_line 'siginfo: SIGUSR1 si_code 0 si_pid is tracee yes'
	assert_line "tracee's handlers ran: SIGUSR1 1, SIGUSR2 0"
	assert_line 'wait tracee after exec: stopped SIGTRAP'
	assert_line "exec's siginfo: SIGTRAP si_code SI_USER"
	assert_line 'wait tracee: exit 0'
}

@test "ptrace: ATTACH stops the tracee with SIGSTOP, /proc shows t and TracerPid, DETACH delivers a signal" {
	same_as_native $H/ptracer attach
	assert_line 'wait tracee: stopped SIGSTOP'
	assert_line 'State: t (tracing stop)'
	assert_line 'TracerPid is the tracer: yes'
	assert_line 'ptrace(ATTACH again) = -1 EPERM'
	assert_line 'ptrace(ATTACH self) = -1 EPERM'
	assert_line 'ptrace(INTERRUPT (not seized)) = -1 EIO'
	assert_line 'ptrace(GETREGS running) = -1 ESRCH'
	assert_line 'ptrace(CONT after DETACH) = -1 ESRCH'
	assert_line 'wait former tracee: killed by SIGTERM'
	assert_line 'ptrace(ATTACH nobody) = -1 ESRCH'
}

@test "ptrace: SEIZE, INTERRUPT's PTRACE_EVENT_STOP, group-stop and PTRACE_LISTEN until SIGCONT" {
	same_as_native $H/ptracer seize
	assert_line 'ptrace(SEIZE, bad options) = -1 EIO'
	assert_line 'wait WNOHANG after SEIZE = 0'
	assert_line 'wait tracee: PTRACE_EVENT_STOP SIGTRAP'
	assert_line 'wait tracee (group-stop): PTRACE_EVENT_STOP SIGSTOP'
	assert_line 'ptrace(LISTEN) = 0'
	assert_line 'wait WNOHANG while listening = 0'
	assert_line 'ptrace(GETREGS while listening) = -1 ESRCH'
	assert_line 'wait tracee after SIGCONT: PTRACE_EVENT_STOP SIGTRAP'
	assert_line 'wait tracee: stopped SIGCONT'
	assert_line 'wait tracee: killed by SIGKILL'
}

@test "ptrace: syscall stops show orig_rax and rax; a tracer changes a call, skips one with orig_rax -1, sets a result" {
	same_as_native $H/ptracer regs
	assert_line 'enter-stop: orig_rax getpid, rax ENOSYS'
	assert_line 'GET_SYSCALL_INFO = 80'
	assert_line 'op ENTRY, arch 0xc000003e, nr getpid'
	assert_line 'exit-stop: orig_rax -1, rax 42'
	assert_line 'op EXIT, rval 42, is_error 0'
	assert_line 'ptrace(POKEUSER cs 0x10) = -1 EIO'
	assert_line 'tracee got: skipped getpid 42, getppid made getpid: its pid yes, poked rax 7'
	assert_line 'fcw 0x37f mxcsr 0x1f80'
	assert_line 'iov_len 216'
}

@test "ptrace: PEEK/POKE DATA and TEXT (the tracee's code changes, not the file), process_vm_readv/writev" {
	same_as_native $H/ptracer memory
	assert_line 'PEEKDATA counter = 99'
	assert_line 'ptrace(PEEKDATA unmapped) = -1 EIO'
	assert_line "tracee's which() = 2, tracer's which() = 1"
	assert_line 'read "from trace"'
	assert_line 'process_vm_readv unmapped = -1 EFAULT'
	assert_line 'process_vm_readv flags 1 = -1 EINVAL'
}

@test "ptrace: syscall-exit-stop shows each -ERESTART code before the restart decision, then EINTR or restart_syscall" {
	same_as_native $H/ptracer restart
	# nanosleep with a handler: the code, then EINTR to the program
	assert_output --partial 'nanosleep, SIGUSR1 handler:
enter-stop nanosleep
  exit-stop nanosleep = ERESTART_RESTARTBLOCK
  stopped SIGUSR1
  enter-stop rt_sigreturn
  exit-stop syscall_-1 = EINTR'
	# stopped and continued: restart_syscall is the next call
	assert_output --partial '  exit-stop nanosleep = ERESTART_RESTARTBLOCK
  stopped SIGSTOP
  stopped SIGSTOP
  stopped SIGCONT
  enter-stop restart_syscall
  exit-stop restart_syscall = 0'
	assert_output --partial 'pipe read, SIGUSR1 handler:
enter-stop read
  exit-stop read = ERESTARTSYS'
	assert_output --partial 'pipe read, SIGUSR1 handler with SA_RESTART:
enter-stop read
  exit-stop read = ERESTARTSYS
  stopped SIGUSR1
  enter-stop rt_sigreturn
  exit-stop syscall_-1 = 0
  enter-stop read
  exit-stop read = 1'
	assert_output --partial '  exit-stop ppoll = ERESTARTNOHAND'
	assert_output --partial '  exit-stop pause = ERESTARTNOHAND'
	assert_output --partial '  exit-stop poll = ERESTART_RESTARTBLOCK'
	# a signal pending as clone3 starts: ERESTARTNOINTR, then the call again
	assert_output --partial 'clone3 entered with SIGUSR1 pending, a handler:
enter-stop clone3
  exit-stop clone3 = ERESTARTNOINTR
  stopped SIGUSR1
  enter-stop rt_sigreturn
  exit-stop syscall_-1 = 435
  enter-stop clone3
  exit-stop clone3 = EBADF'
}

@test "ptrace: PTRACE_O_TRACEFORK follows a new child, TRACEEXIT reports exits, the real parent reaps after the tracer" {
	same_as_native $H/ptracer fork
	assert_line 'wait tracee: event 1 SIGTRAP'
	assert_line 'wait new child: stopped SIGSTOP'
	assert_line "new child's TracerPid is the tracer: yes"
	assert_line 'wait new child: event 6 SIGTRAP'
	assert_line 'exit event message: exit 7'
	assert_line 'wait tracee: exit 17'
}

@test "ptrace: PTRACE_O_EXITKILL kills the tracee when its tracer exits" {
	same_as_native $H/ptracer exitkill
	assert_line 'wait its tracee: killed by SIGKILL'
}

@test "ptrace: the trace shows the ptrace calls" {
	umk --trace $H/ptracer attach
	trace_has 'enter ptrace\(16, '
	trace_has 'exit ptrace = -1 EPERM'
}

# same_strace ARG...: the host's strace ARG... natively and under umk, the
# same lines (strace_lines; only those matching STRACE_KEEP, a regex, if
# set); $output is umk's, so normalized.
same_strace() {
	[[ -x /usr/bin/strace ]] || skip "no /usr/bin/strace on this host"
	local n=$BATS_TEST_TMPDIR/native u=$BATS_TEST_TMPDIR/umk
	# strace writes to stderr: umk's /tmp is its own, not the host's
	native /usr/bin/strace "$@"
	printf '%s\n' "$stderr" >"$n"
	umk /usr/bin/strace "$@"
	printf '%s\n' "$stderr" >"$u"
	diff -u --label native --label umk <(strace_lines "$n" | grep -E -- "$STRACE_KEEP") \
		<(strace_lines "$u" | grep -E -- "$STRACE_KEEP") ||
		fail "strace's lines under umk differ from the native run's (diff above)"
	output=$(strace_lines "$u" | grep -E -- "$STRACE_KEEP")
	mapfile -t lines <<<"$output"
}

@test "ptrace: SINGLESTEP stops after each instruction (TRAP_TRACE), after a syscall instruction (TRAP_BRKPT), at a handler" {
	same_as_native $H/ptstep step
	assert_line 'int3 stop: SIGTRAP'
	assert_line 'stop 1: +2 SIGTRAP TRAP_TRACE, si_addr is rip yes'
	assert_line 'stop 6: +21 SIGTRAP TRAP_BRKPT, si_addr is rip yes'
	assert_line 'stop 7: +23 SIGTRAP TRAP_TRACE, si_addr is rip yes'
	assert_line '9 stops to seq_end, TF seen by the tracer: no'
	assert_line 'step with SIGUSR1: SIGTRAP, at the handler yes'
	assert_line 'after CONT: exit 1'
}

@test "ptrace: SYSEMU stops at each call's entry and never makes it, SYSEMU_SINGLESTEP steps to a call's entry stop" {
	same_as_native $H/ptstep sysemu
	assert_line 'stop 6: +21 syscall entry getpid, rax -38'
	assert_line 'stop 7: +23 SIGTRAP TRAP_TRACE, si_addr is rip yes'
	assert_line 'SYSEMU stop: SIGTRAP, orig_rax getppid, rax ENOSYS'
	assert_line 'tracee: exit 7 (getpid 4242 yes, getppid 77 yes, getuid skipped yes)'
}

@test "ptrace: PEEKSIGINFO reads the thread's and the process's queued signals in order, from an offset" {
	same_as_native $H/ptstep peeksig
	assert_line 'PEEKSIGINFO thread = 1: SIGUSR1/-6/pid'
	assert_line 'PEEKSIGINFO shared = 3: SIGUSR2/0/pid SIG35/-1/pid/value 5 SIG35/-1/pid/value 6'
	assert_line 'PEEKSIGINFO shared off 1 nr 1 = 1: SIG35/-1/pid/value 5'
	assert_line 'PEEKSIGINFO shared off 9 = 0:'
	assert_line 'PEEKSIGINFO nr -1 = -1 EINVAL'
	assert_line 'PEEKSIGINFO flags 2 = -1 EINVAL'
}

@test "ptrace: a traced thread's exit is a zombie its tracer waits for by its tid, and the process's exit is reported after it" {
	same_as_native $H/ptstep thread
	assert_line 'tracee: event 3 SIGTRAP'
	assert_line 'wait tracee WNOHANG before the thread'"'"'s = 0'
	# the thread exit(7)ed, but its process is exiting with 3 by then
	assert_line 'new thread: exit 3'
	assert_line 'wait thread again = -1 ECHILD'
	assert_line 'tracee: exit 3'
}

@test "ptrace: /proc/PID/mem reads and writes the tracee (its code too), /proc/PID/auxv, /proc/PID/task/TID, personality inherited" {
	same_as_native $H/ptstep procmem
	assert_line 'mem: pread = 8, word 1234'
	assert_line 'mem: pwrite into code = 3, the tracer'"'"'s copy returns 1'
	assert_line 'mem: pread at 4096 = -1 EIO'
	assert_line 'auxv: whole pairs yes, AT_PAGESZ 4096, ends with AT_NULL yes'
	assert_line 'task/PID/comm: ptstep'
	assert_line 'open task/1/comm (not a thread of it) = -1 ENOENT'
	assert_line 'tracee: exit 7 (the words written 1, the code 2, personality inherited 4)'
}

@test "ptrace: ARCH_PRCTL reads and sets the tracee's FS base (EPERM past the user space, EINVAL for an unknown option); GET_RSEQ_CONFIGURATION" {
	same_as_native $H/ptstep archprctl
	assert_line "FS base is GETREGS' fs_base: yes"
	assert_line 'then ARCH_GET_FS and fs_base: +8, +8'
	assert_line 'ARCH_PRCTL ARCH_SET_FS 1<<47 = -1 EPERM'
	assert_line 'ARCH_PRCTL 0x1234 = -1 EINVAL'
	assert_line 'GET_RSEQ_CONFIGURATION = 24: area none, size 0, signature 0x0, flags 0'
	assert_line 'GET_RSEQ_CONFIGURATION = 24: area ours, size 32, signature 0x53053053, flags 0'
}

# gdb_lines FILE: gdb's output with addresses and pids, which differ between
# the host and umk, made ADDR and N.
gdb_lines() {
	sed -E 's/0x[0-9a-f]+/ADDR/g; s/(process|LWP) [0-9]+/\1 N/g' "$1"
}

# same_gdb ARG...: the host's gdb, batch, on build/harness/gdbprog ARG...
# natively and under umk: a breakpoint, bt, step, print, continue; the
# same lines (gdb_lines). $output is umk's, so normalized.
same_gdb() {
	[[ -x /usr/bin/gdb ]] || skip "no /usr/bin/gdb on this host"
	local n=$BATS_TEST_TMPDIR/native u=$BATS_TEST_TMPDIR/umk
	local cmds=(-nx -batch -ex 'break square' -ex run -ex bt -ex step -ex 'print v' -ex continue)
	native /usr/bin/gdb "${cmds[@]}" --args $H/gdbprog "$@"
	printf '%s\n%s\n' "$output" "$stderr" >"$n"
	umk /usr/bin/gdb "${cmds[@]}" --args $H/gdbprog "$@"
	printf '%s\n%s\n' "$output" "$stderr" >"$u"
	diff -u --label native --label umk <(gdb_lines "$n") <(gdb_lines "$u") ||
		fail "gdb's lines under umk differ from the native run's (diff above)"
	output=$(gdb_lines "$u")
	mapfile -t lines <<<"$output"
}

@test "gdb runs a program to a breakpoint, shows its stack, steps, prints a variable and continues, as natively" {
	same_gdb
	assert_line --regexp '^Breakpoint 1, square \(x=(x@entry=)?3\) at .*gdbprog.c:[0-9]+$'
	assert_line --regexp '^#1  ADDR in main \(.*\) at .*gdbprog.c:[0-9]+$'
	assert_line '$1 = 9'
	assert_line 'result 9'
	assert_line '[Inferior 1 (process N) exited normally]'
}

@test "gdb stops a second thread at a breakpoint and sees it exit, as natively" {
	same_gdb thread
	assert_line '[New LWP N]'
	assert_line --regexp '^Thread 2 "gdbprog" hit Breakpoint 1, square \(x=(x@entry=)?7\) at .*gdbprog.c:[0-9]+$'
	assert_line '$1 = 49'
	assert_line '[LWP N exited]'
	assert_line '[Inferior 1 (process N) exited normally]'
}

@test "strace -f: a vfork child's calls and its exit, as natively" {
	same_strace -f $H/ptracer vfork
	assert_line --regexp '^M execve\(".*/ptracer", \[".*/ptracer", "vfork"\], 0xADDR /\* [0-9]+ vars \*/\) = 0$'
	assert_line 'M vfork() = PID'
	assert_line --regexp '^C1 write\(1, "child\\n", 6\) = 6$'
	assert_line 'C1 exit(3) = ?'
	assert_line 'C1 +++ exited with 3 +++'
	assert_line 'M wait4(PID, [{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = PID'
}

@test "strace -f: glibc's pthread_create makes its thread with clone3, as natively" {
	same_strace -f -qq -e trace=clone3,clone $B/dyn/pthread
	assert_output --regexp '^M clone3\(\{flags=CLONE_VM\|CLONE_FS\|CLONE_FILES\|CLONE_SIGHAND\|CLONE_THREAD\|CLONE_SYSVSEM\|CLONE_SETTLS\|CLONE_PARENT_SETTID\|CLONE_CHILD_CLEARTID, child_tid=0xADDR, parent_tid=0xADDR, exit_signal=0, stack=0xADDR, stack_size=0xADDR, tls=0xADDR\} => \{parent_tid=\[PID\]\}, 88\) = PID$'
}

@test "strace -f: a nanosleep stopped by SIGTSTP and continued resumes through restart_syscall" {
	same_strace -f -qq -e trace=nanosleep,clock_nanosleep,restart_syscall -e signal=SIGTSTP,SIGCONT \
		$H/ptracer tstp
	assert_output 'M nanosleep({tv_sec=0, tv_nsec=300000000}, NULL) = ? ERESTART_RESTARTBLOCK (Interrupted by signal)
M --- SIGTSTP {si_signo=SIGTSTP, si_code=SI_USER, si_pid=PID, si_uid=0} ---
M --- stopped by SIGTSTP ---
M --- SIGCONT {si_signo=SIGCONT, si_code=SI_USER, si_pid=PID, si_uid=0} ---
M restart_syscall(<... resuming interrupted nanosleep ...>) = 0'
}

@test "strace -f of the demo: each task's sleep interrupted, the stop, the handler, the stopper's restart_syscall, as natively" {
	# the parent's own 200 ms sleep is interrupted by its children's
	# SIGCHLDs (a traced process has no ignored signals), once or twice
	# as they race with it, natively too: the children's lines are compared
	STRACE_KEEP='^C' same_strace -f -e trace=nanosleep,restart_syscall -e signal=SIGSTOP,SIGCONT,SIGUSR1 \
		$H/demo
	assert_output 'C1 nanosleep({tv_sec=0, tv_nsec=500000000}, {LEFT}) = ? ERESTART_RESTARTBLOCK (Interrupted by signal)
C1 --- SIGSTOP {si_signo=SIGSTOP, si_code=SI_USER, si_pid=PID, si_uid=0} ---
C1 --- stopped by SIGSTOP ---
C1 --- SIGCONT {si_signo=SIGCONT, si_code=SI_USER, si_pid=PID, si_uid=0} ---
C1 restart_syscall(<... resuming interrupted nanosleep ...>) = 0
C1 +++ exited with 0 +++
C2 nanosleep({tv_sec=0, tv_nsec=500000000}, {LEFT}) = ? ERESTART_RESTARTBLOCK (Interrupted by signal)
C2 --- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, si_pid=PID, si_uid=0} ---
C2 +++ exited with 0 +++'
}

@test "strace -e inject: an error and a signal injected into nanosleep" {
	same_strace -f -qq -e trace=nanosleep -e inject=nanosleep:error=ENOSYS $H/ptracer tstp
	assert_line 'C1 nanosleep({tv_sec=0, tv_nsec=300000000}, NULL) = -1 ENOSYS (Function not implemented) (INJECTED)'
	assert_line --regexp '^M --- SIGCHLD \{si_signo=SIGCHLD, si_code=CLD_EXITED, .*si_status=1,'
	same_strace -f -qq -e trace=nanosleep -e inject=nanosleep:signal=SIGUSR1 $H/ptracer tstp
	assert_line 'C1 --- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_KERNEL} ---'
	assert_line 'C1 +++ killed by SIGUSR1 +++'
}
