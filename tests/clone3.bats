#!/usr/bin/env bats
# clone3(2) (kernel/fork.c, Linux's copy_clone_args_from_user,
# clone3_args_valid and kernel_clone): children and threads made with it,
# and each of its refusals. Every check runs natively and under umk with
# the same output (harness/progs/clone3.c); tests/ptrace.bats has strace's
# view of glibc's pthread_create.

load helper

@test "clone3: a fork-like child for each size of struct clone_args, and a page-sized one whose tail is zero" {
	same_as_native $H/clone3 fork
	assert_output '== fork
size 64 (VER0): a child, exit 7
size 80 (VER1): a child, exit 7
size 88 (VER2): a child, exit 7
size 4096, the tail zero: a child, exit 7'
}

@test "clone3: a thread with CLONE_VM|CLONE_THREAD|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID on its own stack" {
	same_as_native $H/clone3 thread
	assert_output '== thread
thread: a new tid: yes
thread: parent_tid is its tid: yes
thread: child_tid 0 at its exit, and woken: yes
thread: in its creator'"'"'s process: yes
thread: gettid is the tid clone3 returned: yes
thread: its FS base is tls: yes
thread: it ran on its stack: yes
thread: wait4(-1, __WALL) after it = -1 ECHILD'
}

@test "clone3: CLONE_CLEAR_SIGHAND resets handlers but not ignored signals, and is refused with CLONE_SIGHAND" {
	same_as_native $H/clone3 sighand
	assert_output '== sighand
CLONE_CLEAR_SIGHAND: SIGUSR1 back to SIG_DFL, SIGUSR2 still ignored: yes
CLONE_CLEAR_SIGHAND|CLONE_SIGHAND|CLONE_VM = -1 EINVAL'
}

@test "clone3: sizes, exit_signal, flags and stack refused as Linux refuses them" {
	same_as_native $H/clone3 errors
	assert_output '== errors
size 0 = -1 EINVAL
size 63 = -1 EINVAL
size 4097 = -1 E2BIG
size 96, a byte past the struct set = -1 E2BIG
args NULL = -1 EFAULT
args unmapped = -1 EFAULT
exit_signal 65 = -1 EINVAL
exit_signal 0x100|SIGCHLD = -1 EINVAL
CLONE_PARENT, exit_signal SIGCHLD = -1 EINVAL
CLONE_THREAD|CLONE_SIGHAND|CLONE_VM, exit_signal SIGCHLD = -1 EINVAL
flags SIGCHLD (CSIGNAL) = -1 EINVAL
CLONE_DETACHED = -1 EINVAL
flags 1 << 40 = -1 EINVAL
CLONE_THREAD without CLONE_SIGHAND = -1 EINVAL
stack without stack_size = -1 EINVAL
stack_size without stack = -1 EINVAL
stack 1 << 47 = -1 EINVAL
stack ending past 1 << 47 = -1 EINVAL
CLONE_SETTLS, tls 1 << 47 = -1 EPERM'
}

@test "clone3: set_tid gives a free pid to a privileged caller, and is refused malformed, out of range, taken or unprivileged" {
	[[ $(id -u) == 0 ]] || skip "the host run needs root (CAP_SYS_ADMIN) for set_tid"
	grep -q '^NSpid:[[:space:]]*[0-9]*$' /proc/self/status ||
		skip "the host run is in a nested pid namespace, where set_tid takes more pids"
	same_as_native $H/clone3 set_tid
	assert_output '== set_tid
set_tid NULL, set_tid_size 1 = -1 EINVAL
set_tid_size 0 = -1 EINVAL
set_tid_size 33 = -1 EINVAL
set_tid {0} = -1 EINVAL
set_tid {1 << 30} = -1 EINVAL
set_tid {our pid} = -1 EEXIST
set_tid unmapped = -1 EFAULT
set_tid {a free pid}: the child has it: yes, and sees it
set_tid {a free pid}, as nobody = -1 EPERM'
}

@test "clone3: CLONE_INTO_CGROUP needs the third size and refuses an fd that is no cgroup directory" {
	same_as_native $H/clone3 cgroup
	assert_output '== cgroup
CLONE_INTO_CGROUP, size 80 = -1 EINVAL
CLONE_INTO_CGROUP, cgroup 1 << 31 = -1 EINVAL
CLONE_INTO_CGROUP, cgroup the fd of / = -1 EBADF
CLONE_INTO_CGROUP, cgroup a closed fd = -1 EBADF'
}

@test "clone3 in umk's trace: the struct's flags, exit_signal, stack and tls" {
	umk --trace=/dev/stderr $H/clone3 thread
	assert_equal "$(grep -c ' enter clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, exit_signal=0, stack=0x[0-9a-f]*, stack_size=0x10000, tls=0x[0-9a-f]*}, 64)$' <<<"$stderr")" 1
	umk --trace=/dev/stderr $H/clone3 fork
	assert_equal "$(grep -c ' enter clone3({flags=0, exit_signal=SIGCHLD, stack=0, stack_size=0, tls=0}, 88)$' <<<"$stderr")" 1
}
