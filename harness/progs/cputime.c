/*
 * cputime: user time and system time told apart (tests/cputime.bats), as
 * shapes that hold natively and under umk alike, never values: a program
 * spinning in user space has far more user time than system time, one
 * making many cheap system calls has system time, in getrusage, times(),
 * /proc/self/stat and a reaped child's wait4 rusage; ITIMER_VIRTUAL counts
 * user time only (a blocking sleep does not move it), ITIMER_PROF user and
 * system time.
 *
 * Sections: user, syscalls, child, virtual, prof, kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static long tv_ms(struct timeval tv)
{
	return tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static long tv_us(struct timeval tv)
{
	return tv.tv_sec * 1000000 + tv.tv_usec;
}

/* Spin in user space until the thread's user time has grown by ms (or 20 s
 * of wall time pass: a kernel that counts none). CPU time, not wall time,
 * so that a loaded machine cannot make the spin short: between two looks
 * at getrusage, a million iterations without a system call. */
static void spin_user_ms(long ms)
{
	double end = now_ms() + 20000;
	struct rusage r0, r;

	getrusage(RUSAGE_THREAD, &r0);
	do {
		for (volatile long i = 0; i < 1000000; i++)
			;
		getrusage(RUSAGE_THREAD, &r);
	} while (tv_ms(r.ru_utime) - tv_ms(r0.ru_utime) < ms && now_ms() < end);
}

/* Cheap system calls until the process's system time reaches ms, or 20 s
 * of wall time pass (a kernel that counts none). */
static void syscalls_until_stime_ms(long ms)
{
	double end = now_ms() + 20000;
	struct rusage r;

	do {
		for (int i = 0; i < 2000; i++)
			rsys0(SYS_getppid);
		getrusage(RUSAGE_SELF, &r);
	} while (tv_ms(r.ru_stime) < ms && now_ms() < end);
}

/* utime and stime of /proc/self/stat (fields 14 and 15), in ticks. */
static void proc_stat_times(long *utime, long *stime)
{
	char line[1024];
	long f[64];
	int fd = open("/proc/self/stat", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, line, sizeof(line) - 1);

	if (n <= 0)
		die("cannot read /proc/self/stat");
	close(fd);
	line[n] = '\0';
	if (stat_fields(line, f) < 12)
		die("short /proc/self/stat: %s", line);
	*utime = f[14 - 4];
	*stime = f[15 - 4];
}

static void user(void)
{
	struct rusage self, thread;
	struct tms t;
	long ut, st;

	spin_user_ms(400);
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_THREAD, &thread);
	check("getrusage(RUSAGE_SELF): utime >= 200 ms", tv_ms(self.ru_utime) >= 200);
	check("getrusage(RUSAGE_SELF): stime < utime / 4",
	      tv_us(self.ru_stime) < tv_us(self.ru_utime) / 4);
	check("getrusage(RUSAGE_THREAD): utime >= 200 ms", tv_ms(thread.ru_utime) >= 200);
	check("getrusage(RUSAGE_THREAD): stime < utime / 4",
	      tv_us(thread.ru_stime) < tv_us(thread.ru_utime) / 4);
	times(&t);
	check("times: tms_utime >= 20 ticks", t.tms_utime >= 20);
	check("times: tms_stime < tms_utime / 4", t.tms_stime < t.tms_utime / 4);
	proc_stat_times(&ut, &st);
	check("/proc/self/stat: utime >= 20 ticks", ut >= 20);
	check("/proc/self/stat: stime < utime / 4", st < ut / 4);
}

static void syscalls(void)
{
	struct rusage self;
	struct tms t;
	long ut, st;

	syscalls_until_stime_ms(50);
	getrusage(RUSAGE_SELF, &self);
	check("getrusage(RUSAGE_SELF): stime >= 50 ms", tv_ms(self.ru_stime) >= 50);
	times(&t);
	check("times: tms_stime >= 5 ticks", t.tms_stime >= 5);
	proc_stat_times(&ut, &st);
	check("/proc/self/stat: stime >= 5 ticks", st >= 5);
}

/* A reaped child's times: wait4's rusage, RUSAGE_CHILDREN, times()'s
 * tms_cutime and tms_cstime. */
static void child(void)
{
	struct rusage r, children;
	struct tms t;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", errno_name(errno));
	if (pid == 0) {
		spin_user_ms(200);
		syscalls_until_stime_ms(50);
		_exit(0);
	}
	if (wait4(pid, &status, 0, &r) != pid)
		die("wait4: %s", errno_name(errno));
	check("wait4's rusage: utime >= 100 ms", tv_ms(r.ru_utime) >= 100);
	check("wait4's rusage: stime >= 50 ms", tv_ms(r.ru_stime) >= 50);
	getrusage(RUSAGE_CHILDREN, &children);
	check("getrusage(RUSAGE_CHILDREN): the same utime",
	      tv_us(children.ru_utime) == tv_us(r.ru_utime));
	check("getrusage(RUSAGE_CHILDREN): the same stime",
	      tv_us(children.ru_stime) == tv_us(r.ru_stime));
	times(&t);
	check("times: tms_cutime >= 10 ticks", t.tms_cutime >= 10);
	check("times: tms_cstime >= 5 ticks", t.tms_cstime >= 5);
}

static volatile sig_atomic_t fired;

static void on_signal(int sig)
{
	(void)sig;
	fired = 1;
}

/* Spin in user space until a signal comes, or 10 s of wall time pass. */
static int spin_until_fired(void)
{
	double end = now_ms() + 10000;
	struct timespec t;

	while (!fired && now_ms() < end)
		for (int i = 0; i < 1000 && !fired; i++)
			clock_gettime(CLOCK_MONOTONIC, &t);
	return fired;
}

static void arm(int which, long ms)
{
	struct itimerval v = { .it_value = { ms / 1000, ms % 1000 * 1000 } };

	fired = 0;
	if (setitimer(which, &v, NULL))
		die("setitimer: %s", errno_name(errno));
}

static void virtual(void)
{
	struct timespec ts = { 0, 300 * 1000000 };
	struct itimerval left;

	signal(SIGVTALRM, on_signal);
	arm(ITIMER_VIRTUAL, 50);
	nanosleep(&ts, NULL);
	check("ITIMER_VIRTUAL of 50 ms: no SIGVTALRM during a 300 ms sleep", !fired);
	getitimer(ITIMER_VIRTUAL, &left);
	check("ITIMER_VIRTUAL: more than 25 ms left after the sleep", tv_ms(left.it_value) > 25);
	check("ITIMER_VIRTUAL: SIGVTALRM once the process spins", spin_until_fired());
	getitimer(ITIMER_VIRTUAL, &left);
	check("ITIMER_VIRTUAL: disarmed after firing", tv_us(left.it_value) == 0);
}

/* Both CPU-time interval timers armed far off, then system calls: only
 * ITIMER_PROF's clock counts their system time. */
static void kernel_time(void)
{
	struct itimerval v = { .it_value = { 100, 0 } }, virt, prof;
	struct rusage r0, r;
	long used_virt, used_prof, user, sys;

	getrusage(RUSAGE_SELF, &r0);
	setitimer(ITIMER_VIRTUAL, &v, NULL);
	setitimer(ITIMER_PROF, &v, NULL);
	syscalls_until_stime_ms(tv_ms(r0.ru_stime) + 60);
	getitimer(ITIMER_VIRTUAL, &virt);
	getitimer(ITIMER_PROF, &prof);
	getrusage(RUSAGE_SELF, &r);
	used_virt = 100000 - tv_ms(virt.it_value);
	used_prof = 100000 - tv_ms(prof.it_value);
	user = tv_ms(r.ru_utime) - tv_ms(r0.ru_utime);
	sys = tv_ms(r.ru_stime) - tv_ms(r0.ru_stime);
	check("ITIMER_VIRTUAL: system time not counted", used_virt < user + sys / 2);
	check("ITIMER_PROF: system time counted", used_prof > user + sys / 2);
}

static void prof(void)
{
	struct timespec ts = { 0, 300 * 1000000 };

	signal(SIGPROF, on_signal);
	arm(ITIMER_PROF, 50);
	nanosleep(&ts, NULL);
	check("ITIMER_PROF of 50 ms: no SIGPROF during a 300 ms sleep", !fired);
	check("ITIMER_PROF: SIGPROF once the process spins", spin_until_fired());
}

int main(int argc, char **argv)
{
	static const struct section section[] = {
		{ "user", user }, { "syscalls", syscalls }, { "child", child },
		{ "virtual", virtual }, { "prof", prof }, { "kernel", kernel_time },
	};

	return run_sections("cputime", section, sizeof(section) / sizeof(section[0]), argc, argv);
}
