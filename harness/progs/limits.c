/*
 * limits: what a program meets when it asks for too much.
 *   limits sigqueue   queue real-time signals until sigqueue() fails: it
 *                     must fail with EAGAIN at RLIMIT_SIGPENDING, not
 *                     exhaust the kernel's memory
 *   limits threads    create threads until pthread_create() fails: EAGAIN
 *                     at the kernel's thread limit
 *   limits space [MIB]  map 1 TiB regions, or MIB MiB ones (PROT_NONE,
 *                     nothing touched), until mmap fails: ENOMEM when the
 *                     address space is full (128 TiB natively, umk's user
 *                     window: 64 TiB, 2 GiB in its ASan build), then one
 *                     region given back lets a small mapping in
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"

static void *sleeper(void *arg)
{
	pause();
	return NULL;
}

int main(int argc, char **argv)
{
	long n;

	if (argc > 1 && !strcmp(argv[1], "sigqueue")) {
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGRTMIN);
		sigprocmask(SIG_BLOCK, &set, NULL);
		for (n = 0; n < 1000000; n++)
			if (sigqueue(getpid(), SIGRTMIN, (union sigval){ .sival_int = n }))
				break;
		printf("sigqueue: %s after %s signals\n", n < 1000000 ? errno_name(errno) : "no failure",
		       n >= 10000 ? "more than 10000" : "fewer than 10000");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "threads")) {
		pthread_attr_t attr;
		pthread_t t;
		int err = 0;

		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 16384);
		for (n = 0; n < 1000000; n++) {
			err = pthread_create(&t, &attr, sleeper, NULL);
			if (err)
				break;
		}
		printf("pthread_create: %s after %ld threads\n", err ? errno_name(err) : "no failure", n);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "space")) {
		unsigned long mib = argc > 2 ? strtoul(argv[2], NULL, 0) : 1UL << 20;
		unsigned long size = mib << 20;
		void *last = NULL, *p;

		for (n = 0;; n++) {
			p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				 -1, 0);
			if (p == MAP_FAILED)
				break;
			last = p;
		}
		if (mib % (1UL << 20))
			printf("mmap of %lu MiB: %s after %ld\n", mib, errno_name(errno), n);
		else
			printf("mmap of %lu TiB: %s after %ld\n", mib >> 20, errno_name(errno), n);
		if (!last || munmap(last, size))
			die("munmap: %s", errno_name(errno));
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		printf("after munmap of one, a page: %s\n", p == MAP_FAILED ? errno_name(errno) : "mapped");
		return 0;
	}
	die("usage: limits sigqueue|threads|space [MIB]");
}
