/*
 * eintr_threads: four threads that compute between system calls, for the
 * determinism of --clock=virtual (tests/umk_eintr.bats): each thread runs
 * ROUNDS rounds of some arithmetic, then a few calls (getpid, a mutex that
 * may wait on a futex, a write to a shared pipe); the main thread reads the
 * pipe and prints the totals. Under --clock=virtual its trace, preemptions
 * included, must be the same run after run.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define THREADS 4
#define ROUNDS 300

static int pipefd[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long total;

static void *worker(void *arg)
{
	unsigned long id = (unsigned long)arg, x = id + 1;
	int r, i;

	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < 20000; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
		getpid();
		pthread_mutex_lock(&lock);
		total += x & 0xff;
		pthread_mutex_unlock(&lock);
		if (r % 10 == 0 && write(pipefd[1], "x", 1) != 1)
			exit(1);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	unsigned long i, got = 0;
	char buf[64];
	ssize_t n;

	if (pipe(pipefd))
		return 1;
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 1;
	while (got < THREADS * (ROUNDS / 10) && (n = read(pipefd[0], buf, sizeof(buf))) > 0)
		got += n;
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("eintr_threads: %lu bytes, total %lu\n", got, total);
	return 0;
}
