#!/usr/bin/env bats
# Memory locks (kernel/mm/mlock.c), msync and mincore (kernel/mm/msync.c)
# and MAP_SHARED_VALIDATE, natively and under umk with the same output
# (harness/progs/mlocks.c): VmLck, RLIMIT_MEMLOCK, MCL_FUTURE, MAP_LOCKED,
# fork, and each call's errors in Linux's order.

load helper

@test "mlock, mlock2 and munlock: VmLck, the split region, populated pages, munmap, the errors" {
	same_as_native $H/mlocks mlock
	refute_output --partial FAILED
	assert_line '  /proc/self/maps: 3 region(s)'
	assert_line 'the 2 locked pages are resident (VmRSS +8 kB at least): ok'
	assert_line 'mlock(page 1 from its 100th byte, 10 bytes) = 0'
	assert_line 'mlock2(flags 2) = -1 EINVAL'
	assert_line 'mlock(pages 3-4, page 4 unmapped) = -1 ENOMEM'
}

@test "without CAP_IPC_LOCK, RLIMIT_MEMLOCK bounds what is locked: ENOMEM and EAGAIN past it, EPERM at 0" {
	same_as_native $H/mlocks limit
	assert_output '== limit
mlock(1 page, RLIMIT_MEMLOCK 1 page) = 0
mlock(2 more pages) = -1 ENOMEM
mlock(the locked page and 1 more) = -1 ENOMEM
mlockall(MCL_CURRENT) = -1 ENOMEM
mmap(2 pages, MAP_LOCKED) = -1 EAGAIN
mlock(RLIMIT_MEMLOCK 0) = -1 EPERM
mlockall(MCL_FUTURE, RLIMIT_MEMLOCK 0) = -1 EPERM
child: exit 0'
}

@test "mlockall locks every region, MCL_FUTURE the ones to come, a forked child has none; MAP_LOCKED" {
	same_as_native $H/mlocks mlockall
	assert_line 'mlockall(MCL_ONFAULT) = -1 EINVAL'
	assert_line '  VmLck above 0: yes'
	assert_line '  child:   VmLck: 0 kB'
	assert_line '  after mmap(4 pages):  VmLck: 16 kB'
	assert_line 'mmap(2 pages, MAP_LOCKED): mapped'
}

@test "msync checks its flags and range, syncs a shared file mapping, and MS_INVALIDATE of a locked page is EBUSY" {
	same_as_native $H/mlocks msync
	assert_line 'msync(MS_ASYNC | MS_SYNC) = -1 EINVAL'
	assert_line 'msync(a shared file mapping, MS_SYNC) = 0'
	assert_line 'msync(2 pages, the 2nd unmapped) = -1 ENOMEM'
	assert_line 'msync(a locked page, MS_INVALIDATE) = -1 EBUSY'
}

@test "mincore: untouched pages are not in memory, written ones are; its errors" {
	same_as_native $H/mlocks mincore
	assert_line '  0 0 0 0'
	assert_line '  0 1 0 1'
	assert_line 'mincore(vec unmapped) = -1 EFAULT'
	assert_line 'mincore(4 pages, the 3rd unmapped) = -1 ENOMEM'
}

@test "MAP_SHARED_VALIDATE maps a file shared and refuses an unknown flag; without a file it is EINVAL" {
	same_as_native $H/mlocks validate
	assert_output '== validate
MAP_SHARED_VALIDATE of a file: shared
mmap(MAP_SHARED_VALIDATE, flag 0x400000) = -1 EOPNOTSUPP
mmap(MAP_SHARED_VALIDATE | MAP_ANONYMOUS) = -1 EINVAL
mmap(MAP_SHARED | flag 0x400000) = 0'
}
