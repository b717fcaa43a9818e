#!/usr/bin/env bats
# The host's own, dynamically linked programs: PT_INTERP, the dynamic
# loader's file mappings, and what glibc and the common programs ask for.
# Each runs natively and under umk with the same output and status.

load helper

@test "coreutils, dash, bash and env, unmodified from the host, as natively" {
	same_as_native /bin/true
	same_as_native /bin/echo hello from the host
	assert_output 'hello from the host'
	same_as_native /bin/ls -l /etc
	same_as_native /bin/cat /etc/os-release
	same_as_native /usr/bin/env -i /usr/bin/printenv
	same_as_native /usr/bin/env -i A=1 B=2 /usr/bin/printenv
	assert_output 'A=1
B=2'
	same_as_native /bin/sh -c 'echo $((6*7))'
	assert_output 42
	same_as_native /bin/bash -c 'for i in 1 2 3; do echo $i; done | sort -r'
	assert_output '3
2
1'
}

@test "python3 starts, imports os, signal and time, and computes" {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	same_as_native /usr/bin/python3 -c 'import os, signal, time; print(sum(range(10)))'
	assert_output 45
}

# python's event loops wake on a signal through signal.set_wakeup_fd: the
# C handler writes the signal number to the fd, which an epoll watches.
WAKEUP_PY='
import os, select, signal
r, w = os.pipe()
os.set_blocking(w, False)
signal.set_wakeup_fd(w)
signal.signal(signal.SIGUSR1, lambda *a: print("handler"))
ep = select.epoll()
ep.register(r, select.EPOLLIN)
print("nothing ready:", ep.poll(0))
os.kill(os.getpid(), signal.SIGUSR1)
print("ready:", [(fd == r, ev == select.EPOLLIN) for fd, ev in ep.poll(5)])
print("byte read:", list(os.read(r, 16)) == [signal.SIGUSR1])
print("set_wakeup_fd(-1) returns the old fd:", signal.set_wakeup_fd(-1) == w)
ep.close()
'

@test "python3's select.epoll and signal.set_wakeup_fd wake an event loop on a signal" {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	same_as_native /usr/bin/python3 -c "$WAKEUP_PY"
	assert_output 'nothing ready: []
handler
ready: [(True, True)]
byte read: True
set_wakeup_fd(-1) returns the old fd: True'
}

@test "a program finds its library beside it through \$ORIGIN and /proc/self/exe" {
	same_as_native $B/dyn/needlib
	assert_output 'libumkdyn: answer 42, twice 21 = 42'
}

# A copy of needlib in a directory of the test's, with its library in a
# given state; umk sees the directory with --rw.
with_lib() {
	local d=$BATS_TEST_TMPDIR/$1
	mkdir -p "$d"
	cp $B/dyn/needlib "$d/"
	case $1 in
	missing) ;;
	truncated) head -c 40 $B/dyn/libumkdyn.so >"$d/libumkdyn.so" ;;
	foreign)
		# the same library, marked for AArch64 (e_machine 183)
		cp $B/dyn/libumkdyn.so "$d/"
		printf '\xb7\x00' | dd of="$d/libumkdyn.so" bs=1 seek=18 conv=notrunc status=none
		;;
	esac
	echo "$d/needlib"
}

@test "a missing, truncated or foreign library fails in the loader, with its message and 127, as natively" {
	local p want
	for state in missing truncated foreign; do
		p=$(with_lib $state)
		native -s 127 "$p"
		want=$stderr
		[[ -n $want ]] || fail "no loader message natively for a $state library"
		umk -s 127 --rw="$BATS_TEST_TMPDIR" "$p"
		assert_equal "$stderr" "$want"
	done
}

@test "a PT_INTERP that names a missing file is ENOENT from execve, as natively" {
	same_as_native $H/forks exec $B/dyn/badinterp
	assert_output 'execve: ENOENT'
	umk -s 127 $B/dyn/badinterp
	assert_equal "$stderr" "umk: $B/dyn/badinterp: its interpreter /no/such/ld-linux-x86-64.so.2: no such file"
}

@test "statfs and fstatfs: the host's file system behind /, umk's tmpfs at /tmp" {
	umk /usr/bin/stat -f -c '%T' / /tmp /proc
	assert_line --index 1 tmpfs
	assert_line --index 2 proc
	local native_root
	native_root=$(/usr/bin/stat -f -c '%T' /)
	assert_line --index 0 "$native_root"
}

@test "getrusage, times, wait4 and sysinfo report CPU time, a resident size and the host's RAM, as natively" {
	same_as_native $H/usage
	assert_line "getrusage(7) = -1 EINVAL"
	assert_line --regexp "^sysinfo: totalram $(awk '/MemTotal/ { printf "%.0f", $2 * 1024 }' /proc/meminfo), "
	refute_output --partial ': no'
}

@test "file mmap as the loader uses it: private, fixed, past the end, made writable, forked, unmapped in the middle, shared; host file and tmpfs file" {
	same_as_native $H/filemap /bin/busybox
	assert_line 'page 0: same, page 1: -11, page 2: same'
	assert_line 'a page wholly past the end of the file: -7'
	assert_line 'the parent still has: written'
	assert_line 'MAP_SHARED PROT_WRITE of a read-only fd: EACCES'
	assert_line 'MAP_SHARED read-write of the tmpfs file, then read(): shared'
	refute_output --partial 'differ'
}

@test "the host's node spawns a child with child_process.execFileSync (libuv's socketpair and epoll) and sees its exit status" {
	command -v node >/dev/null || skip "no node on this host"
	same_as_native "$(command -v node)" -e 'const cp = require("child_process");
console.log(cp.execFileSync("/bin/echo", ["hi"]).toString().trim());
try { cp.execFileSync("/bin/sh", ["-c", "exit 3"], { stdio: "ignore" }); } catch (e) { console.log("status", e.status); }'
	assert_output 'hi
status 3'
}
