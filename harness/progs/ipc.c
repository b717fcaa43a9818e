/*
 * ipc CASE: System V message queues, semaphores and shared memory, and
 * POSIX message queues (kernel/ipc/), with raw system calls so that each
 * line shows what the kernel returned. No id, key, pid, address or time is
 * printed: a run natively and one under umk print the same lines. Objects
 * with a key use keys made from the pid (KEY), removed first if a run left them.
 *
 *   msg          msgget, msgsnd, msgrcv, msgctl: errors, types (msgtyp 0,
 *                > 0, < 0, MSG_EXCEPT), MSG_NOERROR, E2BIG, a full queue,
 *                IPC_STAT, IPC_SET, the INFO and STAT commands
 *   msg-procs    a queue between two processes: the receiver sleeps for a
 *                type, the sender blocks on a full queue; IPC_RMID wakes a
 *                sleeper with EIDRM
 *   sem          semget, semop, semctl: values, errors, ranges, STAT
 *   sem-wait     a semop sleeps until another process's semop; GETNCNT,
 *                GETZCNT, GETPID; semtimedop's timeout; EIDRM
 *   sem-undo     SEM_UNDO's adjustments undone when the process exits
 *   shm          shmget, shmat, shmdt, shmctl: three processes share a
 *                segment, shm_nattch through fork and exit, SHM_RDONLY,
 *                SHM_RND, errors, IPC_RMID with attachments
 *   shm-exec     exec drops a process's attachments
 *   perms        as uid 1000 in a child: the mode bits, EACCES and EPERM
 *   proc         /proc/sysvipc/msg, sem and shm show the objects
 *   mq           mq_open, mq_unlink, mq_timedsend, mq_timedreceive,
 *                mq_getsetattr: priorities, limits, errors, the fd's read
 *   mq-procs     a queue between two processes, blocking both ways
 *   mq-notify    mq_notify's signal, SIGEV_NONE, EBUSY
 *   mq-poll      poll and epoll on a queue's fd, woken by another process
 *   mq-timeout   mq_timedreceive and mq_timedsend time out (ETIMEDOUT)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#ifndef MSG_COPY
#define MSG_COPY 040000
#endif
/* per run, so that runs at once (natively, one System V namespace) never
 * meet: the pid in the high bits */
#define KEY(n) ((key_t)((0x4000 + (getpid() & 0x3fff)) << 16) + (n))
#define BAD ((void *)8)
#define MQ_NAME "umk-ipc-test"		/* the syscall's name: no slash */
#define MQ_NAME2 "umk-ipc-test2"

struct msgbuf_t {
	long mtype;
	char mtext[64];
};

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
	void *ptr;
};

/* errno_name, with the two of System V IPC its table lacks */
static const char *ipc_errno_name(int err)
{
	if (err == ENOMSG)
		return "ENOMSG";
	if (err == EIDRM)
		return "EIDRM";
	return errno_name(err);
}

static long show_ipc(const char *call, long ret)
{
	if (ret < 0 && ret > -4096)
		printf("%s = -1 %s\n", call, ipc_errno_name((int)-ret));
	else
		printf("%s = %ld\n", call, ret);
	return ret;
}
#define show show_ipc

static void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static char *res(long r)
{
	static char buf[64];

	if (r < 0 && r > -4096)
		snprintf(buf, sizeof(buf), "-1 %s", ipc_errno_name((int)-r));
	else
		snprintf(buf, sizeof(buf), "%ld", r);
	return buf;
}

/* Wait until pid sleeps (state S, twice 15 ms apart). */
static void wait_asleep(pid_t pid)
{
	int n = 0;

	for (int i = 0; i < 2000 && n < 2; i++) {
		struct timespec ts = { 0, 15000000 };

		n = proc_state(pid) == 'S' ? n + 1 : 0;
		if (n < 2)
			nanosleep(&ts, NULL);
	}
	if (n < 2)
		die("pid %d never slept", pid);
}

/* A child's result, passed as its exit status (-errno, or 0..): for a
 * call whose line would race with another process's. */
static void _exit_result(long r)
{
	_exit(r < 0 ? (int)-r : 100 + (int)(r & 63));
}

static void reap_result(pid_t pid, const char *what)
{
	int st = wait_status(pid);

	if (!WIFEXITED(st))
		line("%s: %s", what, status_text(st));
	else if (WEXITSTATUS(st) >= 100)
		line("%s = %d", what, WEXITSTATUS(st) - 100);
	else
		line("%s = -1 %s", what, ipc_errno_name(WEXITSTATUS(st)));
}

static void reap(pid_t pid, const char *who)
{
	int st = wait_status(pid);

	line("%s: %s", who, status_text(st));
}

static long msgget_(key_t key, int flg) { return rsys(SYS_msgget, key, flg); }
static long msgsnd_(int id, const void *p, size_t n, int flg) { return rsys(SYS_msgsnd, id, p, n, flg); }
static long msgrcv_(int id, void *p, size_t n, long typ, int flg) { return rsys(SYS_msgrcv, id, p, n, typ, flg); }
static long msgctl_(int id, int cmd, void *buf) { return rsys(SYS_msgctl, id, cmd, buf); }
static long semget_(key_t key, int n, int flg) { return rsys(SYS_semget, key, n, flg); }
static long semop_(int id, struct sembuf *s, size_t n) { return rsys(SYS_semop, id, s, n); }
static long semtimedop_(int id, struct sembuf *s, size_t n, struct timespec *t)
{
	return rsys(SYS_semtimedop, id, s, n, t);
}
static long semctl_(int id, int num, int cmd, long arg) { return rsys(SYS_semctl, id, num, cmd, arg); }
static long shmget_(key_t key, size_t size, int flg) { return rsys(SYS_shmget, key, size, flg); }
static long shmat_(int id, const void *addr, int flg) { return rsys(SYS_shmat, id, addr, flg); }
static long shmdt_(const void *addr) { return rsys(SYS_shmdt, addr); }
static long shmctl_(int id, int cmd, void *buf) { return rsys(SYS_shmctl, id, cmd, buf); }
static long mq_open_(const char *name, int oflag, int mode, struct mq_attr *a)
{
	return rsys(SYS_mq_open, name, oflag, mode, a);
}
static long mq_send_(int fd, const char *p, size_t n, unsigned prio, struct timespec *t)
{
	return rsys(SYS_mq_timedsend, fd, p, n, prio, t);
}
static long mq_recv_(int fd, char *p, size_t n, unsigned *prio, struct timespec *t)
{
	return rsys(SYS_mq_timedreceive, fd, p, n, prio, t);
}
static long mq_notify_(long fd, const void *ev)
{
	return rsys(SYS_mq_notify, fd, ev);
}
static long mq_getsetattr_(int fd, struct mq_attr *n, struct mq_attr *o)
{
	return rsys(SYS_mq_getsetattr, fd, n, o);
}

/* Remove what an earlier run may have left with our keys and names. */
static void cleanup(void)
{
	for (int n = 0; n < 16; n++) {
		long id = msgget_(KEY(n), 0);

		if (id >= 0)
			msgctl_((int)id, IPC_RMID, NULL);
		id = semget_(KEY(n), 0, 0);
		if (id >= 0)
			semctl_((int)id, 0, IPC_RMID, 0);
		id = shmget_(KEY(n), 0, 0);
		if (id >= 0)
			shmctl_((int)id, IPC_RMID, NULL);
	}
	rsys(SYS_mq_unlink, MQ_NAME);
	rsys(SYS_mq_unlink, MQ_NAME2);
}

static void show_msq(const char *what, int id)
{
	struct msqid_ds ds;
	long r = msgctl_(id, IPC_STAT, &ds);

	if (r < 0) {
		line("%s: IPC_STAT = %s", what, res(r));
		return;
	}
	line("%s: qnum %lu cbytes %lu qbytes %lu mode %o", what, (unsigned long)ds.msg_qnum,
	     (unsigned long)ds.__msg_cbytes, (unsigned long)ds.msg_qbytes,
	     (unsigned)ds.msg_perm.mode);
}

static int send_text(int id, long type, const char *text, int flg)
{
	struct msgbuf_t m = { .mtype = type };

	strncpy(m.mtext, text, sizeof(m.mtext) - 1);
	return (int)msgsnd_(id, &m, strlen(text), flg);
}

static void recv_show(const char *what, int id, size_t n, long typ, int flg)
{
	struct msgbuf_t m;
	long r;

	memset(&m, 0, sizeof(m));
	r = msgrcv_(id, &m, n, typ, flg);
	if (r < 0)
		line("%s = %s", what, res(r));
	else
		line("%s = %ld: type %ld \"%.*s\"", what, r, m.mtype, (int)r, m.mtext);
}

static void case_msg(void)
{
	struct msgbuf_t m = { .mtype = 1 };
	struct msqid_ds ds;
	struct msginfo info;
	long id, r;
	int i;

	show("msgget(KEY, 0) of nothing", msgget_(KEY(1), 0));
	id = msgget_(KEY(1), IPC_CREAT | 0640);
	line("msgget(KEY, IPC_CREAT | 0640) = %s", id < 0 ? res(id) : "id");
	show("msgget(KEY, IPC_CREAT | IPC_EXCL)", msgget_(KEY(1), IPC_CREAT | IPC_EXCL | 0600));
	r = msgget_(KEY(1), 0);
	line("msgget(KEY, 0) again is the same id: %s", r == id ? "yes" : res(r));
	r = msgget_(IPC_PRIVATE, 0600);
	line("msgget(IPC_PRIVATE) is a new id: %s", r >= 0 && r != id ? "yes" : res(r));
	msgctl_((int)r, IPC_RMID, NULL);
	show_msq("new queue", (int)id);

	show("msgsnd(type 0)", msgsnd_((int)id, &(struct msgbuf_t){ .mtype = 0 }, 1, 0));
	show("msgsnd(size -1)", msgsnd_((int)id, &m, (size_t)-1, 0));
	show("msgsnd(size 8193)", msgsnd_((int)id, &m, 8193, 0));
	show("msgsnd(bad pointer)", msgsnd_((int)id, BAD, 1, 0));
	show("msgsnd(id -1)", msgsnd_(-1, &m, 1, 0));
	show("msgsnd(id of nothing)", msgsnd_((int)id + 1, &m, 1, 0));
	show("msgrcv(id -1)", msgrcv_(-1, &m, 8, 0, 0));
	show("msgrcv(size -1)", msgrcv_((int)id, &m, (size_t)-1, 0, 0));
	show("msgrcv(empty, IPC_NOWAIT)", msgrcv_((int)id, &m, 8, 0, IPC_NOWAIT));
	show("msgrcv(MSG_COPY without IPC_NOWAIT)", msgrcv_((int)id, &m, 8, 0, MSG_COPY));

	show("msgsnd(type 5, \"five\")", send_text((int)id, 5, "five", 0));
	show("msgsnd(type 2, \"two\")", send_text((int)id, 2, "two", 0));
	show("msgsnd(type 3, \"three\")", send_text((int)id, 3, "three", 0));
	show("msgsnd(type 1, \"one\")", send_text((int)id, 1, "one", 0));
	show("msgsnd(type 2, \"two again\")", send_text((int)id, 2, "two again", 0));
	show_msq("five messages", (int)id);
	recv_show("msgrcv(MSG_COPY, number 1)", (int)id, 64, 1, MSG_COPY | IPC_NOWAIT);
	recv_show("msgrcv(type 2, 2-byte buffer)", (int)id, 2, 2, 0);
	recv_show("msgrcv(type 2, 2-byte buffer, MSG_NOERROR)", (int)id, 2, 2, MSG_NOERROR);
	recv_show("msgrcv(type -3)", (int)id, 64, -3, 0);
	recv_show("msgrcv(type 5, MSG_EXCEPT)", (int)id, 64, 5, MSG_EXCEPT);
	recv_show("msgrcv(type 0)", (int)id, 64, 0, 0);
	recv_show("msgrcv(type 4, IPC_NOWAIT)", (int)id, 64, 4, IPC_NOWAIT);
	recv_show("msgrcv(type 0)", (int)id, 64, 0, 0);
	recv_show("msgrcv(type 0, IPC_NOWAIT)", (int)id, 64, 0, IPC_NOWAIT);
	show("msgrcv(bad buffer)", (send_text((int)id, 7, "lost", 0), msgrcv_((int)id, BAD, 8, 0, 0)));
	show_msq("after the bad buffer", (int)id);

	/* a queue of 64 bytes: full by bytes, then by count */
	memset(&ds, 0, sizeof(ds));
	msgctl_((int)id, IPC_STAT, &ds);
	ds.msg_qbytes = 64;
	show("msgctl(IPC_SET, qbytes 64)", msgctl_((int)id, IPC_SET, &ds));
	for (i = 0; i < 2; i++)
		show("msgsnd(32 bytes)", msgsnd_((int)id, &m, 32, IPC_NOWAIT));
	show("msgsnd(1 byte, full by bytes, IPC_NOWAIT)", msgsnd_((int)id, &m, 1, IPC_NOWAIT));
	while (msgrcv_((int)id, &m, 64, 0, IPC_NOWAIT) >= 0)
		;
	ds.msg_qbytes = 3;
	show("msgctl(IPC_SET, qbytes 3)", msgctl_((int)id, IPC_SET, &ds));
	for (i = 0; i < 3; i++)
		show("msgsnd(0 bytes)", msgsnd_((int)id, &m, 0, IPC_NOWAIT));
	show("msgsnd(0 bytes, full by count, IPC_NOWAIT)", msgsnd_((int)id, &m, 0, IPC_NOWAIT));
	show_msq("full by count", (int)id);
	ds.msg_qbytes = 16384;
	ds.msg_perm.mode = 0600;
	show("msgctl(IPC_SET, qbytes 16384, mode 0600)", msgctl_((int)id, IPC_SET, &ds));
	show_msq("after IPC_SET", (int)id);
	ds.msg_perm.uid = (uid_t)-1;
	show("msgctl(IPC_SET, uid -1)", msgctl_((int)id, IPC_SET, &ds));
	show("msgctl(IPC_SET, bad pointer)", msgctl_((int)id, IPC_SET, BAD));
	show("msgctl(IPC_STAT, bad pointer)", msgctl_((int)id, IPC_STAT, BAD));
	show("msgctl(cmd 99)", msgctl_((int)id, 99, &ds));
	show("msgctl(cmd -1)", msgctl_((int)id, -1, &ds));
	show("msgctl(IPC_STAT | IPC_64)", msgctl_((int)id, IPC_STAT | 0x100, &ds));
	r = msgctl_(0, IPC_INFO, &info);
	line("msgctl(IPC_INFO) >= 0: %s; msgmax %d msgmnb %d msgmni %d msgssz %d msgseg %u msgpool %d msgmap %d msgtql %d",
	     r >= 0 ? "yes" : res(r), info.msgmax, info.msgmnb, info.msgmni, info.msgssz,
	     info.msgseg, info.msgpool, info.msgmap, info.msgtql);
	r = msgctl_(0, MSG_INFO, &info);
	line("msgctl(MSG_INFO) >= 0: %s; msgpool >= 1: %s, msgmap >= 3: %s",
	     r >= 0 ? "yes" : res(r), info.msgpool >= 1 ? "yes" : "no", info.msgmap >= 3 ? "yes" : "no");
	/* MSG_STAT takes an index: find ours among them */
	for (i = 0, r = -1; i <= 32768 && r != id; i++)
		r = msgctl_(i, MSG_STAT, &ds);
	line("msgctl(MSG_STAT) of some index gives our id: %s", r == id ? "yes" : "no");
	show("msgctl(IPC_RMID)", msgctl_((int)id, IPC_RMID, NULL));
	show("msgctl(IPC_RMID) again", msgctl_((int)id, IPC_RMID, NULL));
	show("msgsnd after IPC_RMID", msgsnd_((int)id, &m, 1, 0));
	show("msgget(KEY, 0) after IPC_RMID", msgget_(KEY(1), 0));
}

static void case_msg_procs(void)
{
	struct msqid_ds ds;
	int id = (int)msgget_(IPC_PRIVATE, 0600);
	pid_t pid;
	int i;

	/* a receiver asleep for type 2 gets it from the next send of that
	 * type, while a type 1 stays queued */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		recv_show("child: msgrcv(type 2)", id, 64, 2, 0);
		recv_show("child: msgrcv(type -1)", id, 64, -1, 0);
		_exit(0);
	}
	wait_asleep(pid);
	{
		long r1 = send_text(id, 1, "first", 0), r2 = send_text(id, 2, "second", 0);

		reap(pid, "receiver");
		show("msgsnd(type 1, \"first\")", r1);
		show("msgsnd(type 2, \"second\")", r2);
	}
	show_msq("after the receiver", id);

	/* a sender blocked on a full queue goes on once a receive makes room */
	msgctl_(id, IPC_STAT, &ds);
	ds.msg_qbytes = 16;
	msgctl_(id, IPC_SET, &ds);
	show("msgsnd(type 3, 16 bytes) fills it", send_text(id, 3, "sixteen bytes!!!", 0));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		show("child: msgsnd(type 4, \"blocked\")", send_text(id, 4, "blocked", 0));
		_exit(0);
	}
	wait_asleep(pid);
	{
		struct msgbuf_t m;
		long r = msgrcv_(id, &m, 64, 3, 0);

		reap(pid, "sender");
		show("msgrcv(type 3)", r);
	}
	recv_show("msgrcv(type 0)", id, 64, 0, IPC_NOWAIT);

	/* IPC_RMID wakes a sleeping receiver and a sleeping sender with EIDRM */
	show("msgsnd(type 3, 16 bytes) fills it", send_text(id, 3, "sixteen bytes!!!", 0));
	pid_t pids[2];
	for (i = 0; i < 2; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			struct msgbuf_t m;

			if (i == 0)
				_exit_result(msgrcv_(id, &m, 64, 9, 0));
			_exit_result(send_text(id, 5, "x", 0));
		}
		wait_asleep(pids[i]);
	}
	show("msgctl(IPC_RMID)", msgctl_(id, IPC_RMID, NULL));
	reap_result(pids[0], "child: msgrcv(type 9)");
	reap_result(pids[1], "child: msgsnd to the full queue");
}

static void show_vals(const char *what, int id, int n)
{
	unsigned short v[8];
	long r = semctl_(id, 0, GETALL, (long)v);

	printf("%s:", what);
	if (r < 0)
		printf(" GETALL = %s", res(r));
	for (int i = 0; r >= 0 && i < n; i++)
		printf(" %u", v[i]);
	putchar('\n');
}

static void case_sem(void)
{
	struct semid_ds ds;
	struct seminfo info;
	unsigned short vals[3] = { 1, 2, 3 };
	struct sembuf op[3];
	long id, r;

	show("semget(KEY, -1)", semget_(KEY(2), -1, IPC_CREAT | 0600));
	show("semget(KEY, 32001)", semget_(KEY(2), 32001, IPC_CREAT | 0600));
	show("semget(KEY, 0, IPC_CREAT)", semget_(KEY(2), 0, IPC_CREAT | 0600));
	show("semget(KEY, 3, 0) of nothing", semget_(KEY(2), 3, 0));
	id = semget_(KEY(2), 3, IPC_CREAT | 0600);
	line("semget(KEY, 3, IPC_CREAT) = %s", id < 0 ? res(id) : "id");
	show("semget(KEY, 4) of a set of 3", semget_(KEY(2), 4, 0));
	r = semget_(KEY(2), 0, 0);
	line("semget(KEY, 0) is the same id: %s", r == id ? "yes" : res(r));
	show("semget(KEY, 2, IPC_CREAT | IPC_EXCL)", semget_(KEY(2), 2, IPC_CREAT | IPC_EXCL));
	show_vals("new set", (int)id, 3);
	r = semctl_((int)id, 0, IPC_STAT, (long)&ds);
	line("IPC_STAT = %s: nsems %lu mode %o otime %s", res(r), (unsigned long)ds.sem_nsems,
	     (unsigned)ds.sem_perm.mode, ds.sem_otime ? "set" : "0");

	show("SETALL(1, 2, 3)", semctl_((int)id, 0, SETALL, (long)vals));
	show_vals("after SETALL", (int)id, 3);
	show("SETVAL(1, 32767)", semctl_((int)id, 1, SETVAL, 32767));
	show("SETVAL(1, 32768)", semctl_((int)id, 1, SETVAL, 32768));
	show("SETVAL(1, -1)", semctl_((int)id, 1, SETVAL, -1));
	show("SETVAL(3, 0)", semctl_((int)id, 3, SETVAL, 0));
	show("SETVAL(-1, 0)", semctl_((int)id, -1, SETVAL, 0));
	show("GETVAL(1)", semctl_((int)id, 1, GETVAL, 0));
	show("GETVAL(3)", semctl_((int)id, 3, GETVAL, 0));
	show("GETALL(bad pointer)", semctl_((int)id, 0, GETALL, (long)BAD));
	show("SETALL(bad pointer)", semctl_((int)id, 0, SETALL, (long)BAD));
	vals[0] = 40000;
	show("SETALL(40000, ...)", semctl_((int)id, 0, SETALL, (long)vals));
	show("GETNCNT(0)", semctl_((int)id, 0, GETNCNT, 0));
	show("GETZCNT(0)", semctl_((int)id, 0, GETZCNT, 0));
	r = semctl_((int)id, 0, GETPID, 0);
	line("GETPID(0) is ours: %s", r == getpid() ? "yes" : res(r));
	show("semctl(cmd 99)", semctl_((int)id, 0, 99, 0));
	show("semctl(id -1)", semctl_(-1, 0, GETVAL, 0));

	op[0] = (struct sembuf){ 0, -1, 0 };
	op[1] = (struct sembuf){ 2, +2, 0 };
	show("semop(0 -= 1, 2 += 2)", semop_((int)id, op, 2));
	show_vals("after it", (int)id, 3);
	op[0] = (struct sembuf){ 0, -1, IPC_NOWAIT };
	show("semop(0 -= 1, IPC_NOWAIT) at 0", semop_((int)id, op, 1));
	op[0] = (struct sembuf){ 1, -1, IPC_NOWAIT };
	op[1] = (struct sembuf){ 2, -6, IPC_NOWAIT };
	show("semop(1 -= 1, 2 -= 6, IPC_NOWAIT): none applied", semop_((int)id, op, 2));
	show_vals("after it", (int)id, 3);
	op[0] = (struct sembuf){ 2, -1, 0 };
	op[1] = (struct sembuf){ 2, -1, 0 };
	op[2] = (struct sembuf){ 0, 0, IPC_NOWAIT };
	show("semop(2 -= 1, 2 -= 1, wait for 0 on 0)", semop_((int)id, op, 3));
	show_vals("after it", (int)id, 3);
	op[0] = (struct sembuf){ 1, 32767, 0 };
	show("semop(1 += 32767) past SEMVMX", semop_((int)id, op, 1));
	op[0] = (struct sembuf){ 3, 1, 0 };
	show("semop(sem 3 of 3)", semop_((int)id, op, 1));
	show("semop(0 operations)", semop_((int)id, op, 0));
	show("semop(501 operations)", semop_((int)id, op, 501));
	show("semop(bad pointer)", semop_((int)id, BAD, 1));
	show("semop(id -1)", semop_(-1, op, 1));
	op[0] = (struct sembuf){ 0, 1, 0 };
	show("semtimedop(bad timeout)", semtimedop_((int)id, op, 1, BAD));
	show("semtimedop(tv_nsec 1e9)", semtimedop_((int)id, op, 1, &(struct timespec){ 0, 1000000000 }));
	show("semtimedop(tv_sec -1)", semtimedop_((int)id, op, 1, &(struct timespec){ -1, 0 }));
	op[0] = (struct sembuf){ 0, -1, 0 };
	show("semtimedop(0 -= 1, 20 ms) at 0", semtimedop_((int)id, op, 1, &(struct timespec){ 0, 20000000 }));
	op[0] = (struct sembuf){ 0, 0, 0 };
	show("semtimedop(wait for 0 on 0, 20 ms) at 0", semtimedop_((int)id, op, 1, &(struct timespec){ 0, 20000000 }));
	r = semctl_((int)id, 0, IPC_STAT, (long)&ds);
	line("IPC_STAT = %s: otime %s", res(r), ds.sem_otime ? "set" : "0");
	ds.sem_perm.mode = 0644;
	show("IPC_SET(mode 0644)", semctl_((int)id, 0, IPC_SET, (long)&ds));
	semctl_((int)id, 0, IPC_STAT, (long)&ds);
	line("mode now %o", (unsigned)ds.sem_perm.mode);
	r = semctl_(0, 0, IPC_INFO, (long)&info);
	line("IPC_INFO >= 0: %s; semmni %d semmsl %d semmns %d semopm %d semvmx %d semaem %d semume %d semusz %d",
	     r >= 0 ? "yes" : res(r), info.semmni, info.semmsl, info.semmns, info.semopm,
	     info.semvmx, info.semaem, info.semume, info.semusz);
	r = semctl_(0, 0, SEM_INFO, (long)&info);
	line("SEM_INFO >= 0: %s; semusz (sets) >= 1: %s, semaem (semaphores) >= 3: %s",
	     r >= 0 ? "yes" : res(r), info.semusz >= 1 ? "yes" : "no", info.semaem >= 3 ? "yes" : "no");
	show("IPC_RMID", semctl_((int)id, 0, IPC_RMID, 0));
	show("GETVAL after IPC_RMID", semctl_((int)id, 0, GETVAL, 0));
	show("semop after IPC_RMID", semop_((int)id, op, 1));
}

static void case_sem_wait(void)
{
	long id = semget_(IPC_PRIVATE, 2, 0600);
	struct sembuf op[2];
	pid_t pid, pids[2];
	long r;

	/* a semop waiting to decrement, completed by our increment */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sembuf o[2] = { { 0, -2, 0 }, { 1, 1, 0 } };

		show("child: semop(0 -= 2, 1 += 1)", semop_((int)id, o, 2));
		_exit(0);
	}
	wait_asleep(pid);
	show("GETNCNT(0) with the child asleep", semctl_((int)id, 0, GETNCNT, 0));
	show("GETNCNT(1)", semctl_((int)id, 1, GETNCNT, 0));
	op[0] = (struct sembuf){ 0, 1, 0 };
	show("semop(0 += 1)", semop_((int)id, op, 1));
	show("GETNCNT(0) still", semctl_((int)id, 0, GETNCNT, 0));
	r = semop_((int)id, op, 1);
	reap(pid, "decrementer");
	show("semop(0 += 1)", r);
	show_vals("after it", (int)id, 2);
	r = semctl_((int)id, 1, GETPID, 0);
	line("GETPID(1) is the child's: %s", r == pid ? "yes" : res(r));

	/* two waiting for zero */
	for (int i = 0; i < 2; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			struct sembuf o = { 1, 0, 0 };

			_exit_result(semop_((int)id, &o, 1));
		}
		wait_asleep(pids[i]);
	}
	show("GETZCNT(1)", semctl_((int)id, 1, GETZCNT, 0));
	op[0] = (struct sembuf){ 1, -1, 0 };
	show("semop(1 -= 1)", semop_((int)id, op, 1));
	reap_result(pids[0], "child: semop(wait for 0 on 1)");
	reap_result(pids[1], "child: semop(wait for 0 on 1)");

	/* IPC_RMID wakes a sleeper with EIDRM */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sembuf o = { 0, -1, 0 };

		show("child: semop(0 -= 1)", semop_((int)id, &o, 1));
		_exit(0);
	}
	wait_asleep(pid);
	r = semctl_((int)id, 0, IPC_RMID, 0);
	reap(pid, "sleeper");
	show("IPC_RMID", r);
}

static int undo_id;

static void *undo_thread(void *arg)
{
	struct sembuf o = { 2, 7, SEM_UNDO };

	show("thread: semop(2 += 7 undo)", semop_(undo_id, &o, 1));
	return arg;
}

static void case_sem_undo(void)
{
	long id = semget_(IPC_PRIVATE, 3, 0600);
	unsigned short v[3] = { 5, 5, 5 };
	struct sembuf op[3];
	pid_t pid;

	semctl_((int)id, 0, SETALL, (long)v);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sembuf o[3] = { { 0, -2, SEM_UNDO }, { 1, 3, SEM_UNDO }, { 2, -1, 0 } };

		show("child: semop(0 -= 2 undo, 1 += 3 undo, 2 -= 1)", semop_((int)id, o, 3));
		o[0] = (struct sembuf){ 0, -1, SEM_UNDO };
		show("child: semop(0 -= 1 undo)", semop_((int)id, o, 1));
		show_vals("child: before exit", (int)id, 3);
		_exit(0);
	}
	reap(pid, "child");
	show_vals("after the child's exit", (int)id, 3);

	/* SETVAL clears the adjustment of what it sets */
	v[1] = 9;
	semctl_((int)id, 0, SETALL, (long)v);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sembuf o[2] = { { 0, -5, SEM_UNDO }, { 1, -8, SEM_UNDO } };

		show("child: semop(0 -= 5 undo, 1 -= 8 undo)", semop_((int)id, o, 2));
		show("child: SETVAL(1, 4)", semctl_((int)id, 1, SETVAL, 4));
		o[0] = (struct sembuf){ 2, 3, SEM_UNDO };
		show("child: semop(2 += 3 undo)", semop_((int)id, o, 1));
		show_vals("child: before exit", (int)id, 3);
		_exit(0);
	}
	reap(pid, "child");
	show_vals("after: 0 back to 5, 1 stays 4, 2 back to 5", (int)id, 3);

	/* the value after the undo is clamped at 0 */
	int sync[2], back[2];
	if (pipe(sync) || pipe(back))
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sembuf o = { 2, 3, SEM_UNDO };
		char c = 0;

		show("child: semop(2 += 3 undo)", semop_((int)id, &o, 1));
		fflush(stdout);
		write(back[1], &c, 1);
		read(sync[0], &c, 1);
		_exit(0);
	}
	{
		char c = 0;

		read(back[0], &c, 1);
		op[0] = (struct sembuf){ 2, -6, 0 };
		show("semop(2 -= 6) while the child holds 3", semop_((int)id, op, 1));
		write(sync[1], &c, 1);
	}
	reap(pid, "child");
	show_vals("after it: 2 is 2 - 3, clamped to 0", (int)id, 3);

	/* the adjustment's range: -32768..32767 */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sembuf o = { 2, 32767, SEM_UNDO };

		show("child: semop(2 += 32767 undo)", semop_((int)id, &o, 1));
		o.sem_op = -32767;
		show("child: semop(2 -= 32767 undo)", semop_((int)id, &o, 1));
		semctl_((int)id, 2, SETVAL, 32767);
		show("child: semop(2 -= 32767 undo) after SETVAL 32767", semop_((int)id, &o, 1));
		o = (struct sembuf){ 2, 1, 0 };
		semop_((int)id, &o, 1);
		o = (struct sembuf){ 2, -1, SEM_UNDO };
		show("child: semop(2 -= 1 undo) past the range", semop_((int)id, &o, 1));
		show_vals("child: before exit", (int)id, 3);
		_exit(0);
	}
	reap(pid, "child");
	show_vals("after it: 2 is 1 + 32767, clamped to 32767", (int)id, 3);

	/* threads share the adjustments (CLONE_SYSVSEM): a thread's exit
	 * undoes nothing, the process's does */
	semctl_((int)id, 2, SETVAL, 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pthread_t t;

		undo_id = (int)id;
		pthread_create(&t, NULL, undo_thread, NULL);
		pthread_join(t, NULL);
		show_vals("child: after its thread's exit", (int)id, 3);
		_exit(0);
	}
	reap(pid, "child");
	show_vals("after the child's exit", (int)id, 3);

	/* a set removed before the exit: nothing to undo */
	pid = fork();
	if (pid == 0) {
		struct sembuf o = { 0, -1, SEM_UNDO };

		semop_((int)id, &o, 1);
		semctl_((int)id, 0, IPC_RMID, 0);
		_exit(0);
	}
	reap(pid, "child that removes the set");
}

static void show_shm(const char *what, int id)
{
	struct shmid_ds ds;
	long r = shmctl_(id, IPC_STAT, &ds);

	if (r < 0)
		line("%s: IPC_STAT = %s", what, res(r));
	else
		line("%s: size %zu nattch %lu mode %o key %s", what, (size_t)ds.shm_segsz,
		     (unsigned long)ds.shm_nattch, (unsigned)ds.shm_perm.mode,
		     ds.shm_perm.key == IPC_PRIVATE ? "IPC_PRIVATE" : "KEY");
}

static void case_shm(void)
{
	struct shminfo info;
	struct shm_info sinfo;
	long id, r, id2;
	char *p, *q;
	pid_t pids[3];
	int i;

	show("shmget(KEY, 0, IPC_CREAT)", shmget_(KEY(3), 0, IPC_CREAT | 0600));
	show("shmget(KEY, 4096) of nothing", shmget_(KEY(3), 4096, 0));
	id = shmget_(KEY(3), 10000, IPC_CREAT | 0600);
	line("shmget(KEY, 10000, IPC_CREAT) = %s", id < 0 ? res(id) : "id");
	show("shmget(KEY, 20000) of a 10000-byte segment", shmget_(KEY(3), 20000, 0));
	r = shmget_(KEY(3), 100, 0);
	line("shmget(KEY, 100) is the same id: %s", r == id ? "yes" : res(r));
	show("shmget(KEY, IPC_CREAT | IPC_EXCL)", shmget_(KEY(3), 100, IPC_CREAT | IPC_EXCL));
	show_shm("new segment", (int)id);

	p = (char *)shmat_((int)id, NULL, 0);
	line("shmat(NULL) = %s", (long)p < 0 && (long)p > -4096 ? res((long)p) : "address");
	line("page-aligned: %s, zeros: %s", ((unsigned long)p & 4095) ? "no" : "yes",
	     p[0] == 0 && p[9999] == 0 ? "yes" : "no");
	show_shm("attached once", (int)id);

	/* three processes: each child writes its slot, the parent reads all */
	fflush(stdout);
	for (i = 0; i < 3; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			char *c = (char *)shmat_((int)id, NULL, 0);

			c[100 * (i + 1)] = (char)('A' + i);	/* its own attach */
			p[5000 + i] = (char)('a' + i);		/* the inherited one */
			_exit(0);
		}
	}
	for (i = 0; i < 3; i++)
		wait_status(pids[i]);
	line("the children wrote: %c%c%c %c%c%c", p[100], p[200], p[300], p[5000], p[5001], p[5002]);
	show_shm("after the children exit", (int)id);

	/* fork keeps the attachment: nattch 2 while the child lives */
	fflush(stdout);
	pids[0] = fork();
	if (pids[0] == 0) {
		show_shm("child after fork", (int)id);
		line("child sees: %c", p[100]);
		show("child: shmdt", shmdt_(p));
		show_shm("child after shmdt", (int)id);
		_exit(0);
	}
	reap(pids[0], "child");

	/* a second attach at a fixed address, SHM_RND, SHM_RDONLY */
	/* a free place: a mapping made and taken away again */
	q = mmap(NULL, 16 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(q, 16 * 4096);
	show("shmat(unaligned address)", shmat_((int)id, q + 1, 0));
	r = shmat_((int)id, q + 1, SHM_RND);
	line("shmat(unaligned, SHM_RND) rounds down: %s", r == (long)q ? "yes" : res(r));
	show("shmat(over that attachment)", shmat_((int)id, q, 0));
	r = shmat_((int)id, q, SHM_REMAP);
	line("shmat(over it, SHM_REMAP): %s", r == (long)q ? "yes" : res(r));
	show("shmat(NULL, SHM_REMAP)", shmat_((int)id, NULL, SHM_REMAP));
	show_shm("attached twice", (int)id);
	line("the second attach sees: %c", q[200]);
	show("shmdt(second)", shmdt_(q));
	show("shmdt(second) again", shmdt_(q));
	show("shmdt(unaligned)", shmdt_(p + 1));
	show("shmdt(inside the segment)", shmdt_(p + 4096));
	q = (char *)shmat_((int)id, NULL, SHM_RDONLY);
	line("shmat(SHM_RDONLY) sees: %c", q[300]);
	show("mprotect(SHM_RDONLY attach, PROT_WRITE)", rsys(SYS_mprotect, q, 4096, PROT_READ | PROT_WRITE));
	fflush(stdout);
	pids[0] = fork();
	if (pids[0] == 0) {
		q[0] = 1;
		_exit(0);
	}
	reap(pids[0], "child writing the SHM_RDONLY attach");
	show("shmdt(SHM_RDONLY attach)", shmdt_(q));
	show("shmat(id -1)", shmat_(-1, NULL, 0));
	show("shmat(id of nothing)", shmat_((int)id + 1, NULL, 0));

	/* IPC_RMID with an attachment: SHM_DEST, key gone, still there */
	show("shmctl(IPC_RMID) while attached", shmctl_((int)id, IPC_RMID, NULL));
	show_shm("removed, attached", (int)id);
	show("shmget(KEY, 0) after IPC_RMID", shmget_(KEY(3), 0, 0));
	r = shmat_((int)id, NULL, 0);
	line("shmat of the removed segment by id: %s", r < 0 && r > -4096 ? res(r) : "address");
	if (!(r < 0 && r > -4096))
		show("shmdt(it)", shmdt_((void *)r));
	line("still readable: %c", p[100]);
	fflush(stdout);
	pids[0] = fork();
	if (pids[0] == 0) {
		show("child: shmdt", shmdt_(p));
		show_shm("child: the parent's attach remains", (int)id);
		_exit(0);
	}
	reap(pids[0], "child");
	show("shmdt(last attach)", shmdt_(p));
	show_shm("after the last detach", (int)id);

	/* exit detaches: a segment removed while a child holds it goes at its exit */
	id2 = shmget_(IPC_PRIVATE, 4096, 0600);
	fflush(stdout);
	int sync[2];
	if (pipe(sync))
		die("pipe");
	pids[0] = fork();
	if (pids[0] == 0) {
		char c;

		shmat_((int)id2, NULL, 0);
		close(sync[1]);
		read(sync[0], &c, 1);
		_exit(0);
	}
	close(sync[0]);
	for (i = 0; i < 200; i++) {
		struct shmid_ds ds;

		if (shmctl_((int)id2, IPC_STAT, &ds) == 0 && ds.shm_nattch == 1)
			break;
		usleep(10000);
	}
	show_shm("attached by the child", (int)id2);
	show("shmctl(IPC_RMID)", shmctl_((int)id2, IPC_RMID, NULL));
	close(sync[1]);
	reap(pids[0], "child");
	show_shm("after the child's exit", (int)id2);

	show("shmctl(cmd 99)", shmctl_(0, 99, NULL));
	show("shmctl(IPC_STAT, bad pointer)", shmctl_((int)(id2 = shmget_(IPC_PRIVATE, 1, 0600)), IPC_STAT, BAD));
	show("SHM_LOCK", shmctl_((int)id2, SHM_LOCK, NULL));
	show_shm("locked", (int)id2);
	show("SHM_UNLOCK", shmctl_((int)id2, SHM_UNLOCK, NULL));
	show_shm("one byte", (int)id2);
	shmctl_((int)id2, IPC_RMID, NULL);
	r = shmctl_(0, IPC_INFO, &info);
	line("IPC_INFO >= 0: %s; shmmax %lu shmmin %lu shmmni %lu shmseg %lu shmall %lu",
	     r >= 0 ? "yes" : res(r), (unsigned long)info.shmmax, (unsigned long)info.shmmin,
	     (unsigned long)info.shmmni, (unsigned long)info.shmseg, (unsigned long)info.shmall);
	r = shmctl_(0, SHM_INFO, &sinfo);
	line("SHM_INFO >= 0: %s", r >= 0 ? "yes" : res(r));
}

/* exec drops the attachments: a child attaches, then execs this program,
 * which reads shm_nattch (the parent's attach only). */
static char *self_path;

static void case_shm_exec(void)
{
	long id = shmget_(IPC_PRIVATE, 4096, 0600);
	char idstr[16];
	pid_t pid;

	shmat_((int)id, NULL, 0);
	snprintf(idstr, sizeof(idstr), "%ld", id);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *args[] = { self_path, "shm-nattch", idstr, NULL };

		shmat_((int)id, NULL, 0);
		show_shm("child before exec", (int)id);
		fflush(stdout);
		execv(self_path, args);
		_exit(127);
	}
	reap(pid, "child");
	show_shm("after the child", (int)id);
	shmctl_((int)id, IPC_RMID, NULL);
}

/* As uid 1000 in a child, on objects of root's with mode 0600 (0640 for
 * the group's), then on one made 0666. */
static void case_perms(void)
{
	long msq = msgget_(IPC_PRIVATE, 0600), sem = semget_(IPC_PRIVATE, 1, 0600);
	long shm = shmget_(IPC_PRIVATE, 4096, 0640), open_msq = msgget_(IPC_PRIVATE, 0666);
	long mq = mq_open_(MQ_NAME, O_CREAT | O_RDWR, 0600, NULL);
	struct msgbuf_t m = { .mtype = 1 };
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sembuf op = { 0, 1, 0 };
		struct msqid_ds ds;
		struct mq_attr a = { .mq_maxmsg = 11, .mq_msgsize = 16 };

		if (setgid(0) || setuid(1000))
			die("setuid");
		show("msgsnd(0600 queue)", msgsnd_((int)msq, &m, 1, 0));
		show("msgrcv(0600 queue)", msgrcv_((int)msq, &m, 8, 0, IPC_NOWAIT));
		show("msgctl(IPC_STAT, 0600 queue)", msgctl_((int)msq, IPC_STAT, &ds));
		show("msgctl(IPC_RMID, root's queue)", msgctl_((int)msq, IPC_RMID, NULL));
		show("msgctl(IPC_SET, root's queue)", msgctl_((int)msq, IPC_SET, &ds));
		show("msgsnd(0666 queue)", msgsnd_((int)open_msq, &m, 1, 0));
		show("msgctl(IPC_STAT, 0666 queue)", msgctl_((int)open_msq, IPC_STAT, &ds));
		ds.msg_qbytes = 20000;
		show("msgctl(IPC_RMID, 0666 queue of root's)", msgctl_((int)open_msq, IPC_RMID, NULL));
		show("semop(0600 set)", semop_((int)sem, &op, 1));
		show("GETVAL(0600 set)", semctl_((int)sem, 0, GETVAL, 0));
		show("SETVAL(0600 set)", semctl_((int)sem, 0, SETVAL, 1));
		show("semctl(IPC_RMID, root's set)", semctl_((int)sem, 0, IPC_RMID, 0));
		show("shmat(0640 segment, gid 0: read-write)", shmat_((int)shm, NULL, 0));
		long a2 = shmat_((int)shm, NULL, SHM_RDONLY);
		line("shmat(0640 segment, gid 0, SHM_RDONLY) = %s", a2 < 0 && a2 > -4096 ? res(a2) : "address");
		show("shmctl(IPC_RMID, root's segment)", shmctl_((int)shm, IPC_RMID, NULL));
		show("shmctl(SHM_LOCK, root's segment)", shmctl_((int)shm, SHM_LOCK, NULL));
		show("msgget(IPC_PRIVATE) as uid 1000", (msq = msgget_(IPC_PRIVATE, 0600)) >= 0 ? 0 : msq);
		ds.msg_qbytes = 16385;
		msgctl_((int)msq, IPC_STAT, &ds);
		ds.msg_qbytes = 16385;
		show("msgctl(IPC_SET, qbytes past MSGMNB) as uid 1000", msgctl_((int)msq, IPC_SET, &ds));
		show("msgctl(IPC_RMID, its own queue)", msgctl_((int)msq, IPC_RMID, NULL));
		show("mq_open(root's 0600 queue, O_RDONLY)", mq_open_(MQ_NAME, O_RDONLY, 0, NULL));
		show("mq_open(root's 0600 queue, O_WRONLY)", mq_open_(MQ_NAME, O_WRONLY, 0, NULL));
		show("mq_unlink(root's queue)", rsys(SYS_mq_unlink, MQ_NAME));
		show("mq_open(O_CREAT, maxmsg 11) as uid 1000", mq_open_(MQ_NAME2, O_CREAT | O_RDWR, 0600, &a));
		a.mq_maxmsg = 10;
		a.mq_msgsize = 8193;
		show("mq_open(O_CREAT, msgsize 8193) as uid 1000", mq_open_(MQ_NAME2, O_CREAT | O_RDWR, 0600, &a));
		_exit(0);
	}
	reap(pid, "uid 1000 child");
	msgctl_((int)msq, IPC_RMID, NULL);
	msgctl_((int)open_msq, IPC_RMID, NULL);
	semctl_((int)sem, 0, IPC_RMID, 0);
	shmctl_((int)shm, IPC_RMID, NULL);
	close((int)mq);
	show("mq_unlink(as root)", rsys(SYS_mq_unlink, MQ_NAME));
}

/* The lines of FILE whose key column is one of ours: their fields but id,
 * pids and times. */
static void show_sysvipc(const char *file, int fields[], int nf)
{
	char buf[512];
	FILE *f = fopen(file, "r");
	int first = 1;

	if (!f) {
		line("%s: %s", file, strerror(errno));
		return;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *tok[32], *s = buf;
		int n = 0;

		if (first) {
			line("%s header: %s", file, strtok(buf, "\n"));
			first = 0;
			continue;
		}
		while (n < 32 && (tok[n] = strtok(s, " \n")))
			n++, s = NULL;
		if (n < 2 || strtol(tok[0], NULL, 10) < KEY(0) || strtol(tok[0], NULL, 10) > KEY(15))
			continue;
		printf("%s: KEY+%ld", file, strtol(tok[0], NULL, 10) - KEY(0));
		for (int i = 1; i < nf; i++)
			printf(" %s", fields[i] < n ? tok[fields[i]] : "?");
		putchar('\n');
	}
	fclose(f);
}

static void case_proc(void)
{
	int msq = (int)msgget_(KEY(4), IPC_CREAT | 0640);
	int sem = (int)semget_(KEY(5), 4, IPC_CREAT | 0604);
	int shm = (int)shmget_(KEY(6), 12345, IPC_CREAT | 0660);
	int msg_fields[] = { 0, 2, 3, 4, 7, 8, 9, 10 };	/* key perms cbytes qnum uid gid cuid cgid */
	int sem_fields[] = { 0, 2, 3, 4, 5 };		/* key perms nsems uid gid */
	int shm_fields[] = { 0, 2, 3, 6, 7, 8 };	/* key perms size nattch uid gid */
	char *p;

	send_text(msq, 1, "hello", 0);
	send_text(msq, 2, "world!", 0);
	p = (char *)shmat_(shm, NULL, 0);
	show_sysvipc("/proc/sysvipc/msg", msg_fields, 8);
	show_sysvipc("/proc/sysvipc/sem", sem_fields, 5);
	show_sysvipc("/proc/sysvipc/shm", shm_fields, 6);
	shmdt_(p);
	msgctl_(msq, IPC_RMID, NULL);
	semctl_(sem, 0, IPC_RMID, 0);
	shmctl_(shm, IPC_RMID, NULL);
	show_sysvipc("/proc/sysvipc/msg", msg_fields, 8);
	line("done");
}

static void show_attr(const char *what, int fd)
{
	struct mq_attr a;
	long r = mq_getsetattr_(fd, NULL, &a);

	if (r < 0)
		line("%s: mq_getsetattr = %s", what, res(r));
	else
		line("%s: flags %s maxmsg %ld msgsize %ld curmsgs %ld", what,
		     (a.mq_flags & O_NONBLOCK) ? "O_NONBLOCK" : "0", a.mq_maxmsg, a.mq_msgsize,
		     a.mq_curmsgs);
}

static void show_fdread(const char *what, int fd)
{
	char buf[128];
	long n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n < 0) {
		line("%s: read: %s", what, strerror(errno));
		return;
	}
	buf[n] = 0;
	/* NOTIFY_PID is a pid: say only whether it is set */
	char *pidp = strstr(buf, "NOTIFY_PID:");
	if (pidp) {
		int pid = atoi(pidp + 11);

		*pidp = 0;
		line("%s: %sNOTIFY_PID:%s", what, buf, pid == 0 ? "0" : pid == getpid() ? "ours" : "other");
	} else {
		line("%s: %s", what, buf);
	}
}

static void recv_mq(const char *what, int fd, size_t n, struct timespec *t)
{
	char buf[9000];
	unsigned prio = 99;
	long r = mq_recv_(fd, buf, n, &prio, t);

	if (r < 0)
		line("%s = %s", what, res(r));
	else
		line("%s = %ld: prio %u \"%.*s\"", what, r, prio, (int)r, buf);
}

static void case_mq(void)
{
	struct mq_attr a = { .mq_maxmsg = 4, .mq_msgsize = 16 }, o;
	char big[20] = "0123456789abcdefgh";
	long fd, fd2, r;

	show("mq_open(no O_CREAT) of nothing", mq_open_(MQ_NAME, O_RDWR, 0, NULL));
	show("mq_open(\"\")", mq_open_("", O_CREAT | O_RDWR, 0600, NULL));
	show("mq_open(\"a/b\")", mq_open_("a/b", O_CREAT | O_RDWR, 0600, NULL));
	show("mq_open(\"..\")", mq_open_("..", O_CREAT | O_RDWR, 0600, NULL));
	show("mq_open(bad name)", mq_open_(BAD, O_CREAT | O_RDWR, 0600, NULL));
	show("mq_open(bad attr)", mq_open_(MQ_NAME, O_CREAT | O_RDWR, 0600, BAD));
	a.mq_maxmsg = 0;
	show("mq_open(maxmsg 0)", mq_open_(MQ_NAME, O_CREAT | O_RDWR, 0600, &a));
	a.mq_maxmsg = 65537;
	show("mq_open(maxmsg 65537) as root", mq_open_(MQ_NAME, O_CREAT | O_RDWR, 0600, &a));
	a.mq_maxmsg = 4;
	a.mq_msgsize = -1;
	show("mq_open(msgsize -1)", mq_open_(MQ_NAME, O_CREAT | O_RDWR, 0600, &a));
	a.mq_msgsize = 16 * 1024 * 1024 + 1;
	show("mq_open(msgsize 16 MiB + 1) as root", mq_open_(MQ_NAME, O_CREAT | O_RDWR, 0600, &a));
	a.mq_msgsize = 16;
	fd = mq_open_(MQ_NAME, O_CREAT | O_EXCL | O_RDWR, 0640, &a);
	line("mq_open(O_CREAT | O_EXCL, maxmsg 4, msgsize 16) = %s", fd < 0 ? res(fd) : "fd");
	show("mq_open(O_CREAT | O_EXCL) again", mq_open_(MQ_NAME, O_CREAT | O_EXCL | O_RDWR, 0600, &a));
	show("mq_open(O_RDWR | O_WRONLY)", mq_open_(MQ_NAME, O_RDWR | O_WRONLY, 0, NULL));
	line("fd flags: %s%s", (fcntl((int)fd, F_GETFD) & FD_CLOEXEC) ? "FD_CLOEXEC " : "",
	     (fcntl((int)fd, F_GETFL) & O_ACCMODE) == O_RDWR ? "O_RDWR" : "?");
	line("F_GETFL: %#o", fcntl((int)fd, F_GETFL));
	show_attr("new queue", (int)fd);
	fd2 = mq_open_(MQ_NAME, O_RDONLY | O_NONBLOCK, 0, NULL);
	line("mq_open(existing, O_RDONLY | O_NONBLOCK) = %s", fd2 < 0 ? res(fd2) : "fd");
	show_attr("second fd", (int)fd2);
	r = mq_open_(MQ_NAME2, O_CREAT | O_RDWR, 0600, NULL);
	show_attr("queue with the defaults", (int)r);
	close((int)r);
	show("mq_unlink(" MQ_NAME2 ")", rsys(SYS_mq_unlink, MQ_NAME2));
	show("mq_unlink(" MQ_NAME2 ") again", rsys(SYS_mq_unlink, MQ_NAME2));

	show("mq_send(prio 1, \"low\")", mq_send_((int)fd, "low", 3, 1, NULL));
	show("mq_send(prio 5, \"high\")", mq_send_((int)fd, "high", 4, 5, NULL));
	show("mq_send(prio 1, \"low2\")", mq_send_((int)fd, "low2", 4, 1, NULL));
	show("mq_send(prio 0, \"\")", mq_send_((int)fd, "", 0, 0, NULL));
	show_attr("four messages", (int)fd);
	show_fdread("read", (int)fd);
	show("mq_send(full, O_NONBLOCK fd)", (fcntl((int)fd, F_SETFL, O_NONBLOCK), mq_send_((int)fd, "x", 1, 0, NULL)));
	show("mq_send(17 bytes)", mq_send_((int)fd, big, 17, 0, NULL));
	show("mq_send(prio 32768)", mq_send_((int)fd, "x", 1, 32768, NULL));
	show("mq_send(read-only fd)", mq_send_((int)fd2, "x", 1, 0, NULL));
	show("mq_send(bad pointer)", mq_send_((int)fd, BAD, 1, 0, NULL));
	show("mq_send(not a queue)", mq_send_(1, "x", 1, 0, NULL));
	show("mq_send(bad timeout)", mq_send_((int)fd, "x", 1, 0, BAD));
	show("mq_send(tv_nsec -1)", mq_send_((int)fd, "x", 1, 0, &(struct timespec){ 0, -1 }));
	show("mq_receive(15-byte buffer)", mq_recv_((int)fd2, big, 15, NULL, NULL));
	recv_mq("mq_receive", (int)fd2, 16, NULL);
	recv_mq("mq_receive", (int)fd2, 16, NULL);
	recv_mq("mq_receive", (int)fd2, 16, NULL);
	recv_mq("mq_receive", (int)fd2, 16, NULL);
	recv_mq("mq_receive(empty, O_NONBLOCK)", (int)fd2, 16, NULL);
	show("mq_receive(bad buffer)", (mq_send_((int)fd, "lost", 4, 0, NULL), mq_recv_((int)fd2, BAD, 16, NULL, NULL)));
	show_attr("after the bad buffer", (int)fd);
	show("mq_receive(bad prio pointer)", (mq_send_((int)fd, "lost", 4, 0, NULL), mq_recv_((int)fd2, big, 16, BAD, NULL)));
	show("mq_receive(not a queue)", mq_recv_(1, big, 16, NULL, NULL));

	show("mq_getsetattr(mq_flags O_APPEND)", mq_getsetattr_((int)fd, &(struct mq_attr){ .mq_flags = O_APPEND }, NULL));
	show("mq_getsetattr(bad pointer)", mq_getsetattr_((int)fd, BAD, NULL));
	show("mq_getsetattr(not a queue)", mq_getsetattr_(1, NULL, &o));
	show("mq_getsetattr(flags 0, maxmsg 99)", mq_getsetattr_((int)fd, &(struct mq_attr){ .mq_maxmsg = 99 }, &o));
	line("old flags: %s", (o.mq_flags & O_NONBLOCK) ? "O_NONBLOCK" : "0");
	show_attr("after", (int)fd);
	line("F_GETFL has O_NONBLOCK: %s", (fcntl((int)fd, F_GETFL) & O_NONBLOCK) ? "yes" : "no");

	show("mq_unlink(open queue)", rsys(SYS_mq_unlink, MQ_NAME));
	show("mq_open(unlinked name)", mq_open_(MQ_NAME, O_RDWR, 0, NULL));
	show("the unlinked queue still works: mq_send", mq_send_((int)fd, "still", 5, 3, NULL));
	recv_mq("mq_receive", (int)fd2, 16, NULL);
	close((int)fd);
	close((int)fd2);
	show("mq_unlink(\"\")", rsys(SYS_mq_unlink, ""));
}

static void case_mq_procs(void)
{
	struct mq_attr a = { .mq_maxmsg = 2, .mq_msgsize = 32 };
	long fd = mq_open_(MQ_NAME, O_CREAT | O_RDWR, 0600, &a);
	pid_t pid;

	rsys(SYS_mq_unlink, MQ_NAME);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		recv_mq("child: mq_receive (sleeps)", (int)fd, 32, NULL);
		_exit(0);
	}
	wait_asleep(pid);
	{
		long r = mq_send_((int)fd, "handed over", 11, 2, NULL);

		reap(pid, "receiver");
		show("mq_send(prio 2, \"handed over\")", r);
	}
	show_attr("the message went to the receiver", (int)fd);
	/* two sent fill the queue; the next two sleep until the child reads */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 0, 100000000 };

		nanosleep(&ts, NULL);
		wait_asleep(getppid());
		recv_mq("child: mq_receive", (int)fd, 32, NULL);
		wait_asleep(getppid());
		recv_mq("child: mq_receive", (int)fd, 32, NULL);
		recv_mq("child: mq_receive", (int)fd, 32, NULL);
		recv_mq("child: mq_receive", (int)fd, 32, NULL);
		_exit(0);
	}
	show("mq_send(prio 1, \"a\")", mq_send_((int)fd, "a", 1, 1, NULL));
	show("mq_send(prio 3, \"b\")", mq_send_((int)fd, "b", 1, 3, NULL));
	{
		long rc = mq_send_((int)fd, "c", 1, 9, NULL), rd = mq_send_((int)fd, "d", 1, 0, NULL);

		reap(pid, "receiver");
		show("mq_send(prio 9, \"c\") slept on a full queue", rc);
		show("mq_send(prio 0, \"d\") slept on a full queue", rd);
	}
	close((int)fd);
}

static volatile sig_atomic_t got_sig, got_code, got_value;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_value = si->si_value.sival_int;
}

static void case_mq_notify(void)
{
	struct mq_attr a = { .mq_maxmsg = 4, .mq_msgsize = 16 };
	struct sigaction sa = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO | SA_RESTART };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	long fd = mq_open_(MQ_NAME, O_CREAT | O_RDWR | O_NONBLOCK, 0600, &a);
	char buf[16];
	pid_t pid;

	rsys(SYS_mq_unlink, MQ_NAME);
	sigaction(SIGUSR1, &sa, NULL);
	ev.sigev_value.sival_int = 42;
	show("mq_notify(sigev_notify 7)", mq_notify_(fd, &(struct sigevent){ .sigev_notify = 7 }));
	show("mq_notify(SIGEV_SIGNAL, signal 65)", mq_notify_(fd, &(struct sigevent){ .sigev_notify = SIGEV_SIGNAL, .sigev_signo = 65 }));
	show("mq_notify(bad pointer)", mq_notify_(fd, BAD));
	show("mq_notify(not a queue)", mq_notify_(1, &ev));
	show("mq_notify(SIGEV_SIGNAL, SIGUSR1, value 42)", mq_notify_(fd, &ev));
	show_fdread("registered", (int)fd);
	show("mq_notify again", mq_notify_(fd, &ev));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		show("child: mq_notify while the parent is registered", mq_notify_(fd, &ev));
		show("child: mq_notify(NULL) is not the owner's", mq_notify_(fd, NULL));
		show("child: mq_send", mq_send_((int)fd, "hi", 2, 0, NULL));
		_exit(0);
	}
	reap(pid, "child");
	line("signal: %s, si_code SI_MESGQ: %s, value %d", got_sig == SIGUSR1 ? "SIGUSR1" : "none",
	     got_code == SI_MESGQ ? "yes" : "no", (int)got_value);
	show_fdread("after the signal", (int)fd);
	got_sig = 0;
	show("mq_send to a non-empty queue", mq_send_((int)fd, "x", 1, 0, NULL));
	line("signal again: %s", got_sig ? "yes" : "no");
	show("mq_notify again, the queue not empty", mq_notify_(fd, &ev));
	show("mq_send to a non-empty queue", mq_send_((int)fd, "x", 1, 0, NULL));
	line("signal: %s", got_sig ? "yes" : "no");
	while (mq_recv_((int)fd, buf, 16, NULL, NULL) >= 0)
		;
	show("mq_send to the empty queue", mq_send_((int)fd, "x", 1, 0, NULL));
	line("signal: %s", got_sig ? "yes" : "no");
	mq_recv_((int)fd, buf, 16, NULL, NULL);
	got_sig = 0;
	show("mq_notify(SIGEV_NONE)", mq_notify_(fd, &(struct sigevent){ .sigev_notify = SIGEV_NONE }));
	show_fdread("SIGEV_NONE", (int)fd);
	show("mq_notify(NULL)", mq_notify_(fd, NULL));
	show_fdread("unregistered", (int)fd);
	show("mq_notify(NULL) again", mq_notify_(fd, NULL));
	close((int)fd);
}

static void case_mq_poll(void)
{
	struct mq_attr a = { .mq_maxmsg = 1, .mq_msgsize = 16 };
	long fd = mq_open_(MQ_NAME, O_CREAT | O_RDWR, 0600, &a);
	struct pollfd pfd = { .fd = (int)fd, .events = POLLIN | POLLOUT };
	struct epoll_event ev = { .events = EPOLLIN }, out;
	char buf[16];
	int ep = epoll_create1(0);
	pid_t pid;

	rsys(SYS_mq_unlink, MQ_NAME);
	show("poll(empty)", poll(&pfd, 1, 0));
	line("revents: %s%s", (pfd.revents & POLLIN) ? "POLLIN " : "", (pfd.revents & POLLOUT) ? "POLLOUT" : "");
	mq_send_((int)fd, "m", 1, 0, NULL);
	show("poll(full)", poll(&pfd, 1, 0));
	line("revents: %s%s", (pfd.revents & POLLIN) ? "POLLIN " : "", (pfd.revents & POLLOUT) ? "POLLOUT" : "");
	mq_recv_((int)fd, buf, 16, NULL, NULL);

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		wait_asleep(getppid());
		mq_send_((int)fd, "wake", 4, 0, NULL);
		wait_asleep(getppid());
		mq_recv_((int)fd, buf, 16, NULL, NULL);
		wait_asleep(getppid());
		mq_send_((int)fd, "epoll", 5, 0, NULL);
		_exit(0);
	}
	pfd.events = POLLIN;
	show("poll(POLLIN) woken by the child's send", poll(&pfd, 1, 10000));
	pfd.events = POLLOUT;
	show("poll(POLLOUT) woken by the child's receive", poll(&pfd, 1, 10000));
	show("epoll_ctl(ADD, EPOLLIN)", epoll_ctl(ep, EPOLL_CTL_ADD, (int)fd, &ev));
	show("epoll_wait woken by the child's send", epoll_wait(ep, &out, 1, 10000));
	line("events: %s", out.events & EPOLLIN ? "EPOLLIN" : "?");
	reap(pid, "child");
	recv_mq("mq_receive", (int)fd, 16, NULL);
	show("epoll_wait(empty)", epoll_wait(ep, &out, 1, 0));
	close(ep);
	close((int)fd);
}

static void case_mq_timeout(void)
{
	struct mq_attr a = { .mq_maxmsg = 1, .mq_msgsize = 16 };
	long fd = mq_open_(MQ_NAME, O_CREAT | O_RDWR, 0600, &a);
	struct timespec ts;
	double t0;

	rsys(SYS_mq_unlink, MQ_NAME);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 50000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	t0 = now_ms();
	recv_mq("mq_timedreceive(empty, 50 ms from now)", (int)fd, 16, &ts);
	line("waited at least 40 ms: %s", now_ms() - t0 >= 40 ? "yes" : "no");
	recv_mq("mq_timedreceive(empty, a time past)", (int)fd, 16, &(struct timespec){ 1, 0 });
	show("mq_timedsend", mq_send_((int)fd, "x", 1, 0, &(struct timespec){ 1, 0 }));
	show("mq_timedsend(full, a time past)", mq_send_((int)fd, "x", 1, 0, &(struct timespec){ 1, 0 }));
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 50000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	show("mq_timedsend(full, 50 ms from now)", mq_send_((int)fd, "x", 1, 0, &ts));
	recv_mq("mq_timedreceive(a time past, a message there)", (int)fd, 16, &(struct timespec){ 1, 0 });
	close((int)fd);
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "msg", case_msg },
	{ "msg-procs", case_msg_procs },
	{ "sem", case_sem },
	{ "sem-wait", case_sem_wait },
	{ "sem-undo", case_sem_undo },
	{ "shm", case_shm },
	{ "shm-exec", case_shm_exec },
	{ "perms", case_perms },
	{ "proc", case_proc },
	{ "mq", case_mq },
	{ "mq-procs", case_mq_procs },
	{ "mq-notify", case_mq_notify },
	{ "mq-poll", case_mq_poll },
	{ "mq-timeout", case_mq_timeout },
};

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		die("usage: ipc CASE...");
	self_path = argv[0];
	if (argc == 3 && !strcmp(argv[1], "shm-nattch")) {
		show_shm("after exec", atoi(argv[2]));
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		size_t c;

		for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
			if (!strcmp(argv[i], cases[c].name))
				break;
		if (c == sizeof(cases) / sizeof(cases[0]))
			die("unknown case %s", argv[i]);
		cleanup();
		cases[c].fn();
		cleanup();
	}
	return 0;
}
