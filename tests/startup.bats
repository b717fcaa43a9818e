#!/usr/bin/env bats
# What a C library asks for at program start (harness/progs/startup.c): time,
# getrandom, the robust futex list, rseq and prctl, natively and under umk.

load helper

@test "time returns CLOCK_REALTIME's seconds and stores them, EFAULT for a bad pointer" {
	same_as_native $H/startup time
	assert_line 'time(&t) == t: yes'
	assert_line "time is CLOCK_REALTIME's seconds: yes"
	assert_line 'time(NULL) > 0: yes'
	assert_line 'time(bad pointer) = -1 EFAULT'
}

@test "getrandom fills the buffer for every valid flag and refuses unknown flags and INSECURE|RANDOM" {
	same_as_native $H/startup getrandom
	assert_output 'getrandom(64, 0) = 64
getrandom(64, GRND_NONBLOCK) = 64
two draws differ: yes
getrandom(64, GRND_RANDOM) = 64
getrandom(64, GRND_INSECURE) = 64
getrandom(64, GRND_INSECURE|GRND_RANDOM) = -1 EINVAL
getrandom(64, 8) = -1 EINVAL
getrandom(0, 0) = 0
getrandom(NULL, 16, 0) = -1 EFAULT
getrandom(100000 bytes, 0) = 100000'
}

@test "a robust list is registered and read back, and the kernel marks the futexes a dead holder owned" {
	same_as_native $H/startup robust
	assert_output 'set_robust_list(head, 23) = -1 EINVAL
set_robust_list(head, 24) = 0
get_robust_list(0, &head, &len) = 0
got our head back: yes, len 24
get_robust_list(99999, ...) = -1 ESRCH
get_robust_list(0, bad, &len) = -1 EFAULT
child: exit 0
held lock: owner died, waiters kept, tid gone: yes (0xc0000000)
lock of another tid untouched: yes
free pending lock untouched: yes
child with a misaligned list: exit 0'
}

@test "rseq registers with Linux's errors, reports CPU 0, aborts a critical section a signal lands in, and unregisters" {
	same_as_native -p $H/startup rseq
	assert_output 'rseq(misaligned, 32) = -1 EINVAL
rseq(area, 31) = -1 EINVAL
rseq(area, 32, flags 2) = -1 EINVAL
rseq(NULL, 32) = -1 EFAULT
rseq(area, 32) = 0
cpu_id is getcpu'"'"'s: yes, cpu_id_start == cpu_id: yes, node_id is getcpu'"'"'s: yes
mm_cid of a lone thread: 0, stale rseq_cs cleared: yes
rseq(area, 32) again = -1 EBUSY
rseq(area, 32) again, another signature = -1 EPERM
rseq(another area, 32) = -1 EINVAL
a signal in the critical section aborts it: yes
rseq_cs cleared after the abort: yes
unregister, another signature = -1 EPERM
unregister, length 64 = -1 EINVAL
unregister, flags 3 = -1 EINVAL
unregister = 0
cpu_id after unregistration: -1
unregister again = -1 EINVAL'
}

@test "exec drops an rseq registration" {
	same_as_native $H/startup rseq-exec
	assert_output 'rseq(area, 32) = 0
rseq(area, 32) after exec = 0'
}

@test "prctl: a name is cut to 15 bytes and is per thread; the death signal and dumpable flag round-trip" {
	same_as_native $H/startup prctl
	assert_output 'prctl(PR_SET_NAME, "a-name-of-24-characters") = 0
prctl(PR_GET_NAME) = 0
name: "a-name-of-24-ch", byte 16 untouched: yes
prctl(PR_SET_NAME, bad) = -1 EFAULT
prctl(PR_GET_NAME, bad) = -1 EFAULT
a thread names itself "worker", the main thread stays "a-name-of-24-ch"
prctl(PR_GET_PDEATHSIG) = 0
death signal: 0
prctl(PR_SET_PDEATHSIG, 65) = -1 EINVAL
prctl(PR_SET_PDEATHSIG, SIGUSR1) = 0
death signal: SIGUSR1
prctl(PR_GET_PDEATHSIG, bad) = -1 EFAULT
prctl(PR_GET_DUMPABLE) = 1
prctl(PR_SET_DUMPABLE, 2) = -1 EINVAL
prctl(PR_SET_DUMPABLE, 0) = 0
prctl(PR_GET_DUMPABLE) = 0
prctl(PR_SET_DUMPABLE, 1) = 0
prctl(12345) = -1 EINVAL'
}

@test "PR_SET_PDEATHSIG: the signal comes when the parent process dies" {
	same_as_native $H/startup pdeath
	assert_output 'middle: exit 0
grandchild: SIGUSR1 came after the parent died: yes'
}

@test "the name a program gives itself is the name the timeline labels its lane with" {
	require_umk
	umk --trace=$BATS_TEST_TMPDIR/t.jsonl --trace-format=json $H/startup prctl
	run $H/umk-trace timeline $BATS_TEST_TMPDIR/t.jsonl
	assert_success
	assert_output --partial 'a-name-of-24-ch'
}

@test "a static glibc program starts: glibc's set_robust_list and rseq succeed in every thread, and sched_getcpu says CPU 0" {
	require_umk
	cat >"$BATS_TEST_TMPDIR/g.c" <<'C'
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/auxv.h>

static void *thread(void *arg)
{
	printf("thread: cpu %d\n", sched_getcpu());
	return arg;
}

int main(void)
{
	pthread_t t;

	printf("main: cpu %d\n", sched_getcpu());
	pthread_create(&t, NULL, thread, NULL);
	pthread_join(t, NULL);
	return 0;
}
C
	gcc -static -O1 -o "$BATS_TEST_TMPDIR/g" "$BATS_TEST_TMPDIR/g.c" -lpthread ||
		skip "no static glibc to link with (libc6-dev)"
	same_as_native -p --trace "$BATS_TEST_TMPDIR/g"
	assert_output 'main: cpu 0
thread: cpu 0'
	run untimed "$stderr"
	assert_line '1 exit set_robust_list = 0'
	assert_line --regexp '^1 enter rseq\(0x[0-9a-f]+, 32, 0, 0x53053053\)$'
	assert_line '1 exit rseq = 0'
	assert_line '2 exit set_robust_list = 0'
	assert_line '2 exit rseq = 0'
	refute_line --regexp 'nosys (set_robust_list|rseq|getrandom|prlimit64)'
}
