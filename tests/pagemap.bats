#!/usr/bin/env bats
# /proc/PID/pagemap (kernel/fs/proc_task_mmu.c), natively and under umk
# (harness/progs/pagemap.c): an entry per page with Linux's bits, present
# pages told from untouched ones, MADV_DONTNEED and munmap, file and shared
# pages, the frame number hidden without CAP_SYS_ADMIN.

load helper

@test "pagemap: written private pages are present and exclusive, untouched ones and MADV_DONTNEED'd ones are not" {
	same_as_native $H/pagemap anon
	assert_line 'untouched page: none'
	assert_line 'written page 0: present exclusive'
	assert_line 'untouched page 1: none'
	assert_line 'page 0 after MADV_DONTNEED: none'
	assert_line "page 2 after page 0's MADV_DONTNEED: present exclusive"
	assert_line 'page 1 after munmap: none'
}

@test "pagemap: a file's page and shared memory are file pages, exclusive until another process maps them" {
	same_as_native $H/pagemap file
	assert_line 'file page read through MAP_PRIVATE: present file exclusive'
	assert_line 'shared anonymous page written: present file exclusive'
	assert_line "child: the same page read, its parent's too: present file"
}

@test "pagemap: whole entries only, nothing past the address space, EFAULT for a bad buffer" {
	same_as_native $H/pagemap errors
	assert_line 'pread(8 bytes at offset 4) = -1 EINVAL'
	assert_line 'pread(4 bytes at offset 8) = -1 EINVAL'
	assert_line 'pread(0 bytes at offset 8) = 0'
	assert_line 'pread(16 bytes past the last page) = 0'
	assert_line 'pread(16 bytes from the last entry but one) = 16'
	assert_line 'read into a bad buffer = -1 EFAULT'
}

@test "pagemap: without CAP_SYS_ADMIN the frame number reads 0" {
	same_as_native $H/pagemap pfn
	assert_output --partial 'without CAP_SYS_ADMIN: frame number 0'
}

@test "pagemap: another user's process's pagemap cannot be opened" {
	[[ $(id -u) == 0 ]] || skip "needs root to be another user"
	same_as_native /bin/sh -c 'setpriv --reuid=65534 --regid=65534 --clear-groups cat /proc/1/pagemap >/dev/null 2>&1; echo $?'
	assert_output 1
}
