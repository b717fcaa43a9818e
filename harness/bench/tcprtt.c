/* tcprtt N: make bench's TCP loopback probe (harness/bench/bench.probes).
 * N round trips of a byte between 2 threads over one TCP connection on
 * 127.0.0.1 (TCP_NODELAY on both ends, the port chosen by binding to port
 * 0): ns per round trip; each byte comes back incremented. Under umk each
 * leg is a host send, a host SIGIO to umk, a wake-up and a host recv
 * (kernel/net/af_inet_host.c). A kernel without AF_INET (umk --net=none,
 * a peer without a loopback) prints "n/a". */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"

static long rounds;
static int server_fd;

static void one_byte(int fd, unsigned char *c, int out)
{
	ssize_t r;

	do
		r = out ? send(fd, c, 1, 0) : recv(fd, c, 1, 0);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		die("tcp round trip: %s returned %zd (%s)", out ? "send" : "recv", r,
		    r < 0 ? errno_name(errno) : "end of stream");
}

static void *echoer(void *arg)
{
	unsigned char c;
	long i;

	(void)arg;
	for (i = 0; i < rounds; i++) {
		one_byte(server_fd, &c, 0);
		c++;
		one_byte(server_fd, &c, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l, c, one = 1;
	unsigned char x = 0, back;
	double t0, t1;
	pthread_t t;
	long i;

	if (argc != 2 || (rounds = atol(argv[1])) < 1)
		die("usage: tcprtt N");
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0) {
		printf("tcp loopback: n/a (socket: %s)\n", errno_name(errno));
		return 0;
	}
	if (bind(l, (struct sockaddr *)&a, len) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		die("tcp listener: %s", errno_name(errno));
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, len))
		die("tcp connect: %s", errno_name(errno));
	server_fd = accept(l, NULL, NULL);
	if (server_fd < 0)
		die("tcp accept: %s", errno_name(errno));
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(server_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (pthread_create(&t, NULL, echoer, NULL))
		die("pthread_create");
	t0 = now_ms();
	for (i = 0; i < rounds; i++) {
		one_byte(c, &x, 1);
		one_byte(c, &back, 0);
		if (back != (unsigned char)(x + 1))
			die("tcp round trip %ld: sent %u, got %u back", i, x, back);
		x = back;
	}
	t1 = now_ms();
	pthread_join(t, NULL);
	printf("tcp loopback: %.0f ns/op (%ld round trips between 2 threads)\n",
	       (t1 - t0) * 1e6 / rounds, rounds);
	return 0;
}
