#!/usr/bin/env bats
# Stacks that grow (kernel/mm/vma.c's expand_downwards, kernel/mm/memory.c's
# do_user_addr_fault), natively and under umk (harness/progs/growsdown.c):
# the main stack and MAP_GROWSDOWN regions grow on a fault below them,
# within RLIMIT_STACK and the 256-page stack guard gap; beyond, SIGSEGV
# with SEGV_MAPERR.

load helper

@test "deep recursion within RLIMIT_STACK grows the main stack and returns" {
	same_as_native $H/growsdown recurse
	assert_line 'recursion 6 MiB deep with an 8 MiB RLIMIT_STACK: returned'
}

@test "recursion past RLIMIT_STACK gets SIGSEGV with SEGV_MAPERR" {
	same_as_native $H/growsdown overflow
	assert_line 'child: SIGSEGV SEGV_MAPERR'
	assert_line 'recursion past RLIMIT_STACK: exit 3'
}

@test "a MAP_GROWSDOWN region grows down to a page touched below it, the pages between zeros" {
	same_as_native $H/growsdown region
	assert_line 'touch 1 page below: ok'
	assert_line 'the region starts 1 page(s) lower'
	assert_line 'touch 100 pages below: ok'
	assert_line 'the region starts 100 page(s) lower'
	assert_line 'the pages between read as zeros: yes'
}

@test "a MAP_GROWSDOWN region stays 256 pages away from an accessible mapping below it" {
	same_as_native $H/growsdown gap
	assert_line 'a mapping 400 pages below; touch 100 pages below: ok'
	assert_line 'touch 150 pages below (the gap would be 249 pages): SEGV_MAPERR'
	assert_line 'that mapping made PROT_NONE; touch 150 pages below: ok'
	assert_line 'the region starts 150 page(s) lower'
}

@test "a MAP_GROWSDOWN region grows no larger than RLIMIT_STACK" {
	same_as_native $H/growsdown limit
	assert_line 'RLIMIT_STACK 64 pages; touch 50 pages below: ok'
	assert_line 'touch 70 pages below: SEGV_MAPERR'
	assert_line 'the region starts 50 page(s) lower'
}

@test "mprotect's PROT_GROWSDOWN reaches down to the region's start; MAP_SHARED cannot grow" {
	same_as_native $H/growsdown mprotect
	assert_line 'write 10 pages below: SEGV_ACCERR'
	assert_line 'write to the last page: ok'
	assert_line 'mprotect(PROT_GROWSDOWN) on a plain mapping = -1 EINVAL'
	assert_line 'mmap(MAP_SHARED | MAP_GROWSDOWN) = -1 EINVAL'
}

@test "a fault where nothing is mapped is SEGV_MAPERR, on a page that forbids the access SEGV_ACCERR" {
	same_as_native $H/growsdown sicode
	assert_line 'write to a read-only page: SEGV_ACCERR'
	assert_line 'write where nothing is mapped: SEGV_MAPERR'
}

@test "a system call writing below the stack grows it, as a fault from the program would" {
	same_as_native $H/growsdown syscall
	assert_line 'read 4096 bytes to 512 KiB below the stack pointer = 4096'
}

@test "mmap without MAP_FIXED places nothing within the guard gap below a MAP_GROWSDOWN region" {
	same_as_native $H/growsdown placement
	assert_line 'a hint 2 pages below it is not taken: yes'
	assert_line 'mmap picks no page within 256 pages below it: yes'
	assert_line 'touch 200 pages below: ok'
}
