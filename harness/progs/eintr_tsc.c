/*
 * eintr_tsc: a program no --clock=virtual run repeats: it prints the host's
 * time-stamp counter (rdtsc runs in user mode, unseen by umk). umk-eintr
 * must refuse to sweep it (tests/umk_eintr.bats).
 */
#include <stdio.h>
#include <x86intrin.h>

int main(void)
{
	printf("tsc %llu\n", (unsigned long long)__rdtsc());
	return 0;
}
