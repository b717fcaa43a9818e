/*
 * kernel/fs/proc_task_mmu.c: /proc/PID/pagemap (Linux's fs/proc/
 * task_mmu.c, pagemap_read).
 *
 * The file holds one 64-bit entry per page of the address space, the entry
 * of virtual address A at offset A / PAGE_SIZE * 8: bit 63 the page is
 * present, 62 swapped, 61 a file's page (or shared anonymous memory, which
 * is a file of shmem), 56 mapped once only, 55 soft-dirty, bits 0-54 the
 * page frame number, shown to CAP_SYS_ADMIN only (Linux 4.2+). A page that
 * is not present, or an address in no region, reads 0. umk is a kernel
 * built without CONFIG_MEM_SOFT_DIRTY (no /proc/PID/clear_refs to clear
 * the bit, so it would say nothing): bit 55 is always 0.
 *
 * umk sees no page tables: the host maps the pages. A page is present when
 * its memory file holds data there (SEEK_DATA: kernel/mm/vma.c's memory
 * files, where a page gets its data on the first touch, read or write,
 * through the window), and that is true from then until MADV_DONTNEED or
 * munmap punches it, across switches. Departures (docs/linux-differences.md):
 * a page read but never written is present and exclusive where Linux maps
 * the shared zero page (present, not exclusive); a file's page is present
 * when the file has data there, touched or not; a private page is always
 * exclusive (fork copies it where Linux shares it until a write); a page
 * is never swapped; and there is no frame number to show, so bits 0-54
 * are 0 for CAP_SYS_ADMIN too. The process's mm is read at each read, not
 * kept from the open.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/sched.h>

#define PM_ENTRY_BYTES		sizeof(u64)
#define PM_MMAP_EXCLUSIVE	(1ULL << 56)
#define PM_FILE			(1ULL << 61)
#define PM_SWAP			(1ULL << 62)
#define PM_PRESENT		(1ULL << 63)

/* Entries made per round: a page of them. */
#define PM_BATCH (PAGE_SIZE / PM_ENTRY_BYTES)

static struct task_struct *pagemap_task(struct file *f)
{
	struct task_struct *t = find_task_by_pid((pid_t)(long)f->f_inode->i_private);

	return t && t->exit_state != EXIT_DEAD ? t : NULL;
}

/* Linux's mapcount above 1: clear exclusive from the entries of [s, e) of
 * vma whose page of its object another region, of any process, maps too. */
static void mapped_elsewhere(struct vm_area_struct *vma, unsigned long s, unsigned long e,
			     u64 *pme)
{
	u64 start = vma_offset(vma, s), end = start + (e - s);
	struct task_struct *t;

	/* An mm shared by several processes (vfork) is walked more than
	 * once: clearing again changes nothing. */
	list_for_each_entry(t, &task_list, tasks) {
		struct vm_area_struct *o;

		if (!t->mm || !thread_group_leader(t))
			continue;
		list_for_each_entry(o, &t->mm->mmap, list) {
			u64 os, oe;

			if (o == vma || o->shared != vma->shared)
				continue;
			os = max(o->vm_off, start);
			oe = min(o->vm_off + (o->vm_end - o->vm_start), end);
			for (; os < oe; os += PAGE_SIZE)
				pme[(os - start) / PAGE_SIZE] &= ~PM_MMAP_EXCLUSIVE;
		}
	}
}

/* The entries of [s, e), a range inside vma, into pme: a private page is
 * the process's alone (fork copies it: kernel/mm/memory.c's dup_mm). */
static void pagemap_vma(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long s,
			unsigned long e, u64 *pme)
{
	u64 start = vma_offset(vma, s), off = start, end = start + (e - s), data, hole;
	u64 present = PM_PRESENT | PM_MMAP_EXCLUSIVE | (vma->shared ? PM_FILE : 0);
	int fd = vma_fd(mm, vma);

	while (off < end && os_next_data(fd, off, end, &data, &hole) == 1) {
		for (u64 o = max(data & ~(u64)(PAGE_SIZE - 1), start); o < hole; o += PAGE_SIZE)
			pme[(o - start) / PAGE_SIZE] = present;
		off = hole;
	}
	if (vma->shared)
		mapped_elsewhere(vma, s, e, pme);
}

/* The entries of [addr, end), page aligned, into pme. */
static void pagemap_range(struct mm_struct *mm, unsigned long addr, unsigned long end, u64 *pme)
{
	struct vm_area_struct *vma = vma_above(mm, addr);

	memset(pme, 0, (end - addr) / PAGE_SIZE * PM_ENTRY_BYTES);
	list_for_each_entry_from(vma, &mm->mmap, list) {
		unsigned long s = max(addr, vma->vm_start), e = min(end, vma->vm_end);

		if (vma->vm_start >= end)
			break;
		if (!vma_is_brk_reserve(mm, vma))	/* no mapping to the program */
			pagemap_vma(mm, vma, s, e, pme + (s - addr) / PAGE_SIZE);
	}
}

static int pagemap_open(struct inode *inode, struct file *f)
{
	struct task_struct *t = pagemap_task(f);

	if (!t)
		return -ESRCH;
	/* proc_mem_open's PTRACE_MODE_READ */
	return ptrace_may_access(t) ? 0 : -EACCES;
}

/* Whole entries from an entry's offset (else EINVAL), up to the end of
 * the largest address space; 0 bytes for a process without memory, EFAULT
 * for a buffer that takes not all of them. */
static ssize_t pagemap_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct task_struct *t = pagemap_task(iocb->ki_filp);
	size_t count = iov_iter_count(to), done = 0;
	unsigned long addr, end = TASK_SIZE_MAX;
	u64 *pme;

	if (!t || !t->mm)
		return 0;
	if (iocb->ki_pos < 0 || iocb->ki_pos % PM_ENTRY_BYTES || count % PM_ENTRY_BYTES)
		return -EINVAL;
	if (!count || (u64)iocb->ki_pos / PM_ENTRY_BYTES >= end / PAGE_SIZE)
		return 0;
	addr = (unsigned long)iocb->ki_pos / PM_ENTRY_BYTES * PAGE_SIZE;
	end = min(end, addr + count / PM_ENTRY_BYTES * PAGE_SIZE);
	pme = kmalloc(PM_BATCH * PM_ENTRY_BYTES);
	while (addr < end) {
		unsigned long e = min(end, addr + PM_BATCH * PAGE_SIZE);
		size_t n = (e - addr) / PAGE_SIZE * PM_ENTRY_BYTES, copied;

		pagemap_range(t->mm, addr, e, pme);
		copied = copy_to_iter(pme, n, to);
		if (copied < n) {
			kfree(pme);
			return -EFAULT;
		}
		done += n;
		addr = e;
	}
	kfree(pme);
	iocb->ki_pos += (s64)done;
	return (ssize_t)done;
}

const struct file_operations proc_pagemap_operations = {
	.name = "proc",
	.open = pagemap_open,
	.read_iter = pagemap_read,
	.llseek = no_seek_end_llseek,	/* mem_lseek */
};
