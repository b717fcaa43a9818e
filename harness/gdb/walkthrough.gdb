# Watch a nanosleep be stopped, continued and restarted (docs/gdb-walkthrough.md).
# From the repo root, after make:
#   gdb -x harness/gdb/umk.gdb -x harness/gdb/walkthrough.gdb \
#       --args build/umk --clock=virtual build/harness/demo
# build/harness/demo: pid 2 ("stopper") sleeps 500 ms; pid 1 stops it with
# SIGSTOP at 100 ms and continues it with SIGCONT at 300 ms.

echo \n=== Stop 1: pid 2 enters nanosleep(500 ms)\n
break sys_nanosleep if $umk_current()->pid == 2
run
umk-ps
umk-task 2
delete

echo \n=== Stop 2: pid 1 is about to send SIGCONT to pid 2, stopped in its sleep\n
break sys_kill if sig == SIGCONT
continue
umk-ps
umk-task 2
umk-bt 2
umk-trace 8 2
delete

echo \n=== Stop 3: pid 2, continued, takes the restart decision\n
break restart_decision if $umk_current()->pid == 2
continue
umk-bt
finish
delete

echo \n=== Stop 4: pid 2 re-enters the kernel as restart_syscall\n
break sys_restart_syscall
continue
umk-task
delete

echo \n=== Stop 5: restart_syscall runs the continuation\n
break hrtimer_nanosleep_restart
continue
umk-bt
umk-trace 4 2
delete

echo \n=== The end: the sleep returns 0\n
continue
