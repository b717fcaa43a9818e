/* pthread: one thread made with the host C library's pthread_create, which
 * glibc makes with clone3 (falling back to clone on ENOSYS), and joined
 * (tests/clone3.bats traces it with strace, natively and under umk). */
#include <pthread.h>
#include <stdio.h>

static void *run(void *arg)
{
	return (char *)arg + 1;
}

int main(void)
{
	static char x[2];
	pthread_t t;
	void *ret;
	int err;

	err = pthread_create(&t, NULL, run, x);
	if (err) {
		fprintf(stderr, "pthread: pthread_create: error %d\n", err);
		return 1;
	}
	pthread_join(t, &ret);
	printf("the thread ran and was joined: %s\n", ret == x + 1 ? "yes" : "no");
	return 0;
}
