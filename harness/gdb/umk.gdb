# gdb setup for debugging umk:  make gdb PROG=build/harness/hello ARGS=...
#
# umk's "hardware" is host signals: every system call of a user program is a
# SIGSYS (Syscall User Dispatch), the timer interrupt is SIGALRM and console
# input is SIGIO. gdb stops on each of them by default, which would stop on
# every system call and every tick. Pass them to umk silently instead; a
# breakpoint on a kernel function (break sys_nanosleep) still stops there,
# and `bt` unwinds through umk's __restore_rt into the user program.
handle SIGSYS nostop noprint pass
handle SIGALRM nostop noprint pass
handle SIGIO nostop noprint pass
set pagination off
