/*
 * kernel/exec_domain.c: personality(2) (Linux's kernel/exec_domain.c).
 *
 * A task's personality is a word of flags a program sets for itself and
 * its children (fork copies it, exec keeps it): gdb runs its inferior
 * with ADDR_NO_RANDOMIZE. umk's layout has nothing random to turn off, so
 * the flags are kept and reported, not acted on (docs/linux-differences.md).
 * Exec of an x86-64 program clears READ_IMPLIES_EXEC (set_personality_64bit).
 */
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uapi/personality.h>

/* The old personality; 0xffffffff only asks. */
long sys_personality(unsigned int personality)
{
	unsigned int old = current->personality;

	if (personality != 0xffffffff)
		current->personality = personality;
	return old;
}

void set_personality_64bit(void)
{
	current->personality &= ~READ_IMPLIES_EXEC;
}
