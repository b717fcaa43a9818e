/* fileperm: file permissions with credentials, as Linux checks them.
 * Must start as root (umk's pid 1 is; the tests run natively as root).
 *
 *   fileperm SCENARIO [BASE]
 *
 * Makes a fresh directory under BASE (/tmp by default: umk's tmpfs under
 * umk, the host's /tmp natively; a --rw directory for hostfs), builds the
 * files a scenario needs there as root with chosen owners and modes, runs
 * the checks in a child, as root or as "nobody" (uid and gid 65534, with
 * the supplementary group 2000), prints each call's result as an errno
 * name, and removes the directory. Owners are numbers chosen to be nobody
 * real: 3000 ("another user"), groups 2000 (nobody's supplementary group)
 * and 3000 (not nobody's). Scenarios:
 *
 *   matrix-root, matrix-nobody   read, write, execute and search for the
 *       owner, the group and the others, through open, exec, truncate,
 *       access, stat, opendir, chdir, create, mkdir, unlink, rmdir, rename
 *   sticky, setgid, chown, chmod, utimes, access, noatime, txtbsy, link
 *       one rule each (their functions below say which)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define NOBODY 65534
#define OTHER 3000	/* another user, and a group nobody is not in */
#define GROUP 2000	/* nobody's supplementary group */

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
#ifndef O_PATH
#define O_PATH 010000000
#endif

static const char *self;	/* this program, to copy for exec */
static char buf[4096];

/* ---- building the files, as root ---- */

static void must(const char *what, long ret)
{
	if (ret < 0)
		die("fileperm: %s: %s", what, errno_name(-ret));
}

static const char *at(const char *dir, const char *name)
{
	static char paths[8][4096];
	static int next;
	char *p = paths[next++ % 8];

	snprintf(p, sizeof(paths[0]), "%s/%s", dir, name);
	return p;
}

static void mkfile(const char *path, int uid, int gid, int mode)
{
	long fd = rsys(SYS_open, path, O_CREAT | O_EXCL | O_WRONLY, 0600);

	must(path, fd);
	must("write", rsys(SYS_write, fd, "data\n", 5));
	close(fd);
	must("chown", rsys(SYS_chown, path, uid, gid));
	must("chmod", rsys(SYS_chmod, path, mode));
}

static void mkdir_owned(const char *path, int uid, int gid, int mode)
{
	must(path, rsys(SYS_mkdir, path, 0700));
	must("chown", rsys(SYS_chown, path, uid, gid));
	must("chmod", rsys(SYS_chmod, path, mode));
}

/* A copy of this program, which exec can run ("fileperm exit"). */
static void mkprog(const char *path, int uid, int gid, int mode)
{
	long in = rsys(SYS_open, self, O_RDONLY), out, n;

	must(self, in);
	out = rsys(SYS_open, path, O_CREAT | O_EXCL | O_WRONLY, 0700);
	must(path, out);
	while ((n = rsys(SYS_read, in, buf, sizeof(buf))) > 0)
		must("write", rsys(SYS_write, out, buf, n));
	close(in);
	close(out);
	must("chown", rsys(SYS_chown, path, uid, gid));
	must("chmod", rsys(SYS_chmod, path, mode));
}

static void remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;

	if (lstat(path, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	chmod(path, 0700);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		char sub[4096];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		remove_tree(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

/* ---- running as someone ---- */

static void become_nobody(void)
{
	unsigned int groups[] = { GROUP };

	must("setgroups", rsys(SYS_setgroups, 1, groups));
	must("setresgid", rsys(SYS_setresgid, NOBODY, NOBODY, NOBODY));
	must("setresuid", rsys(SYS_setresuid, NOBODY, NOBODY, NOBODY));
}

/* Run fn(dir) in a child, as nobody or as root. */
static void as(bool nobody, void (*fn)(const char *), const char *dir)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (nobody)
			become_nobody();
		fn(dir);
		fflush(stdout);
		_exit(0);
	}
	status = wait_status(pid);
	if (status)
		printf("child: %s\n", status_text(status));
}

/* "CALL = RET" as show(), for a call returning an fd, which is closed. */
static long show_fd(const char *call, long fd)
{
	show(call, fd < 0 ? fd : 0);
	if (fd >= 0)
		close(fd);
	return fd;
}

/* exec path in a child: "= 0 (exit 0)" or "= -1 EACCES". */
static void show_exec(const char *call, const char *path)
{
	int pfd[2];
	pid_t pid;
	long err = 0;

	if (pipe2(pfd, O_CLOEXEC))
		die("pipe2");
	fflush(stdout);
	pid = fork();
	if (!pid) {
		char *argv[] = { (char *)path, "exit", NULL };

		err = rsys(SYS_execve, path, argv, environ);
		write(pfd[1], &err, sizeof(err));
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(pfd[0]);
	if (err) {
		show(call, err);
		wait_status(pid);
	} else {
		printf("%s = 0 (%s)\n", call, status_text(wait_status(pid)));
	}
}

static void show_mode(const char *what, const char *path)
{
	struct stat st;

	if (lstat(path, &st)) {
		printf("%s: cannot stat\n", what);
		return;
	}
	printf("%s: uid %u gid %u mode %o\n", what, st.st_uid, st.st_gid, st.st_mode & 07777);
}

/* ---- the permission matrix ---- */

/* The classes of a file's mode and who nobody is to a file of each. */
static const struct {
	const char *name;
	int uid, gid, shift;
} classes[] = {
	{ "owner", NOBODY, OTHER, 6 },
	{ "group", OTHER, GROUP, 3 },
	{ "other", OTHER, OTHER, 0 },
};
static const int file_bits[] = { 0, 4, 2, 1, 6 };
static const int dir_bits[] = { 0, 4, 2, 1, 3, 5, 7 };
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Class c's bits are bits; the other classes have all of theirs, so only
 * the class that applies can deny. */
static int class_mode(int c, int bits)
{
	return (0777 & ~(7 << classes[c].shift)) | (bits << classes[c].shift);
}

static void build_matrix(const char *dir)
{
	char name[64];
	size_t c, b;

	for (c = 0; c < N(classes); c++) {
		for (b = 0; b < N(file_bits); b++) {
			snprintf(name, sizeof(name), "f-%s-%o", classes[c].name, file_bits[b]);
			mkprog(at(dir, name), classes[c].uid, classes[c].gid,
			       class_mode(c, file_bits[b]));
		}
		for (b = 0; b < N(dir_bits); b++) {
			const char *d;

			snprintf(name, sizeof(name), "d-%s-%o", classes[c].name, dir_bits[b]);
			d = at(dir, name);
			must(d, rsys(SYS_mkdir, d, 0700));
			mkfile(at(d, "f"), NOBODY, NOBODY, 0666);
			mkfile(at(d, "g"), NOBODY, NOBODY, 0666);
			mkdir_owned(at(d, "e"), NOBODY, NOBODY, 0777);
			must("chown", rsys(SYS_chown, d, classes[c].uid, classes[c].gid));
			must("chmod", rsys(SYS_chmod, d, class_mode(c, dir_bits[b])));
		}
	}
}

static void file_checks(const char *dir, const char *name)
{
	const char *f = at(dir, name);
	char call[160];
	struct stat st;

#define CALL(fmt) (snprintf(call, sizeof(call), "%s: " fmt, name), call)
	show_fd(CALL("open O_RDONLY"), rsys(SYS_open, f, O_RDONLY));
	show_fd(CALL("open O_WRONLY"), rsys(SYS_open, f, O_WRONLY));
	show_fd(CALL("open O_RDWR"), rsys(SYS_open, f, O_RDWR));
	show(CALL("access R_OK"), rsys(SYS_access, f, R_OK));
	show(CALL("access W_OK"), rsys(SYS_access, f, W_OK));
	show(CALL("access X_OK"), rsys(SYS_access, f, X_OK));
	show(CALL("access F_OK"), rsys(SYS_access, f, F_OK));
	show_exec(CALL("execve"), f);
	/* to its own size: the program must still run for the next checks */
	show(CALL("truncate to its size"), rsys(SYS_truncate, f, stat(f, &st) ? 0 : st.st_size));
	show_fd(CALL("open O_RDONLY|O_TRUNC"), rsys(SYS_open, f, O_RDONLY | O_TRUNC));
#undef CALL
}

static void dir_checks(const char *dir, const char *name)
{
	char d[4096], call[160];
	struct stat st;
	long fd;

	snprintf(d, sizeof(d), "%s", at(dir, name));	/* at() reuses its buffers */

#define CALL(fmt) (snprintf(call, sizeof(call), "%s: " fmt, name), call)
	show(CALL("stat d/f"), rsys(SYS_stat, at(d, "f"), &st));
	show_fd(CALL("open d/f O_RDONLY"), rsys(SYS_open, at(d, "f"), O_RDONLY));
	show_fd(CALL("opendir d"), rsys(SYS_open, d, O_RDONLY | O_DIRECTORY));
	show(CALL("access d R_OK"), rsys(SYS_access, d, R_OK));
	show(CALL("access d W_OK"), rsys(SYS_access, d, W_OK));
	show(CALL("access d X_OK"), rsys(SYS_access, d, X_OK));
	fd = rsys(SYS_open, ".", O_RDONLY | O_DIRECTORY);
	if (show(CALL("chdir d"), rsys(SYS_chdir, d)) == 0)
		fchdir(fd);
	show(CALL("fchdir d"), ({
		long dfd = rsys(SYS_open, d, O_PATH | O_DIRECTORY), r = dfd;

		if (dfd >= 0) {
			r = rsys(SYS_fchdir, dfd);
			close(dfd);
			fchdir(fd);
		}
		r;
	}));
	close(fd);
	show_fd(CALL("creat d/new"), rsys(SYS_open, at(d, "new"), O_CREAT | O_WRONLY, 0644));
	show(CALL("mkdir d/sub"), rsys(SYS_mkdir, at(d, "sub"), 0755));
	show(CALL("symlink d/sym"), rsys(SYS_symlink, "f", at(d, "sym")));
	show(CALL("rename d/g d/h"), rsys(SYS_rename, at(d, "g"), at(d, "h")));
	show(CALL("unlink d/f"), rsys(SYS_unlink, at(d, "f")));
	show(CALL("rmdir d/e"), rsys(SYS_rmdir, at(d, "e")));
#undef CALL
}

static void matrix(const char *dir)
{
	char name[64];
	size_t c, b;

	for (c = 0; c < N(classes); c++) {
		for (b = 0; b < N(file_bits); b++) {
			snprintf(name, sizeof(name), "f-%s-%o", classes[c].name, file_bits[b]);
			file_checks(dir, name);
		}
		for (b = 0; b < N(dir_bits); b++) {
			snprintf(name, sizeof(name), "d-%s-%o", classes[c].name, dir_bits[b]);
			dir_checks(dir, name);
		}
	}
}

/* ---- one rule each ---- */

/* In a sticky directory, a name goes only by its file's owner, the
 * directory's, or CAP_FOWNER; a non-sticky one asks nothing more. */
static void build_sticky(const char *dir)
{
	mkdir_owned(at(dir, "s"), OTHER, OTHER, 01777);
	mkfile(at(dir, "s/mine"), NOBODY, NOBODY, 0666);
	mkfile(at(dir, "s/theirs"), OTHER, OTHER, 0666);
	mkfile(at(dir, "s/theirs2"), OTHER, OTHER, 0666);
	mkfile(at(dir, "s/target"), OTHER, OTHER, 0666);
	mkdir_owned(at(dir, "s/theirdir"), OTHER, OTHER, 0777);
	mkdir_owned(at(dir, "own"), NOBODY, NOBODY, 01777);
	mkfile(at(dir, "own/theirs"), OTHER, OTHER, 0666);
	mkdir_owned(at(dir, "plain"), OTHER, OTHER, 0777);
	mkfile(at(dir, "plain/theirs"), OTHER, OTHER, 0666);
}

static void sticky(const char *dir)
{
	show("unlink s/theirs (sticky, another's file)", rsys(SYS_unlink, at(dir, "s/theirs")));
	show("rename s/theirs2 s/moved (sticky)", rsys(SYS_rename, at(dir, "s/theirs2"),
							at(dir, "s/moved")));
	show("rename s/mine over s/target (sticky, another's target)",
	     rsys(SYS_rename, at(dir, "s/mine"), at(dir, "s/target")));
	show("rmdir s/theirdir (sticky)", rsys(SYS_rmdir, at(dir, "s/theirdir")));
	show("unlink s/mine (sticky, own file)", rsys(SYS_unlink, at(dir, "s/mine")));
	show("unlink own/theirs (sticky, own directory)", rsys(SYS_unlink, at(dir, "own/theirs")));
	show("unlink plain/theirs (not sticky)", rsys(SYS_unlink, at(dir, "plain/theirs")));
}

/* A set-group-id directory gives its group to what is made in it, and its
 * S_ISGID to new directories; a file made group-executable and set-gid
 * there loses S_ISGID unless its maker is in the group. */
static void build_setgid(const char *dir)
{
	mkdir_owned(at(dir, "g"), OTHER, GROUP, 02777);
	mkdir_owned(at(dir, "h"), OTHER, OTHER, 02777);
	mkdir_owned(at(dir, "n"), OTHER, OTHER, 0777);
}

static void setgid_dirs(const char *dir)
{
	umask(0);
	show_fd("creat g/f", rsys(SYS_open, at(dir, "g/f"), O_CREAT | O_WRONLY, 0644));
	show_mode("g/f", at(dir, "g/f"));
	show("mkdir g/d", rsys(SYS_mkdir, at(dir, "g/d"), 0755));
	show_mode("g/d", at(dir, "g/d"));
	show("mkdir g/d/e", rsys(SYS_mkdir, at(dir, "g/d/e"), 0700));
	show_mode("g/d/e", at(dir, "g/d/e"));
	show("symlink g/l", rsys(SYS_symlink, "f", at(dir, "g/l")));
	show_mode("g/l", at(dir, "g/l"));
	show_fd("creat g/x 02755", rsys(SYS_open, at(dir, "g/x"), O_CREAT | O_WRONLY, 02755));
	show_mode("g/x", at(dir, "g/x"));
	show_fd("creat h/x 02755", rsys(SYS_open, at(dir, "h/x"), O_CREAT | O_WRONLY, 02755));
	show_mode("h/x", at(dir, "h/x"));
	show_fd("creat h/y 02745", rsys(SYS_open, at(dir, "h/y"), O_CREAT | O_WRONLY, 02745));
	show_mode("h/y", at(dir, "h/y"));
	show_fd("creat n/f", rsys(SYS_open, at(dir, "n/f"), O_CREAT | O_WRONLY, 0640));
	show_mode("n/f", at(dir, "n/f"));
	show("mkdir n/d", rsys(SYS_mkdir, at(dir, "n/d"), 02755));
	show_mode("n/d", at(dir, "n/d"));
}

/* chown's rules: CAP_CHOWN for the owner, the owner may give the group to
 * one of its own, -1 leaves alone; a non-directory loses S_ISUID, and
 * S_ISGID when group-executable; ctime moves. */
static void build_chown(const char *dir)
{
	mkfile(at(dir, "mine"), NOBODY, NOBODY, 0644);
	mkfile(at(dir, "theirs"), OTHER, OTHER, 0666);
	mkfile(at(dir, "suid"), NOBODY, NOBODY, 06755);
	mkfile(at(dir, "sgid-noexec"), NOBODY, GROUP, 02745);
	mkdir_owned(at(dir, "dir"), NOBODY, NOBODY, 06755);
	mkfile(at(dir, "target"), OTHER, OTHER, 0644);
	must("symlink", rsys(SYS_symlink, "target", at(dir, "link")));
	must("lchown", rsys(SYS_lchown, at(dir, "link"), NOBODY, NOBODY));
}

static void show_ctime_moves(const char *call, const char *path, long (*op)(const char *))
{
	struct stat a, b;
	long r;

	lstat(path, &a);
	usleep(20000);
	r = op(path);
	lstat(path, &b);
	show(call, r);
	printf("  ctime moved: %s\n",
	       a.st_ctim.tv_sec != b.st_ctim.tv_sec || a.st_ctim.tv_nsec != b.st_ctim.tv_nsec ?
	       "yes" : "no");
}

static long chown_keep(const char *path)
{
	return rsys(SYS_chown, path, -1, -1);
}

static void do_chown(const char *dir)
{
	bool root = !geteuid();
	long fd;

	show("chown mine -1 GROUP", rsys(SYS_chown, at(dir, "mine"), -1, GROUP));
	show_mode("mine", at(dir, "mine"));
	show("chown mine -1 OTHER (not its group)", rsys(SYS_chown, at(dir, "mine"), -1, OTHER));
	show("chown mine NOBODY -1 (itself)", rsys(SYS_chown, at(dir, "mine"), NOBODY, -1));
	show("chown mine OTHER -1", rsys(SYS_chown, at(dir, "mine"), OTHER, -1));
	show_mode("mine", at(dir, "mine"));
	show_ctime_moves("chown theirs -1 -1", at(dir, "theirs"), chown_keep);
	show("chown theirs -1 GROUP (not its owner)", rsys(SYS_chown, at(dir, "theirs"), -1, GROUP));
	show("chown theirs NOBODY NOBODY", rsys(SYS_chown, at(dir, "theirs"), NOBODY, NOBODY));
	show_mode("theirs", at(dir, "theirs"));
	show("chown suid -1 GROUP", rsys(SYS_chown, at(dir, "suid"), -1, GROUP));
	show_mode("suid", at(dir, "suid"));
	show("chown sgid-noexec -1 -1", rsys(SYS_chown, at(dir, "sgid-noexec"), -1, -1));
	show_mode("sgid-noexec", at(dir, "sgid-noexec"));
	show("chown dir -1 GROUP", rsys(SYS_chown, at(dir, "dir"), -1, GROUP));
	show_mode("dir", at(dir, "dir"));
	show("lchown link -1 GROUP", rsys(SYS_lchown, at(dir, "link"), -1, GROUP));
	show_mode("link", at(dir, "link"));
	show_mode("target", at(dir, "target"));
	show("fchownat link AT_SYMLINK_NOFOLLOW", rsys(SYS_fchownat, AT_FDCWD, at(dir, "link"),
						       -1, NOBODY, AT_SYMLINK_NOFOLLOW));
	show_mode("link", at(dir, "link"));
	show("chown link (follows) -1 GROUP", rsys(SYS_chown, at(dir, "link"), -1, GROUP));
	show_mode("target", at(dir, "target"));
	show("fchownat bad flag", rsys(SYS_fchownat, AT_FDCWD, at(dir, "mine"), -1, -1, 1));
	fd = rsys(SYS_open, at(dir, "mine"), O_RDONLY);
	show("fchown fd -1 NOBODY", rsys(SYS_fchown, fd, -1, NOBODY));
	show("fchownat fd \"\" AT_EMPTY_PATH", rsys(SYS_fchownat, fd, "", -1, GROUP, AT_EMPTY_PATH));
	show_mode("mine", at(dir, "mine"));
	close(fd);
	fd = rsys(SYS_open, at(dir, "mine"), O_PATH);
	show("fchown O_PATH fd", rsys(SYS_fchown, fd, -1, -1));
	close(fd);
	show("chown missing", rsys(SYS_chown, at(dir, "missing"), -1, -1));
	if (root) {
		show("chown mine 1234 5678 as root", rsys(SYS_chown, at(dir, "mine"), 1234, 5678));
		show_mode("mine", at(dir, "mine"));
	}
}

/* chmod is the owner's, or CAP_FOWNER's; S_ISGID of a group the caller
 * is not in is dropped without CAP_FSETID. */
static void build_chmod(const char *dir)
{
	mkfile(at(dir, "mine"), NOBODY, OTHER, 0644);
	mkfile(at(dir, "mine-group"), NOBODY, GROUP, 0644);
	mkfile(at(dir, "theirs"), OTHER, OTHER, 0666);
}

static void do_chmod(const char *dir)
{
	show("chmod mine 02755 (its group is not ours)", rsys(SYS_chmod, at(dir, "mine"), 02755));
	show_mode("mine", at(dir, "mine"));
	show("chmod mine-group 06755", rsys(SYS_chmod, at(dir, "mine-group"), 06755));
	show_mode("mine-group", at(dir, "mine-group"));
	show("chmod theirs 0600", rsys(SYS_chmod, at(dir, "theirs"), 0600));
	show_mode("theirs", at(dir, "theirs"));
}

/* utimensat: "now" for the owner or a writer, explicit times for the
 * owner (or CAP_FOWNER). */
static void build_utimes(const char *dir)
{
	mkfile(at(dir, "mine"), NOBODY, NOBODY, 0444);
	mkfile(at(dir, "writable"), OTHER, OTHER, 0666);
	mkfile(at(dir, "readonly"), OTHER, OTHER, 0644);
}

static void utimes_checks(const char *dir)
{
	struct timespec now2[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
	struct timespec set[2] = { { 1000, 0 }, { 2000, 0 } };
	struct timespec omit_now[2] = { { 0, UTIME_OMIT }, { 0, UTIME_NOW } };
	static const char *names[] = { "mine", "writable", "readonly" };
	char call[128];
	size_t i;

	for (i = 0; i < N(names); i++) {
		const char *f = at(dir, names[i]);

		snprintf(call, sizeof(call), "utimensat %s NULL", names[i]);
		show(call, rsys(SYS_utimensat, AT_FDCWD, f, NULL, 0));
		snprintf(call, sizeof(call), "utimensat %s NOW NOW", names[i]);
		show(call, rsys(SYS_utimensat, AT_FDCWD, f, now2, 0));
		snprintf(call, sizeof(call), "utimensat %s OMIT NOW", names[i]);
		show(call, rsys(SYS_utimensat, AT_FDCWD, f, omit_now, 0));
		snprintf(call, sizeof(call), "utimensat %s 1000 2000", names[i]);
		show(call, rsys(SYS_utimensat, AT_FDCWD, f, set, 0));
	}
}

/* access and faccessat use the real ids, AT_EACCESS the effective ones. */
static void build_access(const char *dir)
{
	mkfile(at(dir, "rootonly"), 0, 0, 0600);
	mkfile(at(dir, "nobodys"), NOBODY, NOBODY, 0600);
}

static void access_ids(const char *dir)
{
	const char *r = at(dir, "rootonly"), *n = at(dir, "nobodys");

	/* real nobody, effective root */
	must("setresuid", rsys(SYS_setresuid, NOBODY, 0, 0));
	show("real nobody: access rootonly R_OK", rsys(SYS_access, r, R_OK));
	show("real nobody: faccessat2 rootonly R_OK AT_EACCESS",
	     rsys(SYS_faccessat2, AT_FDCWD, r, R_OK, AT_EACCESS));
	show("real nobody: access nobodys R_OK", rsys(SYS_access, n, R_OK));
	show_fd("real nobody: open rootonly", rsys(SYS_open, r, O_RDONLY));
	/* real root, effective nobody */
	must("setresuid", rsys(SYS_setresuid, 0, NOBODY, 0));
	show("effective nobody: access rootonly R_OK", rsys(SYS_access, r, R_OK));
	show("effective nobody: faccessat rootonly W_OK", rsys(SYS_faccessat, AT_FDCWD, r, W_OK));
	show("effective nobody: faccessat2 rootonly R_OK AT_EACCESS",
	     rsys(SYS_faccessat2, AT_FDCWD, r, R_OK, AT_EACCESS));
	show("effective nobody: faccessat2 nobodys R_OK AT_EACCESS",
	     rsys(SYS_faccessat2, AT_FDCWD, n, R_OK, AT_EACCESS));
	show_fd("effective nobody: open rootonly", rsys(SYS_open, r, O_RDONLY));
	show("access bad mode", rsys(SYS_access, r, 8));
}

/* O_NOATIME is for the file's owner, or CAP_FOWNER: EPERM otherwise. */
static void build_noatime(const char *dir)
{
	mkfile(at(dir, "mine"), NOBODY, NOBODY, 0644);
	mkfile(at(dir, "theirs"), OTHER, OTHER, 0644);
}

static void noatime(const char *dir)
{
	long fd;

	show_fd("open mine O_NOATIME", rsys(SYS_open, at(dir, "mine"), O_RDONLY | O_NOATIME));
	show_fd("open theirs O_NOATIME", rsys(SYS_open, at(dir, "theirs"), O_RDONLY | O_NOATIME));
	fd = rsys(SYS_open, at(dir, "theirs"), O_RDONLY);
	show("fcntl theirs F_SETFL O_NOATIME", rsys(SYS_fcntl, fd, F_SETFL, O_NOATIME));
	close(fd);
	fd = rsys(SYS_open, at(dir, "mine"), O_RDONLY);
	show("fcntl mine F_SETFL O_NOATIME", rsys(SYS_fcntl, fd, F_SETFL, O_NOATIME));
	printf("mine's F_GETFL has O_NOATIME: %s\n",
	       rsys(SYS_fcntl, fd, F_GETFL) & O_NOATIME ? "yes" : "no");
	close(fd);
}

/* A running program cannot be opened for writing or truncated (ETXTBSY),
 * and a file open for writing cannot be executed. */
static void build_txtbsy(const char *dir)
{
	mkprog(at(dir, "prog"), NOBODY, NOBODY, 0755);
	mkprog(at(dir, "prog2"), NOBODY, NOBODY, 0755);
}

static void txtbsy(const char *dir)
{
	const char *p = at(dir, "prog"), *p2 = at(dir, "prog2");
	int in[2], out[2];
	pid_t pid;
	char c;
	long fd;

	if (pipe(in) || pipe(out))
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (!pid) {
		char *argv[] = { (char *)p, "wait", NULL };

		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execve(p, argv, environ);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	if (read(out[0], &c, 1) != 1)
		die("the program did not start");
	show_fd("open prog O_WRONLY while it runs", rsys(SYS_open, p, O_WRONLY));
	show_fd("open prog O_RDWR while it runs", rsys(SYS_open, p, O_RDWR));
	show_fd("creat prog while it runs", rsys(SYS_creat, p, 0755));
	show_fd("open prog O_RDONLY|O_TRUNC while it runs", rsys(SYS_open, p, O_RDONLY | O_TRUNC));
	show("truncate prog while it runs", rsys(SYS_truncate, p, 0));
	show_fd("open prog O_RDONLY while it runs", rsys(SYS_open, p, O_RDONLY));
	close(in[1]);
	printf("prog: %s\n", status_text(wait_status(pid)));
	close(out[0]);
	show_fd("open prog O_WRONLY after it exited", rsys(SYS_open, p, O_WRONLY));
	fd = rsys(SYS_open, p2, O_WRONLY);
	show_exec("execve prog2 while open for writing", p2);
	close(fd);
	show_exec("execve prog2 once closed", p2);
}

/* fs.protected_hardlinks: a link to another's file needs read and write
 * permission on it. */
static void build_link(const char *dir)
{
	mkdir_owned(at(dir, "d"), NOBODY, NOBODY, 0755);
	mkfile(at(dir, "theirs-rw"), OTHER, OTHER, 0666);
	mkfile(at(dir, "theirs-r"), OTHER, OTHER, 0644);
	mkfile(at(dir, "mine"), NOBODY, NOBODY, 0400);
	mkdir_owned(at(dir, "td"), OTHER, OTHER, 0755);
}

static void link_checks(const char *dir)
{
	show("link theirs-rw d/a", rsys(SYS_link, at(dir, "theirs-rw"), at(dir, "d/a")));
	show("link theirs-r d/b", rsys(SYS_link, at(dir, "theirs-r"), at(dir, "d/b")));
	show("link mine d/c", rsys(SYS_link, at(dir, "mine"), at(dir, "d/c")));
	show("link mine into theirs' directory", rsys(SYS_link, at(dir, "mine"), at(dir, "td/x")));
}

static const struct scenario {
	const char *name;
	void (*build)(const char *dir);
	void (*run)(const char *dir);
	bool nobody;
} scenarios[] = {
	{ "matrix-root", build_matrix, matrix, false },
	{ "matrix-nobody", build_matrix, matrix, true },
	{ "sticky", build_sticky, sticky, true },
	{ "sticky-root", build_sticky, sticky, false },
	{ "setgid", build_setgid, setgid_dirs, true },
	{ "setgid-root", build_setgid, setgid_dirs, false },
	{ "chown", build_chown, do_chown, true },
	{ "chown-root", build_chown, do_chown, false },
	{ "chmod", build_chmod, do_chmod, true },
	{ "utimes", build_utimes, utimes_checks, true },
	{ "access", build_access, access_ids, false },
	{ "noatime", build_noatime, noatime, true },
	{ "noatime-root", build_noatime, noatime, false },
	{ "txtbsy", build_txtbsy, txtbsy, true },
	{ "link", build_link, link_checks, true },
};

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	char dir[4096];
	size_t i;

	if (!strcmp(what, "exit"))
		return 0;
	if (!strcmp(what, "wait")) {	/* txtbsy's running program */
		write(1, "r", 1);
		while (read(0, buf, sizeof(buf)) > 0)
			;
		return 0;
	}
	self = argv[0];
	for (i = 0; i < N(scenarios); i++)
		if (!strcmp(what, scenarios[i].name))
			break;
	if (i == N(scenarios))
		die("usage: fileperm matrix-root|matrix-nobody|sticky|setgid|chown|chmod|utimes|"
		    "access|noatime|txtbsy|link[-root] [BASE]");
	if (rsys0(SYS_geteuid) != 0)
		die("fileperm: must start as root");
	snprintf(dir, sizeof(dir), "%s/fileperm.XXXXXX", argc > 2 ? argv[2] : "/tmp");
	if (!mkdtemp(dir))
		die("fileperm: mkdtemp %s", dir);
	chmod(dir, 0777);
	umask(022);
	scenarios[i].build(dir);
	as(scenarios[i].nobody, scenarios[i].run, dir);
	remove_tree(dir);
	return 0;
}
