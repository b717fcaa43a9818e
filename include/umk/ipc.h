/* include/umk/ipc.h: what kernel/ipc/ offers the rest of the kernel
 * (Linux's include/linux/sem.h, shm.h, ipc.h): SEM_UNDO's list across fork
 * and exit, and the text of /proc/sysvipc/. */
#ifndef UMK_IPC_H
#define UMK_IPC_H

#include <umk/types.h>

struct task_struct;

/* kernel/ipc/sem.c. A task's SEM_UNDO adjustments (task->sysvsem) are its
 * process's: clone with CLONE_SYSVSEM shares them, any other clone starts
 * without (copy_semundo); the last task of those that share them applies
 * them as it exits (exit_sem, from do_exit). */
void copy_semundo(unsigned long clone_flags, struct task_struct *p);
void exit_sem(struct task_struct *tsk);

/* The text of /proc/sysvipc/msg, sem and shm (a header line, then one line
 * per object, as Linux's sysvipc_*_proc_show), written into buf: the
 * length, as ksnprintf's. */
int sysvipc_msg_show(char *buf, size_t size);
int sysvipc_sem_show(char *buf, size_t size);
int sysvipc_shm_show(char *buf, size_t size);

#endif
