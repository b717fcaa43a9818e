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

/* getrusage(2)'s who (include/uapi/linux/resource.h); RUSAGE_BOTH is the
 * kernel's own, what wait4 reports of a child. */
#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_BOTH (-2)
#define RUSAGE_THREAD 1

/* struct rusage, 144 bytes: two timevals (seconds and microseconds, as
 * struct __kernel_old_timeval) then 14 longs. */
struct rusage {
	long ru_utime_sec, ru_utime_usec;
	long ru_stime_sec, ru_stime_usec;
	long ru_maxrss;			/* KiB */
	long ru_ixrss, ru_idrss, ru_isrss;
	long ru_minflt, ru_majflt, ru_nswap;
	long ru_inblock, ru_oublock;
	long ru_msgsnd, ru_msgrcv, ru_nsignals;
	long ru_nvcsw, ru_nivcsw;
};

/* times(2) (include/uapi/linux/times.h), in clock ticks (USER_HZ) */
struct tms {
	long tms_utime, tms_stime, tms_cutime, tms_cstime;
};

/* sysinfo(2) (include/uapi/linux/sysinfo.h), 112 bytes */
struct sysinfo {
	long uptime;			/* seconds since boot */
	unsigned long loads[3];		/* 1, 5, 15 min, fixed point 1 << 16 */
	unsigned long totalram, freeram, sharedram, bufferram;
	unsigned long totalswap, freeswap;
	unsigned short procs;		/* tasks */
	unsigned short pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit;
	char _f[20 - 2 * sizeof(long) - sizeof(int)];
};

/* getpriority(2) and setpriority(2)'s which */
#define PRIO_PROCESS 0
#define PRIO_PGRP 1
#define PRIO_USER 2

#endif
