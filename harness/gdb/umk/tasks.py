"""umk's tasks: the task list, the current task, umk-ps and umk-task.

The current task is the one whose kernel stack holds the stack pointer of
the innermost frame (current_thread_info() masks it the same way). When
gdb stops umk in user mode, rsp is on the user's stack; the current task is
then the one task that is TASK_RUNNING but not on the runqueue (current
never is), as only it can be running user code.
"""

import gdb

from umk import constants
from umk.files import format_wait_file
from umk.regs import format_regs, orig_rax_str, tif_flags_str
from umk.restart import format_restart_block, format_resume
from umk.signals import sigset_str
from umk.syscalls import syscall_name
from umk.utils import (Command, Function, c_string, list_for_each_entry, parse_int, user_memory_of,
                       require_process, ulong, value_to_int)


def tasks():
    """Every task_struct *, in creation order (task_list)."""
    require_process()
    return list_for_each_entry(gdb.parse_and_eval("task_list"), "struct task_struct", "tasks")


def find_task(pid):
    """The task_struct * of pid, as find_task_by_pid(); GdbError if none."""
    for t in tasks():
        if int(t["pid"]) == pid and int(t["exit_state"]) != constants.EXIT_DEAD:
            return t
    raise gdb.GdbError("no task with pid %d" % pid)


def stack_range(t):
    """(lo, hi) of t's kernel stack; (0, 0) once it is freed (a dead task)."""
    lo = ulong(t["stack"])
    return (lo, lo + constants.THREAD_SIZE) if lo else (0, 0)


def current_task():
    """The task_struct * of the current task."""
    require_process()
    rsp = ulong(gdb.newest_frame().read_register("rsp"))
    candidates = []
    for t in tasks():
        lo, hi = stack_range(t)
        if lo <= rsp < hi:
            return t
        if (int(t["state"]) == constants.TASK_RUNNING and not int(t["on_rq"])
                and not int(t["exit_state"]) and int(t["pid"]) != 0):
            candidates.append(t)
    if len(candidates) == 1:
        return candidates[0]
    raise gdb.GdbError("no current task: rsp %#x is on no kernel stack and %d tasks could be "
                       "in user mode (umk still booting?)" % (rsp, len(candidates)))


def state_name(t, current):
    """task_state_name() of kernel/sched/core.c."""
    state, exit_state = int(t["state"]), int(t["exit_state"])
    if exit_state == constants.EXIT_ZOMBIE:
        return "zombie"
    if exit_state == constants.EXIT_DEAD or state == constants.TASK_DEAD:
        return "dead"
    if state & constants.__TASK_STOPPED:
        return "stopped"
    if state & getattr(constants, "__TASK_TRACED", 0):
        return "traced"
    if state & constants.TASK_INTERRUPTIBLE:
        return "sleeping"
    if state & constants.TASK_UNINTERRUPTIBLE:
        return "disk-sleep"
    if int(t) == int(current):
        return "running"
    return "idle" if int(t["pid"]) == 0 else "runnable"


def pending_sets(t):
    """(thread pending, process shared pending) signal words of t."""
    own = ulong(t["pending"]["signal"]["sig"])
    shared = ulong(t["signal"]["shared_pending"]["signal"]["sig"]) if int(t["signal"]) else 0
    return own, shared


def task_syscall(t):
    nr = int(t["orig_ax"])
    return syscall_name(nr) if nr >= 0 else "-"


def task_arg(arg):
    """The task an optional PID argument names: the current one without."""
    if not arg:
        return current_task()
    return find_task(parse_int(arg, "pid"))


class UmkCurrent(Function):
    """The current task's task_struct pointer: p *$umk_current()

Usable in any expression, such as a breakpoint condition:
    break sys_nanosleep if $umk_current()->pid == 2
The current task is the one whose kernel stack the innermost frame runs on
(current_thread_info() of include/umk/sched.h); when umk is stopped in user
mode, the one task running and not on the runqueue."""

    def __init__(self):
        super().__init__("umk_current")

    def run(self):
        return current_task()


class UmkTaskFunction(Function):
    """A task's task_struct pointer by pid: p $umk_task(2)->comm

Fails with "no task with pid N" where find_task_by_pid() would return
NULL."""

    def __init__(self):
        super().__init__("umk_task")

    def run(self, pid=None):
        if pid is None:
            raise gdb.GdbError("usage: $umk_task(PID)")
        return find_task(value_to_int(pid, "pid"))


class UmkPs(Command):
    """List umk's tasks: umk-ps

One line per task, in creation order, as ps() of kernel/sched/core.c:
PID, TGID, parent's TGID, state (running, runnable, sleeping, disk-sleep,
stopped, zombie, dead, idle), command name, the system call it is in (the
name of orig_rax; - if none), then its signals: PENDING, those pending for
the thread or its whole process, and BLOCKED, its mask. A signal set is
written without the SIG prefix, joined by commas (USR1,TERM), real-time
signals as RT0, RT1..., the empty set as -; last, MM, the task's address
space (mm_struct.id; * marks the one in umk's user window, - none: the
idle task, a zombie). umk-task PID shows one task in full."""

    def __init__(self):
        super().__init__("umk-ps")

    def run(self, arg):
        if arg:
            raise gdb.GdbError("takes no argument")
        current = current_task()
        loaded = int(gdb.parse_and_eval("loaded_mm"))
        gdb.write("  PID  TGID  PPID STATE      CMD              SYSCALL          "
                  "PENDING          BLOCKED          MM\n")
        for t in tasks():
            own, shared = pending_sets(t)
            parent = t["real_parent"]
            mm = t["mm"]
            mm_str = "-" if not int(mm) else "%d%s" % (int(mm["id"]),
                                                       "*" if int(mm) == loaded else "")
            gdb.write("%5d %5d %5d %-10s %-16s %-16s %-16s %-16s %s\n" % (
                int(t["pid"]), int(t["tgid"]), int(parent["tgid"]) if int(parent) else 0,
                state_name(t, current), c_string(t["comm"]), task_syscall(t),
                sigset_str(own | shared), sigset_str(ulong(t["blocked"]["sig"])), mm_str))


def format_ids(t):
    """Its credentials, as getresuid and getresgid give them, and its
    process group and session."""
    c = t["cred"]
    groups = int(c["group_info"]["ngroups"]) if int(c["group_info"]) else 0
    sig = t["signal"]
    where = ", pgrp %d, session %d" % (int(sig["pgrp"]), int(sig["session"])) if int(sig) else ""
    return "ids: uid %d %d %d fsuid %d, gid %d %d %d fsgid %d, %d groups%s" % (
        int(c["uid"]), int(c["euid"]), int(c["suid"]), int(c["fsuid"]), int(c["gid"]),
        int(c["egid"]), int(c["sgid"]), int(c["fsgid"]), groups, where)


def format_policy(t):
    """Its scheduling policy with the priority or nice value that goes with it."""
    policy = int(t["policy"])
    name = constants.POLICIES.get(policy, "policy %d" % policy)
    if name in ("SCHED_FIFO", "SCHED_RR"):
        return "policy: %s, priority %d" % (name, int(t["rt_priority"]))
    return "policy: %s, nice %d" % (name, int(t["nice"]))


class UmkTask(Command):
    """Show one task in full: umk-task [PID]

PID is any integer expression (umk-task 2, umk-task $umk_current()->pid);
without it, the current task. Shows the task's state, the system call it
is in, its signals (pending for the thread, pending for the process,
blocked; sets as in umk-ps), its ids (real, effective, saved and fs uid
and gid, the number of supplementary groups, process group and session),
its scheduling policy with its priority or nice value, its thread_info
flags decoded
(TIF_SIGPENDING|TIF_NEED_RESCHED...), its user registers (pt_regs, as
Linux's show_regs, every one in hex, ORIG_RAX with the system call's name,
RAX as a return value with an -E code's name) and its restart_block: fn by
symbol name (the continuation restart_syscall would run) and the union
member that fn uses, decoded: nanosleep (clock, rmtp and what it holds,
the absolute expiry in ns and s), futex, poll; and the continuations
SA_RESUME keeps for its running handlers, if any. A task in a call that
waits on an fd (read, epoll_wait...) also gets the file it waits on: its
kind, and for an epoll its watched and ready fds, for a timerfd its clock,
unread expirations and next expiry, for an eventfd its count, for a
signalfd the signals it reads."""

    def __init__(self):
        super().__init__("umk-task")

    def run(self, arg):
        t = task_arg(arg)
        current = current_task()
        out = ["pid %d (%s): %s, tgid %d, task_struct %#x" % (
            int(t["pid"]), c_string(t["comm"]), state_name(t, current), int(t["tgid"]),
            ulong(t))]
        orig_ax = int(t["orig_ax"])
        out.append("system call: %s, orig_rax %s" % (task_syscall(t), orig_rax_str(orig_ax)))
        out += format_wait_file(t, task_syscall(t))
        own, shared = pending_sets(t)
        out.append("signals: pending %s, shared pending %s, blocked %s" % (
            sigset_str(own), sigset_str(shared), sigset_str(ulong(t["blocked"]["sig"]))))
        out.append(format_ids(t))
        out.append(format_policy(t))
        lo, hi = stack_range(t)
        if not lo:
            out.append("no kernel stack: the task is dead")
            gdb.write("\n".join(out) + "\n")
            return
        ti = t["stack"].dereference()
        out.append("thread_info %#x: flags %s" % (lo, tif_flags_str(ulong(ti["flags"]))))
        regs = t["regs"]
        if not int(regs):
            out.append("pt_regs: none (never in user mode)")
        elif not lo <= ulong(regs) < hi:
            out.append("pt_regs %#x: not on the task's kernel stack %#x-%#x: stale"
                       % (ulong(regs), lo, hi))
        else:
            out.append("pt_regs %#x (user mode, at its last kernel entry):" % ulong(regs))
            out += ["  " + line for line in format_regs(regs, orig_ax)]
        with user_memory_of(t):
            out += format_restart_block(ti["restart_block"])
            out += format_resume(t["resume"], syscall_name)
        gdb.write("\n".join(out) + "\n")


UmkCurrent()
UmkTaskFunction()
UmkPs()
UmkTask()
