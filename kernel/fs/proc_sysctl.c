/*
 * kernel/fs/proc_sysctl.c: /proc/sys, the kernel's tunables as files
 * (Linux's fs/proc/proc_sysctl.c and the ctl_tables of kernel/sysctl.c).
 *
 * A table of directories and files, each file a value umk has: reading it
 * gives the value and a newline; writing one that Linux lets root write
 * and umk honours sets it, checked as Linux's proc_dointvec_minmax or
 * proc_dostring check it. Files umk has no use for writing are read-only
 * (0444), so that a write is EACCES for any user, where Linux would take
 * it. Only what programs and test suites read is here:
 *
 *	kernel/	pid_max (rw), threads-max (rw), core_pattern (rw),
 *		core_uses_pid (rw), tainted, ostype, osrelease, version,
 *		hostname, domainname, ngroups_max, cap_last_cap,
 *		randomize_va_space, random/boot_id, random/uuid
 *	vm/	max_map_count, mmap_min_addr, overcommit_memory,
 *		overcommit_ratio
 *	fs/	file-max, nr_open, pipe-max-size (rw), pipe-user-pages-hard (rw),
 *		pipe-user-pages-soft (rw), lease-break-time (rw),
 *		leases-enable (rw), aio-nr,
 *		aio-max-nr (rw)
 *
 * The text of a file is made when it is opened, as the rest of /proc's
 * (kernel/fs/proc.c); a write takes the whole value at offset 0.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/filelock.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/uaccess.h>

#include <umk/sched/signal.h>

/* One file's value (ctl_table): shown into buf, or set from the text
 * written (NUL-terminated, a trailing newline allowed). */
struct ctl_table {
	const char *procname;
	umode_t mode;
	int (*show)(const struct ctl_table *t, char *buf, size_t size);
	int (*store)(const struct ctl_table *t, const char *text);
	int *ival;			/* an int, shown and stored in decimal */
	void *data;			/* another value, for show and store */
	int min, max;			/* what store accepts */
	const char *sval;		/* a fixed string */
	const struct ctl_table *child;	/* a directory's entries */
	size_t nchild;
};

static int show_int(const struct ctl_table *t, char *buf, size_t size)
{
	return ksnprintf(buf, size, "%d\n", *t->ival);
}

static int show_str(const struct ctl_table *t, char *buf, size_t size)
{
	return ksnprintf(buf, size, "%s\n", t->sval);
}

/* One decimal number, optionally negative, with at most a trailing
 * newline after it, of at most max in magnitude: 0 with *v, or -EINVAL. */
static int parse_decimal(const char *text, bool neg_ok, long max, long *v)
{
	bool neg = neg_ok && *text == '-';
	const char *p = text + neg;
	long n = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (*p - '0');
		if (n > max)
			return -EINVAL;
	}
	if (*p && !(*p == '\n' && !p[1]))
		return -EINVAL;
	*v = neg ? -n : n;
	return 0;
}

/* proc_dointvec_minmax: one decimal integer, within [min, max]. */
static int store_int(const struct ctl_table *t, const char *text)
{
	long v;

	if (parse_decimal(text, true, 0x7fffffffL, &v) || v < t->min || v > t->max)
		return -EINVAL;
	*t->ival = (int)v;
	return 0;
}

/* core_pattern (proc_dostring): the text up to a newline, cut to fit. */
static int show_core_pattern(const struct ctl_table *t, char *buf, size_t size)
{
	return ksnprintf(buf, size, "%s\n", core_pattern);
}

static int store_core_pattern(const struct ctl_table *t, const char *text)
{
	size_t n = 0;

	while (text[n] && text[n] != '\n')
		n++;
	if (n >= sizeof(core_pattern))
		n = sizeof(core_pattern) - 1;
	memcpy(core_pattern, text, n);
	core_pattern[n] = '\0';
	return 0;
}

/* random/boot_id: one UUID per boot; random/uuid: a new one each read. */
static char boot_id[37];

static void make_uuid(char *out)
{
	unsigned char b[16];

	os_random(b, sizeof(b));
	b[6] = (b[6] & 0x0f) | 0x40;	/* version 4 */
	b[8] = (b[8] & 0x3f) | 0x80;	/* variant 1 */
	ksnprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		  b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
		  b[13], b[14], b[15]);
}

static int show_boot_id(const struct ctl_table *t, char *buf, size_t size)
{
	if (!boot_id[0])
		make_uuid(boot_id);
	return ksnprintf(buf, size, "%s\n", boot_id);
}

static int show_uuid(const struct ctl_table *t, char *buf, size_t size)
{
	char uuid[37];

	make_uuid(uuid);
	return ksnprintf(buf, size, "%s\n", uuid);
}

static int zero, core_uses_pid_val, max_map_count = DEFAULT_MAP_COUNT_MAX;
static int mmap_min = USER_WINDOW_START, ngroups_max = 65536, cap_last = CAP_LAST_CAP;
static int overcommit_ratio = 50, randomize = 2, nr_open = NR_OPEN_MAX;

#define INT_RO(name, var) { .procname = name, .mode = S_IFREG | 0444, .show = show_int, .ival = &(var) }
#define INT_RW(name, var, lo, hi)                                                          \
	{ .procname = name, .mode = S_IFREG | 0644, .show = show_int, .store = store_int,   \
	  .ival = &(var), .min = (lo), .max = (hi) }
#define STR_RO(name, str) { .procname = name, .mode = S_IFREG | 0444, .show = show_str, .sval = (str) }
#define FN_RO(name, fn) { .procname = name, .mode = S_IFREG | 0444, .show = (fn) }
#define DIR(name, table)                                                                    \
	{ .procname = name, .mode = S_IFDIR | 0555, .child = (table), .nchild = ARRAY_SIZE(table) }

static const struct ctl_table kernel_random_table[] = {
	FN_RO("boot_id", show_boot_id),
	FN_RO("uuid", show_uuid),
};

static const struct ctl_table kernel_table[] = {
	INT_RW("pid_max", pid_max, 301, PID_MAX_LIMIT),
	INT_RW("threads-max", max_threads, 20, 0x3fffffff),
	{ .procname = "core_pattern", .mode = S_IFREG | 0644, .show = show_core_pattern,
	  .store = store_core_pattern },
	INT_RW("core_uses_pid", core_uses_pid_val, 0, 1),
	INT_RO("tainted", zero),
	STR_RO("ostype", "Linux"),
	STR_RO("osrelease", UTS_RELEASE),
	STR_RO("version", UTS_VERSION),
	STR_RO("hostname", UTS_NODENAME),
	STR_RO("domainname", "(none)"),
	INT_RO("ngroups_max", ngroups_max),
	INT_RO("cap_last_cap", cap_last),
	INT_RO("randomize_va_space", randomize),
	DIR("random", kernel_random_table),
};

static const struct ctl_table vm_table[] = {
	INT_RO("max_map_count", max_map_count),
	INT_RO("mmap_min_addr", mmap_min),
	INT_RO("overcommit_memory", zero),
	INT_RO("overcommit_ratio", overcommit_ratio),
};

static int show_file_max(const struct ctl_table *t, char *buf, size_t size)
{
	return ksnprintf(buf, size, "%ld\n", 9223372036854775807L);	/* LONG_MAX */
}

/* fs.pipe-max-size (Linux's proc_dopipe_max_size): an unsigned number,
 * stored rounded up to a power of two pages; EINVAL past 2 GiB. */
static int show_pipe_max_size(const struct ctl_table *t, char *buf, size_t size)
{
	return ksnprintf(buf, size, "%u\n", pipe_max_size);
}

static int store_pipe_max_size(const struct ctl_table *t, const char *text)
{
	long v;

	if (parse_decimal(text, false, 0xffffffffL, &v))
		return -EINVAL;
	v = round_pipe_size((unsigned int)v);
	if (!v)
		return -EINVAL;
	pipe_max_size = (unsigned int)v;
	return 0;
}

/* fs.pipe-user-pages-hard and -soft (proc_doulongvec_minmax): unsigned
 * longs, shown and set in decimal (umk takes up to LONG_MAX / 10, which
 * keeps parse_decimal from overflowing). */
static int show_ulong(const struct ctl_table *t, char *buf, size_t size)
{
	return ksnprintf(buf, size, "%lu\n", *(unsigned long *)t->data);
}

static int store_ulong(const struct ctl_table *t, const char *text)
{
	long v;

	if (parse_decimal(text, false, 0x7fffffffffffffffL / 10, &v))
		return -EINVAL;
	*(unsigned long *)t->data = (unsigned long)v;
	return 0;
}

#define ULONG_RW(name, var)                                                                 \
	{ .procname = name, .mode = S_IFREG | 0644, .show = show_ulong, .store = store_ulong,  \
	  .data = &(var) }

static const struct ctl_table fs_table[] = {
	ULONG_RW("aio-max-nr", aio_max_nr),
	{ .procname = "aio-nr", .mode = S_IFREG | 0444, .show = show_ulong, .data = &aio_nr },
	FN_RO("file-max", show_file_max),
	INT_RO("nr_open", nr_open),
	{ .procname = "pipe-max-size", .mode = S_IFREG | 0644, .show = show_pipe_max_size,
	  .store = store_pipe_max_size },
	ULONG_RW("pipe-user-pages-hard", pipe_user_pages_hard),
	ULONG_RW("pipe-user-pages-soft", pipe_user_pages_soft),
	INT_RW("lease-break-time", lease_break_time, -0x7fffffff - 1, 0x7fffffff),
	INT_RW("leases-enable", leases_enable, -0x7fffffff - 1, 0x7fffffff),
};

static const struct ctl_table sys_table[] = {
	DIR("fs", fs_table),
	DIR("kernel", kernel_table),
	DIR("vm", vm_table),
};

static const struct ctl_table sys_root = DIR("sys", sys_table);

bool core_uses_pid(void)
{
	return core_uses_pid_val;
}

/* ---- the files ---- */

static const struct inode_operations proc_sys_dir_iops, proc_sys_file_iops;
static const struct file_operations proc_sys_dir_fops, proc_sys_file_fops;

/* A table entry's inode: the entry in i_private. Inode numbers are the
 * entries' addresses folded: unique while umk runs. */
static struct inode *proc_sys_inode(struct super_block *sb, const struct ctl_table *t)
{
	struct inode *inode = new_inode(sb);

	inode->i_ino = 0x40000000UL | ((unsigned long)t >> 3 & 0x3fffffffUL);
	inode->i_mode = t->mode;
	inode->i_private = (void *)t;
	if (S_ISDIR(t->mode)) {
		inode->i_nlink = 2;
		inode->i_op = &proc_sys_dir_iops;
		inode->i_fop = &proc_sys_dir_fops;
	} else {
		inode->i_op = &proc_sys_file_iops;
		inode->i_fop = &proc_sys_file_fops;
	}
	return inode;
}

struct inode *proc_sys_root_inode(struct super_block *sb)
{
	return proc_sys_inode(sb, &sys_root);
}

static int proc_sys_lookup(struct inode *dir, struct dentry *dentry)
{
	const struct ctl_table *t = dir->i_private;

	for (size_t i = 0; i < t->nchild; i++) {
		if (!strcmp(dentry->d_name, t->child[i].procname)) {
			d_instantiate(dentry, proc_sys_inode(dir->i_sb, &t->child[i]));
			return 0;
		}
	}
	return -ENOENT;
}

static int proc_sys_readdir(struct file *f, struct dir_context *ctx)
{
	const struct ctl_table *t = f->f_inode->i_private;

	if (ctx->pos == 0 && !dir_emit(ctx, ".", 1, f->f_inode->i_ino, DT_DIR, 1))
		return 0;
	if (ctx->pos == 1 && !dir_emit(ctx, "..", 2, 1, DT_DIR, 2))
		return 0;
	for (size_t i = (size_t)ctx->pos - 2; i < t->nchild; i++) {
		const struct ctl_table *c = &t->child[i];

		if (!dir_emit(ctx, c->procname, (int)strlen(c->procname),
			      0x40000000UL | ((unsigned long)c >> 3 & 0x3fffffffUL),
			      (c->mode >> 12) & 15, (s64)i + 3))
			return 0;
	}
	return 0;
}

/* An open file's text, made at open (as /proc's single_open). */
struct sysctl_buf {
	size_t len;
	char data[256];
};

static int proc_sys_open(struct inode *inode, struct file *f)
{
	const struct ctl_table *t = inode->i_private;
	struct sysctl_buf *b;
	int n;

	/* the files are root's: writing one is for uid 0 or CAP_DAC_OVERRIDE,
	 * and for no one when it is read-only (proc_sys_permission) */
	if (file_writable(f) && (!(t->mode & 0200) ||
				 (current->cred.fsuid != 0 && !capable(CAP_DAC_OVERRIDE))))
		return -EACCES;
	b = kmalloc(sizeof(*b));
	n = t->show(t, b->data, sizeof(b->data));

	b->len = n < 0 ? 0 : min((size_t)n, sizeof(b->data) - 1);
	f->private_data = b;
	return 0;
}

static ssize_t proc_sys_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct sysctl_buf *b = iocb->ki_filp->private_data;

	return simple_read_from_buffer(iocb, to, b->data, b->len);
}

/* A write sets the value from offset 0 (proc_sys_call_handler: a write
 * further on is ignored as a whole). Root only: the files are root's,
 * 0644. */
static ssize_t proc_sys_write(struct kiocb *iocb, struct iov_iter *from)
{
	const struct ctl_table *t = iocb->ki_filp->f_inode->i_private;
	size_t n = iov_iter_count(from);
	char text[256];
	int err;

	if (!t->store)
		return -EINVAL;
	if (iocb->ki_pos)
		return (ssize_t)n;
	if (n >= sizeof(text))
		return -EINVAL;
	if (copy_from_iter(text, n, from) != n)
		return -EFAULT;
	text[n] = '\0';
	err = t->store(t, text);
	if (err)
		return err;
	iocb->ki_pos += n;
	return (ssize_t)n;
}

static s64 proc_sys_llseek(struct file *f, s64 offset, int whence)
{
	struct sysctl_buf *b = f->private_data;

	return generic_file_llseek(f, offset, whence, (s64)b->len);
}

static void proc_sys_release(struct file *f)
{
	kfree(f->private_data);
}

/* proc_sys_setattr: a file's mode is fixed (EPERM); the
 * truncation of a write with O_TRUNC changes nothing. */
static int proc_sys_setattr(struct dentry *dentry, struct iattr *attr)
{
	if (attr->ia_valid & ATTR_MODE)
		return -EPERM;
	return 0;
}

static const struct inode_operations proc_sys_dir_iops = {
	.lookup = proc_sys_lookup,
};

static const struct inode_operations proc_sys_file_iops = {
	.setattr = proc_sys_setattr,
};

static const struct file_operations proc_sys_dir_fops = {
	.name = "proc",
	.iterate = proc_sys_readdir,
};

static const struct file_operations proc_sys_file_fops = {
	.name = "proc",
	.open = proc_sys_open,
	.read_iter = proc_sys_read,
	.write_iter = proc_sys_write,
	.llseek = proc_sys_llseek,
	.release = proc_sys_release,
};
