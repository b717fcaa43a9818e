/* include/umk/uapi/fcntl.h: open(2)'s flags, fcntl(2)'s commands and the
 * *at() calls' directory (include/uapi/asm-generic/fcntl.h,
 * include/uapi/linux/fcntl.h), in Linux's x86-64 values. */
#ifndef UMK_UAPI_FCNTL_H
#define UMK_UAPI_FCNTL_H

#define O_ACCMODE 00000003
#define O_RDONLY 00000000
#define O_WRONLY 00000001
#define O_RDWR 00000002
#define O_CREAT 00000100
#define O_EXCL 00000200
#define O_NOCTTY 00000400
#define O_TRUNC 00001000
#define O_APPEND 00002000
#define O_NONBLOCK 00004000
#define O_DSYNC 00010000
#define O_DIRECT 00040000
#define O_LARGEFILE 00100000
#define O_DIRECTORY 00200000
#define O_NOFOLLOW 00400000
#define O_ASYNC 020000		/* FASYNC: signal-driven I/O */
#define O_NOATIME 01000000
#define O_CLOEXEC 02000000
#define O_PATH 010000000
#define __O_TMPFILE 020000000

#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030
#define FD_CLOEXEC 1

/* Signal-driven I/O (include/uapi/asm-generic/fcntl.h): who gets SIGIO
 * (F_SETOWN: a pid, or a process group as a negative number; F_SETOWN_EX:
 * a thread, process or group) and which signal (F_SETSIG). */
#define F_SETOWN 8
#define F_GETOWN 9
#define F_SETSIG 10
#define F_GETSIG 11
#define F_SETOWN_EX 15
#define F_GETOWN_EX 16
#define F_OWNER_TID 0
#define F_OWNER_PID 1
#define F_OWNER_PGRP 2
struct f_owner_ex {
	int type;
	int pid;
};

/* include/uapi/linux/fcntl.h: leases and pipe sizes. */
#define F_LINUX_SPECIFIC_BASE 1024
#define F_SETLEASE (F_LINUX_SPECIFIC_BASE + 0)
#define F_GETLEASE (F_LINUX_SPECIFIC_BASE + 1)
#define F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7)
#define F_GETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 8)

/* Record locks (fcntl) and flock (include/uapi/asm-generic/fcntl.h): on
 * x86-64 the *64 commands are the same numbers. */
#define F_GETLK 5
#define F_SETLK 6
#define F_SETLKW 7
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#define F_RDLCK 0
#define F_WRLCK 1
#define F_UNLCK 2
struct flock {
	short l_type;
	short l_whence;
	long l_start;
	long l_len;
	int l_pid;
};
#define LOCK_SH 1
#define LOCK_EX 2
#define LOCK_NB 4
#define LOCK_UN 8
#define LOCK_MAND 32

#define AT_FDCWD -100
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EACCESS 0x200		/* faccessat */
#define AT_REMOVEDIR 0x200		/* unlinkat */
#define AT_SYMLINK_FOLLOW 0x400
#define AT_NO_AUTOMOUNT 0x800
#define AT_EMPTY_PATH 0x1000

#endif
