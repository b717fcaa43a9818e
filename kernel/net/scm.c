/*
 * kernel/net/scm.c: control messages of AF_UNIX (Linux's net/core/scm.c):
 * sendmsg's SCM_RIGHTS and SCM_CREDENTIALS parsed into a struct
 * scm_cookie (scm_send), the list of files a message carries
 * (scm_fp_list: scm_fp_dup, scm_fp_free) and recvmsg's SCM_RIGHTS
 * installed in the receiver (scm_detach_fds). af_unix.c attaches the
 * cookie's contents to a message and hands them back on receive
 * (unix_scm_to_skb, scm_recv); put_cmsg is socket.c's. Declared in
 * kernel/net/af_unix.h.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/net.h>
#include <umk/sched.h>

#include "af_unix.h"

void scm_fp_free(struct scm_fp_list *fpl)
{
	int i;

	if (!fpl)
		return;
	for (i = 0; i < fpl->count; i++)
		fput(fpl->fp[i]);
	kfree(fpl);
}

struct scm_fp_list *scm_fp_dup(const struct scm_fp_list *fpl)
{
	struct scm_fp_list *dup;
	int i;

	if (!fpl)
		return NULL;
	dup = kmalloc(sizeof(*dup));
	dup->count = fpl->count;
	for (i = 0; i < fpl->count; i++)
		dup->fp[i] = get_file(fpl->fp[i]);
	return dup;
}

/* Linux's scm_check_creds: one's own ids, or the capability. */
static int scm_check_creds(const struct ucred *uc)
{
	const struct cred *c = &current->cred;

	if ((uc->pid == (u32)current->tgid || capable(CAP_SYS_ADMIN)) &&
	    (uc->uid == c->uid || uc->uid == c->euid || uc->uid == c->suid ||
	     capable(CAP_SETUID)) &&
	    (uc->gid == c->gid || uc->gid == c->egid || uc->gid == c->sgid ||
	     capable(CAP_SETGID)))
		return 0;
	return -EPERM;
}

/* SCM_RIGHTS's fds: a reference to each file (Linux's scm_fp_copy). */
static int scm_fp_copy(const struct cmsghdr *cmsg, struct scm_fp_list **fplp)
{
	const int *fdp = (const int *)((const char *)cmsg + CMSG_ALIGN(sizeof(*cmsg)));
	int num = (cmsg->cmsg_len - sizeof(*cmsg)) / sizeof(int);
	struct scm_fp_list *fpl = *fplp;
	int i;

	if (num <= 0)
		return 0;
	if (num > SCM_MAX_FD)
		return -EINVAL;
	if (!fpl)
		fpl = *fplp = kmalloc(sizeof(*fpl));
	if (fpl->count + num > SCM_MAX_FD)
		return -EINVAL;
	for (i = 0; i < num; i++) {
		struct file *f = fdp[i] < 0 ? NULL : fget_raw(fdp[i]);

		if (!f)
			return -EBADF;
		fpl->fp[fpl->count++] = f;
	}
	return 0;
}

/* sendmsg's control messages, in kernel memory (Linux's __scm_send). */
int scm_send(struct msghdr *m, struct scm_cookie *scm)
{
	const char *ctl = (const char *)m->msg_control;
	size_t size = m->msg_controllen, off = 0;
	int err;

	memset(scm, 0, sizeof(*scm));
	if (!ctl || size < sizeof(struct cmsghdr))
		return 0;
	while (off + sizeof(struct cmsghdr) <= size) {
		const struct cmsghdr *cmsg = (const struct cmsghdr *)(ctl + off);

		err = -EINVAL;
		if (cmsg->cmsg_len < sizeof(*cmsg) || cmsg->cmsg_len > size - off)
			goto error;
		if (cmsg->cmsg_level == SOL_SOCKET) {
			switch (cmsg->cmsg_type) {
			case SCM_RIGHTS:
				err = scm_fp_copy(cmsg, &scm->fp);
				if (err)
					goto error;
				break;
			case SCM_CREDENTIALS:
				if (cmsg->cmsg_len != CMSG_LEN(sizeof(struct ucred)))
					goto error;
				memcpy(&scm->creds, (const char *)cmsg + CMSG_ALIGN(sizeof(*cmsg)),
				       sizeof(scm->creds));
				err = scm_check_creds(&scm->creds);
				if (err)
					goto error;
				scm->has_creds = true;
				break;
			default:
				goto error;
			}
		}
		off += CMSG_ALIGN(cmsg->cmsg_len);
	}
	return 0;
error:
	scm_fp_free(scm->fp);
	scm->fp = NULL;
	return err;
}

/* Install the files of fpl in the receiver, as many as fit in its control
 * buffer, in one SCM_RIGHTS message (Linux's scm_detach_fds); the rest
 * are dropped with MSG_CTRUNC. */
int scm_detach_fds(struct msghdr *m, struct scm_fp_list *fpl, int flags)
{
	int fdmax = 0, fds[SCM_MAX_FD], i, err = 0;

	if (m->msg_control_is_user && m->msg_control && m->msg_controllen > sizeof(struct cmsghdr))
		fdmax = (m->msg_controllen - sizeof(struct cmsghdr)) / sizeof(int);
	for (i = 0; i < fpl->count && i < fdmax; i++) {
		int fd = fd_install_lowest(current->files, fpl->fp[i], 0,
					   flags & MSG_CMSG_CLOEXEC);

		if (fd < 0) {
			err = fd;
			break;
		}
		fds[i] = fd;
		fpl->fp[i] = NULL;	/* the fd has the reference now */
	}
	if (i > 0)
		err = put_cmsg(m, SOL_SOCKET, SCM_RIGHTS, i * sizeof(int), fds) ?: err;
	if (i < fpl->count)
		m->msg_flags |= MSG_CTRUNC;
	for (; i < fpl->count; i++)
		fput(fpl->fp[i]);
	kfree(fpl);
	return err == -EMFILE ? 0 : err;
}
