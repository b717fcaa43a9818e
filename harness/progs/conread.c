/*
 * conread: read standard input while a thread keeps working.
 *
 * A thread prints "tick 1".."tick 4" at 50 ms intervals while the main
 * thread blocks in read(0). Under umk the read must sleep in the kernel and
 * be woken by console input (host SIGIO), not block umk in a host read: if
 * it did, no tick would come before the input. Feed it with
 * `(sleep 0.3; echo hello) | conread`.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void *ticker(void *arg)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	char line[16];
	int i;

	for (i = 1; i <= 4; i++) {
		nanosleep(&ts, NULL);
		snprintf(line, sizeof(line), "tick %d\n", i);
		write(1, line, strlen(line));
	}
	return NULL;
}

int main(void)
{
	char buf[64], line[96];
	pthread_t t;
	ssize_t n;

	pthread_create(&t, NULL, ticker, NULL);
	n = read(0, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	snprintf(line, sizeof(line), "read %zd \"%s\"\n", n, buf);
	write(1, line, strlen(line));
	n = read(0, buf, sizeof(buf));
	snprintf(line, sizeof(line), "read %zd at end of input\n", n);
	write(1, line, strlen(line));
	pthread_join(t, NULL);
	return 0;
}
