/* hello: prints "hello, world", then each of its arguments on a line.
 * It uses write(2) directly, one call per line, so a trace shows plain
 * write calls with their strings. */
#include <string.h>
#include <unistd.h>

static void put_line(const char *s)
{
	char buf[4096];
	size_t n = strlen(s);

	if (n > sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n++] = '\n';
	if (write(1, buf, n) != (ssize_t)n)
		_exit(1);
}

int main(int argc, char **argv)
{
	put_line("hello, world");
	for (int i = 1; i < argc; i++)
		put_line(argv[i]);
	return 0;
}
