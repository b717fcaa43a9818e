/* pipes: data through pipes, counted and checksummed.
 *  1. a child started with posix_spawn whose stdout is the pipe's write end
 *     (dup2 file action) writes 100000 bytes; the parent reads to EOF;
 *  2. the main thread writes 200 KiB (more than a pipe holds, so the writer
 *     must block and wake) to a thread that reads to EOF;
 *  3. EOF and empty-pipe cases: read after all writers closed returns 0. */
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

extern char **environ;

struct sum { unsigned long bytes, check; };

static unsigned char pattern(unsigned long i) { return (unsigned char)(i * 7 + i / 251); }

static void add(struct sum *s, const unsigned char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		s->check = s->check * 31 + buf[i] + (s->bytes + i) % 13;
	s->bytes += n;
}

static struct sum drain(int fd)
{
	struct sum s = { 0, 0 };
	unsigned char buf[3000];	/* odd size: reads split writes */
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		add(&s, buf, n);
	if (n < 0)
		die("read failed");
	return s;
}

static void write_all(int fd, unsigned long total)
{
	unsigned char buf[4096 + 123];
	unsigned long done = 0;

	while (done < total) {
		size_t n = total - done < sizeof(buf) ? total - done : sizeof(buf);

		for (size_t i = 0; i < n; i++)
			buf[i] = pattern(done + i);
		for (size_t off = 0; off < n;) {
			ssize_t w = write(fd, buf + off, n - off);

			if (w <= 0)
				die("write failed");
			off += w;
		}
		done += n;
	}
}

/* The checksum of pattern(0..total-1): what an intact transfer gives. */
static unsigned long expected(unsigned long total)
{
	struct sum s = { 0, 0 };

	for (unsigned long i = 0; i < total; i++) {
		unsigned char b = pattern(i);

		add(&s, &b, 1);
	}
	return s.check;
}

static void *reader(void *arg)
{
	static struct sum s;

	s = drain(*(int *)arg);
	return &s;
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "writer") == 0) {
		write_all(1, strtoul(argv[2], NULL, 0));
		return 0;
	}

	int p[2];
	posix_spawn_file_actions_t fa;
	pid_t pid;
	struct sum s;

	if (pipe(p))
		die("pipe failed");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	posix_spawn_file_actions_addclose(&fa, p[1]);
	fflush(stdout);
	if (posix_spawn(&pid, argv[0], &fa, NULL, (char *[]){ argv[0], "writer", "100000", NULL },
			environ))
		die("posix_spawn failed");
	close(p[1]);
	s = drain(p[0]);
	close(p[0]);
	printf("child through dup2: %lu bytes, checksum %016lx, intact: %s, child %s\n", s.bytes,
	       s.check, s.check == expected(100000) ? "yes" : "no", status_text(wait_status(pid)));

	pthread_t t;
	void *res;

	if (pipe2(p, O_CLOEXEC))
		die("pipe2 failed");
	if (pthread_create(&t, NULL, reader, &p[0]))
		die("pthread_create failed");
	write_all(p[1], 200 * 1024);
	close(p[1]);
	pthread_join(t, &res);
	s = *(struct sum *)res;
	close(p[0]);
	printf("thread: %lu bytes, checksum %016lx, intact: %s\n", s.bytes, s.check,
	       s.check == expected(200 * 1024) ? "yes" : "no");

	char c;

	if (pipe(p))
		die("pipe failed");
	close(p[1]);
	printf("read with no writer left: %zd\n", read(p[0], &c, 1));
	close(p[0]);
	return 0;
}
