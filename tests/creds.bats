#!/usr/bin/env bats
# User and group ids (harness/progs/creds.c): the set*id calls with Linux's rules
# and the capabilities that follow them, and the permission checks made
# with the ids (signals, limits, nice values, policies). Natively the tests
# run as root, as umk's pid 1 is; each scenario drops privileges in its own
# process.

load helper

@test "setuid as root sets every uid and drops the capabilities for good" {
	same_as_native $H/creds setuid
	assert_output 'setuid(-1) = -1 EINVAL
setuid(1000) = 0
after setuid(1000): uid 1000 1000 1000 fsuid 1000, gid 0 0 0 fsgid 0
setuid(0) = -1 EPERM
setuid(1000) again = 0
setgid(5) without CAP_SETGID = -1 EPERM
setgroups(0) without CAP_SETGID = -1 EPERM
setresuid(2000, -1, -1) = -1 EPERM
at the end: uid 1000 1000 1000 fsuid 1000, gid 0 0 0 fsgid 0'
}

@test "a saved uid of 0 lets the effective uid come back to root, with its capabilities" {
	same_as_native $H/creds saved
	assert_output 'setresuid(1000, 1000, 0) = 0
with saved uid 0: uid 1000 1000 0 fsuid 1000, gid 0 0 0 fsgid 0
setgroups(0) with euid 1000 = -1 EPERM
setresuid(-1, 0, -1) = 0
effective root again: uid 1000 0 0 fsuid 0, gid 0 0 0 fsgid 0
setgroups(0, bad) with euid 0 = 0
getgroups(4, bad) with no groups = 0
setresuid(2000, 3000, 4000) as root = 0
after setresuid(2000, 3000, 4000): uid 2000 3000 4000 fsuid 3000, gid 0 0 0 fsgid 0
setresuid(3000, 4000, 2000) (a permutation) = 0
setresuid(5000, -1, -1) = -1 EPERM
setresuid(-1, -1, -1) = 0
at the end: uid 3000 4000 2000 fsuid 4000, gid 0 0 0 fsgid 0'
}

@test "setreuid sets the saved uid as Linux does, and lets an unprivileged process swap its uids" {
	same_as_native $H/creds setreuid
	assert_output 'setreuid(1000, 2000) = 0
after setreuid(1000, 2000): uid 1000 2000 2000 fsuid 2000, gid 0 0 0 fsgid 0
setreuid(2000, 1000) (a swap) = 0
after the swap: uid 2000 1000 1000 fsuid 1000, gid 0 0 0 fsgid 0
setreuid(-1, 2000) = 0
after setreuid(-1, 2000): uid 2000 2000 1000 fsuid 2000, gid 0 0 0 fsgid 0
setreuid(3000, -1) = -1 EPERM
setreuid(-1, 3000) = -1 EPERM
setuid(1000) (the saved uid) = 0
at the end: uid 2000 1000 1000 fsuid 1000, gid 0 0 0 fsgid 0'
}

@test "setfsuid and setfsgid return the old id, and the fsuid follows the euid" {
	same_as_native $H/creds fsids
	assert_output 'setfsuid(1234) = 0
setfsuid(-1) = 1234
setfsgid(4321) = 0
fs ids set: uid 0 0 0 fsuid 1234, gid 0 0 0 fsgid 4321
setresuid(1000, 1000, 1000) = 0
after setresuid (fsuid follows euid): uid 1000 1000 1000 fsuid 1000, gid 0 0 0 fsgid 4321
setfsuid(5) unprivileged = 1000
setfsgid(5) unprivileged = 4321
at the end: uid 1000 1000 1000 fsuid 1000, gid 0 0 0 fsgid 4321'
}

@test "the gid calls follow the uid calls' rules, and supplementary groups come back sorted" {
	same_as_native $H/creds gids
	assert_line 'after setresgid(10, 20, 30): uid 0 0 0 fsuid 0, gid 10 20 30 fsgid 20'
	assert_line 'after setregid(-1, 30): uid 0 0 0 fsuid 0, gid 10 30 30 fsgid 30'
	assert_line 'after setregid(40, -1): uid 0 0 0 fsuid 0, gid 40 30 30 fsgid 30'
	assert_line 'after setgid(50): uid 0 0 0 fsuid 0, gid 50 50 50 fsgid 50'
	assert_line 'groups: 10 10 20 30'
	assert_line 'getgroups(0, NULL) = 4'
	assert_line 'getgroups(2, small) = -1 EINVAL'
	assert_line 'setgroups(65537, g) = -1 EINVAL'
	assert_line 'setgroups(2, bad) = -1 EFAULT'
	assert_line 'getgroups(4, bad) = -1 EFAULT'
	assert_line 'setgid(60) unprivileged = -1 EPERM'
	assert_line 'setregid(50, 70) unprivileged = -1 EPERM'
	assert_line 'at the end: uid 1000 1000 1000 fsuid 1000, gid 50 50 50 fsgid 50'
}

@test "a process that dropped root may not signal, limit, renice or reschedule root's" {
	same_as_native $H/creds kill
	assert_output 'setresuid(54321, 54321, 54321) = 0
kill(parent, 0) = -1 EPERM
kill(parent, SIGTERM) = -1 EPERM
tkill(parent, SIGTERM) = -1 EPERM
tgkill(parent, parent, SIGTERM) = -1 EPERM
rt_sigqueueinfo(parent, SIGTERM) = -1 EPERM
kill(parent, SIGCONT) in its session = 0
kill(self, 0) = 0
kill(99999, 0) = -1 ESRCH
setrlimit raising NOFILE'"'"'s hard limit = -1 EPERM
setrlimit lowering it = 0
prlimit64(parent, NOFILE, NULL, &old) = -1 EPERM
setpriority(PRIO_PROCESS, 0, 5) = 0
setpriority(PRIO_PROCESS, 0, 4) = -1 EACCES
setpriority(PRIO_PROCESS, parent, 5) = -1 EPERM
sched_setscheduler(0, SCHED_FIFO, 1) = -1 EPERM
sched_setscheduler(parent, SCHED_BATCH, 0) = -1 EPERM
sched_setscheduler(0, SCHED_BATCH, 0) = 0
get_robust_list(parent, ...) = -1 EPERM
setsid() = 0
kill(parent, SIGCONT) from another session = -1 EPERM
child: exit 0, its uid 54321'
}

@test "exec keeps the real and effective ids, saves the effective ones, and tells the program in its auxv" {
	same_as_native $H/creds exec
	assert_output 'setresgid(7, 8, 9) = 0
setresuid(1000, 2000, 3000) = 0
after exec: uid 1000 2000 2000 fsuid 2000, gid 7 8 8 fsgid 8
AT_UID 1000 AT_EUID 2000 AT_GID 7 AT_EGID 8
setresuid(-1, 3000, -1) (the old saved uid) = -1 EPERM'
}

@test "pid 1 starts as root with no supplementary groups" {
	umk $H/creds start
	assert_output 'at start: uid 0 0 0 fsuid 0, gid 0 0 0 fsgid 0
groups:'
}

@test "/proc/self/exe leads to the program itself: no search permission needed on the directories of its path" {
	# Linux's proc_exe_link jumps to the file (nd_jump_link); a walk of
	# the link's text would stop at the 0700 directory with EACCES
	local dir=$B/private-exe
	rm -rf "$dir" && mkdir -m 0700 "$dir" && cp $H/creds "$dir/"
	same_as_native "$dir/creds" exec
	rm -rf "$dir"
	assert_line 'after exec: uid 1000 2000 2000 fsuid 2000, gid 7 8 8 fsgid 8'
}
