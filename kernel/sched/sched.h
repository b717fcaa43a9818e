/* kernel/sched/sched.h: what the files of kernel/sched/ share and no other
 * folder needs (as Linux's kernel/sched/sched.h). */
#ifndef KERNEL_SCHED_SCHED_H
#define KERNEL_SCHED_SCHED_H

#include <umk/types.h>

/* core.c: the running task and those on the runqueue. */
unsigned long nr_running(void);
/* loadavg.c: fold the load into the averages for each LOAD_FREQ period
 * that ended by now (schedule() calls it). */
void calc_global_load(u64 now);

#endif
