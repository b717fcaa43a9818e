/*
 * readfile: read a host file through open/read/lseek/fstat, as umk's
 * read-only hostfs serves it: count its lines with stdio, check fstat's
 * size against lseek(SEEK_END), re-read from an offset, and show what
 * seeking a pipe and opening a missing file give. With a second argument,
 * also try to create that file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness.h"

int main(int argc, char **argv)
{
	char line[256], head[8] = { 0 };
	struct stat st;
	int lines = 0, fd;
	FILE *f;

	if (argc < 2)
		die("usage: readfile FILE");
	f = fopen(argv[1], "r");
	if (!f)
		die("fopen %s: %s", argv[1], errno_name(errno));
	while (fgets(line, sizeof(line), f))
		lines++;
	fd = fileno(f);
	printf("lines %d\n", lines);
	show("fstat", rsys(SYS_fstat, fd, &st));
	printf("regular %s, size matches lseek: %s\n", S_ISREG(st.st_mode) ? "yes" : "no",
	       lseek(fd, 0, SEEK_END) == st.st_size ? "yes" : "no");
	show("lseek(fd, 4, SEEK_SET)", rsys(SYS_lseek, fd, 4, SEEK_SET));
	show("read 4", rsys(SYS_read, fd, head, 4));
	show("lseek(fd, -1, SEEK_SET)", rsys(SYS_lseek, fd, -1, SEEK_SET));
	show("lseek(fd, 0, 7)", rsys(SYS_lseek, fd, 0, 7));
	fclose(f);
	show("open(missing)", rsys(SYS_open, "/nonexistent/file", O_RDONLY));
	show("openat(AT_FDCWD, missing)", rsys(SYS_openat, AT_FDCWD, "no-such-file", O_RDONLY));
	show("open(NULL)", rsys(SYS_open, NULL, O_RDONLY));
	int p[2];
	pipe(p);
	show("lseek(pipe)", rsys(SYS_lseek, p[0], 0, SEEK_CUR));
	show("fstat(bad fd)", rsys(SYS_fstat, 99, &st));
	if (argc > 2)	/* natively this creates the file; umk has nothing to write to */
		show("open(O_WRONLY|O_CREAT)", rsys(SYS_open, argv[2], O_WRONLY | O_CREAT, 0644));
	return 0;
}
