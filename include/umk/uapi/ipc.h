/* include/umk/uapi/ipc.h: the user ABI of System V IPC and POSIX message
 * queues on x86-64 (Linux's include/uapi/linux/ipc.h, msg.h, sem.h, shm.h,
 * mqueue.h and arch/x86/include/uapi/asm/{msgbuf,sembuf,shmbuf}.h): the
 * flags, the commands and the structures the calls copy. x86-64 has only
 * the IPC_64 layouts, and its calls take cmd as it is (no
 * ipc_parse_version): a cmd with IPC_64 set is EINVAL, as on Linux. */
#ifndef UMK_UAPI_IPC_H
#define UMK_UAPI_IPC_H

#include <umk/types.h>

typedef int key_t;

#define IPC_PRIVATE ((key_t)0)

/* flags of *get */
#define IPC_CREAT 00001000
#define IPC_EXCL 00002000
#define IPC_NOWAIT 00004000

/* commands of *ctl */
#define IPC_RMID 0
#define IPC_SET 1
#define IPC_STAT 2
#define IPC_INFO 3

struct ipc64_perm {
	key_t key;
	uid_t uid;
	gid_t gid;
	uid_t cuid;
	gid_t cgid;
	unsigned int mode;
	unsigned short seq;
	unsigned short __pad2;
	unsigned long __unused1;
	unsigned long __unused2;
};
_Static_assert(sizeof(struct ipc64_perm) == 48, "ipc64_perm is 48 bytes");

/* ---- message queues (msg.h) ---- */
#define MSG_STAT 11
#define MSG_INFO 12
#define MSG_STAT_ANY 13

#define MSG_NOERROR 010000	/* a message too long is cut short */
#define MSG_EXCEPT 020000	/* receive any type but msgtyp */
#define MSG_COPY 040000		/* copy, do not remove (checkpoint/restore) */

#define MSGMNI 32000		/* queues, system-wide */
#define MSGMAX 8192		/* bytes in one message */
#define MSGMNB 16384		/* bytes in one queue by default */
#define MSGPOOL (MSGMNI * MSGMNB / 1024)
#define MSGTQL MSGMNB
#define MSGMAP MSGMNB
#define MSGSSZ 16
#define MSGSEG 0xffff

struct msqid64_ds {
	struct ipc64_perm msg_perm;
	long msg_stime, msg_rtime, msg_ctime;
	unsigned long msg_cbytes, msg_qnum, msg_qbytes;
	pid_t msg_lspid, msg_lrpid;
	unsigned long __unused4, __unused5;
};
_Static_assert(sizeof(struct msqid64_ds) == 120, "msqid64_ds is 120 bytes");

struct msginfo {
	int msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql;
	unsigned short msgseg;
};

/* ---- semaphores (sem.h) ---- */
#define SEM_UNDO 0x1000

#define GETPID 11
#define GETVAL 12
#define GETALL 13
#define GETNCNT 14
#define GETZCNT 15
#define SETVAL 16
#define SETALL 17
#define SEM_STAT 18
#define SEM_INFO 19
#define SEM_STAT_ANY 20

#define SEMMNI 32000		/* sets, system-wide */
#define SEMMSL 32000		/* semaphores in a set */
#define SEMMNS (SEMMNI * SEMMSL)	/* semaphores, system-wide */
#define SEMOPM 500		/* operations in one semop */
#define SEMVMX 32767		/* a semaphore's largest value */
#define SEMAEM SEMVMX		/* the largest adjustment on exit */
#define SEMUME SEMOPM
#define SEMMNU SEMMNS
#define SEMMAP SEMMNS
#define SEMUSZ 20

struct sembuf {
	unsigned short sem_num;
	short sem_op;
	short sem_flg;
};

struct semid64_ds {
	struct ipc64_perm sem_perm;
	long sem_otime;
	unsigned long __unused1;
	long sem_ctime;
	unsigned long __unused2;
	unsigned long sem_nsems;
	unsigned long __unused3, __unused4;
};
_Static_assert(sizeof(struct semid64_ds) == 104, "semid64_ds is 104 bytes");

struct seminfo {
	int semmap, semmni, semmns, semmnu, semmsl, semopm, semume, semusz, semvmx, semaem;
};

/* ---- shared memory (shm.h) ---- */
#define SHM_RDONLY 010000	/* attach read-only */
#define SHM_RND 020000		/* round the address down to SHMLBA */
#define SHM_REMAP 040000	/* take over what is mapped there */
#define SHM_EXEC 0100000	/* executable */
#define SHM_HUGETLB 04000

#define SHM_LOCK 11
#define SHM_UNLOCK 12
#define SHM_STAT 13
#define SHM_INFO 14
#define SHM_STAT_ANY 15

/* in shm_perm.mode */
#define SHM_DEST 01000		/* removed, destroyed at the last detach */
#define SHM_LOCKED 02000

#define SHMMIN 1
#define SHMMNI 4096
#define SHMMAX (UINT64_MAX - (1UL << 24))
#define SHMALL (UINT64_MAX - (1UL << 24))
#define SHMSEG SHMMNI
#define SHMLBA 4096

struct shmid64_ds {
	struct ipc64_perm shm_perm;
	size_t shm_segsz;
	long shm_atime, shm_dtime, shm_ctime;
	pid_t shm_cpid, shm_lpid;
	unsigned long shm_nattch;
	unsigned long __unused4, __unused5;
};
_Static_assert(sizeof(struct shmid64_ds) == 112, "shmid64_ds is 112 bytes");

struct shminfo64 {
	unsigned long shmmax, shmmin, shmmni, shmseg, shmall;
	unsigned long __unused1, __unused2, __unused3, __unused4;
};

struct shm_info {
	int used_ids;
	unsigned long shm_tot, shm_rss, shm_swp, swap_attempts, swap_successes;
};

/* ---- POSIX message queues (mqueue.h) ---- */
struct mq_attr {
	long mq_flags;		/* O_NONBLOCK */
	long mq_maxmsg;
	long mq_msgsize;
	long mq_curmsgs;
	long __reserved[4];
};

#define MQ_PRIO_MAX 32768
/* /proc/sys/fs/mqueue's defaults and bounds (ipc/mq_sysctl.c, mqueue.h) */
#define DFLT_QUEUESMAX 256
#define DFLT_MSG 10
#define DFLT_MSGMAX 10
#define HARD_MSGMAX 65536
#define DFLT_MSGSIZE 8192
#define DFLT_MSGSIZEMAX 8192
#define HARD_MSGSIZEMAX (16 * 1024 * 1024)
#define MQ_BYTES_MAX 819200	/* RLIMIT_MSGQUEUE's default */

/* mq_notify with SIGEV_THREAD: the netlink cookie's size */
#define NOTIFY_COOKIE_LEN 32

#endif
