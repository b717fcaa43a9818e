#!/usr/bin/env bats
# Files and file systems (docs/design.md, "Files and file systems"): umk's
# tmpfs at /tmp and /dev/shm, the host's / read-only, --rw DIR, the device
# nodes, and busybox applets that use them. Most compare with the host:
# build/harness/fsops works in a directory of its own under BASE and
# removes it when done.

load helper

BUSYBOX=/bin/busybox

require_busybox() {
	[[ -x $BUSYBOX ]] || fail "no $BUSYBOX: run make (it installs busybox-static)"
}

@test "files in /tmp: create, append, truncate, seek, pread/pwrite, sendfile, rename, links, stat, errors, as on Linux" {
	same_as_native $H/fsops files /tmp
	assert_line 'renameat2(c, b, RENAME_NOREPLACE) = -1 EEXIST'
	assert_line 'rmdir(d/e) not empty = -1 ENOTEMPTY'
	assert_line 'write at the limit = -1 EFBIG'
}

@test "files in /dev/shm behave the same" {
	same_as_native $H/fsops files /dev/shm
	assert_line 'open(loop) = -1 ELOOP'
}

@test "/dev/null, /dev/zero, /dev/full and /dev/urandom, and seeking on a pipe, as on Linux" {
	same_as_native $H/fsops devices
	assert_line 'write(/dev/full, 1) = -1 ENOSPC'
	assert_line 'lseek(pipe) = -1 ESPIPE'
}

@test "the host's / is read-only: EROFS, after EEXIST for a name that exists" {
	umk $H/fsops rofs /usr
	assert_line 'open(new, O_CREAT) = -1 EROFS'
	assert_line 'mkdir(existing) = -1 EEXIST'
	assert_line 'unlink(missing) = -1 EROFS'
	assert_line 'access(path, W_OK) = -1 EROFS'
	assert_line 'access(path, R_OK) = 0'
}

@test "--rw DIR: the same calls on a host directory, which sees the changes" {
	local d=$BATS_TEST_TMPDIR/rw
	mkdir "$d"
	same_as_native --rw="$d" $H/fsops files "$d"
	require_busybox
	umk --rw "$d" $BUSYBOX mkdir $d/sub
	umk --rw "$d" $BUSYBOX sh -c "echo written >$d/sub/f"
	umk --rw "$d" $BUSYBOX mv $d/sub/f $d/sub/g
	assert_equal "$(cat "$d/sub/g")" written
	[[ ! -e $d/sub/f ]] || fail "mv left $d/sub/f"
}

@test "umk's /tmp is its own: a file made there is not the host's" {
	require_busybox
	local name=/tmp/umk-fs-$$-$BATS_TEST_NUMBER
	umk $BUSYBOX sh -c "echo hi >$name && read x <$name && echo \$x"
	assert_output hi
	[[ ! -e $name ]] || fail "umk wrote $name on the host"
}

@test "--rw with a missing directory is a usage error naming it" {
	run_umk --rw /no/such/dir $H/hello
	assert_equal "$status" 2
	assert_equal "$stderr" 'umk: --rw /no/such/dir: No such file or directory'
}

@test "busybox ls -l, find, stat and cat of host files print what they print natively" {
	require_busybox
	same_as_native $BUSYBOX ls -l harness/lib
	same_as_native $BUSYBOX find harness/scenarios
	same_as_native $BUSYBOX stat -c '%n %s %F %a %h' harness/lib/harness.h harness/lib
	same_as_native $BUSYBOX cat harness/lib/harness.h
}

# busybox sh runs its builtins in-process; the applets it would run
# (mkdir, ls...) need fork, which umk does not have yet.
@test "busybox sh: cd, pwd, umask and redirections in /tmp, as natively" {
	require_busybox
	local f=umk-fs-bb-$BATS_TEST_NUMBER-$$
	same_as_native $BUSYBOX sh -c "cd /tmp && pwd && umask 027 && echo hi >$f && read x <$f && echo \$x && [ -f $f ] && echo a file; cd .. && cd tmp && pwd && umask"
	rm -f "/tmp/$f"
	assert_output $'/tmp\nhi\na file\n/tmp\n0027'
}

@test "busybox mkdir, touch, ls and stat in /tmp, each a process of its own" {
	require_busybox
	umk $BUSYBOX mkdir -p /tmp/a/b/c
	umk $BUSYBOX touch /tmp/f
	# umk's /tmp is empty at boot, but for the way to umk's own working
	# directory when that is under /tmp (shown there read-only).
	local want=$'.\n..' links=2 top
	if [[ $PWD == /tmp/* ]]; then
		top=${PWD#/tmp/}
		want+=$'\n'${top%%/*}
		links=3
	fi
	umk $BUSYBOX ls -a /tmp
	assert_output "$want"
	umk $BUSYBOX stat -c '%n %a %h %F' /tmp /dev/shm
	assert_output "/tmp 1777 $links directory"$'\n/dev/shm 1777 2 directory'
	umk $BUSYBOX ls -l /dev/null /dev/zero
	assert_line --regexp '^crw-rw-rw- +1 root +root +1, +3 .* /dev/null$'
}

@test "/dev/tty is ENXIO without a terminal, as for a process without one natively" {
	umk $H/fsops tty </dev/null
	assert_output 'open(/dev/tty, O_RDWR) = -1 ENXIO'
	native setsid $H/fsops tty </dev/null
	assert_output 'open(/dev/tty, O_RDWR) = -1 ENXIO'
}

@test "/dev/tty on a terminal is the console, as natively" {
	command -v script >/dev/null || skip "no script(1) to make a terminal"
	require_umk
	local n u
	run timeout 20 script -qec "$H/fsops tty" /dev/null
	n=$output
	run timeout 20 script -qec "$UMK $H/fsops tty" /dev/null
	u=$output
	assert_equal "$u" "$n"
	[[ $u == *'write(/dev/tty) = 11'* ]] || fail "no write: $u"
}

@test "--rw with a directory umk cannot show at its path is a usage error" {
	run_umk --rw /proc/driver $H/hello
	assert_equal "$status" 2
	assert_equal "$stderr" 'umk: --rw /proc/driver: no such directory inside umk (ENOENT)'
}
