/*
 * kernel/fs/binfmt_script.c: "#!" scripts (fs/binfmt_script.c).
 *
 * A file starting with "#!" names its interpreter on that line, with at
 * most one argument after it (the rest of the line, spaces included). The
 * program run is the interpreter, with argv
 *
 *	interpreter [argument] script-path argv[1] argv[2] ...
 *
 * argv[0] of the caller is dropped, as on Linux. The interpreter may be a
 * script itself, up to BINPRM_MAX_SCRIPTS deep (then ELOOP).
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/kernel.h>

#include "binfmts.h"

static bool spacetab(char c)
{
	return c == ' ' || c == '\t';
}

int load_script(struct linux_binprm *bprm)
{
	char *buf, *end, *name, *arg = NULL, *p;
	ssize_t n;
	int i;

	buf = kmalloc(BINPRM_BUF_SIZE + 1);
	n = bprm->file->f_op->read_kernel(bprm->file, buf, BINPRM_BUF_SIZE, 0);
	if (n < 2 || buf[0] != '#' || buf[1] != '!') {
		kfree(buf);
		return n < 0 ? exec_fail((int)n, "read error (%s)", err_name((int)n)) : 0;
	}
	/* the script's path is a close-on-exec fd's (BINPRM_FLAGS_PATH_INACCESSIBLE) */
	if (bprm->path_inaccessible) {
		kfree(buf);
		return exec_fail(-ENOENT, "a script run from a close-on-exec fd");
	}
	if (bprm->nscripts == BINPRM_MAX_SCRIPTS) {
		kfree(buf);
		return exec_fail(-ELOOP, "more than %d nested #! interpreters",
				 BINPRM_MAX_SCRIPTS);
	}
	bprm->script_bufs[bprm->nscripts++] = buf;
	buf[n] = '\0';
	/* The line ends at a newline; without one, the buffer must hold the
	 * whole interpreter name (Linux 5.1+: a name cut short is refused). */
	for (end = buf + 2; *end && *end != '\n'; end++)
		;
	if (!*end) {
		for (p = buf + 2; spacetab(*p); p++)
			;
		while (*p && !spacetab(*p))
			p++;
		if (!*p)
			return exec_fail(-ENOEXEC, "#! line longer than %d bytes", BINPRM_BUF_SIZE);
	}
	*end = '\0';
	while (end > buf + 2 && spacetab(end[-1]))
		*--end = '\0';
	for (name = buf + 2; spacetab(*name); name++)
		;
	if (!*name)
		return exec_fail(-ENOEXEC, "#! without an interpreter");
	for (p = name; *p && !spacetab(*p); p++)
		;
	if (*p) {
		*p++ = '\0';
		while (spacetab(*p))
			p++;
		if (*p)
			arg = p;
	}

	/* argv becomes: name [arg] path-being-loaded, then what came after
	 * the old argv[0] (an earlier script's prefix, or the caller's). */
	{
		const char *old[ARRAY_SIZE(bprm->prefix)];
		int nold = bprm->nprefix, k = 0, need;

		for (i = 0; i < nold; i++)
			old[i] = bprm->prefix[i];
		need = 2 + (arg != NULL) + (nold ? nold - 1 : 0);
		if (need > (int)ARRAY_SIZE(bprm->prefix))
			return exec_fail(-ELOOP, "too many nested #! interpreters");
		bprm->prefix[k++] = name;
		if (arg)
			bprm->prefix[k++] = arg;
		bprm->prefix[k++] = bprm->interp;
		for (i = 1; i < nold; i++)
			bprm->prefix[k++] = old[i];
		if (!nold)
			bprm->drop_argv0 = true;
		bprm->nprefix = k;
	}
	bprm->interp = name;
	return 1;
}
