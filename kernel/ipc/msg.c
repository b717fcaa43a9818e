/*
 * kernel/ipc/msg.c: System V message queues (Linux's ipc/msg.c): msgget,
 * msgsnd, msgrcv, msgctl, and /proc/sysvipc/msg.
 *
 * A queue holds its messages in order of sending (q_messages), its sleeping
 * receivers (q_receivers) and senders (q_senders). A send first offers the
 * message to the sleeping receivers in order (pipelined_send): the first
 * whose msgtyp matches gets it handed over and is woken with it, or, if its
 * buffer is too small without MSG_NOERROR, is woken with E2BIG and the
 * next one is tried. Only a message nobody takes joins the queue. A
 * receive that dequeues wakes the senders that now fit (ss_wakeup). A
 * queue full by bytes or by count (q_qbytes bounds both, as on Linux)
 * makes a sender sleep.
 *
 * Restarts: a signal ends the sleep of msgsnd and msgrcv with
 * -ERESTARTNOHAND, as Linux's: EINTR after a handler whatever SA_RESTART
 * says, restarted after a stop (docs/design.md, "The restart path").
 * IPC_RMID wakes every sleeper with EIDRM; IPC_SET wakes receivers to
 * check their permission again and senders that may fit now.
 *
 * MSG_COPY (msgrcv's copy of the message numbered msgtyp, kept in the
 * queue) is there, as in Linux built with CONFIG_CHECKPOINT_RESTORE.
 */
#include <umk/errno.h>
#include <umk/ipc.h>
#include <umk/kernel.h>
#include <umk/list.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

#include "util.h"

struct msg_msg {
	struct list_head m_list;	/* in q_messages */
	long m_type;
	size_t m_ts;			/* bytes of text */
	char m_text[];
};

struct msg_queue {
	struct kern_ipc_perm q_perm;
	long q_stime, q_rtime, q_ctime;
	unsigned long q_cbytes, q_qnum, q_qbytes;
	pid_t q_lspid, q_lrpid;
	struct list_head q_messages, q_receivers, q_senders;
};

/* A sleeping msgrcv. r_msg is set and r_err 0 by the sender that hands it
 * a message; r_err is -EAGAIN while nothing came (look again), else what
 * the receive returns (-E2BIG, -EIDRM). */
struct msg_receiver {
	struct list_head r_list;
	struct task_struct *r_tsk;
	int r_mode;
	long r_msgtype;
	size_t r_maxsize;
	struct msg_msg *r_msg;
	int r_err;
};

/* A sleeping msgsnd, woken when msgsz may fit. */
struct msg_sender {
	struct list_head list;
	struct task_struct *tsk;
	size_t msgsz;
	bool queued;
};

#define SEARCH_ANY 1
#define SEARCH_EQUAL 2
#define SEARCH_NOTEQUAL 3
#define SEARCH_LESSEQUAL 4
#define SEARCH_NUMBER 5

struct msgbuf_user {
	long mtype;
	char mtext[];
};

static struct ipc_ids msg_ids = { .last_idx = -1, .max_idx = -1 };
/* Every queue's messages and bytes (Linux's percpu_msg_hdrs and _bytes). */
static unsigned long msg_hdrs, msg_bytes;

static struct msg_queue *msq_obtain_object_check(int id)
{
	struct kern_ipc_perm *p = ipc_obtain_object_check(&msg_ids, id);

	return p ? container_of(p, struct msg_queue, q_perm) : NULL;
}

static int newque(struct ipc_params *params)
{
	struct msg_queue *msq = kmalloc(sizeof(*msq));
	int id;

	msq->q_perm.mode = params->flg & S_IRWXUGO;
	msq->q_perm.key = params->key;
	msq->q_ctime = ipc_seconds();
	msq->q_qbytes = MSGMNB;
	INIT_LIST_HEAD(&msq->q_messages);
	INIT_LIST_HEAD(&msq->q_receivers);
	INIT_LIST_HEAD(&msq->q_senders);
	id = ipc_addid(&msg_ids, &msq->q_perm, MSGMNI);
	if (id < 0)
		kfree(msq);
	return id;
}

long sys_msgget(key_t key, int msgflg)
{
	static const struct ipc_ops msg_ops = { .getnew = newque };
	struct ipc_params params = { .key = key, .flg = msgflg };

	return ipcget(&msg_ids, &msg_ops, &params);
}

static bool msg_fits_inqueue(struct msg_queue *msq, size_t msgsz)
{
	return msgsz + msq->q_cbytes <= msq->q_qbytes && 1 + msq->q_qnum <= msq->q_qbytes;
}

/* Wake the senders whose message fits now, in order (Linux's ss_wakeup);
 * with kill, every one, for EIDRM. */
static void ss_wakeup(struct msg_queue *msq, bool kill)
{
	struct msg_sender *mss, *t;

	list_for_each_entry_safe(mss, t, &msq->q_senders, list) {
		if (!kill && !msg_fits_inqueue(msq, mss->msgsz))
			continue;
		if (kill) {
			list_del_init(&mss->list);
			mss->queued = false;
		}
		wake_up_process(mss->tsk);
	}
}

/* Wake every receiver with res (Linux's expunge_all). */
static void expunge_all(struct msg_queue *msq, int res)
{
	struct msg_receiver *msr, *t;

	list_for_each_entry_safe(msr, t, &msq->q_receivers, r_list) {
		list_del_init(&msr->r_list);
		msr->r_err = res;
		wake_up_process(msr->r_tsk);
	}
}

static void free_msg(struct msg_msg *msg)
{
	kfree(msg);
}

/* IPC_RMID: the sleepers see EIDRM, the messages go. */
static void freeque(struct msg_queue *msq)
{
	struct msg_msg *msg, *t;

	expunge_all(msq, -EIDRM);
	ss_wakeup(msq, true);
	ipc_rmid(&msg_ids, &msq->q_perm);
	list_for_each_entry_safe(msg, t, &msq->q_messages, m_list) {
		msg_hdrs--;
		msg_bytes -= msg->m_ts;
		free_msg(msg);
	}
	kfree(msq);
}

static bool testmsg(struct msg_msg *msg, long type, int mode)
{
	switch (mode) {
	case SEARCH_ANY:
	case SEARCH_NUMBER:
		return true;
	case SEARCH_LESSEQUAL:
		return msg->m_type <= type;
	case SEARCH_EQUAL:
		return msg->m_type == type;
	case SEARCH_NOTEQUAL:
		return msg->m_type != type;
	}
	return false;
}

/* Hand msg to the first sleeping receiver that wants it: true if one took it. */
static bool pipelined_send(struct msg_queue *msq, struct msg_msg *msg)
{
	struct msg_receiver *msr, *t;

	list_for_each_entry_safe(msr, t, &msq->q_receivers, r_list) {
		if (!testmsg(msg, msr->r_msgtype, msr->r_mode))
			continue;
		list_del_init(&msr->r_list);
		wake_up_process(msr->r_tsk);
		if (msr->r_maxsize < msg->m_ts) {
			msr->r_err = -E2BIG;
			continue;
		}
		msq->q_lrpid = msr->r_tsk->tgid;
		msq->q_rtime = ipc_seconds();
		msr->r_msg = msg;
		msr->r_err = 0;
		return true;
	}
	return false;
}

static long do_msgsnd(int msqid, long mtype, const char __user *mtext, size_t msgsz, int msgflg)
{
	struct msg_queue *msq;
	struct msg_msg *msg;
	long err;

	if (msgsz > MSGMAX || (long)msgsz < 0 || msqid < 0)
		return -EINVAL;
	if (mtype < 1)
		return -EINVAL;
	msg = kmalloc(sizeof(*msg) + msgsz);
	if (copy_from_user(msg->m_text, (const void __user *)mtext, msgsz)) {
		free_msg(msg);
		return -EFAULT;
	}
	msg->m_type = mtype;
	msg->m_ts = msgsz;

	msq = msq_obtain_object_check(msqid);
	if (!msq) {
		free_msg(msg);
		return -EINVAL;
	}
	for (;;) {
		struct msg_sender s = { .tsk = current, .msgsz = msgsz, .queued = true };

		err = -EACCES;
		if (ipcperms(&msq->q_perm, S_IWUGO))
			goto out;
		if (msg_fits_inqueue(msq, msgsz))
			break;
		err = -EAGAIN;
		if (msgflg & IPC_NOWAIT)
			goto out;
		set_current_state(TASK_INTERRUPTIBLE);
		list_add_tail(&s.list, &msq->q_senders);
		if (!signal_pending(current))
			schedule();
		set_current_state(TASK_RUNNING);
		/* freeque took us off before it freed msq */
		err = -EIDRM;
		if (!s.queued)
			goto out;
		list_del_init(&s.list);
		err = -ERESTARTNOHAND;
		if (signal_pending(current))
			goto out;
	}
	msq->q_lspid = current->tgid;
	msq->q_stime = ipc_seconds();
	if (!pipelined_send(msq, msg)) {
		list_add_tail(&msg->m_list, &msq->q_messages);
		msq->q_cbytes += msgsz;
		msq->q_qnum++;
		msg_hdrs++;
		msg_bytes += msgsz;
	}
	return 0;
out:
	free_msg(msg);
	return err;
}

long sys_msgsnd(int msqid, const void __user *umsgp, size_t msgsz, int msgflg)
{
	const struct msgbuf_user __user *msgp = umsgp;
	long mtype;

	if (copy_from_user(&mtype, &msgp->mtype, sizeof(mtype)))
		return -EFAULT;
	return do_msgsnd(msqid, mtype, msgp->mtext, msgsz, msgflg);
}

static int convert_mode(long *msgtyp, int msgflg)
{
	if (msgflg & MSG_COPY)
		return SEARCH_NUMBER;
	if (*msgtyp == 0)
		return SEARCH_ANY;
	if (*msgtyp < 0) {
		*msgtyp = *msgtyp == INT64_MIN ? INT64_MAX : -*msgtyp;
		return SEARCH_LESSEQUAL;
	}
	if (msgflg & MSG_EXCEPT)
		return SEARCH_NOTEQUAL;
	return SEARCH_EQUAL;
}

/* The first message that matches; for SEARCH_LESSEQUAL the first of the
 * lowest type; for SEARCH_NUMBER the msgtyp-th. */
static struct msg_msg *find_msg(struct msg_queue *msq, long *msgtyp, int mode)
{
	struct msg_msg *msg, *found = NULL;
	long count = 0;

	list_for_each_entry(msg, &msq->q_messages, m_list) {
		if (!testmsg(msg, *msgtyp, mode))
			continue;
		if (mode == SEARCH_LESSEQUAL && msg->m_type != 1) {
			*msgtyp = msg->m_type - 1;
			found = msg;
		} else if (mode == SEARCH_NUMBER) {
			if (*msgtyp == count)
				return msg;
		} else {
			return msg;
		}
		count++;
	}
	return found;
}

static long do_msgrcv(int msqid, struct msgbuf_user __user *buf, size_t bufsz, long msgtyp,
		      int msgflg)
{
	struct msg_queue *msq;
	struct msg_msg *msg = NULL;
	size_t copy_max = 0;
	bool copy = msgflg & MSG_COPY;
	long err;
	int mode;

	if (msqid < 0 || (long)bufsz < 0)
		return -EINVAL;
	if (copy) {
		if ((msgflg & MSG_EXCEPT) || !(msgflg & IPC_NOWAIT))
			return -EINVAL;
		copy_max = min(bufsz, (size_t)MSGMAX);
	}
	mode = convert_mode(&msgtyp, msgflg);
	msq = msq_obtain_object_check(msqid);
	if (!msq)
		return -EINVAL;
	for (;;) {
		struct msg_receiver msr = { .r_tsk = current, .r_err = -EAGAIN };

		if (ipcperms(&msq->q_perm, S_IRUGO))
			return -EACCES;
		msg = find_msg(msq, &msgtyp, mode);
		if (msg) {
			if (bufsz < msg->m_ts && !(msgflg & MSG_NOERROR))
				return -E2BIG;
			if (copy) {
				if (msg->m_ts > copy_max)
					return -EINVAL;
				break;
			}
			list_del_init(&msg->m_list);
			msq->q_qnum--;
			msq->q_rtime = ipc_seconds();
			msq->q_lrpid = current->tgid;
			msq->q_cbytes -= msg->m_ts;
			msg_hdrs--;
			msg_bytes -= msg->m_ts;
			ss_wakeup(msq, false);
			break;
		}
		if (msgflg & IPC_NOWAIT)
			return -ENOMSG;
		msr.r_msgtype = msgtyp;
		msr.r_mode = mode;
		msr.r_maxsize = (msgflg & MSG_NOERROR) ? INT32_MAX : bufsz;
		set_current_state(TASK_INTERRUPTIBLE);
		list_add_tail(&msr.r_list, &msq->q_receivers);
		if (!signal_pending(current))
			schedule();
		set_current_state(TASK_RUNNING);
		if (msr.r_err != -EAGAIN) {
			/* a sender handed us msg, or freeque or a sender's
			 * E2BIG took us off; msq may be gone */
			if (msr.r_err)
				return msr.r_err;
			msg = msr.r_msg;
			break;
		}
		list_del_init(&msr.r_list);
		if (signal_pending(current))
			return -ERESTARTNOHAND;
	}

	bufsz = min(bufsz, msg->m_ts);
	err = (long)bufsz;
	if (put_user(msg->m_type, &buf->mtype) || copy_to_user(buf->mtext, msg->m_text, bufsz))
		err = -EFAULT;	/* the message is lost, as on Linux */
	if (!copy)
		free_msg(msg);
	return err;
}

long sys_msgrcv(int msqid, void __user *msgp, size_t msgsz, long msgtyp, int msgflg)
{
	return do_msgrcv(msqid, msgp, msgsz, msgtyp, msgflg);
}

static int msgctl_info(int cmd, struct msginfo *msginfo)
{
	int max_idx = ipc_get_maxidx(&msg_ids);

	memset(msginfo, 0, sizeof(*msginfo));
	msginfo->msgmni = MSGMNI;
	msginfo->msgmax = MSGMAX;
	msginfo->msgmnb = MSGMNB;
	msginfo->msgssz = MSGSSZ;
	msginfo->msgseg = MSGSEG;
	if (cmd == MSG_INFO) {
		msginfo->msgpool = msg_ids.in_use;
		msginfo->msgmap = (int)min(msg_hdrs, (unsigned long)INT32_MAX);
		msginfo->msgtql = (int)min(msg_bytes, (unsigned long)INT32_MAX);
	} else {
		msginfo->msgmap = MSGMAP;
		msginfo->msgpool = MSGPOOL;
		msginfo->msgtql = MSGTQL;
	}
	return max_idx < 0 ? 0 : max_idx;
}

static int msgctl_stat(int msqid, int cmd, struct msqid64_ds *p)
{
	struct kern_ipc_perm *ipcp;
	struct msg_queue *msq;

	memset(p, 0, sizeof(*p));
	if (cmd == MSG_STAT || cmd == MSG_STAT_ANY)
		ipcp = ipc_obtain_object_idr(&msg_ids, msqid);
	else
		ipcp = ipc_obtain_object_check(&msg_ids, msqid);
	if (!ipcp)
		return -EINVAL;
	msq = container_of(ipcp, struct msg_queue, q_perm);
	if (cmd != MSG_STAT_ANY && ipcperms(ipcp, S_IRUGO))
		return -EACCES;
	kernel_to_ipc64_perm(ipcp, &p->msg_perm);
	p->msg_stime = msq->q_stime;
	p->msg_rtime = msq->q_rtime;
	p->msg_ctime = msq->q_ctime;
	p->msg_cbytes = msq->q_cbytes;
	p->msg_qnum = msq->q_qnum;
	p->msg_qbytes = msq->q_qbytes;
	p->msg_lspid = msq->q_lspid;
	p->msg_lrpid = msq->q_lrpid;
	return cmd == IPC_STAT ? 0 : ipcp->id;
}

static long msgctl_down(int msqid, int cmd, struct msqid64_ds *in)
{
	struct kern_ipc_perm *ipcp;
	struct msg_queue *msq;
	int err;

	ipcp = ipcctl_obtain_check(&msg_ids, msqid, &err);
	if (!ipcp)
		return err;
	msq = container_of(ipcp, struct msg_queue, q_perm);
	switch (cmd) {
	case IPC_RMID:
		freeque(msq);
		return 0;
	case IPC_SET:
		if (in->msg_qbytes > MSGMNB && !capable(CAP_SYS_RESOURCE))
			return -EPERM;
		if (in->msg_perm.uid == (uid_t)-1 || in->msg_perm.gid == (gid_t)-1)
			return -EINVAL;
		ipc_update_perm(&in->msg_perm, ipcp);
		msq->q_qbytes = in->msg_qbytes;
		msq->q_ctime = ipc_seconds();
		/* receivers look at their permission again, senders at the size */
		expunge_all(msq, -EAGAIN);
		ss_wakeup(msq, false);
		return 0;
	}
	return -EINVAL;
}

long sys_msgctl(int msqid, int cmd, void __user *buf)
{
	struct msqid64_ds msqid64;
	struct msginfo msginfo;
	int err;

	if (msqid < 0 || cmd < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case MSG_INFO:
		err = msgctl_info(cmd, &msginfo);
		if (copy_to_user(buf, &msginfo, sizeof(msginfo)))
			return -EFAULT;
		return err;
	case MSG_STAT:
	case MSG_STAT_ANY:
	case IPC_STAT:
		err = msgctl_stat(msqid, cmd, &msqid64);
		if (err < 0)
			return err;
		if (copy_to_user(buf, &msqid64, sizeof(msqid64)))
			return -EFAULT;
		return err;
	case IPC_SET:
		if (copy_from_user(&msqid64, buf, sizeof(msqid64)))
			return -EFAULT;
		return msgctl_down(msqid, cmd, &msqid64);
	case IPC_RMID:
		return msgctl_down(msqid, cmd, NULL);
	}
	return -EINVAL;
}

int sysvipc_msg_show(char *buf, size_t size)
{
	int n = ksnprintf(buf, size, "       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  cgid      stime      rtime      ctime\n");
	int idx;

	for (idx = 0; idx <= msg_ids.max_idx; idx++) {
		struct kern_ipc_perm *p = ipc_obtain_object_idr(&msg_ids, idx);
		struct msg_queue *msq;

		if (!p || (size_t)n >= size)
			continue;
		msq = container_of(p, struct msg_queue, q_perm);
		n += ksnprintf(buf + n, size - n,
			       "%10d %10d  %4o  %10lu %10lu %5u %5u %5u %5u %5u %5u %10ld %10ld %10ld\n",
			       p->key, p->id, p->mode, msq->q_cbytes, msq->q_qnum, msq->q_lspid,
			       msq->q_lrpid, p->uid, p->gid, p->cuid, p->cgid, msq->q_stime,
			       msq->q_rtime, msq->q_ctime);
	}
	return n;
}
