/*
 * arch/mem.c: host memory for the kernel and for user regions.
 *
 * os_mmap_anon/os_munmap/os_mprotect are what kernel/mm/mm.c builds user
 * regions from: anonymous private host mappings, MAP_NORESERVE so that a
 * large reservation (a PROT_NONE brk area, an 8 MiB stack) costs nothing
 * until touched. kmalloc/kfree/kgrow are glibc's calloc/free/realloc: safe in kernel mode
 * because user programs bring their own libc (docs/design.md, "glibc inside
 * the kernel").
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <umk/kernel.h>
#include <umk/os.h>

_Static_assert(OS_PROT_READ == PROT_READ && OS_PROT_WRITE == PROT_WRITE &&
		       OS_PROT_EXEC == PROT_EXEC,
	       "OS_PROT_* must be the host's PROT_* values");

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

void *os_mmap_anon(void *addr, size_t len, int prot, bool fixed)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	void *p;

	if (fixed)
		flags |= MAP_FIXED_NOREPLACE;
	p = mmap(addr, len, prot & (PROT_READ | PROT_WRITE | PROT_EXEC), flags, -1, 0);
	if (p == MAP_FAILED)
		return (void *)(long)-errno;
	/* A kernel older than 4.17 treats MAP_FIXED_NOREPLACE as a hint. */
	if (fixed && p != addr) {
		munmap(p, len);
		return (void *)(long)-EEXIST;
	}
	return p;
}

/* Fresh zeroed pages over [addr, addr + len), which must be the caller's:
 * one host call replaces whatever was there (MAP_FIXED). */
int os_mmap_replace(void *addr, size_t len, int prot)
{
	void *p = mmap(addr, len, prot & (PROT_READ | PROT_WRITE | PROT_EXEC),
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);

	return p == MAP_FAILED ? -errno : 0;
}

int os_munmap(void *addr, size_t len)
{
	return munmap(addr, len) ? -errno : 0;
}

int os_mprotect(void *addr, size_t len, int prot)
{
	return mprotect(addr, len, prot & (PROT_READ | PROT_WRITE | PROT_EXEC)) ? -errno : 0;
}

void *kmalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		panic("kmalloc: out of memory (%zu bytes)", size);
	return p;
}

void *kvmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		panic("kvmalloc: out of memory (%zu bytes)", size);
	return p;
}

void kfree(const void *p)
{
	free((void *)p);
}

void *kgrow(void *p, size_t n, size_t *cap, size_t size)
{
	size_t new_cap;

	if (n < *cap)
		return p;
	new_cap = *cap ? 2 * *cap : 64;
	p = realloc(p, new_cap * size);
	if (!p)
		panic("kgrow: out of memory (%zu bytes)", new_cap * size);
	memset((char *)p + *cap * size, 0, (new_cap - *cap) * size);
	*cap = new_cap;
	return p;
}

int os_memfd_create(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int os_ftruncate(int fd, u64 size)
{
	return ftruncate(fd, (off_t)size) ? -errno : 0;
}

ssize_t os_pwrite(int fd, const void *buf, size_t n, u64 off)
{
	ssize_t r = pwrite(fd, buf, n, (off_t)off);

	return r < 0 ? -errno : r;
}

int os_punch_hole(int fd, u64 off, u64 len)
{
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len))
		return -errno;
	return 0;
}

int os_allocate(int fd, u64 off, u64 len)
{
	if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len))
		return -errno;
	return 0;
}

/* [pos, end) of in to [pos + shift, end + shift) of out. copy_file_range
 * moves the bytes inside the host, over the pages out already has there (a
 * spare file's: kernel/mm/vma.c) or into new ones. 0 or -errno. */
static int copy_extent(int in, int out, off_t pos, off_t end, off_t shift)
{
	while (pos < end) {
		off_t in_pos = pos, out_pos = pos + shift;
		ssize_t r = copy_file_range(in, &in_pos, out, &out_pos, (size_t)(end - pos), 0);

		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;
		pos += r;
	}
	return 0;
}

/* Extent by extent (SEEK_DATA, SEEK_HOLE), so that a sparse range costs
 * only what it holds: [off, off + len) of in to the offsets shift bytes
 * further in out. With dirty, out may hold data of its own in the range:
 * where in has a hole, out's range is punched. */
static int copy_data(int in, int out, off_t off, off_t len, off_t shift, bool dirty)
{
	off_t end = off + len, pos = off;

	while (pos < end) {
		off_t data = lseek(in, pos, SEEK_DATA), hole;
		int err;

		if (data < 0 && errno != ENXIO)
			return -errno;
		if (data < 0 || data > end)
			data = end;
		if (dirty && data > pos) {
			err = os_punch_hole(out, (u64)(pos + shift), (u64)(data - pos));
			if (err)
				return err;
		}
		if (data >= end)
			return 0;
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0)
			return -errno;
		if (hole > end)
			hole = end;
		err = copy_extent(in, out, data, hole, shift);
		if (err)
			return err;
		pos = hole;
	}
	return 0;
}

int os_next_data(int fd, u64 off, u64 end, u64 *data, u64 *hole)
{
	off_t d = lseek(fd, (off_t)off, SEEK_DATA), h;

	if (d < 0)
		return errno == ENXIO ? 0 : -errno;
	if ((u64)d >= end)
		return 0;
	h = lseek(fd, d, SEEK_HOLE);
	if (h < 0)
		return -errno;
	*data = (u64)d;
	*hole = (u64)h < end ? (u64)h : end;
	return 1;
}

int os_mincore(void *addr, u64 len, unsigned char *vec)
{
	if (mincore(addr, (size_t)len, vec))
		return -errno;
	for (u64 i = 0; i < len / 4096; i++)
		vec[i] &= 1;
	return 0;
}

int os_copy_data(int in, int out, u64 off, u64 len, bool dirty)
{
	return copy_data(in, out, (off_t)off, (off_t)len, 0, dirty);
}

/* The host refuses a copy within one file whose two ranges overlap
 * (EINVAL): the caller's ranges never do. */
int os_copy_data_at(int in, u64 off, int out, u64 to, u64 len)
{
	return copy_data(in, out, (off_t)off, (off_t)len, (off_t)(to - off), false);
}

int os_mmap_file(void *addr, size_t len, int prot, int fd, u64 off, bool shared)
{
	void *p = mmap(addr, len, prot & (PROT_READ | PROT_WRITE | PROT_EXEC),
		       (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_FIXED, fd, (off_t)off);

	return p == MAP_FAILED ? -errno : 0;
}
