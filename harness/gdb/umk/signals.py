"""Signal numbers and sets by name, as kernel/signal/signal.c names them.

A set is written as its signals without the SIG prefix, in number order,
joined by commas: "USR1,TERM"; real-time signals as RT0, RT1...; the empty
set as "-". A set of more than half the signals is written as the ones it
lacks after a "~": a mask that blocks everything it can is "~KILL,STOP".
"""

from umk import constants


def signal_name(sig):
    """ "SIGUSR1", "SIGRT3" (signal_name() in kernel/signal/signal.c), or None."""
    if sig in constants.SIGNALS:
        return constants.SIGNALS[sig]
    if constants.SIGRTMIN <= sig <= constants._NSIG:
        return "SIGRT%d" % (sig - constants.SIGRTMIN)
    return None


def _names(mask):
    return ",".join(signal_name(sig)[3:] for sig in range(1, constants._NSIG + 1)
                    if mask >> (sig - 1) & 1)


def sigset_str(mask):
    """The signals of a sigset_t's word (bit n - 1 for signal n)."""
    every = (1 << constants._NSIG) - 1
    if bin(mask & every).count("1") > constants._NSIG // 2:
        return "~" + (_names(~mask & every) or "-")
    return _names(mask) or "-"
