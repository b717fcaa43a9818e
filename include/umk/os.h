/*
 * include/umk/os.h: the host interface, downwards: everything arch/ offers
 * the kernel (as arch/um/include/shared/os.h is for UML). arch/ is the only
 * code that includes host headers and makes host system calls; a kernel
 * file that includes this header touches the host, one that does not
 * cannot. The other direction, what the kernel offers arch/, is
 * include/umk/entry.h; the kernel's allocator and panic, which every
 * kernel file may use, are include/umk/kernel.h.
 *
 * Names: os_* is a host service the kernel uses as a device or a library
 * (files, memory files, clocks, the console's fds, the renderer); arch_*
 * is the machine the kernel runs on, what a real kernel gets from the CPU
 * and its arch/ code (kernel stacks, contexts, entering user mode,
 * interrupts, the vDSO, the FS base). Grouped by the arch/ file that
 * implements them. Functions that can fail return 0 or a positive value,
 * or -Exxx with Linux's values; the kernel never sees host errno.
 */
#ifndef UMK_OS_H
#define UMK_OS_H

#include <umk/types.h>

struct task_struct;
struct pt_regs;
struct arch_context;

/* ---- arch/process.c: kernel stacks, contexts, entering user mode ---- */

/* Map a THREAD_SIZE-aligned kernel stack with a guard page below it.
 * Returns its base (where thread_info lives) or NULL. */
void *arch_alloc_kstack(void);
void arch_free_kstack(void *base);

/* Give p a kernel context that starts in fn(arg) on p's kernel stack. */
int arch_setup_kthread(struct task_struct *p, void (*fn)(void *), void *arg);

/* Craft p's first return to user mode (ret_from_fork): a host signal frame
 * at the top of p's kernel stack that __restore_rt will return through, and
 * return its registers. With src, the registers and the FPU state are copied
 * from src (clone); without, they are zero and the FPU is fresh (exec).
 * The caller then sets what differs, points p->regs at the result and gives
 * p a kernel context (arch_setup_kthread) that ends in arch_enter_user(). */
struct pt_regs *arch_init_user_frame(struct task_struct *p, const struct pt_regs *src);

/* Switch kernel contexts: save prev's, resume next's. Returns when prev is
 * switched back in. */
void arch_switch_to(struct task_struct *prev, struct task_struct *next);

/* Leave the kernel for user mode through the current task's frame (regs):
 * the host sigreturn restores every register, the FPU, the mask and re-arms
 * the kernel stack as the sigaltstack. Used by ret_from_fork only; a trap
 * returns by returning from its host handler. */
void arch_enter_user(struct pt_regs *regs) __noreturn;

void arch_free_context(struct task_struct *p);


/* ---- arch/irq.c: interrupts ---- */

#define IRQ_TIMER 0	/* host SIGALRM: the one-shot timer expired */
#define IRQ_CONSOLE 1	/* host SIGIO: console input, or room on a console output */
#define IRQ_HOSTSIG 2	/* host SIGINT, SIGQUIT, SIGTERM or SIGHUP for umk */
#define IRQ_WINCH 3	/* host SIGWINCH: the host terminal was resized */
#define IRQ_NET 4	/* host SIGIO too: a host socket's readiness changed (arch/net.c) */
#define NR_IRQS 5

/* Atomically take the set of interrupts recorded since the last call. */
unsigned long arch_take_pending_irqs(void);

/* The host signals umk was sent since the last call, as a mask of bit
 * (sig - 1) with Linux's numbers: the console's ^C, a kill of umk. */
unsigned long arch_take_host_signals(void);

/* Sleep on the host until an interrupt is pending (the idle task). */
void arch_idle(void);

/* ---- arch/time.c: clocks and the host timer ---- */

/* Nanoseconds on a host clock (CLOCK_REALTIME 0, CLOCK_MONOTONIC 1,
 * CLOCK_BOOTTIME 7 ...), or -EINVAL. */
s64 os_clock_ns(int clockid);
s64 os_clock_res_ns(int clockid);
/* CLOCK_MONOTONIC's ns for the trace ring's stamps: cheaper than
 * os_clock_ns, within a microsecond of it, never going back. */
u64 os_trace_clock_ns(void);
/* Program the one-shot host timer for an absolute CLOCK_MONOTONIC time;
 * 0 disarms it. */
void os_timer_set(u64 expires);

/* The host vDSO's clock_gettime (returns 0 or -errno, uses no TLS), for
 * the vDSO's data page; NULL when the host has no vDSO. After time_init. */
void *os_host_clock_gettime(void);

/* ---- arch/vdso.c: the vDSO image ---- */

/* Map the vDSO once (later calls return the same): its data page, then the
 * image, read-only and executable. Returns the image's address, what
 * AT_SYSINFO_EHDR announces; *data is the page (include/umk/uapi/vdso.h),
 * *size the image's mapping in bytes. */
unsigned long arch_vdso_map(void **data, unsigned long *size);

/* ---- arch/file.c: host files, the console ---- */

/* Host files by path, for kernel/fs/hostfs.c: open(2), with O_CLOEXEC and
 * O_NOCTTY added, and the calls on names. Each returns 0 (or an fd, a
 * length) or -errno. times is two struct timespec (utimensat). */
int os_open(const char *path, int flags, int mode);
int os_lstat(const char *path, void *statbuf);	/* a 144-byte Linux struct stat */
int os_readlink(const char *path, char *buf, size_t n);
ssize_t os_getdents64(int fd, void *buf, size_t n);
s64 os_lseek(int fd, s64 off, int whence);
int os_mkdir(const char *path, int mode);
int os_mknod(const char *path, int mode);	/* a FIFO or socket node */
int os_rmdir(const char *path);
int os_unlink(const char *path);
int os_rename(const char *oldpath, const char *newpath, unsigned int flags);
int os_symlink(const char *target, const char *path);
int os_link(const char *oldpath, const char *newpath);
int os_chmod(const char *path, int mode);
int os_lchown(const char *path, unsigned int uid, unsigned int gid);	/* -1: unchanged */
int os_truncate(const char *path, u64 len);
int os_utimens(const char *path, const void *times);
int os_fsync(int fd);
/* What the host calls its fd (readlink of /proc/self/fd/N): "/dev/pts/0",
 * "pipe:[1234]", a path. */
int os_fd_name(int fd, char *buf, size_t n);
ssize_t os_pread(int fd, void *buf, size_t n, u64 off);
ssize_t os_read(int fd, void *buf, size_t n);
ssize_t os_write(int fd, const void *buf, size_t n);
int os_close(int fd);
s64 os_file_size(int fd);
int os_fstat(int fd, void *statbuf);	/* a 144-byte Linux struct stat */
int os_dup(int fd);			/* a new fd for the same file */
int os_statfs(const char *path, void *buf);	/* a 120-byte Linux struct statfs */
int os_fstatfs(int fd, void *buf);
/* The host's RAM and swap, total and free, in bytes (sysinfo). */
int os_meminfo(unsigned long *totalram, unsigned long *freeram, unsigned long *totalswap,
	       unsigned long *freeswap);
/* Poll one host fd: returns POLLIN/POLLOUT/POLLHUP/POLLERR/POLLNVAL bits
 * (Linux values) that are ready now, without waiting. */
int os_poll_now(int fd, int events);
/* Would a read (events POLLIN) or a write (POLLOUT) on host fd return now,
 * without waiting: ready, at its end, hung up, or failing with an error
 * for the call to report? The console, the tty and the trace ask this
 * before every host read or write that could block umk. */
bool os_fd_ready(int fd, int events);
int os_ioctl_winsize(int fd, void *ws);	/* TIOCGWINSZ: 0 or -errno */
int os_isatty(int fd);
/* arch/irq.c: can a write to console fd 0, 1 or 2 find the host fd full,
 * with IRQ_CONSOLE raised when room comes free? Then write only after
 * os_poll_now says POLLOUT, at most PIPE_BUF bytes at a time. false: the fd
 * takes every write at once (a regular file, /dev/null) or cannot say when
 * it has room, and a write goes straight to the host. */
bool os_output_waits(int fd);
/* One host write of up to n bytes: at most PIPE_BUF where fd can be full
 * (os_output_waits), which a pipe with room takes whole and at once, so a
 * write of up to PIPE_BUF stays atomic; retried when a host signal
 * interrupts it. Returns what the host took, or -errno (-EAGAIN: full). */
ssize_t os_write_some(int fd, const void *buf, size_t n);
/* Write all n bytes of umk's own output (a trace sink), waiting on the host
 * while fd is full. Returns n, -errno of a failed write, or -EINTR when umk
 * was sent a host signal (SIGINT, SIGTERM...) while it waited: the caller
 * gives up on fd so that umk can act on the signal. */
ssize_t os_write_wait(int fd, const void *buf, size_t n);
/* Write s to the host's stderr if it takes it now; drop it otherwise. */
void os_console_err_try(const char *s);

/* ---- arch/net.c: host sockets (kernel/net/af_inet_host.c) ---- */

/* A host socket (socket(2)), always non-blocking and close-on-exec, whose
 * readiness raises IRQ_NET (O_ASYNC, umk its owner): its fd, or -errno.
 * Addresses and option values have Linux's layouts, which are the host's. */
int os_socket(int family, int type, int protocol);
/* accept4 a pending connection into a new host socket set up as
 * os_socket's; -EAGAIN when none is pending. */
int os_accept(int fd);
int os_bind(int fd, const void *addr, int len);
int os_listen(int fd, int backlog);
/* Never waits: -EINPROGRESS, then -EALREADY while in progress, then 0
 * once or the connection's error, as on a non-blocking Linux socket. */
int os_connect(int fd, const void *addr, int len);
/* getsockname, or getpeername when peer; *len in: room, out: the length. */
int os_getname(int fd, void *addr, int *len, bool peer);
int os_shutdown(int fd, int how);
int os_setsockopt(int fd, int level, int name, const void *val, unsigned int len);
int os_getsockopt(int fd, int level, int name, void *val, int *len);
/* One message through kernel buffers. recvmsg sets namelen, controllen
 * (what the host wrote) and flags (MSG_TRUNC...). */
struct os_msg {
	void *name;
	int namelen;
	void *buf;
	size_t len;
	void *control;
	size_t controllen;
	int flags;
};
/* One host sendmsg or recvmsg with MSG_DONTWAIT: the bytes, or -errno
 * (-EAGAIN: it would wait). Of flags, only those that mean the same on
 * the host pass (MSG_PEEK, MSG_OOB, MSG_TRUNC, MSG_MORE...). */
ssize_t os_sendmsg(int fd, struct os_msg *m, int flags);
ssize_t os_recvmsg(int fd, struct os_msg *m, int flags);
/* The host's struct pollfd: poll fds[0..n) without waiting, setting each
 * revents. Returns how many have any, or -errno. */
struct os_pollfd {
	int fd;
	short events, revents;
};
int os_poll_many(struct os_pollfd *fds, unsigned int n);
/* An ioctl that fills an int (FIONREAD, SIOCOUTQ, SIOCATMARK). */
int os_sock_ioctl(int fd, unsigned int cmd, int *val);

/* ---- arch/tty.c: the host terminal under the console tty ---- */

/* The settings of a terminal, in the kernel's struct termios layout. */
struct os_termios {
	u32 iflag, oflag, cflag, lflag;
	u8 line;
	u8 cc[19];
};
/* Is the console a tty (umk's stdin is a terminal, umk its foreground
 * group)? Then the host terminal is raw while umk runs. */
bool os_tty_mode(void);
/* The host terminal's settings before umk made it raw, and the host fd the
 * tty's output goes to; -ENOTTY when the console is no tty. */
int os_tty_get(struct os_termios *t);
/* Put the host terminal's settings back (os_exit does). */
void os_tty_restore(void);

/* ---- arch/mem.c: memory ---- */

#define OS_PROT_READ 1
#define OS_PROT_WRITE 2
#define OS_PROT_EXEC 4
/* Anonymous private mapping, zero-filled. addr is a hint unless fixed, in
 * which case the range must not be mapped yet (MAP_FIXED_NOREPLACE).
 * Returns the address, or an -errno value cast to a pointer (IS_ERR_VALUE). */
void *os_mmap_anon(void *addr, size_t len, int prot, bool fixed);
int os_munmap(void *addr, size_t len);
/* Fresh zeroed pages over the caller's own range, in one call: 0 or -errno. */
int os_mmap_replace(void *addr, size_t len, int prot);
int os_mprotect(void *addr, size_t len, int prot);

/* Host memory files (memfd): the pages of every address space, of shared
 * anonymous memory and of tmpfs files live in them (docs/design.md,
 * "Address spaces"). All return 0 (or a count) or -errno. */
int os_memfd_create(const char *name);	/* a new empty file: its fd */
int os_ftruncate(int fd, u64 size);
ssize_t os_pwrite(int fd, const void *buf, size_t n, u64 off);
/* Free [off, off + len) of fd: reads there give zeros again. */
int os_punch_hole(int fd, u64 off, u64 len);
/* Give [off, off + len) of fd its pages now, without changing its size
 * (madvise's MADV_POPULATE_WRITE). 0 or -errno. */
int os_allocate(int fd, u64 off, u64 len);
/* The first extent of data of fd in [off, end): 1 with [*data, *hole),
 * 0 when the rest of the range is a hole, or -errno (SEEK_DATA, SEEK_HOLE). */
int os_next_data(int fd, u64 off, u64 end, u64 *data, u64 *hole);
/* The host's mincore of umk's own mapping [addr, addr + len): a byte per
 * page into vec, bit 0 set for a page in memory. 0 or -errno. */
int os_mincore(void *addr, u64 len, unsigned char *vec);
/* Copy the data (not the holes) of [off, off + len) of in to the same
 * offsets of out. out's range must be a hole unless dirty, which makes
 * out's range read as zeros where in's does. */
int os_copy_data(int in, int out, u64 off, u64 len, bool dirty);
/* The same from [off, off + len) of in to [to, to + len) of out, which
 * must be a hole; in and out may be one file if the ranges do not overlap
 * (mremap moving private pages to their new offsets: kernel/mm/mremap.c). */
int os_copy_data_at(int in, u64 off, int out, u64 to, u64 len);
/* Map [off, off + len) of fd at addr (MAP_FIXED, over whatever the caller
 * had there): MAP_SHARED, or MAP_PRIVATE when !shared. */
int os_mmap_file(void *addr, size_t len, int prot, int fd, u64 off, bool shared);

/* ---- arch/fsbase.c: the user's FS base ---- */

/* AT_HWCAP2 for programs: HWCAP2_FSGSBASE only when they may change their
 * FS base with wrfsbase, that is when umk reads it back at every entry. */
unsigned long arch_user_hwcap2(void);
/* The GS base user mode runs with: the host's, which umk neither switches
 * between tasks nor lets a program set but by wrgsbase (FSGSBASE hosts). */
unsigned long arch_user_gs_base(void);

/* ---- arch/render.c: the trace's renderers (harness/umk-trace) ---- */

/* The renderer tool: dirname(/proc/self/exe)/harness/umk-trace. */
const char *os_render_tool(void);
/* At boot: start `umk-trace CMD` (chrome, timeline) writing to out_fd.
 * Returns the fd of the pipe to its stdin, for JSON lines, or -errno. */
int os_render_start(const char *cmd, int out_fd);
/* Close every renderer's pipe and wait until it has written its output:
 * os_exit does, so the files are complete when umk exits. */
void os_render_finish(void);

/* ---- arch/boot.c: the process around the kernel ---- */

/* Every exit of umk: its renderers finish first (os_render_finish). */
void os_exit(int status) __noreturn;
/* Write to umk's own stderr (messages, oopses). */
void os_console_err(const char *s);
/* Host random bytes, for AT_RANDOM. */
void os_random(void *buf, size_t n);
/* umk's own limit `resource` (RLIMIT_*) from the host, as a process
 * started by a shell inherits its limits: 0, or -errno. */
int os_getrlimit(int resource, unsigned long *cur, unsigned long *max);

#endif
