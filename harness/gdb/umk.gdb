# gdb setup for debugging umk:  make gdb PROG=build/harness/hello ARGS=...
# (or gdb -x harness/gdb/umk.gdb --args build/umk PROG..., from the repo root)
#
# umk's "hardware" is host signals (arch/trap.c's host_signals table). gdb
# stops on most of them by default, which would stop on every system call
# and every tick. A breakpoint on a kernel function (break sys_nanosleep)
# still stops there, and `bt` unwinds through umk's __restore_rt into the
# user program.
#
# Passed to umk silently:
#  - SIGSYS: every system call of a user program (Syscall User Dispatch).
#  - SIGALRM: the timer interrupt; SIGIO: console input.
#  - SIGTERM, SIGHUP, SIGQUIT: interrupts too: umk passes them on to its
#    processes (a kill of umk from the host, ^\ on its terminal), which is
#    what whoever sent them wants; break on host_signals_interrupt to see one.
#  - SIGPIPE: umk ignores it (a console write to a closed pipe is -EPIPE),
#    but a traced process still reports ignored signals to gdb.
handle SIGSYS nostop noprint pass
handle SIGALRM nostop noprint pass
handle SIGIO nostop noprint pass
handle SIGTERM nostop noprint pass
handle SIGHUP nostop noprint pass
handle SIGQUIT nostop noprint pass
handle SIGPIPE nostop noprint pass
#
# Left to gdb's defaults, on purpose:
#  - SIGINT (stop, nopass): ^C at gdb's terminal is how you interrupt umk
#    to look at it; it is not given to umk. `signal SIGINT` at the prompt
#    sends one on to umk, which passes it to its processes as a ^C.
#  - SIGSEGV, SIGBUS, SIGILL, SIGFPE (stop, print, pass): in kernel mode one
#    is an oops, or a copy_from_user/copy_to_user at a bad user pointer that
#    the exception table turns into EFAULT; in user mode it is the program's
#    own fault (a NULL dereference), which umk turns into its signal. gdb
#    stops on each, before umk sees it: `continue` hands it to umk. To run
#    through user faults and EFAULTs, `handle SIGSEGV nostop noprint pass`,
#    with `break oops` to still stop on a kernel fault before umk exits.
#  - SIGTRAP: gdb's own breakpoints.
set pagination off
#
# arch/ is built with -finstrument-functions: each arch/ function first calls
# the hook that loads glibc's FS base (docs/design.md, "The FS base").
# `step` goes through it silently.
python gdb.execute("skip function __cyg_profile_func_enter", to_string=True)
python gdb.execute("skip function __cyg_profile_func_exit", to_string=True)
#
# The Python helpers (harness/gdb/umk/): umk-ps, umk-task, umk-bt,
# umk-trace, $umk_current(), $umk_task(PID). `help user-defined` lists them.
source harness/gdb/umk-gdb.py
