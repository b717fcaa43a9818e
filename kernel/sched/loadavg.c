/*
 * kernel/sched/loadavg.c: the load average (Linux's kernel/sched/loadavg.c).
 *
 * Every LOAD_FREQ the number of runnable tasks (running or on the
 * runqueue) is folded into three exponentially decaying averages, fixed
 * point with FSHIFT bits. Linux folds from the tick; umk folds when it
 * next schedules (or sysinfo asks), once per period passed, with the
 * count as it stands: it changes only when a task sleeps, wakes or exits,
 * and each of those reaches schedule() at once.
 */
#include <umk/sched.h>
#include <umk/timer.h>

#include "sched.h"
#define FSHIFT 11
#define FIXED_1 (1UL << FSHIFT)
#define LOAD_FREQ (5 * NSEC_PER_SEC)
#define EXP_1 1884UL	/* 1 / exp(5 s / 1 min), fixed point */
#define EXP_5 2014UL
#define EXP_15 2037UL

static unsigned long avenrun[3];
static u64 next_load_fold;

static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

void calc_global_load(u64 now)
{
	unsigned long active;
	int folds = 0;

	if (!next_load_fold)
		next_load_fold = now + LOAD_FREQ;
	if (now < next_load_fold)
		return;
	active = nr_running() * FIXED_1;
	while (now >= next_load_fold) {
		/* After hours without a fold (an idle virtual clock) the
		 * averages have long converged: stop folding. */
		if (++folds <= 3000) {
			avenrun[0] = calc_load(avenrun[0], EXP_1, active);
			avenrun[1] = calc_load(avenrun[1], EXP_5, active);
			avenrun[2] = calc_load(avenrun[2], EXP_15, active);
		}
		next_load_fold += LOAD_FREQ;
		if (folds > 3000)
			next_load_fold = now - now % LOAD_FREQ + LOAD_FREQ;
	}
}

void get_avenrun(unsigned long loads[3])
{
	int i;

	calc_global_load(ktime_get());
	for (i = 0; i < 3; i++)
		loads[i] = avenrun[i] << (16 - FSHIFT);	/* SI_LOAD_SHIFT */
}
