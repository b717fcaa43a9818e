/* Basic kernel types. kernel/ sees only the compiler's freestanding headers
 * (stddef, stdint, stdbool, stdarg) and umk's own include/; never host libc. */
#ifndef UMK_TYPES_H
#define UMK_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef int pid_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef long ssize_t;

#define __user
#define __noreturn __attribute__((noreturn))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define PAGE_SIZE 4096UL
#define NSEC_PER_SEC 1000000000LL
#define USER_HZ 100			/* clock ticks of times(), /proc, AT_CLKTCK */
#define NSEC_PER_MSEC 1000000LL
#define NSEC_PER_USEC 1000LL

/* The C library's string and formatting routines, as Linux's lib/ provides
 * them to its kernel. They make no system call. */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strrchr(const char *s, int c);
int ksnprintf(char *buf, size_t n, const char *fmt, ...) __printf(3, 4);
int kvsnprintf(char *buf, size_t n, const char *fmt, va_list ap);

#endif
