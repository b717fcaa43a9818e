#!/usr/bin/env bats
# /proc/sys (kernel/fs/proc_sysctl.c) and /proc/meminfo (kernel/fs/proc.c):
# the values read as Linux's defaults are, the writable ones set and
# honoured (pid_max, threads-max, core_pattern, core_uses_pid;
# pipe-max-size in tests/fcntl.bats), the
# errors of a bad value and of a non-root writer.

load helper

@test "/proc/sys lists kernel, vm and fs, and reads Linux's defaults as natively" {
	local f
	for f in kernel/ostype kernel/domainname kernel/ngroups_max kernel/cap_last_cap \
		vm/max_map_count vm/overcommit_memory fs/pipe-max-size; do
		same_as_native /bin/cat /proc/sys/$f
	done
	umk /bin/ls /proc/sys
	assert_output 'fs
kernel
vm'
	umk /bin/cat /proc/sys/kernel/pid_max /proc/sys/kernel/threads-max /proc/sys/kernel/osrelease
	assert_output '32768
12288
6.12.0-umk'
	umk /bin/sh -c 'a=$(cat /proc/sys/kernel/random/boot_id); b=$(cat /proc/sys/kernel/random/boot_id); u=$(cat /proc/sys/kernel/random/uuid); v=$(cat /proc/sys/kernel/random/uuid); [ "$a" = "$b" ] && [ "$u" != "$v" ] && echo "$u" | grep -Eq "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$" && echo ok'
	assert_output ok
}

@test "kernel.pid_max is writable by root within Linux's range, and pids wrap at it" {
	umk /bin/sh -c 'echo 310 > /proc/sys/kernel/pid_max && cat /proc/sys/kernel/pid_max
		echo 300 > /proc/sys/kernel/pid_max; echo "300: $?"
		echo abc > /proc/sys/kernel/pid_max; echo "abc: $?"
		cat /proc/sys/kernel/pid_max
		max=0; wrapped=no
		for i in $(seq 1 330); do : & [ $! -ge 310 ] && max=$!; [ $! -lt 100 ] && wrapped=yes; wait; done
		echo "a pid at or above 310: $max, wrapped: $wrapped"' 2>/dev/null
	assert_output '310
300: 1
abc: 1
310
a pid at or above 310: 0, wrapped: yes'
}

@test "kernel.threads-max bounds the tasks: clone fails with EAGAIN past it" {
	umk /bin/sh -c 'echo 20 > /proc/sys/kernel/threads-max; cat /proc/sys/kernel/threads-max
		for i in $(seq 1 30); do sleep 1 & done 2>&1 | head -1; wait'
	assert_line --index 0 20
	assert_output --partial 'Cannot fork'
}

@test "kernel.core_pattern and core_uses_pid name the core file" {
	local d=$BATS_TEST_TMPDIR
	umk --rw="$d" /bin/sh -c "cd $d && ulimit -c unlimited
		echo 'core.%e.%s' > /proc/sys/kernel/core_pattern && cat /proc/sys/kernel/core_pattern
		sh -c 'kill -SEGV \$\$'; ls core.*
		echo core > /proc/sys/kernel/core_pattern; echo 1 > /proc/sys/kernel/core_uses_pid
		sh -c 'kill -QUIT \$\$'; ls core.[0-9]* | sed 's/[0-9]*$/PID/'"
	assert_output 'core.%e.%s
core.sh.11
core.PID'
}

@test "a non-root writer gets EACCES, a read-only file EACCES for root too, natively and under umk" {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	local py='
import os
for f in ("/proc/sys/kernel/pid_max", "/proc/sys/kernel/ostype"):
    pid = os.fork()
    if pid == 0:
        if f.endswith("pid_max"):
            os.setuid(65534)
        try:
            open(f, "w")
            print(f, "opened")
        except OSError as e:
            print(f, os.strerror(e.errno))
        os._exit(0)
    os.waitpid(pid, 0)
'
	same_as_native /usr/bin/python3 -c "$py"
	assert_output '/proc/sys/kernel/pid_max Permission denied
/proc/sys/kernel/ostype Permission denied'
}

@test "/proc/meminfo: the host's MemTotal, and umk's own Shmem that a tmpfs file adds to" {
	local want
	want=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
	umk /bin/sh -c 'grep -E "^(MemTotal|MemFree|MemAvailable|Cached|SwapTotal|SwapFree|AnonPages|Shmem):" /proc/meminfo | cut -d: -f1 | tr "\n" " "; echo
		awk "/^MemTotal:/ { print \$2 }" /proc/meminfo
		a=$(awk "/^Shmem:/ { print \$2 }" /proc/meminfo)
		dd if=/dev/zero of=/tmp/f bs=1M count=4 2>/dev/null
		b=$(awk "/^Shmem:/ { print \$2 }" /proc/meminfo)
		[ $((b - a)) -ge 4096 ] && echo "Shmem grew by 4 MiB"'
	assert_line --index 0 'MemTotal MemFree MemAvailable Cached SwapTotal SwapFree AnonPages Shmem '
	assert_line --index 1 "$want"
	assert_line --index 2 'Shmem grew by 4 MiB'
}
