/*
 * arch/file.c: host files and the console, and host randomness.
 *
 * Thin wrappers over host system calls: each returns what the call returns,
 * or -errno (host errno values are Linux's, so they pass through as is).
 * The console
 * driver uses os_read/os_write/os_poll_now/os_ioctl_winsize on the fds umk
 * inherited; kernel/fs/hostfs.c reaches the host's files by path with the
 * rest (flags and modes have Linux's values, which are the host's). Host calls made here are never restarted by umk: the timer
 * signal is installed with SA_RESTART, so the host restarts them itself.
 */
#include "host.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <termios.h>
#include <unistd.h>

#include <umk/entry.h>
#include <umk/kernel.h>
#include <umk/os.h>

_Static_assert(sizeof(struct winsize) == 8, "struct winsize is 8 bytes");

ssize_t os_pread(int fd, void *buf, size_t n, u64 off)
{
	ssize_t r = pread(fd, buf, n, (off_t)off);

	return r < 0 ? -errno : r;
}

ssize_t os_read(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	return r < 0 ? -errno : r;
}

ssize_t os_write(int fd, const void *buf, size_t n)
{
	ssize_t r = write(fd, buf, n);

	return r < 0 ? -errno : r;
}

int os_close(int fd)
{
	return close(fd) ? -errno : 0;
}

s64 os_file_size(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	return st.st_size;
}

/* Linux's struct stat on x86-64 is the host's: copy it whole. */
int os_fstat(int fd, void *statbuf)
{
	_Static_assert(sizeof(struct stat) == 144, "struct stat is 144 bytes");
	return fstat(fd, statbuf) ? -errno : 0;
}

int os_open(const char *path, int flags, int mode)
{
	int fd = open(path, flags | O_CLOEXEC | O_NOCTTY, mode);

	return fd < 0 ? -errno : fd;
}

int os_lstat(const char *path, void *statbuf)
{
	return lstat(path, statbuf) ? -errno : 0;
}

int os_readlink(const char *path, char *buf, size_t n)
{
	ssize_t r = readlink(path, buf, n);

	return r < 0 ? -errno : (int)r;
}

ssize_t os_getdents64(int fd, void *buf, size_t n)
{
	ssize_t r = syscall(SYS_getdents64, fd, buf, n);

	return r < 0 ? -errno : r;
}

s64 os_lseek(int fd, s64 off, int whence)
{
	off_t r = lseek(fd, off, whence);

	return r < 0 ? -errno : r;
}

int os_mkdir(const char *path, int mode)
{
	return mkdir(path, mode) ? -errno : 0;
}

/* A FIFO or socket node (S_IFIFO, S_IFSOCK in mode): no device number. */
int os_mknod(const char *path, int mode)
{
	return mknod(path, mode, 0) ? -errno : 0;
}

int os_rmdir(const char *path)
{
	return rmdir(path) ? -errno : 0;
}

int os_unlink(const char *path)
{
	return unlink(path) ? -errno : 0;
}

int os_rename(const char *oldpath, const char *newpath, unsigned int flags)
{
	return syscall(SYS_renameat2, AT_FDCWD, oldpath, AT_FDCWD, newpath, flags) ? -errno : 0;
}

int os_symlink(const char *target, const char *path)
{
	return symlink(target, path) ? -errno : 0;
}

int os_link(const char *oldpath, const char *newpath)
{
	return link(oldpath, newpath) ? -errno : 0;
}

int os_chmod(const char *path, int mode)
{
	return chmod(path, mode) ? -errno : 0;
}

int os_lchown(const char *path, unsigned int uid, unsigned int gid)
{
	return lchown(path, uid, gid) ? -errno : 0;
}

int os_truncate(const char *path, u64 len)
{
	return truncate(path, (off_t)len) ? -errno : 0;
}

int os_utimens(const char *path, const void *times)
{
	return utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
}

int os_fsync(int fd)
{
	return fsync(fd) ? -errno : 0;
}

int os_fd_name(int fd, char *buf, size_t n)
{
	char link[64];
	ssize_t r;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	r = readlink(link, buf, n - 1);
	if (r < 0)
		return -errno;
	buf[r] = '\0';
	return 0;
}

int os_poll_now(int fd, int events)
{
	struct pollfd p = { .fd = fd, .events = (short)events };
	int r = poll(&p, 1, 0);

	if (r < 0)
		return -errno;
	return r ? (unsigned short)p.revents : 0;
}

bool os_fd_ready(int fd, int events)
{
	int r = os_poll_now(fd, events);

	return r < 0 || (r & (events | POLLHUP | POLLERR | POLLNVAL));
}

ssize_t os_write_some(int fd, const void *buf, size_t n)
{
	ssize_t r;

	if (os_output_waits(fd) && n > PIPE_BUF)
		n = PIPE_BUF;
	do
		r = write(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

int os_ioctl_winsize(int fd, void *ws)
{
	return ioctl(fd, TIOCGWINSZ, (struct winsize *)ws) ? -errno : 0;
}

int os_isatty(int fd)
{
	return isatty(fd);
}

/* Under --clock=virtual (os_random_fix, from arch/boot.c) the random bytes
 * are the same run after run: splitmix64 from a fixed seed, so AT_RANDOM,
 * getrandom and /dev/urandom repeat, and with them a program's hash seeds
 * and stack canaries. Not random at all: for repeatable runs only. */
static bool random_fixed;
static unsigned long long random_state = 0x756d6b2076697274ULL;

void os_random_fix(void)
{
	random_fixed = true;
}

static void fixed_random(unsigned char *p, size_t n)
{
	while (n) {
		unsigned long long z = (random_state += 0x9e3779b97f4a7c15ULL);
		size_t k = n < 8 ? n : 8;

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		memcpy(p, &z, k);
		p += k;
		n -= k;
	}
}

/* getrandom(2) where the host has it, /dev/urandom otherwise; umk cannot
 * run without either, so failing both is fatal. */
void os_random(void *buf, size_t n)
{
	unsigned char *p = buf;
	size_t done = 0;
	int fd;

	if (random_fixed) {
		fixed_random(p, n);
		return;
	}
	while (done < n) {
		ssize_t r = getrandom(p + done, n - done, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		done += r;
	}
	if (done == n)
		return;
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		panic("os_random: no getrandom and no /dev/urandom (errno %d)", errno);
	while (done < n) {
		ssize_t r = read(fd, p + done, n - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			panic("os_random: /dev/urandom read failed (errno %d)", errno);
		done += r;
	}
	close(fd);
}

int os_dup(int fd)
{
	int r = fcntl(fd, F_DUPFD_CLOEXEC, 0);

	return r < 0 ? -errno : r;
}

/* statfs of the host file system holding path: a 120-byte Linux struct
 * statfs, the host's own layout. */
int os_statfs(const char *path, void *buf)
{
	_Static_assert(sizeof(struct statfs) == 120, "struct statfs is 120 bytes");
	return statfs(path, buf) ? -errno : 0;
}

int os_fstatfs(int fd, void *buf)
{
	return fstatfs(fd, buf) ? -errno : 0;
}

/* The host's memory and swap, in bytes, for sysinfo. */
int os_meminfo(unsigned long *totalram, unsigned long *freeram, unsigned long *totalswap,
	       unsigned long *freeswap)
{
	struct sysinfo si;

	if (sysinfo(&si))
		return -errno;
	*totalram = si.totalram * si.mem_unit;
	*freeram = si.freeram * si.mem_unit;
	*totalswap = si.totalswap * si.mem_unit;
	*freeswap = si.freeswap * si.mem_unit;
	return 0;
}
