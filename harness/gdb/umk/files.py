"""The file a task waits on: the fd argument of the call it sleeps in.

A task asleep in epoll_wait, or in a read of a timerfd, eventfd, signalfd
or pipe, waits on one file: the call's first argument (rdi of its
pt_regs), looked up in its fd table as fget() would. umk-task shows that
file's kind (its f_op->name) and, for the event loop's files, what they
hold: an epoll's watched fds and ready ones (kernel/fs/eventpoll.c), a
timerfd's clock, expirations and next expiry (kernel/fs/timerfd.c), an
eventfd's counter, the signals a signalfd reads.
"""

import gdb

from umk import constants
from umk.restart import clock_name
from umk.signals import sigset_str
from umk.utils import c_string, list_for_each_entry, ulong

# The calls whose first argument is the fd they wait on.
FD_CALLS = {"read", "readv", "pread64", "preadv", "preadv2", "write", "writev",
            "epoll_wait", "epoll_pwait", "epoll_pwait2", "accept", "accept4",
            "connect", "recvfrom", "recvmsg", "recvmmsg", "sendto", "sendmsg",
            "sendmmsg", "flock"}


def fd_file(t, fd):
    """The struct file * of fd in task t, or None (not open, out of range)."""
    files = t["files"]
    if not int(files):
        return None
    table = files["fd"]
    if not 0 <= fd < table.type.range()[1] + 1:
        return None
    f = table[fd]
    return f if int(f) else None


def private(f, typename):
    return f["private_data"].cast(gdb.lookup_type(typename).pointer()).dereference()


def describe_eventpoll(f):
    ep = private(f, "struct eventpoll")
    items = [int(epi["fd"]) for epi in list_for_each_entry(ep["items"], "struct epitem",
                                                              "itemlink")]
    ready = [int(epi["fd"]) for epi in list_for_each_entry(ep["rdllist"], "struct epitem",
                                                              "rdllink")]
    return "%d item%s (fd %s), ready: %s" % (
        len(items), "" if len(items) == 1 else "s", " ".join(map(str, items)) or "-",
        " ".join("fd %d" % fd for fd in ready) or "none")


def describe_timerfd(f):
    ctx = private(f, "struct timerfd_ctx")
    expires = int(ctx["expires"])
    return "%s, %d expiration%s unread, %s, interval %d ns" % (
        clock_name(int(ctx["clockid"])), int(ctx["ticks"]),
        "" if int(ctx["ticks"]) == 1 else "s",
        "next at %d ns on CLOCK_MONOTONIC" % expires if expires else "disarmed",
        int(ctx["tintv"]))


def describe_eventfd(f):
    ctx = private(f, "struct eventfd_ctx")
    sem = " (EFD_SEMAPHORE)" if int(ctx["flags"]) & constants.EFD_SEMAPHORE else ""
    return "count %d%s" % (ulong(ctx["count"]), sem)


def describe_signalfd(f):
    ctx = private(f, "struct signalfd_ctx")
    # the mask kept is of the signals the fd does NOT read
    return "reads %s" % sigset_str(~ulong(ctx["sigmask"]["sig"]) & 0xFFFFFFFFFFFFFFFF)


DESCRIBE = {"eventpoll": describe_eventpoll, "timerfd": describe_timerfd,
            "eventfd": describe_eventfd, "signalfd": describe_signalfd}


def format_wait_file(t, syscall):
    """The line umk-task shows for the file t's call waits on, or []."""
    regs = t["regs"]
    if syscall not in FD_CALLS or not int(regs):
        return []
    fd = int(regs["di"].cast(gdb.lookup_type("int")))
    f = fd_file(t, fd)
    if f is None:
        return ["waits on fd %d: not open" % fd]
    name = c_string(f["f_op"]["name"])
    describe = DESCRIBE.get(name)
    return ["waits on fd %d: %s%s" % (fd, name, ", " + describe(f) if describe else "")]
