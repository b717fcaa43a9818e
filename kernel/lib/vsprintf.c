/*
 * kernel/lib/vsprintf.c: the kernel's own formatter, ksnprintf and kvsnprintf
 * (Linux's lib/vsprintf.c: snprintf and vsnprintf).
 *
 * Why not the C library's: kernel code may run while the user's FS base is
 * still loaded (docs/design.md, "The FS base"), and glibc's printf family
 * reads and writes its thread-local state through %fs (the locale, errno,
 * the stack protector's canary). This one touches no thread-local state
 * and makes no call outside this file, so kernel/ may format anywhere. The
 * build checks that kernel/ takes nothing else from the C library than the
 * string functions of include/umk/types.h (the Makefile's wall check).
 * It has its own names so that it replaces nothing: arch/'s snprintf calls
 * (panic, oops, render.c), made with glibc's FS base loaded, and every
 * shared object umk loads reach the C library's.
 *
 * C99 semantics: the output is cut to n - 1 bytes and always terminated
 * (when n > 0), and the return value is the length the whole output would
 * have had. Conversions: d i u x X o c s p % (no floating point: the
 * kernel has none); flags - 0 # + and space; a width and a precision,
 * either as `*`; lengths hh h l ll z j t.
 */
#include <umk/types.h>

struct out {
	char *buf;
	size_t size;	/* of buf */
	size_t len;	/* what the whole output has needed so far */
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_n(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

struct spec {
	bool left;	/* '-' */
	bool zero;	/* '0' */
	bool alt;	/* '#' */
	char sign;	/* '+', ' ' or 0 */
	int width;
	int prec;	/* -1: none */
};

/* Lay out prefix (sign, 0x) and the digits in digits[0..n) with the
 * padding the spec asks for. */
static void put_field(struct out *o, const struct spec *s, const char *prefix,
		      const char *digits, int n)
{
	int plen = strlen(prefix);
	int zeros = s->prec > n ? s->prec - n : 0;
	int pad = s->width - plen - zeros - n;

	if (!s->left && s->zero && s->prec < 0) {
		zeros += pad > 0 ? pad : 0;
		pad = 0;
	}
	if (!s->left)
		put_n(o, ' ', pad);
	while (*prefix)
		put(o, *prefix++);
	put_n(o, '0', zeros);
	while (n-- > 0)
		put(o, *digits++);
	if (s->left)
		put_n(o, ' ', pad);
}

static void put_integer(struct out *o, const struct spec *s, unsigned long long v, bool negative,
			int base, bool upper)
{
	const char *xdigits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24], digits[24], prefix[3] = "";
	int n = 0, i;

	do {
		tmp[n++] = xdigits[v % base];
		v /= base;
	} while (v);
	if (s->prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;			/* "%.0d" of 0 prints nothing */
	for (i = 0; i < n; i++)
		digits[i] = tmp[n - 1 - i];

	if (negative)
		prefix[0] = '-';
	else if (s->sign && base == 10)
		prefix[0] = s->sign;
	else if (s->alt && base == 16 && (n > 1 || (n == 1 && digits[0] != '0'))) {
		prefix[0] = '0';
		prefix[1] = upper ? 'X' : 'x';
	} else if (s->alt && base == 8 && (n == 0 || digits[0] != '0') && s->prec <= n) {
		prefix[0] = '0';
	}
	put_field(o, s, prefix, digits, n);
}

static void put_string(struct out *o, const struct spec *s, const char *str)
{
	struct spec ss = *s;
	int n;

	if (!str)
		str = "(null)";
	n = s->prec >= 0 ? (int)strnlen(str, s->prec) : (int)strlen(str);
	ss.prec = -1;
	ss.zero = false;
	put_field(o, &ss, "", str, n);
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		struct spec s = { .prec = -1 };
		int lng = 0;		/* 'l' count; 'h' counts down */
		unsigned long long u;
		long long v;
		char c;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		for (;; fmt++) {
			c = fmt[1];
			if (c == '-')
				s.left = true;
			else if (c == '0')
				s.zero = true;
			else if (c == '#')
				s.alt = true;
			else if (c == '+')
				s.sign = '+';
			else if (c == ' ' && !s.sign)
				s.sign = ' ';
			else if (c != ' ')
				break;
		}
		fmt++;
		if (*fmt == '*') {
			s.width = va_arg(ap, int);
			if (s.width < 0) {
				s.left = true;
				s.width = -s.width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				s.width = s.width * 10 + *fmt++ - '0';
		}
		if (*fmt == '.') {
			fmt++;
			s.prec = 0;
			if (*fmt == '*') {
				s.prec = va_arg(ap, int);
				if (s.prec < 0)
					s.prec = -1;
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					s.prec = s.prec * 10 + *fmt++ - '0';
			}
		}
		for (;; fmt++) {
			if (*fmt == 'l' || *fmt == 'z' || *fmt == 'j' || *fmt == 't')
				lng = *fmt == 'l' ? lng + 1 : 2;
			else if (*fmt == 'h')
				lng--;
			else
				break;
		}

		switch (c = *fmt) {
		case 'd':
		case 'i':
			v = lng >= 2 ? va_arg(ap, long long) : lng == 1 ? va_arg(ap, long) : va_arg(ap, int);
			if (lng == -1)
				v = (short)v;
			else if (lng <= -2)
				v = (signed char)v;
			put_integer(&o, &s, v < 0 ? -(unsigned long long)v : (unsigned long long)v,
				    v < 0, 10, false);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			u = lng >= 2 ? va_arg(ap, unsigned long long)
			    : lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
			if (lng == -1)
				u = (unsigned short)u;
			else if (lng <= -2)
				u = (unsigned char)u;
			put_integer(&o, &s, u, false, c == 'u' ? 10 : c == 'o' ? 8 : 16, c == 'X');
			break;
		case 'p':
			s.alt = true;
			put_integer(&o, &s, (unsigned long)va_arg(ap, void *), false, 16, false);
			break;
		case 'c':
			c = (char)va_arg(ap, int);
			s.prec = -1;
			s.zero = false;
			put_field(&o, &s, "", &c, 1);
			break;
		case 's':
			put_string(&o, &s, va_arg(ap, const char *));
			break;
		case '%':
			put(&o, '%');
			break;
		case '\0':
			fmt--;		/* a lone '%' at the end */
			break;
		default:		/* unknown: print it as written */
			put(&o, '%');
			put(&o, c);
			break;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
