/* include/umk/uapi/siginfo.h: si_code values (include/uapi/asm-generic/
 * siginfo.h): who sent a signal, or which fault or child event raised it;
 * and how a timer notifies (sigev_notify). */
#ifndef UMK_UAPI_SIGINFO_H
#define UMK_UAPI_SIGINFO_H

#define SI_USER 0
#define SI_KERNEL 0x80
#define SI_QUEUE -1
#define SI_TIMER -2
#define SI_TKILL -6
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define BUS_ADRERR 2
#define ILL_ILLOPN 2
#define FPE_INTDIV 1
#define TRAP_BRKPT 1
#define TRAP_TRACE 2
#define TRAP_HWBKPT 4
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3
#define CLD_TRAPPED 4
#define CLD_STOPPED 5
#define CLD_CONTINUED 6

/* sigevent's sigev_notify (timer_create) */
#define SIGEV_SIGNAL 0		/* notify via signal */
#define SIGEV_NONE 1		/* other notification: meaningless */
#define SIGEV_THREAD 2		/* deliver via thread creation (the C library's) */
#define SIGEV_THREAD_ID 4	/* deliver to the thread sigev_notify_thread_id */

#endif
