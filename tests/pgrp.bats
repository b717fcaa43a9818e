#!/usr/bin/env bats
# Process groups and sessions (harness/progs/pgrp.c): setpgid, getpgid, getpgrp,
# setsid, getsid with Linux's errors, and kill, wait4 and waitid on a
# group, natively and under umk; kill(-1) under umk only (natively it
# would reach the host's processes).

load helper

@test "groups and sessions: Linux's errors, kill(-pgrp), kill(0), wait4 and waitid on a group" {
	same_as_native $H/pgrp calls
	assert_output 'session leader: pgid == pid: yes, sid == pid: yes, getpgrp == getpgid(0): yes
setsid() as a session leader = -1 EPERM
setpgid(0, 0) as a session leader = -1 EPERM
setpgid(0, -1) = -1 EINVAL
setpgid(99999, 0) = -1 ESRCH
getpgid(99999) = -1 ESRCH
getsid(99999) = -1 ESRCH
a child starts in our group and session: yes
setpgid(a, 77777) (no such group) = -1 EPERM
setpgid(a, a) = 0
setpgid(b, a) = 0
getpgid(a) == a: yes, getpgid(b) == a: yes, getsid(b) == ours: yes
kill(-a, SIGTERM) = 0
kill(-a, 0) while its zombies wait = 0
waitid(P_PGID, a) = 0
  SIGTERM
wait4(-a) = 1
  killed by SIGTERM
wait4(-a) with none left = -1 ECHILD
kill(-a, 0) once reaped = -1 ESRCH
kill(-77777, SIGTERM) = -1 ESRCH
setsid() in a child returns its pid: yes, getsid(c) == c: yes, getpgid(c) == c: yes
setpgid(c, c) (another session'"'"'s leader) = -1 EPERM
setpgid(x, c) (a group of another session) = -1 EPERM
setpgid(x, 0) = 0
c: killed by SIGTERM
x: killed by SIGTERM
setpgid(d, d) after d exec'"'"'d = -1 EACCES
d: killed by SIGTERM
kill(0, SIGUSR2) = 0
wait4(0) (our group) = 1
  exit 3, SIGUSR2 handled 2 times
wait4(0) with none left = -1 ECHILD
waitid(P_PGID, 0) with none left = -1 ECHILD'
}

@test "kill(-1) spares pid 1 and the caller, and reports success when every target refused" {
	umk $H/pgrp kill-all
	assert_output 'kill(-1, SIGTERM) with no other process = -1 ESRCH
k: exit 0
kill(-1, SIGTERM) by another user, every target root'"'"'s = 0
kill(a, 0): a lives = 0
kill(-1, SIGTERM) as root = 0
a: killed by SIGTERM
b: killed by SIGTERM'
}

@test "pid 1 leads session 1 and process group 1" {
	umk --trace $H/pgrp calls
	run untimed "$stderr"
	assert_line '1 exit getsid = 1'
	assert_line '1 exit getpgid = 1'
}

@test "a stopped job whose group is orphaned gets SIGHUP and SIGCONT, and SIGTSTP no longer stops it" {
	same_as_native $H/orphanpg
	assert_line 'B saw C stopped by SIGSTOP, exits'
	assert_line --regexp '^C continued, handled: SIG(HUP SIGCONT|CONT SIGHUP)$'
	assert_line 'C not stopped by SIGTSTP: its group is orphaned'
}
