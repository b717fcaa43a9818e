"""System calls and errno values by name, as umk's trace names them.

Syscall names come from kernel/syscall_64.tbl (through constants); errno names from umk's own table in kernel/trace/trace.c, read from
the executable, so that a name is exactly the one --trace would print.
"""

import gdb

from umk import constants


def syscall_name(nr):
    """ "nanosleep", or "syscall_N" as syscall_name() in kernel/syscall.c."""
    return constants.SYSCALLS.get(nr, "syscall_%d" % nr)


def errno_name(err):
    """ "EINTR", "ERESTART_RESTARTBLOCK" for err > 0, or None as
    errno_name() in kernel/trace/trace.c when umk has no name for it."""
    table = gdb.parse_and_eval("'kernel/trace/trace.c'::errno_names")
    if err <= 0 or err > table.type.range()[1] or not int(table[err]):
        return None
    return table[err].string()


def is_err_value(ret):
    """IS_ERR_VALUE(ret): ret (a signed long) is -1 .. -MAX_ERRNO."""
    return -constants.MAX_ERRNO <= ret < 0


def retval_str(ret):
    """A return value as "-516 (-ERESTART_RESTARTBLOCK)", or "0"."""
    name = errno_name(-ret) if is_err_value(ret) else None
    return "%d (-%s)" % (ret, name) if name else "%d" % ret
