/*
 * conwrite: write megabytes to standard output while a thread keeps a
 * timer schedule.
 *
 * conwrite MB: a writer thread writes MB MiB of a non-repeating pattern to
 * fd 1 in pieces of varying sizes (1 byte to 100000, some with writev),
 * carrying on after short writes and EINTR, while SIGALRM (no SA_RESTART)
 * interrupts every 3 ms. The main thread meanwhile sleeps 100 times to
 * absolute deadlines 10 ms apart and prints on stderr how long the 100
 * ticks took and how late the latest was, then waits for the writer and
 * prints what it wrote. Under umk a stopped reader of fd 1 must put only the
 * writer to sleep: the ticks take about 1 s whatever the reader does. The
 * output's checksum is the same as the program's run natively.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static size_t total;
static unsigned long shorts, eintrs;
static unsigned char buf[100000];

static void on_alrm(int sig)
{
}

/* Byte i of the stream: no period a lost or repeated piece could hide in. */
static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 131 + (i >> 12) * 7 + (i >> 20));
}

/* Write n bytes of the stream from offset off, as one write or a writev of
 * two halves, until all went in. */
static void put(size_t off, size_t n, int vec)
{
	size_t done = 0, i;

	for (i = 0; i < n; i++)
		buf[i] = pattern(off + i);
	while (done < n) {
		ssize_t r;

		if (vec && n - done > 1) {
			size_t half = (n - done) / 2;
			struct iovec iov[2] = {
				{ buf + done, half },
				{ buf + done + half, n - done - half },
			};

			r = writev(1, iov, 2);
		} else {
			r = write(1, buf + done, n - done);
		}
		if (r < 0 && errno == EINTR) {
			eintrs++;
			continue;
		}
		if (r <= 0)
			die("conwrite: write at %zu: %s", off + done, strerror(errno));
		if ((size_t)r < n - done)
			shorts++;
		done += r;
	}
}

static void *writer(void *arg)
{
	static const size_t sizes[] = { 1, 4095, 4096, 4097, 65536, 100000, 777, 8192 };
	size_t off = 0, want = *(size_t *)arg;
	unsigned int k = 0;

	while (off < want) {
		size_t n = sizes[k % (sizeof(sizes) / sizeof(sizes[0]))];

		if (n > want - off)
			n = want - off;
		put(off, n, k % 3 == 2);
		off += n;
		k++;
	}
	total = off;
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alrm };
	struct itimerval it = { { 0, 3000 }, { 0, 3000 } };
	struct timespec t0, next;
	double start, late, worst = 0;
	size_t want = (argc > 1 ? (size_t)atoi(argv[1]) : 4) << 20;
	pthread_t t;
	char line[160];
	int i;

	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART: writes see EINTR */
	if (pthread_create(&t, NULL, writer, &want))
		die("pthread_create failed");
	setitimer(ITIMER_REAL, &it, NULL);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	start = now_ms();
	next = t0;
	for (i = 1; i <= 100; i++) {
		next.tv_nsec += 10 * 1000 * 1000;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		late = now_ms() - (start + i * 10.0);
		if (late > worst)
			worst = late;
	}
	snprintf(line, sizeof(line), "ticks 100 in %d ms, latest %d ms late\n",
		 (int)(now_ms() - start), (int)worst);
	write(2, line, strlen(line));

	pthread_join(t, NULL);
	it = (struct itimerval){ 0 };
	setitimer(ITIMER_REAL, &it, NULL);
	snprintf(line, sizeof(line), "wrote %zu bytes\n", total);
	write(2, line, strlen(line));
	return 0;
}
