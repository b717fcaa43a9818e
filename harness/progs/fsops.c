/* fsops: file system calls, with the same output natively and under umk.
 *
 *   fsops files BASE   in a new directory under BASE (/tmp, /dev/shm):
 *                      create, append, truncate, lseek, pread/pwrite,
 *                      rename, link, symlink, readdir, stat, chdir/getcwd,
 *                      umask, access, chmod, sendfile, utimensat, fsync,
 *                      RLIMIT_FSIZE, and the errno of each bad name;
 *                      removes it all at the end
 *   fsops devices      /dev/null, /dev/zero, /dev/full, /dev/urandom, and
 *                      seeking on a pipe
 *   fsops rofs PATH    what writing calls say on a read-only PATH
 *   fsops tty          open /dev/tty and write to it
 *
 * Lines never show fds, inode numbers, times or the base's own name. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"

/* libc's -1/errno as the kernel's -Exxx, for show() */
static long k(long ret)
{
	return ret < 0 ? -errno : ret;
}

#define SHOW(label, expr) show(label, k(expr))

/* An fd is shown as "fd" (its number depends on what the caller left open). */
static int show_fd(const char *label, int fd)
{
	if (fd < 0)
		show(label, -errno);
	else
		printf("%s = fd\n", label);
	return fd;
}

static void show_stat(const char *name, bool follow)
{
	struct stat st;

	if ((follow ? stat(name, &st) : lstat(name, &st)) < 0) {
		printf("%s(%s) = -1 %s\n", follow ? "stat" : "lstat", name, errno_name(errno));
		return;
	}
	/* a directory's size is the file system's own business */
	printf("%s(%s): mode %o nlink %lu size %lld uid %u gid %u\n", follow ? "stat" : "lstat",
	       name, st.st_mode, (unsigned long)st.st_nlink,
	       S_ISDIR(st.st_mode) ? 0LL : (long long)st.st_size, st.st_uid, st.st_gid);
}

static void show_contents(const char *name)
{
	char buf[256];
	int fd = open(name, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
	ssize_t i;

	printf("%s contains %zd bytes: \"", name, n);
	for (i = 0; i < n; i++)
		printf(buf[i] >= 32 && buf[i] < 127 ? "%c" : "\\%o", (unsigned char)buf[i]);
	printf("\"\n");
	if (fd >= 0)
		close(fd);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Directory entries, sorted (file systems differ in their order). */
static void show_dir(const char *name)
{
	DIR *d = opendir(name);
	char *names[64];
	int n = 0, i;
	struct dirent *e;

	if (!d) {
		printf("opendir(%s) = -1 %s\n", name, errno_name(errno));
		return;
	}
	while ((e = readdir(d)) && n < 64) {
		names[n] = malloc(300);
		snprintf(names[n], 300, "%s(%s)", e->d_name,
			 e->d_type == DT_DIR ? "dir" : e->d_type == DT_REG ? "reg" :
			 e->d_type == DT_LNK ? "lnk" : "other");
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_names);
	printf("%s:", name);
	for (i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
}

static int xfsz_signals;

static void on_xfsz(int sig)
{
	xfsz_signals++;
}

static void files_io(void)
{
	char buf[64];
	int fd, fd2;

	printf("umask(022) = %04o\n", umask(022));
	printf("umask(022) = %04o\n", umask(022));
	fd = show_fd("open(a, O_CREAT|O_EXCL|O_WRONLY, 0666)", open("a", O_CREAT | O_EXCL | O_WRONLY, 0666));
	SHOW("write(a, hello)", write(fd, "hello\n", 6));
	SHOW("open(a, O_CREAT|O_EXCL) again", open("a", O_CREAT | O_EXCL | O_WRONLY, 0666));
	show_stat("a", true);
	close(fd);
	fd = show_fd("open(a, O_WRONLY|O_APPEND)", open("a", O_WRONLY | O_APPEND));
	SHOW("lseek(a, 0, SEEK_SET)", lseek(fd, 0, SEEK_SET));
	SHOW("write(a, world) appends", write(fd, "world\n", 6));
	printf("fcntl(F_GETFL) = %#o\n", fcntl(fd, F_GETFL));
	close(fd);
	show_contents("a");
	fd = show_fd("open(a, O_RDWR)", open("a", O_RDWR));
	SHOW("lseek(3, SEEK_SET)", lseek(fd, 3, SEEK_SET));
	SHOW("read(4)", read(fd, buf, 4));
	printf("read gave \"%.3s\"\n", buf);
	SHOW("lseek(0, SEEK_CUR)", lseek(fd, 0, SEEK_CUR));
	SHOW("lseek(0, SEEK_END)", lseek(fd, 0, SEEK_END));
	SHOW("lseek(-2, SEEK_CUR)", lseek(fd, -2, SEEK_CUR));
	SHOW("lseek(-20, SEEK_CUR)", lseek(fd, -20, SEEK_CUR));
	SHOW("lseek(0, 99)", lseek(fd, 0, 99));
	SHOW("lseek(5, SEEK_DATA)", lseek(fd, 5, SEEK_DATA));
	SHOW("lseek(5, SEEK_HOLE)", lseek(fd, 5, SEEK_HOLE));
	SHOW("lseek(50, SEEK_DATA)", lseek(fd, 50, SEEK_DATA));
	SHOW("pread(5 at 6)", pread(fd, buf, 5, 6));
	printf("pread gave \"%.5s\"\n", buf);
	SHOW("pwrite(J at 0)", pwrite(fd, "J", 1, 0));
	SHOW("pread(at -1)", pread(fd, buf, 1, -1));
	SHOW("lseek(0, SEEK_CUR) after pread/pwrite", lseek(fd, 0, SEEK_CUR));
	SHOW("pwrite(past the end, at 20)", pwrite(fd, "!", 1, 20));
	show_stat("a", true);
	SHOW("ftruncate(a, 5)", ftruncate(fd, 5));
	show_contents("a");
	SHOW("fsync(a)", fsync(fd));
	SHOW("fdatasync(a)", fdatasync(fd));
	close(fd);
	SHOW("truncate(a, 8)", truncate("a", 8));
	show_contents("a");
	SHOW("truncate(a, -1)", truncate("a", -1));
	fd = show_fd("open(a, O_RDONLY)", open("a", O_RDONLY));
	SHOW("ftruncate(read-only fd)", ftruncate(fd, 0));
	SHOW("write(read-only fd)", write(fd, "x", 1));
	close(fd);
	fd = show_fd("open(a, O_WRONLY|O_TRUNC)", open("a", O_WRONLY | O_TRUNC));
	SHOW("read(write-only fd)", read(fd, buf, 1));
	close(fd);
	show_stat("a", true);

	fd = open("a", O_RDWR);
	write(fd, "0123456789", 10);
	fd2 = show_fd("open(f, O_CREAT|O_WRONLY, 0600)", open("f", O_CREAT | O_WRONLY, 0600));
	off_t off = 2;
	SHOW("sendfile(f, a, &2, 5)", sendfile(fd2, fd, &off, 5));
	printf("offset now %lld\n", (long long)off);
	SHOW("lseek(a, 8, SEEK_SET)", lseek(fd, 8, SEEK_SET));
	SHOW("sendfile(f, a, NULL, 100)", sendfile(fd2, fd, NULL, 100));
	SHOW("lseek(a, 0, SEEK_CUR) after it", lseek(fd, 0, SEEK_CUR));
	SHOW("sendfile(a, f) from a write-only fd", sendfile(fd, fd2, NULL, 5));
	close(fd2);
	show_contents("f");
	show_stat("f", true);
	close(fd);
}

static void files_names(void)
{
	struct timespec ts[2] = { { 1000000000, 5 }, { 1100000000, 700 } };
	struct stat st;
	char buf[PATH_MAX], big[300];
	int fd, dfd;
	ssize_t n;

	SHOW("rename(a, b)", rename("a", "b"));
	show_stat("a", true);
	SHOW("rename(f, b) replaces b", rename("f", "b"));
	show_contents("b");
	fd = open("c", O_CREAT | O_WRONLY, 0644);
	close(fd);
	SHOW("renameat2(c, b, RENAME_NOREPLACE)", syscall(SYS_renameat2, AT_FDCWD, "c", AT_FDCWD, "b", 1));
	SHOW("renameat2(c, c2, RENAME_NOREPLACE)", syscall(SYS_renameat2, AT_FDCWD, "c", AT_FDCWD, "c2", 1));
	SHOW("renameat2(c2, c3, 8)", syscall(SYS_renameat2, AT_FDCWD, "c2", AT_FDCWD, "c3", 8));
	SHOW("link(b, l)", link("b", "l"));
	show_stat("b", true);
	SHOW("unlink(l)", unlink("l"));
	show_stat("b", true);
	SHOW("symlink(b, s)", symlink("b", "s"));
	n = readlink("s", buf, sizeof(buf));
	printf("readlink(s) = %zd \"%.*s\"\n", n, (int)(n > 0 ? n : 0), buf);
	SHOW("readlink(s, 1 byte)", readlink("s", buf, 1));
	SHOW("readlink(b) not a link", readlink("b", buf, sizeof(buf)));
	show_stat("s", false);
	show_stat("s", true);
	SHOW("open(s, O_NOFOLLOW)", open("s", O_RDONLY | O_NOFOLLOW));
	SHOW("symlink(loop, loop)", symlink("loop", "loop"));
	SHOW("open(loop)", open("loop", O_RDONLY));
	SHOW("symlink(missing, dangling)", symlink("missing", "dangling"));
	show_stat("dangling", true);
	SHOW("open(dangling, O_CREAT|O_EXCL)", open("dangling", O_CREAT | O_EXCL | O_WRONLY, 0600));
	fd = show_fd("open(dangling, O_CREAT) makes its target",
		     open("dangling", O_CREAT | O_WRONLY, 0600));
	close(fd);
	show_stat("missing", true);
	SHOW("symlink(nodir/x, l2)", symlink("nodir/x", "l2"));
	SHOW("open(l2, O_CREAT)", open("l2", O_CREAT | O_WRONLY, 0600));
	SHOW("symlink('', e)", symlink("", "e"));

	SHOW("mkdir(d, 0777)", mkdir("d", 0777));
	SHOW("mkdir(d) again", mkdir("d", 0777));
	SHOW("mkdir(d/e/)", mkdir("d/e/", 0700));
	show_stat("d", true);
	show_stat("d/e", true);
	fd = open("d/e/x", O_CREAT | O_WRONLY, 0644);
	close(fd);
	SHOW("rmdir(d/e) not empty", rmdir("d/e"));
	SHOW("rename(d/e, d/e/f/g)", rename("d/e", "d/e/g"));
	SHOW("rename(d, d/e/x) over a file", rename("d", "d/e/x"));
	SHOW("rename(b, d) over a directory", rename("b", "d"));
	SHOW("rename(b/, z)", rename("b/", "z"));
	SHOW("rmdir(d/e/.)", rmdir("d/e/."));
	SHOW("rmdir(d/e/..)", rmdir("d/e/.."));
	SHOW("unlink(d)", unlink("d"));
	SHOW("rmdir(b)", rmdir("b"));
	SHOW("unlink(b/)", unlink("b/"));
	SHOW("open(d, O_WRONLY)", open("d", O_WRONLY));
	SHOW("open(d, O_RDONLY|O_CREAT)", open("d", O_RDONLY | O_CREAT, 0644));
	SHOW("open(b/x)", open("b/x", O_RDONLY));
	SHOW("open(b, O_DIRECTORY)", open("b", O_RDONLY | O_DIRECTORY));
	SHOW("open(new/, O_CREAT)", open("new/", O_CREAT | O_WRONLY, 0644));
	SHOW("mkdir(b/x)", mkdir("b/x", 0777));
	SHOW("open(nothing)", open("nothing", O_RDONLY));
	SHOW("open(no/thing)", open("no/thing", O_RDONLY));
	SHOW("open('')", open("", O_RDONLY));
	memset(big, 'n', 256);
	big[256] = '\0';
	SHOW("open(256-byte name)", open(big, O_RDONLY));
	SHOW("mkdir(256-byte name)", mkdir(big, 0777));
	show_dir(".");
	show_dir("d");

	SHOW("access(b, R_OK|W_OK)", access("b", R_OK | W_OK));
	SHOW("access(b, X_OK)", access("b", X_OK));
	SHOW("chmod(b, 0755)", chmod("b", 0755));
	SHOW("access(b, X_OK)", access("b", X_OK));
	SHOW("access(d, X_OK)", access("d", X_OK));
	SHOW("access(nothing, F_OK)", access("nothing", F_OK));
	SHOW("access(b, 8)", access("b", 8));
	SHOW("faccessat(s, AT_SYMLINK_NOFOLLOW)", faccessat(AT_FDCWD, "s", F_OK, AT_SYMLINK_NOFOLLOW));
	fd = open("b", O_RDONLY);
	SHOW("fchmod(b, 0600)", fchmod(fd, 0600));
	close(fd);
	show_stat("b", true);
	SHOW("fchmodat(b, 04755)", fchmodat(AT_FDCWD, "b", 04755, 0));
	show_stat("b", true);
	SHOW("utimensat(b, times)", utimensat(AT_FDCWD, "b", ts, 0));
	stat("b", &st);
	printf("times: atime %ld.%09ld mtime %ld.%09ld\n", (long)st.st_atim.tv_sec,
	       st.st_atim.tv_nsec, (long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_nsec = 2000000000;
	SHOW("utimensat(b, bad nsec)", utimensat(AT_FDCWD, "b", ts, 0));

	/* an open file outlives its name */
	fd = open("b", O_RDONLY);
	SHOW("unlink(b) while open", unlink("b"));
	SHOW("read(unlinked b)", read(fd, buf, 100));
	fstat(fd, &st);
	printf("fstat(unlinked b): nlink %lu size %lld\n", (unsigned long)st.st_nlink,
	       (long long)st.st_size);
	close(fd);

	/* directories: chdir, fchdir, getcwd, *at */
	SHOW("chdir(d/e)", chdir("d/e"));
	getcwd(buf, sizeof(buf));
	printf("getcwd ends in %s\n", strrchr(buf, '/'));
	SHOW("getcwd(buf, 2)", k(getcwd(buf, 2) ? 0 : -1));
	SHOW("chdir(..)", chdir(".."));
	getcwd(buf, sizeof(buf));
	printf("getcwd ends in %s\n", strrchr(buf, '/'));
	SHOW("chdir(x) not a dir", chdir("e/x"));
	dfd = open("e", O_RDONLY | O_DIRECTORY);
	SHOW("mkdirat(e, sub)", mkdirat(dfd, "sub", 0755));
	SHOW("unlinkat(e, sub, AT_REMOVEDIR)", unlinkat(dfd, "sub", AT_REMOVEDIR));
	SHOW("unlinkat(e, x, 0)", unlinkat(dfd, "x", 0));
	SHOW("fstatat(e, '', AT_EMPTY_PATH)", fstatat(dfd, "", &st, AT_EMPTY_PATH));
	printf("it is a directory: %d\n", S_ISDIR(st.st_mode));
	SHOW("fchdir(e)", fchdir(dfd));
	SHOW("rmdir(../e) while it is the cwd", rmdir("../e"));
	SHOW("getcwd after that", k(getcwd(buf, sizeof(buf)) ? 0 : -1));
	SHOW("open(., O_CREAT) in a removed cwd", open("x", O_CREAT | O_WRONLY, 0644));
	close(dfd);
	SHOW("chdir(../..)", chdir("../.."));
	dfd = show_fd("open(d, O_PATH)", open("d", O_PATH));
	SHOW("read(O_PATH fd)", read(dfd, buf, 1));
	SHOW("lseek(O_PATH fd)", lseek(dfd, 0, SEEK_SET));
	SHOW("fstat(O_PATH fd)", fstat(dfd, &st));
	SHOW("getdents64(O_PATH fd)", syscall(SYS_getdents64, dfd, buf, sizeof(buf)));
	printf("fcntl(O_PATH fd, F_GETFL) = %#o\n", fcntl(dfd, F_GETFL));
	SHOW("fchdir(O_PATH fd)", fchdir(dfd));
	SHOW("chdir(..)", chdir(".."));
	close(dfd);
	SHOW("fchdir(a pipe)", fchdir(0) == 0 ? 0 : -1);
}

static void files_fsize(void)
{
	struct rlimit rl = { 10, RLIM_INFINITY };
	int fd = open("big", O_CREAT | O_WRONLY | O_TRUNC, 0644);

	long r[3];

	/* stdout may be a file too: print once the limit is gone */
	signal(SIGXFSZ, on_xfsz);
	setrlimit(RLIMIT_FSIZE, &rl);
	r[0] = k(write(fd, "01234567890123456789", 20));
	r[1] = k(write(fd, "x", 1));
	r[2] = k(ftruncate(fd, 11));
	rl.rlim_cur = RLIM_INFINITY;
	setrlimit(RLIMIT_FSIZE, &rl);
	show("write 20 bytes with RLIMIT_FSIZE 10", r[0]);
	show("write at the limit", r[1]);
	show("ftruncate past the limit", r[2]);
	printf("SIGXFSZ received %d times\n", xfsz_signals);
	close(fd);
	unlink("big");
}

static void cleanup(void)
{
	const char *names[] = { "a", "c", "c2", "c3", "f", "s", "loop", "dangling", "missing",
				"l2", "d/e/x" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(names[i]);
	rmdir("d/e");
	rmdir("d");
}

static int files(const char *base)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/fsops-XXXXXX", base);
	if (!mkdtemp(dir))
		die("mkdtemp(%s): %s", dir, strerror(errno));
	if (chdir(dir))
		die("chdir(%s): %s", dir, strerror(errno));
	files_io();
	files_names();
	files_fsize();
	cleanup();
	show_dir(".");
	if (chdir("/") || rmdir(dir))
		die("cleanup of %s: %s", dir, strerror(errno));
	return 0;
}

static int devices(void)
{
	char buf[64];
	struct stat st;
	int fd, p[2];

	memset(buf, 'x', sizeof(buf));
	fd = show_fd("open(/dev/null, O_RDWR)", open("/dev/null", O_RDWR));
	SHOW("read(/dev/null)", read(fd, buf, sizeof(buf)));
	SHOW("write(/dev/null, 64)", write(fd, buf, 64));
	SHOW("lseek(/dev/null, 100, SEEK_SET)", lseek(fd, 100, SEEK_SET));
	SHOW("fsync(/dev/null)", fsync(fd));
	fstat(fd, &st);
	printf("/dev/null: char device %d, %d:%d, mode %o\n", S_ISCHR(st.st_mode),
	       major(st.st_rdev), minor(st.st_rdev), st.st_mode & 07777);
	close(fd);
	fd = show_fd("open(/dev/zero, O_RDWR)", open("/dev/zero", O_RDWR));
	SHOW("read(/dev/zero, 64)", read(fd, buf, 64));
	printf("all zero: %d\n", !memcmp(buf, (char[64]){ 0 }, 64));
	SHOW("write(/dev/zero, 64)", write(fd, buf, 64));
	close(fd);
	fd = show_fd("open(/dev/full, O_RDWR)", open("/dev/full", O_RDWR));
	memset(buf, 'x', sizeof(buf));
	SHOW("read(/dev/full, 64)", read(fd, buf, 64));
	printf("all zero: %d\n", !memcmp(buf, (char[64]){ 0 }, 64));
	SHOW("write(/dev/full, 1)", write(fd, buf, 1));
	close(fd);
	fd = show_fd("open(/dev/urandom)", open("/dev/urandom", O_RDONLY));
	SHOW("read(/dev/urandom, 16)", read(fd, buf, 16));
	close(fd);
	SHOW("open(/dev/null/x)", open("/dev/null/x", O_RDONLY));
	pipe(p);
	SHOW("lseek(pipe)", lseek(p[0], 0, SEEK_CUR));
	SHOW("pread(pipe)", pread(p[0], buf, 1, 0));
	SHOW("pwrite(pipe)", pwrite(p[1], buf, 1, 0));
	SHOW("fsync(pipe)", fsync(p[1]));
	fstat(p[0], &st);
	printf("pipe: fifo %d mode %o\n", S_ISFIFO(st.st_mode), st.st_mode & 07777);
	SHOW("sendfile(pipe, /dev/zero, 100)", sendfile(p[1], open("/dev/zero", O_RDONLY), NULL, 100));
	SHOW("read(pipe)", read(p[0], buf, 64));
	return 0;
}

/* /dev/tty and /dev/console: the terminal, if there is one. */
static int tty(void)
{
	int fd = show_fd("open(/dev/tty, O_RDWR)", open("/dev/tty", O_RDWR));

	if (fd >= 0) {
		SHOW("write(/dev/tty)", write(fd, "hello, tty\n", 11));
		SHOW("isatty(/dev/tty)", isatty(fd));
		SHOW("lseek(/dev/tty)", lseek(fd, 0, SEEK_CUR));
	}
	return 0;
}

/* The calls that write, on a PATH of a read-only file system (umk's /). */
static int rofs(const char *path)
{
	char name[512];

	snprintf(name, sizeof(name), "%s/umk-rofs-test", path);
	SHOW("open(new, O_CREAT)", open(name, O_CREAT | O_WRONLY, 0644));
	SHOW("mkdir(new)", mkdir(name, 0755));
	SHOW("mkdir(existing)", mkdir(path, 0755));
	SHOW("unlink(missing)", unlink(name));
	SHOW("rmdir(missing)", rmdir(name));
	SHOW("symlink(x, new)", symlink("x", name));
	SHOW("rename(path, new)", rename(path, name));
	SHOW("chmod(path)", chmod(path, 0755));
	SHOW("utimensat(path)", utimensat(AT_FDCWD, path, NULL, 0));
	SHOW("access(path, W_OK)", access(path, W_OK));
	SHOW("access(path, R_OK)", access(path, R_OK));
	SHOW("open(path, O_RDONLY)", open(path, O_RDONLY) < 0 ? -1 : 0);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "files"))
		return files(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "devices"))
		return devices();
	if (argc == 3 && !strcmp(argv[1], "rofs"))
		return rofs(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "tty"))
		return tty();
	fprintf(stderr, "usage: fsops files BASE | devices | rofs PATH | tty\n");
	return 2;
}
