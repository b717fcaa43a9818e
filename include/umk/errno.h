/* Linux's errno values (in uapi/errno.h) and the kernel-internal restart
 * codes (include/linux/errno.h). A system call returns 0 or a positive
 * value, or -Exxx. The ERESTART* codes never reach user space: the
 * signal code on the way back to user mode turns them into a restart or -EINTR. */
#ifndef UMK_ERRNO_H
#define UMK_ERRNO_H

#include <umk/uapi/errno.h>

#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514	/* restart if no handler */
#define ENOIOCTLCMD 515
#define ERESTART_RESTARTBLOCK 516 /* restart by calling sys_restart_syscall */

#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) ((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)

/* Name of an errno value ("ENOENT", "ERESTARTSYS"), or NULL. */
const char *errno_name(long err);

#endif
