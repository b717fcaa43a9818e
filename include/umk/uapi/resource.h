/* include/umk/uapi/resource.h: resource limits, as getrlimit(2),
 * setrlimit(2) and prlimit64(2) take them (include/uapi/linux/resource.h
 * and include/uapi/asm-generic/resource.h for x86-64). */
#ifndef UMK_UAPI_RESOURCE_H
#define UMK_UAPI_RESOURCE_H

#define RLIMIT_CPU 0		/* CPU time in seconds */
#define RLIMIT_FSIZE 1		/* largest file that may be written */
#define RLIMIT_DATA 2		/* data segment and private writable mappings */
#define RLIMIT_STACK 3		/* the main thread's stack */
#define RLIMIT_CORE 4		/* core file size */
#define RLIMIT_RSS 5		/* resident set (not enforced, as on Linux) */
#define RLIMIT_NPROC 6		/* tasks of the user */
#define RLIMIT_NOFILE 7		/* one more than the highest fd */
#define RLIMIT_MEMLOCK 8	/* locked memory */
#define RLIMIT_AS 9		/* address space */
#define RLIMIT_LOCKS 10		/* file locks */
#define RLIMIT_SIGPENDING 11	/* queued signals of the user */
#define RLIMIT_MSGQUEUE 12	/* POSIX message queue bytes */
#define RLIMIT_NICE 13		/* ceiling of the nice value */
#define RLIMIT_RTPRIO 14	/* ceiling of the real-time priority */
#define RLIMIT_RTTIME 15	/* real-time CPU time without blocking, us */
#define RLIM_NLIMITS 16

#define RLIM_INFINITY (~0UL)
#define RLIM64_INFINITY (~0ULL)

/* getrlimit and setrlimit; the same layout as prlimit64's on x86-64. */
struct rlimit {
	unsigned long rlim_cur;
	unsigned long rlim_max;
};

struct rlimit64 {
	unsigned long long rlim_cur;
	unsigned long long rlim_max;
};

/* getpriority(2) and setpriority(2)'s which */
#define PRIO_PROCESS 0
#define PRIO_PGRP 1
#define PRIO_USER 2

#endif
