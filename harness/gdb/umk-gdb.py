"""Load umk's gdb helpers (harness/gdb/umk/), as Linux's vmlinux-gdb.py.

harness/gdb/umk.gdb sources this file. It only makes the package
importable, with build/gdb/umk/constants.py (which make generates from the
C headers) beside it, and imports the modules that define the commands and
functions: umk-ps, umk-task, umk-sockets, umk-bt, umk-trace, umk-vdso, $umk_current,
$umk_task.
"help user-defined" lists the commands.
"""

import importlib
import os
import sys

import gdb

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path[:0] = [os.path.join(_ROOT, "harness", "gdb"), os.path.join(_ROOT, "build", "gdb")]

try:
    importlib.import_module("umk.constants")
except ImportError:
    gdb.write("umk: no build/gdb/umk/constants.py: run make; the umk-* commands are not "
              "loaded\n", gdb.STDERR)
else:
    for _module in ("umk.tasks", "umk.sockets", "umk.backtrace", "umk.trace", "umk.vdso"):
        importlib.import_module(_module)
