#!/usr/bin/env bats
# fcntl's commands beyond descriptors and record locks
# (harness/progs/fcntl.c): pipe sizes and fs.pipe-max-size. Natively the
# tests run as root, as umk's pid 1 is; the parts where permission
# matters run again as nobody (65534) in a child. The host's /proc/sys is
# only ever read: the section that writes fs.pipe-max-size runs under umk
# alone.

load helper

# Does the host's root hold CAP_SYS_RESOURCE (bit 24 of CapEff)? A
# container may have taken it.
host_has_cap_sys_resource() {
	local eff
	eff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
	(( (16#$eff >> 24) & 1 ))
}

@test "F_SETPIPE_SZ rounds up to a power of two pages, is EBUSY below the data held and keeps it" {
	same_as_native $H/fcntl pipe-size
	assert_line 'F_GETPIPE_SZ (new pipe) = 65536'
	assert_line 'F_SETPIPE_SZ(0) = 4096'
	assert_line 'F_SETPIPE_SZ(4097) = 8192'
	assert_line 'F_SETPIPE_SZ(12289) = 16384'
	assert_line 'F_SETPIPE_SZ(2^31 + 1) = -1 EINVAL'
	assert_line 'F_SETPIPE_SZ(2^32 + 4096) = 4096'
	assert_line 'F_SETPIPE_SZ(4096 (5000 bytes held)) = -1 EBUSY'
	assert_line 'the bytes kept their order across the resize: ok'
	assert_line 'write 10000 (non-blocking, 1 page) = 4096'
	assert_line 'F_GETPIPE_SZ (a regular file) = -1 EBADF'
}

@test "a FIFO's size belongs to its pipe: another open file of it sees F_SETPIPE_SZ" {
	same_as_native $H/fcntl fifo-size
	assert_line 'F_GETPIPE_SZ (another open file of it) = 8192'
}

@test "without CAP_SYS_RESOURCE a pipe cannot grow past fs.pipe-max-size (EPERM)" {
	same_as_native $H/fcntl pipe-max-nobody
	assert_line 'F_SETPIPE_SZ(max) = max'
	assert_line 'F_SETPIPE_SZ(2 * max) = -1 EPERM'
}

@test "with CAP_SYS_RESOURCE (umk's root) a pipe grows past fs.pipe-max-size" {
	umk $H/fcntl pipe-max-root
	assert_line 'F_SETPIPE_SZ(2 * max) = 2 * max'
	assert_line 'F_GETPIPE_SZ = 2 * max'
	if host_has_cap_sys_resource; then
		native $H/fcntl pipe-max-root
		assert_line 'F_SETPIPE_SZ(2 * max) = 2 * max'
	fi
}

@test "root writes fs.pipe-max-size (rounded as Linux rounds it), nobody cannot, and nobody's pipes obey it (umk only: never the host's /proc/sys)" {
	umk $H/fcntl pipe-max-set
	assert_output '== pipe-max-set
write "5000" to pipe-max-size = 4
pipe-max-size: 8192
write "0" to pipe-max-size = 1
pipe-max-size: 4096
write "2147483649" to pipe-max-size = -1 EINVAL
pipe-max-size: 4096
write "-4096" to pipe-max-size = -1 EINVAL
pipe-max-size: 4096
write "12x" to pipe-max-size = -1 EINVAL
pipe-max-size: 4096
write "8192\n" to pipe-max-size = 5
pipe-max-size: 8192
-- as nobody
write "8192" to pipe-max-size = -1 EACCES
-- as root
F_GETPIPE_SZ (new pipe) = 65536
F_SETPIPE_SZ(16384) = 16384
F_SETPIPE_SZ(4096) = 4096
-- as nobody
F_GETPIPE_SZ (new pipe) = 8192
F_SETPIPE_SZ(16384) = -1 EPERM
F_SETPIPE_SZ(4096) = 4096
write "1048576" to pipe-max-size = 7
pipe-max-size: 1048576'
}
