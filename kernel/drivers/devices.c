/*
 * kernel/drivers/devices.c: umk's device nodes (Linux's drivers/char/mem.c and
 * random.c, and /dev/tty and /dev/console of drivers/tty/tty_io.c).
 *
 *	/dev/null	reads end at once, writes vanish
 *	/dev/zero	reads give zeros, writes vanish; MAP_SHARED gets a new
 *			shared memory object each time (shmem_zero_setup)
 *	/dev/full	reads give zeros, writes fail with ENOSPC
 *	/dev/random, /dev/urandom	the host's random bytes; writes are taken
 *			and dropped (Linux would mix them into its pool)
 *	/dev/tty, /dev/console	the console over the host's terminal
 *			(kernel/drivers/console.c), ENXIO when umk has none
 *
 * Each node is an inode of a small file system of its own ("devtmpfs"),
 * mounted over the host's node of the same name, so the rest of the host's
 * /dev still shows around them (read-only, kernel/fs/hostfs.c).
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/uaccess.h>

/* Linux's null_lseek: every position is 0. */
static s64 null_lseek(struct file *f, s64 offset, int whence)
{
	f->f_pos = 0;
	return 0;
}

static ssize_t read_iter_null(struct kiocb *iocb, struct iov_iter *to)
{
	return 0;
}

static ssize_t write_iter_null(struct kiocb *iocb, struct iov_iter *from)
{
	size_t count = iov_iter_count(from);

	iov_iter_advance(from, count);
	return count;
}

static ssize_t write_iter_full(struct kiocb *iocb, struct iov_iter *from)
{
	return -ENOSPC;
}

static const char zero_page[PAGE_SIZE];

static ssize_t read_iter_zero(struct kiocb *iocb, struct iov_iter *to)
{
	ssize_t done = 0;

	while (iov_iter_count(to)) {
		size_t n = min(iov_iter_count(to), sizeof(zero_page));
		size_t copied = copy_to_iter(zero_page, n, to);

		done += copied;
		if (copied < n)
			return done ? done : -EFAULT;
		if (signal_pending(current))
			break;		/* a huge read stops for a signal, as Linux's */
	}
	return done;
}

static ssize_t read_kernel_zero(struct file *f, void *buf, size_t n, s64 off)
{
	memset(buf, 0, n);
	return n;
}

/* A fresh, empty object: the mapping sizes it (os_ftruncate) to cover
 * itself, as for anonymous shared memory. */
static struct hostmem *get_hostmem_zero(struct file *f, int *err)
{
	struct hostmem *h = hostmem_create("dev/zero");

	*err = h ? 0 : -ENOMEM;
	return h;
}

static char random_buf[PAGE_SIZE];

static ssize_t read_iter_random(struct kiocb *iocb, struct iov_iter *to)
{
	ssize_t done = 0;

	while (iov_iter_count(to)) {
		size_t n = min(iov_iter_count(to), sizeof(random_buf));
		size_t copied;

		os_random(random_buf, n);
		copied = copy_to_iter(random_buf, n, to);
		done += copied;
		if (copied < n)
			return done ? done : -EFAULT;
		if (signal_pending(current))
			break;
	}
	return done;
}

static int tty_dev_open(struct inode *inode, struct file *f)
{
	return console_open(f, MINOR(inode->i_rdev) == 0);
}

static const struct file_operations null_fops = {
	.name = "null",
	.read_iter = read_iter_null,
	.write_iter = write_iter_null,
	.llseek = null_lseek,
};

static const struct file_operations zero_fops = {
	.name = "zero",
	.read_iter = read_iter_zero,
	.write_iter = write_iter_null,
	.llseek = null_lseek,
	.get_hostmem = get_hostmem_zero,
	.read_kernel = read_kernel_zero,
};

static const struct file_operations full_fops = {
	.name = "full",
	.read_iter = read_iter_zero,
	.write_iter = write_iter_full,
	.llseek = null_lseek,
};

static const struct file_operations random_fops = {
	.name = "random",
	.read_iter = read_iter_random,
	.write_iter = write_iter_null,
	.llseek = null_lseek,
};

static const struct file_operations tty_fops = {
	.name = "tty",
	.open = tty_dev_open,
};

static const struct {
	const char *name;
	unsigned int major, minor;
	umode_t mode;
	const struct file_operations *fops;
} devlist[] = {
	{ "null", 1, 3, 0666, &null_fops },
	{ "zero", 1, 5, 0666, &zero_fops },
	{ "full", 1, 7, 0666, &full_fops },
	{ "random", 1, 8, 0666, &random_fops },
	{ "urandom", 1, 9, 0666, &random_fops },
	{ "tty", 5, 0, 0666, &tty_fops },
	{ "console", 5, 1, 0600, &tty_fops },
};

void devices_mount(void)
{
	struct super_block *sb = alloc_super("devtmpfs", 0);
	struct inode *root = new_inode(sb);
	char where[32];
	size_t i;

	root->i_ino = sb->s_next_ino++;
	root->i_mode = S_IFDIR | 0755;
	root->i_nlink = 2;
	sb->s_root = d_alloc_root(sb, root);
	for (i = 0; i < ARRAY_SIZE(devlist); i++) {
		struct inode *inode = new_inode(sb);
		struct dentry *d = d_alloc(sb->s_root, devlist[i].name);

		inode->i_ino = sb->s_next_ino++;
		inode->i_mode = S_IFCHR | devlist[i].mode;
		inode->i_rdev = MKDEV(devlist[i].major, devlist[i].minor);
		inode->i_fop = devlist[i].fops;
		d_instantiate(d, inode);
		d_rehash(d);		/* our reference keeps it */
		ksnprintf(where, sizeof(where), "/dev/%s", devlist[i].name);
		mount_node(sb, d, where);
	}
}
