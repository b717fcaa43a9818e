/* The flags futex_wait keeps, also in restart_block.futex.flags
 * (kernel/futex/futex.h); futex(2)'s operations are in uapi/futex.h. */
#ifndef UMK_FUTEX_H
#define UMK_FUTEX_H

#include <umk/uapi/futex.h>

#define FLAGS_SHARED 0x01		/* no FUTEX_PRIVATE_FLAG */
#define FLAGS_CLOCKRT 0x02		/* the deadline is on CLOCK_REALTIME */
#define FLAGS_HAS_TIMEOUT 0x04		/* restart_block.futex.time is set */

struct task_struct;
/* A thread leaves its memory (exit) or replaces it (exec): the futexes on
 * its robust list that it still holds are marked FUTEX_OWNER_DIED and a
 * waiter is woken (kernel/futex.c). */
void futex_exit_release(struct task_struct *tsk);
void futex_exec_release(struct task_struct *tsk);

#endif
