#!/usr/bin/env bats
# /proc (kernel/fs/proc.c): umk's own processes as Linux shows processes.
# build/harness/procfs prints what it reads there checked against what it
# knows (its pid, its parent's), so the lines are the same natively.

load helper

BUSYBOX=/bin/busybox

@test "/proc/self: stat, status, cmdline, comm, environ, exe and fd links, as on Linux" {
	PROCFS_TEST=yes same_as_native $H/procfs self one 'two words'
	assert_line 'environ: has PROCFS_TEST, as many entries as environ'
	assert_line 'stat: pid ok, comm procfs, state R, ppid ok, threads 1, 52 fields'
	assert_line 'status: State:	R (running)'
	assert_line 'cmdline: [procfs] [self] [one] [two words]'
	assert_line 'readlink(/proc/self/exe) ends in procfs'
	assert_line 'a pipe is pipe:[...]: 1'
	assert_line 'readlink(/proc/self/fd/99) = -1 ENOENT'
}

@test "a second thread shows in /proc/self/stat and status" {
	same_as_native $H/procfs threads
	assert_line 'stat: pid ok, comm procfs, state R, ppid ok, threads 2, 52 fields'
	assert_line 'status: Threads:	2'
}

@test "a child started with vfork and execve: its /proc/PID, sleeping, as a zombie, then gone once reaped" {
	same_as_native $H/procfs child
	assert_line 'stat: pid ok, comm procfs, state S, ppid ok, threads 1, 52 fields'
	assert_line 'cmdline: [procfs] [wait] [an argument]'
	assert_line 'stat: pid ok, comm procfs, state Z, ppid ok, threads 1, 52 fields'
	assert_line 'open(/proc/PID/cmdline) once reaped = ENOENT'
}

@test "/proc/self/stat shows the priority, nice, rt_priority and policy the scheduling calls set" {
	same_as_native $H/procfs sched
	assert_output 'after start: priority 20, nice 0, rt_priority 0, policy 0
after nice 7: priority 27, nice 7, rt_priority 0, policy 0
after SCHED_BATCH: priority 27, nice 7, rt_priority 0, policy 3
after SCHED_IDLE: priority 27, nice 7, rt_priority 0, policy 5
after SCHED_FIFO 10: priority -11, nice 7, rt_priority 10, policy 1
after SCHED_RR 99: priority -100, nice 7, rt_priority 99, policy 2
after SCHED_OTHER: priority 27, nice 7, rt_priority 0, policy 0'
}

@test "/proc lists umk's processes only, with locks, meminfo, mounts, net, self, sys, sysvipc and uptime" {
	umk $BUSYBOX ls /proc
	assert_output $'1\nlocks\nmeminfo\nmounts\nnet\nself\nsys\nsysvipc\nuptime'
}

@test "/proc/mounts is umk's mount table, /proc/uptime its time since boot" {
	umk --rw "$BATS_TEST_TMPDIR" $BUSYBOX cat /proc/mounts /proc/uptime
	assert_line --index 0 '/ / hostfs ro 0 0'
	assert_line 'tmpfs /tmp tmpfs rw 0 0'
	assert_line 'devtmpfs /dev/null devtmpfs rw 0 0'
	assert_line 'proc /proc proc rw 0 0'
	assert_line "$BATS_TEST_TMPDIR $BATS_TEST_TMPDIR hostfs rw 0 0"
	assert_line --regexp '^[0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2}$'
}

@test "busybox ps and pidof see umk's own process" {
	[[ -x $BUSYBOX ]] || fail "no $BUSYBOX: run make (it installs busybox-static)"
	umk $BUSYBOX ps -o pid,ppid,stat,comm,args
	assert_line --index 0 --regexp '^PID +PPID +STAT +COMMAND +COMMAND$'
	assert_line --index 1 --regexp '^ +1 +0 +R +busybox +/bin/busybox ps -o pid,ppid,stat,comm,args$'
	assert_equal "${#lines[@]}" 2
	umk $BUSYBOX pidof busybox
	assert_output 1
}

@test "a /proc file's text is made when it is read from its start, not when it is opened, natively and under umk" {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	local py='
import os, threading, time
fd = os.open("/proc/self/status", os.O_RDONLY)
def threads():
    return [l for l in os.pread(fd, 65536, 0).decode().splitlines() if l.startswith("Threads:")][0]
e = threading.Event()
t = threading.Thread(target=e.wait)
t.start()
print("opened with 1 thread, read with 2:", threads())
e.set(); t.join(); time.sleep(0.2)
print("read again from the start:", threads())
'
	same_as_native /usr/bin/python3 -c "$py"
	assert_output $'opened with 1 thread, read with 2: Threads:\t2\nread again from the start: Threads:\t1'
}
