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
 * in Linux's format. */
void locks_text(char *buf, size_t n);

#endif
