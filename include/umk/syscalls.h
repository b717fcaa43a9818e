/* System-call implementations (include/linux/syscalls.h). Arguments come
 * from rdi, rsi, rdx, r10, r8, r9; each returns a value or -Exxx. The table
 * that maps numbers to these is kernel/syscall.c. */
#ifndef UMK_SYSCALLS_H
#define UMK_SYSCALLS_H

#include <umk/signal.h>
#include <umk/timer.h>
#include <umk/types.h>

struct pt_regs;
/* kernel/syscall.c: run system call nr on the arguments in regs, traced;
 * -ENOSYS for a number with no entry. */
long invoke_syscall(struct pt_regs *regs, long nr);

struct iovec;
struct pollfd;
struct rusage;
struct tms;
struct sysinfo;
struct new_utsname;
struct clone_args;

/* kernel/fs/read_write.c, kernel/fs/file.c, kernel/fs/pipe.c, kernel/fs/ioctl.c,
 * kernel/fs/fcntl.c */
long sys_read(unsigned int fd, char __user *buf, size_t count);
long sys_write(unsigned int fd, const char __user *buf, size_t count);
long sys_readv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen);
long sys_writev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen);
long sys_preadv(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		unsigned long pos_l, unsigned long pos_h);
long sys_pwritev(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		 unsigned long pos_l, unsigned long pos_h);
long sys_preadv2(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		 unsigned long pos_l, unsigned long pos_h, int flags);
long sys_pwritev2(unsigned long fd, const struct iovec __user *vec, unsigned long vlen,
		  unsigned long pos_l, unsigned long pos_h, int flags);
long sys_close(unsigned int fd);
long sys_dup(unsigned int fildes);
long sys_dup2(unsigned int oldfd, unsigned int newfd);
long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags);
long sys_pipe(int __user *fildes);
long sys_pipe2(int __user *fildes, int flags);
long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg);
long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg);
/* kernel/fs/locks.c */
long sys_flock(unsigned int fd, unsigned int cmd);
/* kernel/fs/inotify.c */
long sys_inotify_init(void);
long sys_inotify_init1(int flags);
long sys_inotify_add_watch(int fd, const char __user *pathname, u32 mask);
long sys_inotify_rm_watch(int fd, int wd);

long sys_lseek(unsigned int fd, s64 offset, unsigned int whence);
long sys_pread64(unsigned int fd, char __user *buf, size_t count, s64 pos);
long sys_pwrite64(unsigned int fd, const char __user *buf, size_t count, s64 pos);
long sys_sendfile64(int out_fd, int in_fd, s64 __user *offset, size_t count);

/* kernel/fs/open.c */
long sys_open(const char __user *filename, int flags, unsigned short mode);
long sys_openat(int dfd, const char __user *filename, int flags, unsigned short mode);
long sys_creat(const char __user *pathname, unsigned short mode);
long sys_access(const char __user *filename, int mode);
long sys_faccessat(int dfd, const char __user *filename, int mode);
long sys_faccessat2(int dfd, const char __user *filename, int mode, int flags);
long sys_chdir(const char __user *filename);
long sys_fchdir(unsigned int fd);
long sys_chmod(const char __user *filename, unsigned short mode);
long sys_fchmod(unsigned int fd, unsigned short mode);
long sys_fchmodat(int dfd, const char __user *filename, unsigned short mode);
long sys_chown(const char __user *filename, uid_t user, gid_t group);
long sys_fchown(unsigned int fd, uid_t user, gid_t group);
long sys_lchown(const char __user *filename, uid_t user, gid_t group);
long sys_fchownat(int dfd, const char __user *filename, uid_t user, gid_t group, int flag);
long sys_truncate(const char __user *path, long length);
long sys_ftruncate(unsigned int fd, long length);
long sys_utimensat(int dfd, const char __user *filename,
		   const struct __kernel_timespec __user *utimes, int flags);
long sys_fsync(unsigned int fd);
long sys_fdatasync(unsigned int fd);

/* kernel/fs/stat.c, kernel/fs/readdir.c, kernel/fs/dcache.c, kernel/fs/fs_struct.c */
struct stat;
struct statx;
struct linux_dirent64;
long sys_stat(const char __user *filename, struct stat __user *statbuf);
long sys_lstat(const char __user *filename, struct stat __user *statbuf);
long sys_fstat(unsigned int fd, struct stat __user *statbuf);
long sys_newfstatat(int dfd, const char __user *filename, struct stat __user *statbuf, int flag);
long sys_statx(int dfd, const char __user *filename, unsigned int flags, unsigned int mask,
	       struct statx __user *buffer);
long sys_readlink(const char __user *path, char __user *buf, int bufsiz);
long sys_readlinkat(int dfd, const char __user *pathname, char __user *buf, int bufsiz);
long sys_getdents64(unsigned int fd, struct linux_dirent64 __user *dirent, unsigned int count);
long sys_getcwd(char __user *buf, unsigned long size);
long sys_umask(int mask);

/* kernel/fs/namei.c */
long sys_mkdir(const char __user *pathname, unsigned short mode);
long sys_mkdirat(int dfd, const char __user *pathname, unsigned short mode);
long sys_mknod(const char __user *filename, unsigned short mode, unsigned int dev);
long sys_mknodat(int dfd, const char __user *filename, unsigned short mode, unsigned int dev);
long sys_rmdir(const char __user *pathname);
long sys_unlink(const char __user *pathname);
long sys_unlinkat(int dfd, const char __user *pathname, int flag);
long sys_symlink(const char __user *oldname, const char __user *newname);
long sys_symlinkat(const char __user *oldname, int newdfd, const char __user *newname);
long sys_link(const char __user *oldname, const char __user *newname);
long sys_linkat(int olddfd, const char __user *oldname, int newdfd, const char __user *newname,
		int flags);
long sys_rename(const char __user *oldname, const char __user *newname);
long sys_renameat(int olddfd, const char __user *oldname, int newdfd,
		  const char __user *newname);
long sys_renameat2(int olddfd, const char __user *oldname, int newdfd,
		   const char __user *newname, unsigned int flags);


/* kernel/mm/mm.c, kernel/fs/exec.c */
long sys_brk(unsigned long brk);
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, unsigned long fd, unsigned long off);
long sys_munmap(unsigned long addr, size_t len);
long sys_mprotect(unsigned long start, size_t len, unsigned long prot);
long sys_madvise(unsigned long start, size_t len_in, int behavior);
long sys_msync(unsigned long start, size_t len, int flags);
long sys_mincore(unsigned long start, size_t len, unsigned char __user *vec);
long sys_mlock(unsigned long start, size_t len);
long sys_mlock2(unsigned long start, size_t len, int flags);
long sys_munlock(unsigned long start, size_t len);
long sys_mlockall(int flags);
long sys_munlockall(void);
long sys_execve(const char __user *filename, const char __user *const __user *argv,
		const char __user *const __user *envp);
long sys_execveat(int dfd, const char __user *filename, const char __user *const __user *argv,
		  const char __user *const __user *envp, int flags);

/* kernel/mm/mremap.c */
long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		unsigned long flags, unsigned long new_addr);

/* kernel/resource.c */
struct rlimit;
struct rlimit64;
long sys_getrlimit(unsigned int resource, struct rlimit __user *rlim);
long sys_setrlimit(unsigned int resource, struct rlimit __user *rlim);
long sys_prlimit64(pid_t pid, unsigned int resource, const struct rlimit64 __user *new_rlim,
		   struct rlimit64 __user *old_rlim);

/* kernel/sys.c */
long sys_getpid(void);
long sys_gettid(void);
long sys_getppid(void);
long sys_personality(unsigned int personality);
long sys_getuid(void);
long sys_geteuid(void);
long sys_getgid(void);
long sys_getegid(void);
long sys_setuid(uid_t uid);
long sys_setgid(gid_t gid);
long sys_setreuid(uid_t ruid, uid_t euid);
long sys_setregid(gid_t rgid, gid_t egid);
long sys_setresuid(uid_t ruid, uid_t euid, uid_t suid);
long sys_setresgid(gid_t rgid, gid_t egid, gid_t sgid);
long sys_getresuid(uid_t __user *ruidp, uid_t __user *euidp, uid_t __user *suidp);
long sys_getresgid(gid_t __user *rgidp, gid_t __user *egidp, gid_t __user *sgidp);
long sys_setfsuid(uid_t uid);
long sys_setfsgid(gid_t gid);
long sys_setpgid(pid_t pid, pid_t pgid);
long sys_getpgid(pid_t pid);
long sys_getpgrp(void);
long sys_setsid(void);
long sys_getsid(pid_t pid);
long sys_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5);
long sys_getrandom(char __user *buf, size_t count, unsigned int flags);
long sys_uname(struct new_utsname __user *name);
long sys_getrusage(int who, struct rusage __user *ru);
long sys_times(struct tms __user *tbuf);
long sys_sysinfo(struct sysinfo __user *info);
/* kernel/fs/statfs.c */
struct statfs;
long sys_statfs(const char __user *pathname, struct statfs __user *ubuf);
long sys_fstatfs(unsigned int fd, struct statfs __user *ubuf);
/* kernel/net/socket.c */
long sys_socket(int family, int type, int protocol);
long sys_socketpair(int family, int type, int protocol, int __user *usockvec);
long sys_connect(int fd, void __user *addr, int addrlen);
long sys_accept(int fd, void __user *addr, int __user *addrlen);
long sys_accept4(int fd, void __user *addr, int __user *addrlen, int flags);
long sys_sendto(int fd, void __user *buff, size_t len, unsigned int flags, void __user *addr,
		int addrlen);
long sys_recvfrom(int fd, void __user *ubuf, size_t size, unsigned int flags,
		  void __user *addr, int __user *addrlen);
long sys_sendmsg(int fd, void __user *msg, unsigned int flags);
long sys_recvmsg(int fd, void __user *msg, unsigned int flags);
long sys_sendmmsg(int fd, void __user *mmsg, unsigned int vlen, unsigned int flags);
long sys_recvmmsg(int fd, void __user *mmsg, unsigned int vlen, unsigned int flags,
		  void __user *timeout);
long sys_shutdown(int fd, int how);
long sys_bind(int fd, void __user *umyaddr, int addrlen);
long sys_listen(int fd, int backlog);
long sys_getsockname(int fd, void __user *usockaddr, int __user *usockaddr_len);
long sys_getpeername(int fd, void __user *usockaddr, int __user *usockaddr_len);
long sys_setsockopt(int fd, int level, int optname, char __user *optval, int optlen);
long sys_getsockopt(int fd, int level, int optname, char __user *optval, int __user *optlen);
/* kernel/fs/xattr.c */
long sys_getxattr(const char __user *pathname, const char __user *name, void __user *value,
		  size_t size);
long sys_lgetxattr(const char __user *pathname, const char __user *name, void __user *value,
		   size_t size);
long sys_fgetxattr(int fd, const char __user *name, void __user *value, size_t size);
long sys_setxattr(const char __user *pathname, const char __user *name,
		  const void __user *value, size_t size, int flags);
long sys_lsetxattr(const char __user *pathname, const char __user *name,
		   const void __user *value, size_t size, int flags);
long sys_fsetxattr(int fd, const char __user *name, const void __user *value, size_t size,
		   int flags);
long sys_listxattr(const char __user *pathname, char __user *list, size_t size);
long sys_llistxattr(const char __user *pathname, char __user *list, size_t size);
long sys_flistxattr(int fd, char __user *list, size_t size);
long sys_removexattr(const char __user *pathname, const char __user *name);
long sys_lremovexattr(const char __user *pathname, const char __user *name);
long sys_fremovexattr(int fd, const char __user *name);
long sys_arch_prctl(int option, unsigned long arg2);
/* arch_prctl on task, stopped or current (ptrace's PTRACE_ARCH_PRCTL) */
long do_arch_prctl_64(struct task_struct *task, int option, unsigned long arg2);
long sys_set_tid_address(int __user *tidptr);
long sys_sched_yield(void);

/* kernel/groups.c */
long sys_getgroups(int gidsetsize, gid_t __user *grouplist);
long sys_setgroups(int gidsetsize, gid_t __user *grouplist);

/* kernel/sched/syscalls.c */
struct sched_param;
long sys_sched_setscheduler(pid_t pid, int policy, struct sched_param __user *param);
long sys_sched_setparam(pid_t pid, struct sched_param __user *param);
long sys_sched_getscheduler(pid_t pid);
long sys_sched_getparam(pid_t pid, struct sched_param __user *param);
long sys_sched_get_priority_max(int policy);
long sys_sched_get_priority_min(int policy);
long sys_sched_rr_get_interval(pid_t pid, struct __kernel_timespec __user *interval);
long sys_sched_setaffinity(pid_t pid, unsigned int len, unsigned long __user *user_mask_ptr);
long sys_sched_getaffinity(pid_t pid, unsigned int len, unsigned long __user *user_mask_ptr);
long sys_getpriority(int which, int who);
long sys_setpriority(int which, int who, int niceval);

/* kernel/rseq.c */
struct rseq;
long sys_rseq(struct rseq __user *rseq, u32 rseq_len, int flags, u32 sig);

/* kernel/time/time.c */
long sys_clock_gettime(int which_clock, struct __kernel_timespec __user *tp);
long sys_clock_getres(int which_clock, struct __kernel_timespec __user *tp);
long sys_time(long __user *tloc);
long sys_gettimeofday(struct __kernel_old_timeval __user *tv, void __user *tz);
long sys_nanosleep(struct __kernel_timespec __user *rqtp, struct __kernel_timespec __user *rmtp);
long sys_clock_nanosleep(int which_clock, int flags, const struct __kernel_timespec __user *rqtp,
			 struct __kernel_timespec __user *rmtp);

/* kernel/fork.c */
long sys_clone(unsigned long clone_flags, unsigned long newsp, int __user *parent_tidptr,
	       int __user *child_tidptr, unsigned long tls);
long sys_clone3(struct clone_args __user *uargs, size_t size);
long sys_fork(void);
long sys_vfork(void);

/* kernel/exit.c */
long sys_exit(int error_code);
long sys_exit_group(int error_code);
long sys_wait4(pid_t upid, int __user *stat_addr, int options, struct rusage __user *ru);
long sys_waitid(int which, pid_t upid, kernel_siginfo_t __user *infop, int options,
		struct rusage __user *ru);

/* kernel/ptrace.c */
long sys_ptrace(long request, long pid, unsigned long addr, unsigned long data);
long sys_process_vm_readv(pid_t pid, const struct iovec __user *lvec, unsigned long liovcnt,
			  const struct iovec __user *rvec, unsigned long riovcnt, unsigned long flags);
long sys_process_vm_writev(pid_t pid, const struct iovec __user *lvec, unsigned long liovcnt,
			   const struct iovec __user *rvec, unsigned long riovcnt, unsigned long flags);

/* kernel/signal/signal.c */
long sys_kill(pid_t pid, int sig);
long sys_tgkill(pid_t tgid, pid_t pid, int sig);
long sys_tkill(pid_t pid, int sig);
long sys_rt_sigprocmask(int how, sigset_t __user *nset, sigset_t __user *oset, size_t sigsetsize);
long sys_rt_sigaction(int sig, const struct k_sigaction __user *act,
		      struct k_sigaction __user *oact, size_t sigsetsize);
long sys_restart_syscall(void);
long sys_rt_sigreturn(void);
long sys_sigaltstack(const stack_t __user *uss, stack_t __user *uoss);

long sys_pause(void);
long sys_rt_sigsuspend(sigset_t __user *unewset, size_t sigsetsize);
long sys_rt_sigpending(sigset_t __user *uset, size_t sigsetsize);
long sys_rt_sigtimedwait(const sigset_t __user *uthese, kernel_siginfo_t __user *uinfo,
			 const struct __kernel_timespec __user *uts, size_t sigsetsize);
long sys_rt_sigqueueinfo(pid_t pid, int sig, kernel_siginfo_t __user *uinfo);
long sys_rt_tgsigqueueinfo(pid_t tgid, pid_t pid, int sig, kernel_siginfo_t __user *uinfo);

/* kernel/time/itimer.c */
struct __kernel_old_itimerval {
	struct __kernel_old_timeval it_interval, it_value;
};
struct signal_struct;
void itimer_init(struct signal_struct *sig);
long sys_alarm(unsigned int seconds);
long sys_setitimer(int which, struct __kernel_old_itimerval __user *value,
		   struct __kernel_old_itimerval __user *ovalue);
long sys_getitimer(int which, struct __kernel_old_itimerval __user *value);

/* kernel/time/posix-timers.c (a timer_t is an int) */
struct __kernel_itimerspec;
long sys_timer_create(int which_clock, struct sigevent __user *timer_event_spec,
		      int __user *created_timer_id);
long sys_timer_settime(int timer_id, int flags, const struct __kernel_itimerspec __user *new_setting,
		       struct __kernel_itimerspec __user *old_setting);
long sys_timer_gettime(int timer_id, struct __kernel_itimerspec __user *setting);
long sys_timer_getoverrun(int timer_id);
long sys_timer_delete(int timer_id);

/* kernel/fs/select.c */
typedef struct {
	unsigned long fds_bits[1024 / 64];
} __kernel_fd_set;
long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_msecs);
/* kernel/fs/eventpoll.c */
struct epoll_event;
long sys_epoll_create(int size);
long sys_epoll_create1(int flags);
long sys_epoll_ctl(int epfd, int op, int fd, struct epoll_event __user *event);
long sys_epoll_wait(int epfd, struct epoll_event __user *events, int maxevents, int timeout);
long sys_epoll_pwait(int epfd, struct epoll_event __user *events, int maxevents, int timeout,
		     const sigset_t __user *sigmask, size_t sigsetsize);
long sys_epoll_pwait2(int epfd, struct epoll_event __user *events, int maxevents,
		      const struct __kernel_timespec __user *timeout,
		      const sigset_t __user *sigmask, size_t sigsetsize);
long sys_ppoll(struct pollfd __user *ufds, unsigned int nfds,
	       struct __kernel_timespec __user *tsp, const sigset_t __user *sigmask,
	       size_t sigsetsize);
long sys_select(int n, __kernel_fd_set __user *inp, __kernel_fd_set __user *outp,
		__kernel_fd_set __user *exp, struct __kernel_old_timeval __user *tvp);
long sys_pselect6(int n, __kernel_fd_set __user *inp, __kernel_fd_set __user *outp,
		  __kernel_fd_set __user *exp, struct __kernel_timespec __user *tsp,
		  void __user *sig);

/* kernel/fs/aio.c */
struct iocb;
struct io_event;
struct __aio_sigset;
long sys_io_setup(unsigned int nr_events, unsigned long __user *ctxp);
long sys_io_destroy(unsigned long ctx_id);
long sys_io_submit(unsigned long ctx_id, long nr, struct iocb __user *__user *iocbpp);
long sys_io_cancel(unsigned long ctx_id, struct iocb __user *iocb, struct io_event __user *result);
long sys_io_getevents(unsigned long ctx_id, long min_nr, long nr, struct io_event __user *events,
		      struct __kernel_timespec __user *timeout);
long sys_io_pgetevents(unsigned long ctx_id, long min_nr, long nr,
		       struct io_event __user *events, struct __kernel_timespec __user *timeout,
		       const struct __aio_sigset __user *usig);

/* kernel/fs/eventfd.c, kernel/fs/signalfd.c, kernel/fs/timerfd.c */
long sys_eventfd(unsigned int count);
long sys_eventfd2(unsigned int count, int flags);
long sys_signalfd(int ufd, sigset_t __user *user_mask, size_t sizemask);
long sys_signalfd4(int ufd, sigset_t __user *user_mask, size_t sizemask, int flags);
long sys_timerfd_create(int clockid, int flags);
long sys_timerfd_settime(int ufd, int flags, const struct __kernel_itimerspec __user *utmr,
			 struct __kernel_itimerspec __user *otmr);
long sys_timerfd_gettime(int ufd, struct __kernel_itimerspec __user *otmr);

/* kernel/ipc/: msg.c, sem.c, shm.c, mqueue.c (a key_t is an int) */
struct sembuf;
struct mq_attr;
long sys_msgget(int key, int msgflg);
long sys_msgsnd(int msqid, const void __user *msgp, size_t msgsz, int msgflg);
long sys_msgrcv(int msqid, void __user *msgp, size_t msgsz, long msgtyp, int msgflg);
long sys_msgctl(int msqid, int cmd, void __user *buf);
long sys_semget(int key, int nsems, int semflg);
long sys_semop(int semid, struct sembuf __user *tsops, unsigned int nsops);
long sys_semtimedop(int semid, struct sembuf __user *tsops, unsigned int nsops,
		    const struct __kernel_timespec __user *timeout);
long sys_semctl(int semid, int semnum, int cmd, unsigned long arg);
long sys_shmget(int key, size_t size, int shmflg);
long sys_shmat(int shmid, char __user *shmaddr, int shmflg);
long sys_shmdt(char __user *shmaddr);
long sys_shmctl(int shmid, int cmd, void __user *buf);
long sys_mq_open(const char __user *u_name, int oflag, unsigned int mode,
		 struct mq_attr __user *u_attr);
long sys_mq_unlink(const char __user *u_name);
long sys_mq_timedsend(int mqdes, const char __user *u_msg_ptr, size_t msg_len,
		      unsigned int msg_prio, const struct __kernel_timespec __user *u_abs_timeout);
long sys_mq_timedreceive(int mqdes, char __user *u_msg_ptr, size_t msg_len,
			 unsigned int __user *u_msg_prio,
			 const struct __kernel_timespec __user *u_abs_timeout);
long sys_mq_notify(int mqdes, const struct sigevent __user *u_notification);
long sys_mq_getsetattr(int mqdes, const struct mq_attr __user *u_mqstat,
		       struct mq_attr __user *u_omqstat);

/* kernel/syscall.c */
const char *syscall_name(long nr);	/* "read", or "syscall_NNN" */

/* kernel/futex.c */
long sys_futex(u32 __user *uaddr, int op, u32 val, const struct __kernel_timespec __user *utime,
	       u32 __user *uaddr2, u32 val3);
struct robust_list_head;
long sys_set_robust_list(struct robust_list_head __user *head, size_t len);
long sys_get_robust_list(int pid, struct robust_list_head __user *__user *head_ptr,
			 size_t __user *len_ptr);
/* Wake up to nr tasks waiting on uaddr (CLONE_CHILD_CLEARTID at exit);
 * returns how many, or -EINVAL/-EFAULT for a bad uaddr. */
int futex_wake(u32 __user *uaddr, int nr);

#endif
