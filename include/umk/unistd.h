/* include/umk/unistd.h: Linux's x86-64 system-call numbers, __NR_<name>,
 * and NR_syscalls, one past the highest. They are generated at build time
 * from kernel/syscall_64.tbl (the only list of them) into
 * build/include/generated/. __NR_restart_syscall (219) is the number a
 * rewound instruction re-enters with after -ERESTART_RESTARTBLOCK. */
#ifndef UMK_UNISTD_H
#define UMK_UNISTD_H

#include <generated/unistd_64.h>

#endif
