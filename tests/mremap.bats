#!/usr/bin/env bats
# mremap(2) (kernel/mm/mremap.c): a region grown in place, shrunk, moved
# (MREMAP_MAYMOVE, MREMAP_FIXED, MREMAP_DONTUNMAP), a shared mapping
# duplicated, the errors in Linux's order and the limits. Every check runs
# natively and under umk with the same output (harness/progs/mremap.c).

load helper

# host_kernel_at_least MAJOR MINOR: the host runs Linux MAJOR.MINOR or later.
host_kernel_at_least() {
	local v maj min
	v=$(uname -r)
	maj=${v%%.*}
	v=${v#*.}
	min=${v%%[!0-9]*}
	((maj > $1 || (maj == $1 && min >= $2)))
}

@test "mremap grows a region in place when the space after it is free, and without MREMAP_MAYMOVE fails with ENOMEM when it is not" {
	same_as_native $H/mremap grow
	refute_output --partial FAILED
	assert_line 'mremap 2 pages to 4, free space after = the old address'
	assert_line 'the 2 new pages read zeros: ok'
	assert_line 'mremap 4 pages to 6, MREMAP_MAYMOVE, free space after = the old address'
	assert_line 'mremap 6 pages to 8, a mapping after them = -1 ENOMEM'
	assert_line 'mremap the first 2 pages of 6 to 3 = -1 ENOMEM'
}

@test "mremap shrinks a region in place, unmapping its tail across regions, and the tail taken again reads zeros" {
	same_as_native $H/mremap shrink
	refute_output --partial FAILED
	assert_line 'reading the 4th page: SIGSEGV'
	assert_line '/proc/self/maps: the 5 pages given back absent'
	assert_line 'the 5 pages taken again read zeros: ok'
	assert_line '/proc/self/maps: the 6 pages given back absent'
}

@test "a region that cannot grow in place moves with MREMAP_MAYMOVE, every byte with it: /proc/self/maps and a forked child see the new range, not the old" {
	same_as_native $H/mremap move
	refute_output --partial FAILED
	assert_line 'mremap 64 pages to 128, MREMAP_MAYMOVE, a mapping after them = another address'
	assert_line 'every byte of the 64 pages moved: ok'
	assert_line 'reading the old range: SIGSEGV'
	assert_line '/proc/self/maps: the new range listed, the old range absent, the page after it listed'
	assert_line 'a forked child finds the moved pages, and nothing at the old range: exit 0'
	assert_line 'the 2 pages moved with their data: ok'
}

@test "a 100 MiB block grown to 200 MiB by a move keeps its data" {
	same_as_native $H/mremap big
	refute_output --partial FAILED
	assert_line 'the first and last byte of each of the 25600 pages moved: ok'
}

@test "moving a 512 MiB block with 3 pages written takes no memory for the pages never touched" {
	same_as_native $H/mremap sparse
	refute_output --partial FAILED
	assert_line 'the resident size grew by less than 8 MiB: ok'
}

@test "MREMAP_FIXED replaces what was mapped at the new address, growing or shrinking on the way" {
	same_as_native $H/mremap fixed
	refute_output --partial FAILED
	assert_line 'mremap 4 pages to 4, MREMAP_FIXED at pages 2-5 of an 8-page mapping = new_address'
	assert_line 'pages 0-1 and 6-7 keep theirs: ok'
	assert_line 'pages 4-5 keep the data moved there before: ok'
	assert_line '/proc/self/maps: the old 4 pages absent'
}

@test "MREMAP_DONTUNMAP leaves the old private range mapped and reading zeros, and a shared one still showing its pages" {
	same_as_native $H/mremap dontunmap
	refute_output --partial FAILED
	assert_line 'the new range has the data: ok'
	assert_line 'the old range reads zeros: ok'
	assert_line '/proc/self/maps: the old range listed, the new listed'
	assert_line 'a write to the new range shows in the old: ok'
}

@test "a MAP_SHARED anonymous mapping moved stays shared with a forked child; old_size 0 duplicates it; grown past its object it raises SIGBUS" {
	same_as_native $H/mremap shared
	refute_output --partial FAILED
	assert_line 'the parent sees the child'"'"'s writes: ok'
	assert_line 'mremap old_size 0, 4 pages, MREMAP_MAYMOVE = another address'
	assert_line 'a write to the duplicate shows in the original: ok'
	assert_line 'mremap old_size 0, 4 pages = -1 ENOMEM'
	assert_line 'reading page 0: no signal, page 1 (past the object): SIGBUS'
}

@test "mremap's errors come in Linux's order: EINVAL for the arguments, EFAULT for an unmapped old range, ENOMEM when it cannot grow" {
	same_as_native $H/mremap errors
	refute_output --partial FAILED
	assert_output 'unaligned addr = -1 EINVAL
flags 8 = -1 EINVAL
flags 8, unmapped addr = -1 EINVAL
new_size 0 = -1 EINVAL
MREMAP_FIXED without MREMAP_MAYMOVE = -1 EINVAL
MREMAP_DONTUNMAP without MREMAP_MAYMOVE = -1 EINVAL
MREMAP_DONTUNMAP changing the size = -1 EINVAL
MREMAP_FIXED to an unaligned address = -1 EINVAL
MREMAP_FIXED overlapping the old range = -1 EINVAL
MREMAP_FIXED growing over the old range = -1 EINVAL
MREMAP_FIXED past the user address space = -1 EINVAL
unmapped addr = -1 EFAULT
unmapped addr, MREMAP_MAYMOVE = -1 EFAULT
unmapped addr, shrinking = -1 EFAULT
unmapped addr, same size = -1 EFAULT
unmapped addr, MREMAP_DONTUNMAP = -1 EFAULT
growing a range that leaves its region, MREMAP_MAYMOVE = -1 EFAULT
moving a range that leaves its region, MREMAP_DONTUNMAP = -1 EFAULT
growing without MREMAP_MAYMOVE, a mapping after = -1 ENOMEM
old_size 0 of a private mapping = -1 EINVAL
the 5 pages are still mapped: ok'
}

@test "growing by mremap counts against RLIMIT_AS, and against RLIMIT_DATA only for private writable memory" {
	same_as_native $H/mremap limits
	assert_output 'RLIMIT_AS 256 MiB: 1 page to 512 MiB, MREMAP_MAYMOVE = -1 ENOMEM
RLIMIT_AS 256 MiB: 1 page to 100 MiB, MREMAP_MAYMOVE = an address
RLIMIT_AS 256 MiB: MREMAP_DONTUNMAP of 100 MiB, 100 MiB mapped = another address
RLIMIT_AS 256 MiB: MREMAP_DONTUNMAP of 100 MiB, 200 MiB mapped = -1 ENOMEM
RLIMIT_DATA 64 MiB: private writable, 1 page to 128 MiB, MREMAP_MAYMOVE = -1 ENOMEM
RLIMIT_DATA 64 MiB: shared, 1 page to 128 MiB, MREMAP_MAYMOVE = an address
RLIMIT_DATA 64 MiB: read-only, 1 page to 128 MiB, MREMAP_MAYMOVE = an address
child: exit 0'
}

@test "MREMAP_FIXED without a change of size moves several regions at once, keeping their gaps, as Linux 6.17 does" {
	host_kernel_at_least 6 17 || skip "the host runs Linux $(uname -r), before 6.17's moves of several regions"
	same_as_native $H/mremap multi
	refute_output --partial FAILED
	assert_line 'mremap 8 pages of 4 regions and a gap, MREMAP_FIXED = new_address'
	assert_line 'page 5, the gap, keeps what was there: ok'
	assert_line 'writing page 2: SIGSEGV, page 4: no signal'
	assert_line 'MREMAP_FIXED of a range starting in a gap = -1 EFAULT'
	assert_line 'unmapped addr, MREMAP_FIXED overlapping = -1 EINVAL'
}

@test "the trace decodes mremap's arguments and shows the address it returns in hex" {
	umk --trace $H/mremap grow
	trace_has '^1 enter mremap\(0x[0-9a-f]+, 8192, 16384, 0, 0\)$'
	trace_has '^1 enter mremap\(0x[0-9a-f]+, 16384, 24576, 0x1, 0\)$'
	trace_has '^1 exit mremap = 0x[0-9a-f]+$'
	trace_has '^1 exit mremap = -1 ENOMEM$'
}

@test "busybox sort of 200000 lines, whose array glibc's realloc grows by mremap, prints what it prints natively" {
	[[ -x /bin/busybox ]] || fail "no /bin/busybox: run make (it installs busybox-static)"
	same_as_native /bin/busybox sh -c 'busybox seq 200000 | busybox sort -r | busybox md5sum'
	assert_output 'c54a1db0cc1a6431e21edccc476fdb1c  -'
	umk --trace /bin/busybox sh -c 'busybox seq 20000 | busybox sort -r >/dev/null'
	trace_has '^[0-9]+ exit mremap = 0x[0-9a-f]+$'
}
