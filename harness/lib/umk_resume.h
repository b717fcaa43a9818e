/*
 * harness/lib/umk_resume.h: umk's SA_RESUME for user programs, the one
 * header they include for it (the kernel's definition is in
 * include/umk/uapi/signal.h; the two must agree).
 *
 * A system call interrupted for a handler installed with SA_RESUME
 * continues after the handler returns: nanosleep, clock_nanosleep, poll,
 * ppoll, select, pselect6 and timed futex waits. Linux (5.11 and later)
 * clears the bit, so sigaction's oldact reads it back only under umk;
 * umk_resume_supported() asks that way.
 */
#ifndef UMK_RESUME_USER_H
#define UMK_RESUME_USER_H

#include <signal.h>

#define SA_RESUME 0x00100000
/* Continuations a thread keeps at once; one more nesting level gets EINTR. */
#define UMK_RESUME_DEPTH 8

/* Does the kernel keep SA_RESUME on sig's action? Installs nothing new:
 * sets the flag on the current action and reads it back, then restores it. */
static inline int umk_resume_supported(int sig)
{
	struct sigaction old, probe, back;

	if (sigaction(sig, NULL, &old))
		return 0;
	probe = old;
	probe.sa_flags |= SA_RESUME;
	if (sigaction(sig, &probe, NULL) || sigaction(sig, &old, &back))
		return 0;
	return (back.sa_flags & SA_RESUME) != 0;
}

#endif
