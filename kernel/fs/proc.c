/*
 * kernel/fs/proc.c: /proc, umk's processes as files (Linux's fs/proc/: base.c,
 * array.c, fd.c, root.c, self.c, task_mmu.c's maps).
 *
 *	/proc/self		symlink to the reader's pid
 *	/proc/mounts		umk's mount table (kernel/fs/namespace.c)
 *	/proc/uptime		seconds since boot, and the idle task's seconds
 *	/proc/net/unix		the AF_UNIX sockets (kernel/net/af_unix.c)
 *	/proc/sysvipc/msg, sem, shm  System V IPC's objects (kernel/ipc/)
 *	/proc/meminfo		memory: the host's totals, umk's own use
 *	/proc/sys/		the tunables (kernel/fs/proc_sysctl.c)
 *	/proc/PID/stat		one line, fields in Linux's order (do_task_stat)
 *	/proc/PID/status	"Name:\t..." lines (proc_pid_status)
 *	/proc/PID/cmdline	argv, NUL-separated, read from the process
 *	/proc/PID/environ	its environment, the same way
 *	/proc/PID/comm		the name and a newline
 *	/proc/PID/exe		symlink to the program (mm->exe)
 *	/proc/PID/maps		the process's regions (mm->mmap)
 *	/proc/PID/auxv		its auxiliary vector (mm->saved_auxv), binary
 *	/proc/PID/mem		its memory, at the file position (mem_rw)
 *	/proc/PID/task/TID/	a thread's directory: the files above, for it
 *	/proc/PID/fd/N		symlink to what fd N is: a path, "pipe:[N]",
 *				or the host's name for a console fd
 *	/proc/PID/fdinfo/N	fd N's position, flags, mount and inode, then
 *				what its file adds (f_op->show_fdinfo: epoll's
 *				targets...), as Linux's fs/proc/fd.c
 *
 * Only umk's own processes show, never the host's. Nothing is kept: each
 * lookup makes a dentry and inode that go when unused, the inode holding
 * the pid (i_private), and a file's text is made whole by a read at offset
 * 0 (as Linux's single_open and seq_read), then read from there. A process
 * that is gone is ENOENT at lookup and ESRCH at open or at that read.
 *
 * Departures: starttime in stat is 0 (umk does not record when a task
 * started); fdinfo's mnt_id is the mount's place in umk's
 * mount table, and 0 for a file of no mount (a pipe, an epoll), which Linux
 * puts on its internal pipefs or anon_inodefs.
 */
#include <umk/errno.h>
#include <umk/filelock.h>
#include <umk/fs.h>
#include <umk/ipc.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/net.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/timer.h>
#include <umk/tty.h>
#include <umk/uaccess.h>
#include <umk/vdso.h>

/* The entries of /proc itself before the processes; readdir positions:
 * ".", "..", these, then pid + PROC_PID_OFFSET. */
static const struct {
	const char *name;
	umode_t mode;
} root_entries[] = {
	{ "self", S_IFLNK | 0777 }, { "mounts", S_IFREG | 0444 }, { "uptime", S_IFREG | 0444 },
	{ "locks", S_IFREG | 0444 },	/* kernel/fs/locks.c */
	{ "net", S_IFDIR | 0555 },	/* the sockets' tables: net/unix */
	{ "sysvipc", S_IFDIR | 0555 },	/* System V IPC's objects (kernel/ipc/) */
	{ "meminfo", S_IFREG | 0444 }, { "sys", S_IFDIR | 0555 },
};
/* /proc/net/unix's inode number: below every pid directory's (pid << 8). */
#define PROC_NET_UNIX_INO 0x80
/* /proc/sysvipc/msg, sem and shm: the three after it, in that order. */
#define PROC_SYSVIPC_INO 0x81
static const char *const sysvipc_names[] = { "msg", "sem", "shm" };
#define PROC_PID_OFFSET (2 + (int)ARRAY_SIZE(root_entries))

static const struct inode_operations proc_root_iops, proc_pid_iops, proc_fd_iops;
static const struct inode_operations proc_task_iops, proc_tid_iops;
static const struct file_operations proc_task_fops, proc_mem_fops;
static const struct inode_operations proc_fdinfo_iops;
static const struct inode_operations proc_net_iops;
static const struct inode_operations proc_sysvipc_iops;
static const struct file_operations proc_sysvipc_fops;
static const struct file_operations proc_net_fops;
static const struct inode_operations proc_link_iops;
static const struct file_operations proc_root_fops, proc_pid_fops, proc_fd_fops;
static const struct file_operations proc_fdinfo_fops;
static const struct file_operations proc_file_fops;

static pid_t inode_pid(const struct inode *inode)
{
	return (pid_t)(long)inode->i_private;
}

/* The living (or zombie) task of a pid: Linux's pid_task. */
static struct task_struct *get_proc_task(const struct inode *inode)
{
	struct task_struct *t = find_task_by_pid(inode_pid(inode));

	return t && t->exit_state != EXIT_DEAD ? t : NULL;
}

/* A process's files belong to its effective ids, or to root once it is
 * not dumpable (Linux's task_dump_owner); the rest to root. */
static void proc_inode_owner(struct inode *inode)
{
	struct task_struct *t = inode_pid(inode) ? get_proc_task(inode) : NULL;

	if (!t || (t->mm && t->mm->dumpable != SUID_DUMP_USER))
		return;
	inode->i_uid = t->cred.euid;
	inode->i_gid = t->cred.egid;
}

static struct inode *proc_inode(struct super_block *sb, umode_t mode, pid_t pid,
				unsigned long ino)
{
	struct inode *inode = new_inode(sb);

	inode->i_ino = ino;
	inode->i_mode = mode;
	inode->i_private = (void *)(long)pid;
	proc_inode_owner(inode);
	switch (mode & S_IFMT) {
	case S_IFLNK:
		inode->i_op = &proc_link_iops;
		break;
	case S_IFREG:
		inode->i_fop = &proc_file_fops;
		break;
	}
	if (S_ISDIR(mode))
		inode->i_nlink = 2;
	return inode;
}

static bool parse_number(const char *s, long *res)
{
	long v = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return false;
		v = v * 10 + (*s - '0');
	}
	*res = v;
	return true;
}

/* ---- the text of a file ---- */

struct proc_buf {
	size_t len, cap;
	char *data;
};

static void __printf(2, 3) bprintf(struct proc_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len = min(b->len + n, b->cap - 1);
}

/* Linux's task_state_array letters. */
static char task_state_char(struct task_struct *t)
{
	if (t->exit_state == EXIT_ZOMBIE)
		return 'Z';
	if (t->exit_state == EXIT_DEAD)
		return 'X';
	if (t->state & __TASK_STOPPED)
		return 'T';
	if (t->state & __TASK_TRACED)
		return 't';
	if (t->state & TASK_INTERRUPTIBLE)
		return 'S';
	if (t->state & TASK_UNINTERRUPTIBLE)
		return 'D';
	return 'R';
}

static const char *task_state_long(char c)
{
	switch (c) {
	case 'R': return "R (running)";
	case 'S': return "S (sleeping)";
	case 'D': return "D (disk sleep)";
	case 'T': return "T (stopped)";
	case 't': return "t (tracing stop)";
	case 'Z': return "Z (zombie)";
	}
	return "X (dead)";
}

static unsigned long mm_total_vm(struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	unsigned long size = 0;

	if (mm)
		list_for_each_entry(vma, &mm->mmap, list)
			size += vma->vm_end - vma->vm_start;
	return size;
}

static unsigned long sig_bits(const sigset_t *s)
{
	return s->sig;
}

/* The handlers' dispositions as masks: ignored and caught (none for a
 * zombie, which has given its handlers up). */
static void sig_dispositions(struct task_struct *t, unsigned long *ign, unsigned long *cgt)
{
	int sig;

	*ign = *cgt = 0;
	for (sig = 1; sig <= 64 && !t->exit_state; sig++) {
		void __user *h = t->sighand->action[sig - 1].handler;

		if (h == SIG_IGN)
			*ign |= 1UL << (sig - 1);
		else if (h != SIG_DFL)
			*cgt |= 1UL << (sig - 1);
	}
}

/* stat's priority (Linux's task_prio()): 20 + nice for the normal
 * policies, -1 - rt_priority for the real-time ones. */
static long stat_priority(struct task_struct *t)
{
	return rt_policy(t->policy) ? -1L - (long)t->rt_priority : 20L + t->nice;
}

static void proc_stat(struct task_struct *t, struct proc_buf *b)
{
	struct mm_struct *mm = t->mm;
	unsigned long ign, cgt, vsize = mm_total_vm(mm);
	struct task_struct *parent = t->real_parent;
	char state = task_state_char(t);
	struct signal_struct *sig = t->signal;
	u64 utime, stime;

	sig_dispositions(t, &ign, &cgt);
	thread_group_cputime(sig, &utime, &stime);
	bprintf(b, "%d (%s) %c %d %d %d %d %d %u %lu %lu %lu %lu %llu %llu %ld %ld %ld %ld %d 0 "
		   "%llu %lu %ld %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %d %d %u %u "
		   "%llu %lu %ld %lu %lu %lu %lu %lu %lu %lu %d\n",
		t->pid, t->comm, state, parent && parent != idle_task ? parent->tgid : 0,
		t->signal->pgrp, t->signal->session, t->signal->tty ? (int)t->signal->tty->rdev : 0,
		t->signal->tty ? t->signal->tty->pgrp : -1, 0U, 0UL, 0UL, 0UL, 0UL,
		(unsigned long long)nsec_to_clock_t(utime), (unsigned long long)nsec_to_clock_t(stime),
		(long)nsec_to_clock_t(sig->child_exec_ns - sig->child_stime_ns),
		(long)nsec_to_clock_t(sig->child_stime_ns), stat_priority(t), (long)t->nice,
		t->signal->nr_threads ? t->signal->nr_threads : 1,
		0ULL, vsize, (long)(vsize / PAGE_SIZE), task_rlimit(t, RLIMIT_RSS),
		mm ? mm->start_code : 0, mm ? mm->end_code : 0, mm ? mm->start_stack : 0,
		0UL, 0UL, sig_bits(&t->pending.signal), sig_bits(&t->blocked), ign, cgt,
		0UL, 0UL, 0UL, t->exit_signal, 0, t->rt_priority, (unsigned int)t->policy, 0ULL,
		0UL, 0L,
		mm ? mm->start_data : 0, mm ? mm->end_data : 0, mm ? mm->start_brk : 0,
		mm ? mm->arg_start : 0, mm ? mm->arg_end : 0, mm ? mm->env_start : 0,
		mm ? mm->env_end : 0, t->exit_state ? t->exit_code : 0);
}

static void proc_status(struct task_struct *t, struct proc_buf *b)
{
	struct task_struct *parent = t->real_parent;
	unsigned long ign, cgt;
	int fdsize = t->files ? NR_OPEN_DEFAULT : 0;

	sig_dispositions(t, &ign, &cgt);
	bprintf(b, "Name:\t%s\n", t->comm);
	if (t->fs)
		bprintf(b, "Umask:\t%04o\n", t->fs->umask);
	bprintf(b, "State:\t%s\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t%d\n"
		   "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\nFDSize:\t%d\nGroups:\t\n",
		task_state_long(task_state_char(t)), t->tgid, t->pid,
		parent && parent != idle_task ? parent->tgid : 0,
		t->ptrace && t->parent ? t->parent->tgid : 0, t->cred.uid, t->cred.euid,
		t->cred.suid, t->cred.fsuid, t->cred.gid, t->cred.egid, t->cred.sgid,
		t->cred.fsgid, fdsize);
	/* VmRSS: the process's own pages in memory (its memory file's);
	 * pages of shared objects are not counted. */
	if (t->mm)
		bprintf(b, "VmSize:\t%8lu kB\nVmLck:\t%8lu kB\nVmRSS:\t%8lu kB\n",
			mm_total_vm(t->mm) / 1024, t->mm->locked_vm_bytes / 1024,
			mm_rss_kib(t->mm));
	bprintf(b, "Threads:\t%d\nSigPnd:\t%016lx\nShdPnd:\t%016lx\nSigBlk:\t%016lx\n"
		   "SigIgn:\t%016lx\nSigCgt:\t%016lx\n",
		t->signal->nr_threads ? t->signal->nr_threads : 1, sig_bits(&t->pending.signal),
		sig_bits(&t->signal->shared_pending.signal), sig_bits(&t->blocked), ign, cgt);
}

/* [start, end) of the process's memory: argv or the environment. */
static void proc_vm_range(struct task_struct *t, unsigned long start, unsigned long end,
			  struct proc_buf *b)
{
	if (!t->mm || end <= start)
		return;
	b->len = access_process_vm(t, start, b->data, min(end - start, b->cap - 1));
}

/*
 * /proc/meminfo (fs/proc/meminfo.c): umk's pages are host memory, so the
 * totals are the host's (as sysinfo's: MemTotal, MemFree, the swap), and
 * what umk's processes take is its own count: AnonPages the private memory
 * of every address space, Shmem shared memory and tmpfs files. Available
 * is the host's free memory; Cached is Shmem, the only page cache umk has
 * (the host's own cache of host files is not umk's).
 */
static void proc_meminfo(struct proc_buf *b)
{
	unsigned long total = 0, free = 0, swap_total = 0, swap_free = 0, anon, shmem;

	os_meminfo(&total, &free, &swap_total, &swap_free);
	hostmem_usage(&anon, &shmem);
	bprintf(b, "MemTotal:       %8lu kB\nMemFree:        %8lu kB\nMemAvailable:   %8lu kB\n"
		   "Buffers:        %8lu kB\nCached:         %8lu kB\nSwapCached:     %8lu kB\n"
		   "SwapTotal:      %8lu kB\nSwapFree:       %8lu kB\nAnonPages:      %8lu kB\n"
		   "Shmem:          %8lu kB\n",
		total >> 10, free >> 10, free >> 10, 0UL, shmem >> 10, 0UL, swap_total >> 10,
		swap_free >> 10, anon >> 10, shmem >> 10);
}

static void proc_uptime(struct proc_buf *b)
{
	u64 up = ktime_since_boot(), idle = idle_task->sum_exec_ns;

	bprintf(b, "%llu.%02llu %llu.%02llu\n", (unsigned long long)(up / NSEC_PER_SEC),
		(unsigned long long)(up % NSEC_PER_SEC / (NSEC_PER_SEC / 100)),
		(unsigned long long)(idle / NSEC_PER_SEC),
		(unsigned long long)(idle % NSEC_PER_SEC / (NSEC_PER_SEC / 100)));
}

static void proc_maps(struct task_struct *t, struct proc_buf *b)
{
	static const char *const names[] = {
		[VMA_IMAGE] = NULL, [VMA_BRK] = "[heap]", [VMA_STACK] = "[stack]", [VMA_ANON] = "",
	};
	struct vm_area_struct *vma;

	if (!t->mm)
		return;
	list_for_each_entry(vma, &t->mm->mmap, list) {
		const char *name = names[vma->kind] ? names[vma->kind] : t->mm->exe;

		bprintf(b, "%08lx-%08lx %c%c%c%c 00000000 00:00 0%s%s\n", vma->vm_start,
			vma->vm_end, vma->prot & PROT_READ ? 'r' : '-',
			vma->prot & PROT_WRITE ? 'w' : '-', vma->prot & PROT_EXEC ? 'x' : '-',
			vma->shared && !vma->private_file ? 's' : 'p',
			*name ? "                          " : "", name);
	}
	/* The vDSO and its data page, above the user window, in every
	 * process (kernel/vdso.c), as Linux lists them last. */
	if (vdso_image_base()) {
		bprintf(b, "%08lx-%08lx r--p 00000000 00:00 0                          [vvar]\n",
			vdso_image_base() - PAGE_SIZE, vdso_image_base());
		bprintf(b, "%08lx-%08lx r-xp 00000000 00:00 0                          [vdso]\n",
			vdso_image_base(), vdso_image_base() + vdso_image_size());
	}
}

/* /proc/PID/fdinfo/N (Linux's seq_show in fs/proc/fd.c). */
static int proc_fdinfo(struct task_struct *t, const char *name, struct proc_buf *b)
{
	struct file *f;
	long fd;

	if (!t->files || !parse_number(name, &fd) || fd >= NR_OPEN_DEFAULT || !t->files->fd[fd])
		return -ENOENT;
	f = t->files->fd[fd];
	bprintf(b, "pos:\t%lld\nflags:\t0%o\nmnt_id:\t%d\nino:\t%lu\n", (long long)f->f_pos,
		f->f_flags | (get_close_on_exec(t->files, fd) ? O_CLOEXEC : 0),
		f->f_path.mnt ? mnt_id(f->f_path.mnt) : 0, file_ino(f));
	if (f->f_op->show_fdinfo && b->len < b->cap) {
		int n = f->f_op->show_fdinfo(f, b->data + b->len, b->cap - b->len);

		b->len = min(b->len + n, b->cap - 1);
	}
	return 0;
}

/* The file's text, made at open from its name. */
static int proc_file_open(struct inode *inode, struct file *f)
{
	struct dentry *d = f->f_path.dentry;
	struct proc_buf *b;

	/* /proc/net/unix and /proc/sysvipc/: no process, a larger text */
	if (inode->i_ino >= PROC_NET_UNIX_INO && inode->i_ino < PROC_SYSVIPC_INO + 3) {
		b = kmalloc(sizeof(*b));
		b->cap = 256 * 1024;
		b->data = kmalloc(b->cap);
		f->private_data = b;
		return 0;
	}
	if (d->d_parent != d->d_sb->s_root && !get_proc_task(inode))
		return -ESRCH;
	b = kmalloc(sizeof(*b));
	b->cap = 64 * 1024;
	b->data = kmalloc(b->cap);
	f->private_data = b;
	return 0;
}

/* The auxiliary vector the process started with, binary, through its
 * AT_NULL pair (Linux's proc_pid_auxv). */
static void proc_auxv(struct task_struct *t, struct proc_buf *b)
{
	size_t n = 0;

	if (!t->mm)
		return;
	while (n + 2 < ARRAY_SIZE(t->mm->saved_auxv) && t->mm->saved_auxv[n])
		n += 2;
	b->len = min((n + 2) * sizeof(unsigned long), b->cap);
	memcpy(b->data, t->mm->saved_auxv, b->len);
}

/* The file's text, made afresh by a read at offset 0 (the first, or one
 * after a seek back to the start), as Linux's seq_file makes it: what a
 * read shows is the state at that read, not at the open. 0 or -errno (a
 * process gone: ESRCH; an fd closed: ENOENT). */
static int proc_fill(struct file *f, struct proc_buf *b)
{
	struct dentry *d = f->f_path.dentry;
	struct task_struct *t = get_proc_task(f->f_inode);
	const char *name = d->d_name;
	bool in_root = d->d_parent == d->d_sb->s_root;

	b->len = 0;
	b->data[0] = '\0';
	if (f->f_inode->i_ino == PROC_NET_UNIX_INO) {
		b->len = unix_proc_show(b->data, b->cap);
		b->len = min(b->len, b->cap - 1);
		return 0;
	}
	if (f->f_inode->i_ino >= PROC_SYSVIPC_INO && f->f_inode->i_ino < PROC_SYSVIPC_INO + 3) {
		static int (*const show[])(char *, size_t) = {
			sysvipc_msg_show, sysvipc_sem_show, sysvipc_shm_show,
		};

		b->len = (size_t)show[f->f_inode->i_ino - PROC_SYSVIPC_INO](b->data, b->cap);
		b->len = min(b->len, b->cap - 1);
		return 0;
	}
	if (!in_root && !t)
		return -ESRCH;
	if (in_root) {
		if (!strcmp(name, "mounts"))
			mounts_text(b->data, b->cap);
		else if (!strcmp(name, "locks"))
			locks_text(b->data, b->cap);
		b->len = strlen(b->data);
		if (!strcmp(name, "uptime"))
			proc_uptime(b);
		if (!strcmp(name, "meminfo"))
			proc_meminfo(b);
		return 0;
	}
	if (!strcmp(d->d_parent->d_name, "fdinfo"))
		return proc_fdinfo(t, name, b);
	if (!strcmp(name, "stat"))
		proc_stat(t, b);
	else if (!strcmp(name, "status"))
		proc_status(t, b);
	else if (!strcmp(name, "cmdline"))
		proc_vm_range(t, t->mm ? t->mm->arg_start : 0, t->mm ? t->mm->arg_end : 0, b);
	else if (!strcmp(name, "environ"))
		proc_vm_range(t, t->mm ? t->mm->env_start : 0, t->mm ? t->mm->env_end : 0, b);
	else if (!strcmp(name, "comm"))
		bprintf(b, "%s\n", t->comm);
	else if (!strcmp(name, "maps"))
		proc_maps(t, b);
	else if (!strcmp(name, "auxv"))
		proc_auxv(t, b);
	return 0;
}

static ssize_t proc_file_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct proc_buf *b = iocb->ki_filp->private_data;

	if (iocb->ki_pos == 0) {
		int err = proc_fill(iocb->ki_filp, b);

		if (err)
			return err;
	}
	return simple_read_from_buffer(iocb, to, b->data, b->len);
}

static s64 proc_file_llseek(struct file *f, s64 offset, int whence)
{
	return generic_file_llseek(f, offset, whence, ((struct proc_buf *)f->private_data)->len);
}

static void proc_file_release(struct file *f)
{
	struct proc_buf *b = f->private_data;

	kfree(b->data);
	kfree(b);
}

/* ---- symlinks ---- */

void file_path_name(struct file *f, char *buf, size_t n)
{
	char *page, *p;
	int err;

	if (f->f_path.dentry) {
		page = kmalloc(PATH_MAX);
		p = d_path(&f->f_path, page, PATH_MAX, &err);
		ksnprintf(buf, n, "%s", p ? p : "");
		kfree(page);
	} else if (!strcmp(f->f_op->name, "pipe")) {
		ksnprintf(buf, n, "pipe:[%lu]", pipe_ino(f));
	} else if (sock_from_file(f)) {
		ksnprintf(buf, n, "socket:[%lu]", sock_from_file(f)->ino);
	} else if (is_console_file(f)) {
		if (os_fd_name(console_hostfd(f), buf, n))
			ksnprintf(buf, n, "/dev/console");
	} else {
		ksnprintf(buf, n, "anon_inode:[%s]", f->f_op->name);
	}
}

static int proc_readlink(struct dentry *dentry, char *buf)
{
	struct inode *inode = dentry->d_inode;
	struct task_struct *t;
	long fd;

	if (dentry->d_parent == dentry->d_sb->s_root)	/* "self" */
		return ksnprintf(buf, PATH_MAX, "%d", current->tgid);
	t = get_proc_task(inode);
	if (!t)
		return -ENOENT;
	if (!strcmp(dentry->d_name, "exe")) {
		if (!t->mm)
			return -ENOENT;
		return ksnprintf(buf, PATH_MAX, "%s", t->mm->exe);
	}
	if (!parse_number(dentry->d_name, &fd) || !t->files || fd >= NR_OPEN_DEFAULT ||
	    !t->files->fd[fd])
		return -ENOENT;
	file_path_name(t->files->fd[fd], buf, PATH_MAX);
	return strlen(buf);
}

/* /proc/PID/fd/N and /proc/PID/exe lead to the file itself (Linux's
 * proc_fd_link and proc_exe_link, then nd_jump_link): even one whose name
 * is gone, and without search permission on the directories of its path
 * (a program that dropped its ids can exec /proc/self/exe). A file
 * without a path (a pipe, the console, an anonymous inode) is followed by
 * its text. */
static int proc_get_link(struct dentry *dentry, struct path *path)
{
	struct task_struct *t;
	struct file *f;
	long fd;

	if (dentry->d_parent == dentry->d_sb->s_root)	/* "self" */
		return 1;
	t = get_proc_task(dentry->d_inode);
	if (!t)
		return -ENOENT;
	if (!strcmp(dentry->d_name, "exe")) {
		if (!t->mm)
			return -ENOENT;
		f = t->mm->exe_file;
		if (!f)
			return 1;
	} else if (!parse_number(dentry->d_name, &fd) || !t->files || fd >= NR_OPEN_DEFAULT ||
		   !t->files->fd[fd]) {
		return -ENOENT;
	} else {
		f = t->files->fd[fd];
	}
	if (!f->f_path.dentry)
		return 1;
	*path = f->f_path;
	path_get(path);
	return 0;
}

/* ---- directories ---- */

static int proc_root_lookup(struct inode *dir, struct dentry *dentry)
{
	struct task_struct *t;
	size_t i;
	long pid;

	if (!strcmp(dentry->d_name, "sys")) {
		d_instantiate(dentry, proc_sys_root_inode(dir->i_sb));
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(root_entries); i++) {
		if (!strcmp(dentry->d_name, root_entries[i].name)) {
			d_instantiate(dentry, proc_inode(dir->i_sb, root_entries[i].mode, 0, i + 2));
			if (!strcmp(root_entries[i].name, "sysvipc")) {
				dentry->d_inode->i_op = &proc_sysvipc_iops;
				dentry->d_inode->i_fop = &proc_sysvipc_fops;
			} else if (S_ISDIR(root_entries[i].mode)) {	/* net */
				dentry->d_inode->i_op = &proc_net_iops;
				dentry->d_inode->i_fop = &proc_net_fops;
			}
			return 0;
		}
	}
	if (!parse_number(dentry->d_name, &pid))
		return -ENOENT;
	t = find_task_by_pid(pid);
	if (!t || t == idle_task || t->exit_state == EXIT_DEAD)
		return -ENOENT;
	d_instantiate(dentry, proc_inode(dir->i_sb, S_IFDIR | 0555, pid, (unsigned long)pid << 8));
	dentry->d_inode->i_op = &proc_pid_iops;
	dentry->d_inode->i_fop = &proc_pid_fops;
	return 0;
}

static int proc_root_readdir(struct file *f, struct dir_context *ctx)
{
	struct task_struct *t;
	char name[16];
	size_t i;

	if (ctx->pos == 0 && !dir_emit(ctx, ".", 1, 1, DT_DIR, 1))
		return 0;
	if (ctx->pos == 1 && !dir_emit(ctx, "..", 2, 1, DT_DIR, 2))
		return 0;
	for (i = ctx->pos - 2; i < ARRAY_SIZE(root_entries); i++)
		if (!dir_emit(ctx, root_entries[i].name, strlen(root_entries[i].name), i + 2,
			      (root_entries[i].mode >> 12) & 15, i + 3))
			return 0;
	list_for_each_entry(t, &task_list, tasks) {
		if (t == idle_task || !thread_group_leader(t) || t->exit_state == EXIT_DEAD ||
		    t->pid + PROC_PID_OFFSET < ctx->pos)
			continue;
		ksnprintf(name, sizeof(name), "%d", t->pid);
		if (!dir_emit(ctx, name, strlen(name), (u64)t->pid << 8, DT_DIR,
			      t->pid + PROC_PID_OFFSET + 1))
			return 0;
	}
	return 0;
}

/* /proc/net: unix only. */
static int proc_net_lookup(struct inode *dir, struct dentry *dentry)
{
	if (strcmp(dentry->d_name, "unix"))
		return -ENOENT;
	d_instantiate(dentry, proc_inode(dir->i_sb, S_IFREG | 0444, 0, PROC_NET_UNIX_INO));
	return 0;
}

static int proc_net_readdir(struct file *f, struct dir_context *ctx)
{
	if (ctx->pos == 0 && !dir_emit(ctx, ".", 1, f->f_inode->i_ino, DT_DIR, 1))
		return 0;
	if (ctx->pos == 1 && !dir_emit(ctx, "..", 2, 1, DT_DIR, 2))
		return 0;
	if (ctx->pos == 2 && !dir_emit(ctx, "unix", 4, PROC_NET_UNIX_INO, DT_REG, 3))
		return 0;
	return 0;
}

/* /proc/sysvipc: msg, sem, shm (Linux's ipc/util.c sysvipc_proc_*). */
static int proc_sysvipc_lookup(struct inode *dir, struct dentry *dentry)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sysvipc_names); i++) {
		if (strcmp(dentry->d_name, sysvipc_names[i]))
			continue;
		d_instantiate(dentry, proc_inode(dir->i_sb, S_IFREG | 0444, 0, PROC_SYSVIPC_INO + i));
		return 0;
	}
	return -ENOENT;
}

static int proc_sysvipc_readdir(struct file *f, struct dir_context *ctx)
{
	size_t i;

	if (ctx->pos == 0 && !dir_emit(ctx, ".", 1, f->f_inode->i_ino, DT_DIR, 1))
		return 0;
	if (ctx->pos == 1 && !dir_emit(ctx, "..", 2, 1, DT_DIR, 2))
		return 0;
	for (i = (size_t)ctx->pos - 2; i < ARRAY_SIZE(sysvipc_names); i++)
		if (!dir_emit(ctx, sysvipc_names[i], strlen(sysvipc_names[i]),
			      PROC_SYSVIPC_INO + i, DT_REG, (s64)i + 3))
			return 0;
	return 0;
}

static const struct {
	const char *name;
	umode_t mode;
} pid_entries[] = {
	{ "cmdline", S_IFREG | 0444 }, { "comm", S_IFREG | 0644 }, { "environ", S_IFREG | 0400 },
	{ "exe", S_IFLNK | 0777 },     { "fd", S_IFDIR | 0500 },   { "fdinfo", S_IFDIR | 0500 },
	{ "maps", S_IFREG | 0444 },    { "pagemap", S_IFREG | 0400 },
	{ "stat", S_IFREG | 0444 },    { "status", S_IFREG | 0444 },
	{ "auxv", S_IFREG | 0400 },    { "mem", S_IFREG | 0600 },
	{ "task", S_IFDIR | 0555 },	/* last: a task/TID directory has all but it */
};

/* How many of pid_entries a directory has: /proc/PID all, task/TID all
 * but "task" (Linux's tid_base_stuff). */
static size_t pid_entries_in(const struct inode *dir)
{
	return ARRAY_SIZE(pid_entries) - (dir->i_op == &proc_tid_iops);
}

static int proc_pid_lookup(struct inode *dir, struct dentry *dentry)
{
	size_t i;

	if (!get_proc_task(dir))
		return -ENOENT;
	for (i = 0; i < pid_entries_in(dir); i++) {
		const char *name = pid_entries[i].name;
		struct inode *inode;

		if (strcmp(dentry->d_name, name))
			continue;
		inode = proc_inode(dir->i_sb, pid_entries[i].mode, inode_pid(dir), dir->i_ino + i + 1);
		if (!strcmp(name, "task")) {
			inode->i_op = &proc_task_iops;
			inode->i_fop = &proc_task_fops;
		} else if (S_ISDIR(inode->i_mode)) {
			bool info = !strcmp(name, "fdinfo");

			inode->i_op = info ? &proc_fdinfo_iops : &proc_fd_iops;
			inode->i_fop = info ? &proc_fdinfo_fops : &proc_fd_fops;
		} else if (!strcmp(name, "mem")) {
			inode->i_fop = &proc_mem_fops;
		} else if (!strcmp(name, "pagemap")) {	/* binary, at any offset */
			inode->i_fop = &proc_pagemap_operations;
		}
		d_instantiate(dentry, inode);
		return 0;
	}
	return -ENOENT;
}

static int proc_pid_readdir(struct file *f, struct dir_context *ctx)
{
	struct inode *dir = f->f_inode;
	size_t i;

	if (ctx->pos == 0 && !dir_emit(ctx, ".", 1, dir->i_ino, DT_DIR, 1))
		return 0;
	if (ctx->pos == 1 && !dir_emit(ctx, "..", 2, 1, DT_DIR, 2))
		return 0;
	for (i = ctx->pos - 2; i < pid_entries_in(dir); i++)
		if (!dir_emit(ctx, pid_entries[i].name, strlen(pid_entries[i].name),
			      dir->i_ino + i + 1, (pid_entries[i].mode >> 12) & 15, i + 3))
			return 0;
	return 0;
}

/* /proc/PID/task: a directory per thread of the process, named by its tid,
 * with the files of /proc/PID for that thread. */
static int proc_task_lookup(struct inode *dir, struct dentry *dentry)
{
	struct task_struct *leader = get_proc_task(dir), *t;
	struct inode *inode;
	long tid;

	if (!leader || !parse_number(dentry->d_name, &tid))
		return -ENOENT;
	t = find_task_by_pid((pid_t)tid);
	if (!t || t->tgid != leader->tgid || t->exit_state == EXIT_DEAD)
		return -ENOENT;
	inode = proc_inode(dir->i_sb, S_IFDIR | 0555, t->pid, (unsigned long)t->pid << 8);
	inode->i_op = &proc_tid_iops;	/* a pid directory without "task" */
	inode->i_fop = &proc_pid_fops;
	d_instantiate(dentry, inode);
	return 0;
}

static int proc_task_readdir(struct file *f, struct dir_context *ctx)
{
	struct task_struct *leader = get_proc_task(f->f_inode), *t;
	char name[16];
	s64 i = 2;

	if (!leader)
		return -ENOENT;
	if (ctx->pos == 0 && !dir_emit(ctx, ".", 1, f->f_inode->i_ino, DT_DIR, 1))
		return 0;
	if (ctx->pos == 1 && !dir_emit(ctx, "..", 2, 1, DT_DIR, 2))
		return 0;
	list_for_each_entry(t, &leader->signal->thread_head, thread_node) {
		if (i++ < ctx->pos || t->exit_state == EXIT_DEAD)
			continue;
		ksnprintf(name, sizeof(name), "%d", t->pid);
		if (!dir_emit(ctx, name, strlen(name), (u64)t->pid << 8, DT_DIR, i))
			return 0;
	}
	return 0;
}

/* ---- /proc/PID/mem (Linux's mem_rw) ---- */

/* The process's memory at the file position, for a tracer (gdb reads and
 * writes its tracee's memory here): the mm is the one of the open (its id
 * in private_data), and once the process has exec'd or exited the file
 * reads and writes nothing. A position no region holds is -EIO. Writing needs no write
 * permission of the region, as ptrace's POKEDATA. */
static int proc_mem_open(struct inode *inode, struct file *f)
{
	struct task_struct *t = get_proc_task(inode);

	if (!t)
		return -ESRCH;
	if (!t->mm || !ptrace_may_access(t))
		return -EACCES;
	f->private_data = (void *)(unsigned long)t->mm->id;
	return 0;
}

static ssize_t mem_rw(struct kiocb *iocb, struct iov_iter *iter, bool write)
{
	struct task_struct *t = get_proc_task(iocb->ki_filp->f_inode);
	size_t left = iov_iter_count(iter), done = 0;
	char *page;

	if (!t || !t->mm || t->mm->id != (unsigned long)iocb->ki_filp->private_data)
		return 0;
	page = kmalloc(PAGE_SIZE);
	while (left) {
		unsigned long addr = (unsigned long)iocb->ki_pos;
		size_t n = min(left, (size_t)PAGE_SIZE), got;

		if (write) {
			n = copy_from_iter(page, n, iter);
			got = n ? access_process_vm_write(t, addr, page, n) : 0;
		} else {
			got = access_process_vm(t, addr, page, n);
			got = copy_to_iter(page, got, iter);
		}
		if (!got) {
			if (!done)
				done = (size_t)-EIO;
			break;
		}
		iocb->ki_pos += got;
		done += got;
		left -= got;
		if (got < n)
			break;
	}
	kfree(page);
	return (ssize_t)done;
}

static ssize_t proc_mem_read(struct kiocb *iocb, struct iov_iter *to)
{
	return mem_rw(iocb, to, false);
}

static ssize_t proc_mem_write(struct kiocb *iocb, struct iov_iter *from)
{
	return mem_rw(iocb, from, true);
}

/* Any position, as Linux's mem_lseek: the addresses are the positions. */
static s64 proc_mem_llseek(struct file *f, s64 offset, int whence)
{
	switch (whence) {
	case SEEK_SET:
		f->f_pos = offset;
		return f->f_pos;
	case SEEK_CUR:
		f->f_pos += offset;
		return f->f_pos;
	}
	return -EINVAL;
}

/* fd/ holds a link per fd, fdinfo/ a file per fd. */
static bool is_fdinfo_dir(const struct inode *dir)
{
	return dir->i_op == &proc_fdinfo_iops;
}

/* An inode number for each fd entry (never 0: readdir users skip those). */
static unsigned long proc_fd_ino(const struct inode *fd_dir, long fd)
{
	return ((unsigned long)inode_pid(fd_dir) << 20) + (is_fdinfo_dir(fd_dir) ? 0x3000 : 0x1000) +
	       fd;
}

static int proc_fd_lookup(struct inode *dir, struct dentry *dentry)
{
	struct task_struct *t = get_proc_task(dir);
	umode_t mode = is_fdinfo_dir(dir) ? S_IFREG | 0400 : S_IFLNK | 0700;
	long fd;

	if (!t || !t->files || !parse_number(dentry->d_name, &fd) || fd >= NR_OPEN_DEFAULT ||
	    !t->files->fd[fd])
		return -ENOENT;
	d_instantiate(dentry, proc_inode(dir->i_sb, mode, inode_pid(dir), proc_fd_ino(dir, fd)));
	return 0;
}

static int proc_fd_readdir(struct file *f, struct dir_context *ctx)
{
	struct task_struct *t = get_proc_task(f->f_inode);
	unsigned char type = is_fdinfo_dir(f->f_inode) ? DT_REG : DT_LNK;
	char name[16];
	long fd;

	if (!t)
		return -ENOENT;
	if (ctx->pos == 0 && !dir_emit(ctx, ".", 1, f->f_inode->i_ino, DT_DIR, 1))
		return 0;
	if (ctx->pos == 1 && !dir_emit(ctx, "..", 2, 1, DT_DIR, 2))
		return 0;
	for (fd = ctx->pos - 2; t->files && fd < NR_OPEN_DEFAULT; fd++) {
		if (!t->files->fd[fd])
			continue;
		ksnprintf(name, sizeof(name), "%ld", fd);
		if (!dir_emit(ctx, name, strlen(name), proc_fd_ino(f->f_inode, fd), type, fd + 3))
			return 0;
	}
	return 0;
}

/* Linux's proc_fd_getattr: a process's files belong to it (every task is
 * root, so uid 0). */
static int proc_getattr(struct dentry *dentry, struct stat *st)
{
	generic_fillattr(dentry->d_inode, st);
	return 0;
}

static const struct inode_operations proc_root_iops = {
	.lookup = proc_root_lookup,
};

static const struct inode_operations proc_pid_iops = {
	.lookup = proc_pid_lookup,
	.getattr = proc_getattr,
};

static const struct inode_operations proc_task_iops = {
	.lookup = proc_task_lookup,
	.getattr = proc_getattr,
};

static const struct inode_operations proc_tid_iops = {
	.lookup = proc_pid_lookup,
	.getattr = proc_getattr,
};

static const struct file_operations proc_task_fops = {
	.name = "proc",
	.iterate = proc_task_readdir,
};

static const struct file_operations proc_mem_fops = {
	.name = "proc",
	.open = proc_mem_open,
	.read_iter = proc_mem_read,
	.write_iter = proc_mem_write,
	.llseek = proc_mem_llseek,
};

static const struct inode_operations proc_fd_iops = {
	.lookup = proc_fd_lookup,
};

static const struct inode_operations proc_fdinfo_iops = {
	.lookup = proc_fd_lookup,
};

static const struct inode_operations proc_link_iops = {
	.readlink = proc_readlink,
	.get_link = proc_get_link,
};

static const struct file_operations proc_root_fops = {
	.name = "proc",
	.iterate = proc_root_readdir,
};

static const struct inode_operations proc_net_iops = {
	.lookup = proc_net_lookup,
	.getattr = proc_getattr,
};

static const struct file_operations proc_net_fops = {
	.name = "proc",
	.iterate = proc_net_readdir,
};

static const struct inode_operations proc_sysvipc_iops = {
	.lookup = proc_sysvipc_lookup,
	.getattr = proc_getattr,
};

static const struct file_operations proc_sysvipc_fops = {
	.name = "proc",
	.iterate = proc_sysvipc_readdir,
};

static const struct file_operations proc_pid_fops = {
	.name = "proc",
	.iterate = proc_pid_readdir,
};

static const struct file_operations proc_fd_fops = {
	.name = "proc",
	.iterate = proc_fd_readdir,
};

static const struct file_operations proc_fdinfo_fops = {
	.name = "proc",
	.iterate = proc_fd_readdir,
};

static const struct file_operations proc_file_fops = {
	.name = "proc",
	.open = proc_file_open,
	.read_iter = proc_file_read,
	.llseek = proc_file_llseek,
	.release = proc_file_release,
};

struct super_block *proc_fill_super(void)
{
	struct super_block *sb = alloc_super("proc", 0);
	struct inode *root = proc_inode(sb, S_IFDIR | 0555, 0, 1);

	root->i_op = &proc_root_iops;
	root->i_fop = &proc_root_fops;
	sb->s_root = d_alloc_root(sb, root);
	return sb;
}
