/* sockrtt unix|tcp threads|procs N: make bench's socket probes
 * (harness/bench/bench.probes). N round trips of a byte over one connected
 * stream socket pair, between 2 threads or 2 processes (fork): ns per round
 * trip; each byte comes back incremented.
 *
 *   unix   socketpair(AF_UNIX, SOCK_STREAM): under umk, kernel/net/af_unix_msg.c
 *          end to end, no host call on the way
 *   tcp    a TCP connection on 127.0.0.1 (the port chosen by binding to
 *          port 0, TCP_NODELAY on both ends): under umk each leg is a host
 *          send, a host SIGIO to umk, a wake-up and a host recv
 *          (kernel/net/af_inet_host.c)
 *
 * A kernel without the family (umk --net=none, a peer without a loopback)
 * or without fork prints "NAME: n/a (REASON)" and exits 0; a wrong byte, a
 * short transfer or a child that failed is a harness: line on stderr and
 * status 99 (die), never a figure. */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

static long rounds;
static char name[80];

static void one_byte(int fd, unsigned char *c, int out)
{
	ssize_t r;

	do
		r = out ? send(fd, c, 1, 0) : recv(fd, c, 1, 0);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		die("%s: %s returned %zd (%s)", name, out ? "send" : "recv", r,
		    r < 0 ? errno_name(errno) : "end of stream");
}

/* The far end: N times, a byte in, the byte plus one back. */
static void *echoer(void *arg)
{
	int fd = *(int *)arg;
	unsigned char c;

	for (long i = 0; i < rounds; i++) {
		one_byte(fd, &c, 0);
		c++;
		one_byte(fd, &c, 1);
	}
	return NULL;
}

static void n_a(const char *why, int err)
{
	printf("%s: n/a (%s: %s)\n", name, why, errno_name(err));
	exit(0);
}

/* fd[0] and fd[1]: the two ends of a connected TCP stream on the loopback. */
static void tcp_pair(int fd[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l, one = 1;

	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0)
		n_a("socket", errno);
	if (bind(l, (struct sockaddr *)&a, len) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		die("%s: listener: %s", name, errno_name(errno));
	fd[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fd[0] < 0 || connect(fd[0], (struct sockaddr *)&a, len))
		die("%s: connect: %s", name, errno_name(errno));
	fd[1] = accept(l, NULL, NULL);
	if (fd[1] < 0)
		die("%s: accept: %s", name, errno_name(errno));
	close(l);
	if (setsockopt(fd[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    setsockopt(fd[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		die("%s: TCP_NODELAY: %s", name, errno_name(errno));
}

/* Starts the echoer on fd[1], in a thread or a child; returns the child's
 * pid, or 0 for a thread (joined by finish). */
static pid_t start_echoer(int fd[2], int procs, pthread_t *t)
{
	pid_t pid;

	if (!procs) {
		if (pthread_create(t, NULL, echoer, &fd[1]))
			die("%s: pthread_create failed", name);
		return 0;
	}
	pid = fork();
	if (pid < 0)
		n_a("fork", errno);
	if (pid == 0) {
		close(fd[0]);
		echoer(&fd[1]);
		_exit(0);
	}
	close(fd[1]);
	return pid;
}

static void finish(pid_t pid, pthread_t t)
{
	int status;

	if (pid == 0) {
		pthread_join(t, NULL);
		return;
	}
	if (waitpid(pid, &status, 0) != pid || status != 0)
		die("%s: the echoing child ended with %s", name, status_text(status));
}

int main(int argc, char **argv)
{
	int fd[2], tcp, procs;
	unsigned char x = 0, back;
	pthread_t t = 0;
	double t0, t1;
	pid_t pid;

	if (argc != 4 || (strcmp(argv[1], "unix") && strcmp(argv[1], "tcp")) ||
	    (strcmp(argv[2], "threads") && strcmp(argv[2], "procs")) ||
	    (rounds = atol(argv[3])) < 1)
		die("usage: sockrtt unix|tcp threads|procs N");
	tcp = strcmp(argv[1], "tcp") == 0;
	procs = strcmp(argv[2], "procs") == 0;
	snprintf(name, sizeof(name), "%s round trip between %s", tcp ? "tcp loopback" : "unix stream",
		 procs ? "processes" : "threads");
	if (tcp)
		tcp_pair(fd);
	else if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd))
		n_a("socketpair", errno);

	pid = start_echoer(fd, procs, &t);
	t0 = now_ms();
	for (long i = 0; i < rounds; i++) {
		one_byte(fd[0], &x, 1);
		one_byte(fd[0], &back, 0);
		if (back != (unsigned char)(x + 1))
			die("%s %ld: sent %u, got %u back", name, i, x, back);
		x = back;
	}
	t1 = now_ms();
	finish(pid, t);
	printf("%s: %.0f ns/op (%ld round trips between 2 %s)\n", name, (t1 - t0) * 1e6 / rounds,
	       rounds, procs ? "processes" : "threads");
	return 0;
}
