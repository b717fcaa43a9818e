/*
 * kernel/drivers/random.c: getrandom (drivers/char/random.c).
 *
 * The bytes are the host's (os_random: the host's getrandom). The host's
 * pool is ready long before umk runs, so umk's is ready from boot: no
 * flag ever makes the call wait or fail with EAGAIN, and GRND_RANDOM,
 * which Linux 5.6 made the same as the default pool, changes nothing.
 */
#include <umk/errno.h>
#include <umk/os.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/random.h>

#define MAX_RW_COUNT (0x7fffffffL & ~(PAGE_SIZE - 1))	/* INT_MAX & PAGE_MASK */

/* Insecure and blocking at once makes no sense (EINVAL, as Linux). A
 * buffer that faults part way gives the bytes written before the fault;
 * a signal pending at a page boundary ends a long read early. */
long sys_getrandom(char __user *buf, size_t count, unsigned int flags)
{
	static unsigned char block[PAGE_SIZE];	/* one CPU: one caller at a time */
	size_t done = 0;

	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & (GRND_INSECURE | GRND_RANDOM)) == (GRND_INSECURE | GRND_RANDOM))
		return -EINVAL;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	if (!access_ok(buf, count))
		return -EFAULT;
	while (done < count) {
		size_t n = min(count - done, sizeof(block)), left;

		os_random(block, n);
		left = copy_to_user(buf + done, block, n);
		done += n - left;
		if (left || (done < count && signal_pending(current)))
			break;
	}
	memset(block, 0, sizeof(block));
	return done ? (long)done : (count ? -EFAULT : 0);
}
