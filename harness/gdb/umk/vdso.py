"""The vDSO's symbols for gdb (kernel/vdso.c, arch/vdso/).

On Linux gdb loads the vDSO's symbols from the inferior's AT_SYSINFO_EHDR;
umk's programs get theirs from umk, whose own auxv gdb reads instead. So
`umk-vdso`, once umk has booted, loads build/arch/vdso/vdso.so at the
image's address (kernel/vdso.c's vdso_base): `bt` from a system call the
vDSO made then names __vdso_clock_gettime and unwinds through it (its
.eh_frame) into the program. It is not loaded at every stop on its own: a
second objfile there changes how the other helpers' unqualified lookups of
the kernel's static variables resolve.
"""

import os

import gdb

_SO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                   "build", "arch", "vdso", "vdso.so")
_loaded = []


def load_vdso(quiet=True):
    """Add the vDSO's symbols once its image is mapped; True when loaded."""
    if _loaded:
        return True
    try:
        base = int(gdb.parse_and_eval("'kernel/vdso.c'::vdso_base"))
    except gdb.error:
        return False
    if not base or not os.path.exists(_SO):
        return False
    gdb.execute("add-symbol-file %s -o %#x" % (os.path.normpath(_SO), base), to_string=quiet)
    _loaded.append(base)
    return True


class UmkVdso(gdb.Command):
    """Load the vDSO's symbols at its address in umk (after boot)."""

    def __init__(self):
        super().__init__("umk-vdso", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        if not load_vdso(quiet=False):
            gdb.write("umk-vdso: the vDSO is not mapped yet (run umk past boot)\n")


UmkVdso()
