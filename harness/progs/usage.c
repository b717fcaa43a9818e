/*
 * usage: what getrusage, times, wait4's rusage and sysinfo report, as
 * facts that hold natively and under umk alike (tests/dynamic.bats):
 * CPU time counted for the process and for a reaped child that spun, a
 * resident size, the host's RAM in sysinfo, and the errors.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static void spin_ms(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* CPU time, user and system together. */
static long usec(const struct rusage *r)
{
	return (r->ru_utime.tv_sec + r->ru_stime.tv_sec) * 1000000 + r->ru_utime.tv_usec +
	       r->ru_stime.tv_usec;
}

int main(int argc, char **argv)
{
	struct rusage self, children, child;
	struct sysinfo si;
	struct tms tms;
	long ticks;
	int status;
	pid_t pid;

	spin_ms(50);
	getrusage(RUSAGE_SELF, &self);
	printf("self: CPU time >= 40 ms: %s, maxrss > 0: %s\n", usec(&self) >= 40000 ? "yes" : "no",
	       self.ru_maxrss > 0 ? "yes" : "no");
	pid = fork();
	if (pid == 0) {
		spin_ms(50);
		_exit(0);
	}
	if (wait4(pid, &status, 0, &child) != pid)
		die("wait4: %s", errno_name(errno));
	getrusage(RUSAGE_CHILDREN, &children);
	printf("wait4: child's CPU time >= 40 ms: %s\n", usec(&child) >= 40000 ? "yes" : "no");
	printf("children: CPU time >= 40 ms: %s\n", usec(&children) >= 40000 ? "yes" : "no");
	ticks = times(&tms);
	printf("times: ticks > 0: %s, CPU time >= 4 ticks: %s, children's >= 4 ticks: %s\n",
	       ticks > 0 ? "yes" : "no", tms.tms_utime + tms.tms_stime >= 4 ? "yes" : "no",
	       tms.tms_cutime + tms.tms_cstime >= 4 ? "yes" : "no");
	show("getrusage(7)", rsys(SYS_getrusage, 7, &self));
	show("getrusage(SELF, NULL)", rsys(SYS_getrusage, RUSAGE_SELF, NULL));
	if (sysinfo(&si))
		die("sysinfo: %s", errno_name(errno));
	/* the host's RAM, to the byte, both ways */
	printf("sysinfo: totalram %lu, mem_unit %u, procs > 0: %s, uptime > 0: %s\n",
	       si.totalram * si.mem_unit, si.mem_unit > 0 ? 1U : 0U, si.procs > 0 ? "yes" : "no",
	       si.uptime > 0 ? "yes" : "no");
	show("sysinfo(NULL)", rsys(SYS_sysinfo, NULL));
	return 0;
}
