/*
 * tests/unit/vsprintf.c: kernel/lib/vsprintf.c against the C library's
 * snprintf, format by format and for every buffer size from 0 up, so that
 * the kernel's own formatting (which exists to keep glibc's off the FS base
 * of a user program) prints what glibc would have: ksnprintf and kvsnprintf
 * of kernel/lib/vsprintf.c, linked in as the kernel has them.
 * Prints one line per mismatch and a count; exits 1 on any mismatch.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ksnprintf(char *buf, size_t n, const char *fmt, ...);
int kvsnprintf(char *buf, size_t n, const char *fmt, va_list ap);

static int checks, failures;

static void check(const char *fmt, ...)
{
	char want[256], got[256];
	va_list ap, aq;
	int wn, gn;

	va_start(ap, fmt);
	va_copy(aq, ap);
	wn = vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	for (size_t size = 0; size <= (size_t)wn + 1 && size < sizeof(want); size++) {
		va_list a1, a2;

		va_copy(a1, aq);
		va_copy(a2, aq);
		memset(got, 'X', sizeof(got));
		memset(want, 'X', sizeof(want));
		wn = vsnprintf(want, size, fmt, a1);
		gn = kvsnprintf(got, size, fmt, a2);
		va_end(a1);
		va_end(a2);
		checks++;
		if (wn != gn || memcmp(want, got, size) || (size && got[size] != 'X')) {
			failures++;
			printf("\"%s\" size %zu: glibc \"%.*s\" (%d), kernel \"%.*s\" (%d)\n", fmt, size,
			       (int)(size ? size - 1 : 0), want, wn, (int)(size ? size - 1 : 0), got, gn);
			break;
		}
	}
	va_end(aq);
}

int main(void)
{
	check("plain text, no conversion");
	check("%d %d %d %d", 0, 1, -1, 2147483647);
	check("%d", -2147483647 - 1);
	check("%i|%5d|%-5d|%05d|%+d|% d|%.3d|%.0d|%5.3d", 42, 42, 42, -42, 42, 42, 7, 0, -7);
	check("%ld %lld %lu %llu", -1L, -9223372036854775807LL - 1, ~0UL, ~0ULL);
	check("%zu %zd %jd %td", (size_t)123, (ssize_t)-5, (long long)77, (long)-3);
	check("%hd %hu %hhd %hhu", 70000, 70000, 300, 300);
	check("%x %X %#x %#X %#x %08x %#010x %.4x", 0xbeefu, 0xbeefu, 255u, 255u, 0u, 0x12u, 0x12u, 5u);
	check("%lx %#lx %llx", 0xdeadbeefcafeUL, 0x1000UL, ~0ULL);
	check("%o %#o %#o %#.3o", 8u, 8u, 0u, 8u);
	check("%c|%3c|%-3c|", 'a', 'b', 'c');
	check("%s|%10s|%-10s|%.2s|%10.2s|%*s|%-*s|%.*s", "abc", "abc", "abc", "abc", "abc", 6, "x", 6,
	      "y", 1, "zz");
	check("%*d|%-*d|%*d|%.*d", 5, 1, 5, 1, -5, 1, 3, 1);
	check("%s", "");
	check("100%% %d%%", 5);
	check("%p %p", (void *)0x1234, (void *)0x7fffdeadbeef);
	check("%-16s%5d %06llu %03llu %04x", "name", 12, 4567ULL, 9ULL, 0xabu);
	check("%llu.%06llu %d %s %s", 12ULL, 345ULL, 1, "enter", "write(1, \"hi\\n\", 3)");

	printf("%d checks, %d mismatches\n", checks, failures);
	return failures != 0;
}
