#!/usr/bin/env bats
# madvise(2) (kernel/mm/madvise.c): the argument checks, the advice that
# drops pages (MADV_DONTNEED, MADV_FREE, MADV_REMOVE), the advice fork
# follows (MADV_DONTFORK, MADV_WIPEONFORK), the hints, MADV_POPULATE_*, and
# the region splits /proc/self/maps shows. Every check runs natively and
# under umk with the same output (harness/progs/madvise.c).

load helper

@test "madvise checks its arguments in Linux's order, and a range with a hole is ENOMEM with the advice applied around it" {
	same_as_native $H/madvise errors
	refute_output --partial FAILED
	assert_line 'madvise(advice 999, length 0) = -1 EINVAL'
	assert_line 'madvise(length 0) = 0'
	assert_line 'madvise(a length that wraps past the top) = -1 EINVAL'
	assert_line 'madvise(4 pages, the 2nd unmapped, MADV_DONTNEED) = -1 ENOMEM'
	assert_line 'the pages around the hole read zeros: ok'
}

@test "MADV_DONTNEED zero-fills private anonymous pages and keeps shared and file pages" {
	same_as_native $H/madvise dontneed
	refute_output --partial FAILED
	assert_line 'pages 2-3 read zeros: ok'
	assert_line 'the shared pages keep their data: ok'
	assert_line "the file's pages read the file: ok"
}

@test "MADV_FREE works on private anonymous memory only, and V8's PROT_NONE then MADV_FREE succeeds" {
	same_as_native $H/madvise free
	refute_output --partial FAILED
	assert_line 'madvise(shared anonymous, MADV_FREE) = -1 EINVAL'
	assert_line 'madvise(private file, MADV_FREE) = -1 EINVAL'
	assert_line 'madvise(PROT_NONE private anonymous, MADV_FREE) = 0'
}

@test "MADV_REMOVE punches a shared mapping's object (a child and the file see it), EINVAL on private memory, EACCES without write access" {
	same_as_native $H/madvise remove
	refute_output --partial FAILED
	assert_line 'child: the removed page reads zeros'
	assert_line 'madvise(private anonymous, MADV_REMOVE) = -1 EINVAL'
	assert_line 'madvise(private file, MADV_REMOVE) = -1 EACCES'
	assert_line "the file's page 1 reads zeros (pread): ok"
	assert_line 'madvise(shared file opened read-only, MADV_REMOVE) = -1 EACCES'
	assert_line 'mprotect(shared file opened read-only, PROT_WRITE) = -1 EACCES'
}

@test "fork leaves out a MADV_DONTFORK region and gives a MADV_WIPEONFORK one as zeros; DOFORK and KEEPONFORK undo them" {
	same_as_native $H/madvise fork
	refute_output --partial FAILED
	assert_line 'child reading page 2: killed by SIGSEGV'
	assert_line 'child: the page reads zeros'
	assert_line 'madvise(shared anonymous, MADV_WIPEONFORK) = -1 EINVAL'
	[ "$(grep -c 'child: the page reads the data' <<<"$output")" -eq 3 ]
}

@test "the hints succeed and change no data; MADV_POPULATE_* checks protections and a write population counts in VmRSS" {
	same_as_native $H/madvise hints populate
	refute_output --partial FAILED
	assert_line 'madvise(MADV_HUGEPAGE) = 0'
	assert_line 'madvise(read-only, MADV_POPULATE_WRITE) = -1 EINVAL'
	assert_line 'madvise(PROT_NONE, MADV_POPULATE_READ) = -1 EINVAL'
	assert_line 'madvise(unmapped, MADV_POPULATE_READ) = -1 ENOMEM'
	assert_line 'VmRSS grew by at least 4 MiB: ok'
}

@test "advice on one page splits its region in /proc/self/maps, and the opposite advice merges it again" {
	same_as_native $H/madvise maps
	assert_output - <<'OUT'
== maps
/proc/self/maps: 1 region(s)
madvise(page 2, MADV_DONTFORK) = 0
/proc/self/maps: 3 region(s)
madvise(page 2, MADV_DOFORK) = 0
/proc/self/maps: 1 region(s)
madvise(page 2, MADV_DONTNEED) = 0
/proc/self/maps: 1 region(s)
OUT
}

@test "the host's node runs a timer and V8's memory reclaim (mprotect then MADV_FREE) under umk" {
	command -v node >/dev/null || skip "no node on this host"
	same_as_native "$(command -v node)" -e 'setTimeout(() => console.log("t"), 10)'
	assert_output t
}

@test "an unknown section is one line on stderr and exit status 2" {
	run -2 $H/madvise nosuch
	assert_output "madvise: unknown section 'nosuch'"
}
