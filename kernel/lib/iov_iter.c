/*
 * kernel/lib/iov_iter.c: iterating over a program's iovec array (Linux's
 * lib/iov_iter.c): copy_to_iter and copy_from_iter walk the segments and
 * stop at the first byte that faults, and import_iovec reads and checks the
 * array readv and writev are given. An ITER_KVEC iterator walks kernel
 * buffers the same way, with plain copies (sendfile, kernel_read).
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

void iov_iter_init(struct iov_iter *i, const struct iovec *iov, unsigned long nr_segs,
		   size_t count)
{
	i->iter_type = ITER_IOVEC;
	i->iov = iov;
	i->nr_segs = nr_segs;
	i->iov_offset = 0;
	i->count = count;
}

void iov_iter_kvec(struct iov_iter *i, const struct kvec *kvec, unsigned long nr_segs,
		   size_t count)
{
	_Static_assert(sizeof(struct kvec) == sizeof(struct iovec), "kvec and iovec differ");
	iov_iter_init(i, (const struct iovec *)kvec, nr_segs, count);
	i->iter_type = ITER_KVEC;
}

/* The next non-empty piece of the current segment, at most n bytes; steps
 * over exhausted and empty segments. Returns its length (0 when done). */
static size_t iov_iter_piece(struct iov_iter *i, size_t n, char __user **base)
{
	while (i->count && i->iov_offset == i->iov->iov_len) {
		i->iov++;
		i->nr_segs--;
		i->iov_offset = 0;
	}
	if (!i->count)
		return 0;
	*base = (char __user *)i->iov->iov_base + i->iov_offset;
	return min(n, min(i->iov->iov_len - i->iov_offset, i->count));
}

void iov_iter_advance(struct iov_iter *i, size_t n)
{
	i->iov_offset += n;
	i->count -= n;
}

/* Copy n bytes between buf and the iterator's segments (from_user: from
 * the segments into buf), as far as the first byte
 * that faults; the iterator advances past what was copied (Linux's
 * iterate_and_advance). Returns the bytes copied. */
static size_t copy_iter(char *buf, size_t n, struct iov_iter *i, bool from_user)
{
	size_t done = 0;

	while (done < n) {
		char __user *base;
		size_t len = iov_iter_piece(i, n - done, &base);
		size_t left;

		if (!len)
			break;
		if (i->iter_type == ITER_KVEC) {
			if (from_user)
				memcpy(buf + done, (void *)base, len);
			else
				memcpy((void *)base, buf + done, len);
			left = 0;
		} else if (from_user)
			left = copy_from_user(buf + done, base, len);
		else
			left = copy_to_user(base, buf + done, len);
		iov_iter_advance(i, len - left);
		done += len - left;
		if (left)
			break;
	}
	return done;
}

size_t copy_to_iter(const void *src, size_t n, struct iov_iter *i)
{
	return copy_iter((char *)src, n, i, false);
}

size_t copy_from_iter(void *dst, size_t n, struct iov_iter *i)
{
	return copy_iter(dst, n, i, true);
}

/* Linux's import_iovec: copy the user's array into iov (kmalloc'ed, the
 * caller frees it) and check each buffer; the total is clamped to
 * MAX_RW_COUNT by shortening the segment that crosses it. */
long import_iovec(const struct iovec __user *uvec, unsigned long nr_segs,
			 struct iovec **iovp, struct iov_iter *iter)
{
	struct iovec *iov;
	size_t total = 0;
	unsigned long seg;

	*iovp = NULL;
	if (nr_segs > UIO_MAXIOV)
		return -EINVAL;
	iov = kmalloc(nr_segs ? nr_segs * sizeof(*iov) : 1);
	if (nr_segs && copy_from_user(iov, uvec, nr_segs * sizeof(*iov))) {
		kfree(iov);
		return -EFAULT;
	}
	for (seg = 0; seg < nr_segs; seg++) {
		if ((ssize_t)iov[seg].iov_len < 0) {
			kfree(iov);
			return -EINVAL;
		}
	}
	for (seg = 0; seg < nr_segs; seg++) {
		size_t len = iov[seg].iov_len;

		if (len && !access_ok(iov[seg].iov_base, len)) {
			kfree(iov);
			return -EFAULT;
		}
		if (len > MAX_RW_COUNT - total) {
			len = MAX_RW_COUNT - total;
			iov[seg].iov_len = len;
		}
		total += len;
	}
	iov_iter_init(iter, iov, nr_segs, total);
	*iovp = iov;
	return 0;
}
