/* File locks (include/linux/filelock.h): flock(2)'s whole-file locks and
 * fcntl(2)'s record locks, POSIX (owned by a process's files_struct) and
 * OFD (owned by an open file). kernel/fs/locks.c; docs/design.md, "FIFOs
 * and file locks". */
#ifndef UMK_FILELOCK_H
#define UMK_FILELOCK_H

#include <umk/fs.h>

/* fcntl's lock commands (F_GETLK, F_SETLK, F_SETLKW and the F_OFD_
 * variants) on f, fd the fd the program named: 0 or -errno; a wait ends
 * with -ERESTARTSYS at a signal. */
long fcntl_getlk(struct file *f, unsigned int cmd, struct flock __user *arg);
long fcntl_setlk(unsigned int fd, struct file *f, unsigned int cmd, struct flock __user *arg);

/* Closing f through the fd table id (close, dup2 over it, exec's
 * close-on-exec, the last put of the table at exit): the POSIX locks id
 * holds on f's file go (Linux's locks_remove_posix in filp_close). */
void locks_remove_posix(struct file *f, struct files_struct *id);
/* f's last reference is going (fput): its flock and OFD locks go, and
 * any POSIX lock still naming it (Linux's locks_remove_file). */
void locks_remove_file(struct file *f);

/* /proc/locks: one line per lock, then one per waiter, into buf (n bytes),
 * in Linux's format; the leases last. */
void locks_text(char *buf, size_t n);
/* One such line: "ID: PFXKIND TYPE PID MAJ:MIN:INO RANGE" for a lock of
 * type taken by pid through file (NULL: "<none>:0", a lease breaker). */
size_t lock_status_line(char *buf, size_t n, int id, const char *pfx, const char *kind, int type,
			int pid, struct file *file, const char *range);

/* kernel/fs/leases.c: leases. F_SETLEASE (F_RDLCK, F_WRLCK, F_UNLCK) on f
 * through fd, and F_GETLEASE: 0 or -errno; the lease type. */
long fcntl_setlease(unsigned int fd, struct file *f, int arg);
int fcntl_getlease(struct file *f);
/* An open with mode's flags (O_WRONLY for a truncate) breaks the leases
 * of inode it conflicts with, and waits for them to go (Linux's
 * break_lease): 0, -EWOULDBLOCK for O_NONBLOCK, -ERESTARTSYS at a signal. */
int break_lease(struct inode *inode, unsigned int mode);
/* f's last close: its leases go (locks_remove_file calls it). */
void locks_remove_lease(struct file *f);
/* /proc/locks' lease lines, numbered on from *id. */
size_t leases_text(char *buf, size_t n, int *id);
extern int leases_enable, lease_break_time;	/* fs.leases-enable, fs.lease-break-time */

#endif
