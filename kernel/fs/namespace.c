/*
 * kernel/fs/namespace.c: the mount table and the file systems umk mounts at
 * boot (Linux's fs/namespace.c, fs/super.c, init/do_mounts.c).
 *
 * umk has one mount namespace, made once at boot and never changed (no
 * mount or umount calls):
 *
 *	/		hostfs: the host's /, read-only
 *	DIR		hostfs: the host's DIR, writable, for each --rw DIR
 *	/tmp, /dev/shm	tmpfs: umk's own, in memory, gone at exit
 *	/dev/null ...	the device nodes of kernel/drivers/devices.c, each mounted over
 *			the host's node of that name
 *	/proc		proc: umk's own processes (kernel/fs/proc.c)
 *
 * A mount point the host lacks (no /dev/shm) is skipped. A --rw DIR under
 * /tmp or /dev/shm gets its mount point made in umk's tmpfs, so that the
 * host directory shows at its own path. docs/design.md, "Files and file
 * systems".
 */
#include <umk/entry.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/syscalls.h>

static LIST_HEAD(mounts);

int mnt_id(const struct vfsmount *mnt)
{
	struct vfsmount *m;
	int id = 1;

	list_for_each_entry(m, &mounts, mnt_list) {
		if (m == mnt)
			return id;
		id++;
	}
	return 0;
}
struct vfsmount *root_mnt;

struct super_block *alloc_super(const char *type, unsigned long flags)
{
	static unsigned int next_anon = 1;
	struct super_block *sb = kmalloc(sizeof(*sb));

	sb->s_type = type;
	sb->s_flags = flags;
	sb->s_dev = MKDEV(0, 0x20 + next_anon++);	/* an anonymous device */
	sb->s_next_ino = 1;
	return sb;
}

struct vfsmount *lookup_mnt(struct vfsmount *mnt, struct dentry *dentry)
{
	struct vfsmount *m, *found = NULL;

	if (!dentry->d_mounted)
		return NULL;
	list_for_each_entry(m, &mounts, mnt_list)
		if (m->mnt_parent == mnt && m->mnt_mountpoint == dentry)
			found = m;	/* the last one mounted hides the others */
	return found;
}

void follow_mount(struct path *path)
{
	struct vfsmount *m;

	while ((m = lookup_mnt(path->mnt, path->dentry))) {
		dput(path->dentry);
		path->mnt = m;
		path->dentry = dget(m->mnt_root);
	}
}

/* Mount root (a dentry of sb: its root, or one device node) at mp. */
static void mount_at(struct super_block *sb, struct dentry *root, const struct path *mp)
{
	struct vfsmount *m = kmalloc(sizeof(*m));

	m->mnt_sb = sb;
	m->mnt_root = dget(root);
	m->mnt_parent = mp->mnt;
	m->mnt_mountpoint = dget(mp->dentry);
	mp->dentry->d_mounted++;
	list_add_tail(&m->mnt_list, &mounts);
}

void mount_node(struct super_block *sb, struct dentry *root, const char *dir)
{
	struct path mp;

	if (kern_path_at(AT_FDCWD, dir, LOOKUP_FOLLOW, &mp))
		return;
	mount_at(sb, root, &mp);
	path_put(&mp);
}

/* Make the directories of the absolute path dir that are missing, where
 * the file system lets us (umk's tmpfs), like mkdir -p; returns the last. */
static int make_mountpoint(const char *dir, struct path *res)
{
	struct path p = current->fs->root;
	char name[NAME_MAX + 1];
	const char *s = dir;

	path_get(&p);
	for (;;) {
		struct dentry *d;
		size_t len;
		int err;

		while (*s == '/')
			s++;
		if (!*s)
			break;
		len = 0;
		while (s[len] && s[len] != '/')
			len++;
		if (len > NAME_MAX) {
			path_put(&p);
			return -ENAMETOOLONG;
		}
		memcpy(name, s, len);
		name[len] = '\0';
		s += len;
		err = lookup_one(&p, name, &d);
		if (!err && !d->d_inode) {
			struct inode *dir = p.dentry->d_inode;

			err = mnt_is_readonly(p.mnt) || !dir->i_op->mkdir ? -ENOENT
									: dir->i_op->mkdir(dir, d, 0755);
			if (!err)
				d_rehash(d);
			else
				dput(d);
		}
		if (err) {
			path_put(&p);
			return err;
		}
		dput(p.dentry);
		p.dentry = d;
		follow_mount(&p);
		if (!S_ISDIR(p.dentry->d_inode->i_mode)) {
			path_put(&p);
			return -ENOTDIR;
		}
	}
	*res = p;
	return 0;
}

void vfs_mount_host_dir(const char *dir, bool rdonly)
{
	struct super_block *sb;
	struct path p;

	if (make_mountpoint(dir, &p))
		panic("vfs_mount_host_dir: %s: no mount point", dir);
	sb = hostfs_fill_super(dir, rdonly);
	mount_at(sb, sb->s_root, &p);
	path_put(&p);
}

void mounts_text(char *buf, size_t n)
{
	struct vfsmount *m;
	size_t len = 0;
	char *page = kmalloc(PATH_MAX);

	buf[0] = '\0';
	list_for_each_entry(m, &mounts, mnt_list) {
		struct path where = { .mnt = m->mnt_parent, .dentry = m->mnt_mountpoint };
		const char *source = m->mnt_sb->s_fs_info ? m->mnt_sb->s_fs_info : m->mnt_sb->s_type;
		char *p;
		int err;

		if (m == root_mnt)
			where = (struct path){ .mnt = m, .dentry = m->mnt_root };
		p = d_path(&where, page, PATH_MAX, &err);
		if (!p || len >= n)
			continue;
		len += ksnprintf(buf + len, n - len, "%s %s %s %s 0 0\n", source, p,
				m->mnt_sb->s_type, mnt_is_readonly(m) ? "ro" : "rw");
	}
	kfree(page);
}

/* The idle task's fs_struct, which pid 1 copies (Linux's init_fs). */
static struct fs_struct init_fs = { .users = 1, .umask = 0022 };

void vfs_init(const char *const *rw_dirs, int nr_rw_dirs, const char *cwd)
{
	struct super_block *sb = hostfs_fill_super("/", true);
	struct path p;
	int i, err;

	root_mnt = kmalloc(sizeof(*root_mnt));
	root_mnt->mnt_sb = sb;
	root_mnt->mnt_root = dget(sb->s_root);
	root_mnt->mnt_parent = root_mnt;
	root_mnt->mnt_mountpoint = dget(sb->s_root);
	list_add_tail(&root_mnt->mnt_list, &mounts);
	init_fs.root.mnt = init_fs.pwd.mnt = root_mnt;
	init_fs.root.dentry = dget(sb->s_root);
	init_fs.pwd.dentry = dget(sb->s_root);
	idle_task->fs = &init_fs;

	sb = tmpfs_fill_super();
	mount_node(sb, sb->s_root, "/tmp");
	sb = tmpfs_fill_super();
	mount_node(sb, sb->s_root, "/dev/shm");
	devices_mount();
	sb = proc_fill_super();
	mount_node(sb, sb->s_root, "/proc");
	for (i = 0; i < nr_rw_dirs; i++) {
		err = make_mountpoint(rw_dirs[i], &p);

		if (err) {	/* under /proc, say: a usage error, not a panic */
			char msg[PATH_MAX + 80];

			ksnprintf(msg, sizeof(msg), "umk: --rw %s: no such directory inside umk (%s)\n",
				 rw_dirs[i], errno_name(-err));
			os_console_err(msg);
			os_exit(UMK_EXIT_USAGE);
		}
		path_put(&p);
		vfs_mount_host_dir(rw_dirs[i], false);
	}
	/* umk's working directory, shown read-only at its path if umk's own
	 * file systems hide it (a directory under /tmp). */
	err = kern_path_at(AT_FDCWD, cwd, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &p);
	if (err == -ENOENT && cwd[0] == '/' && cwd[1]) {
		vfs_mount_host_dir(cwd, true);
		err = kern_path_at(AT_FDCWD, cwd, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &p);
	}
	if (!err) {
		set_fs_pwd(&init_fs, &p);
		path_put(&p);
	}
}
