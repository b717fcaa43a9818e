/*
 * include/umk/uapi/socket.h: the socket ABI a program sees, Linux's values
 * (include/linux/socket.h, include/uapi/asm-generic/socket.h,
 * include/uapi/linux/un.h): addresses, message flags, control messages
 * and the SOL_SOCKET options. The kernel's side is include/umk/net.h.
 */
#ifndef UMK_UAPI_SOCKET_H
#define UMK_UAPI_SOCKET_H

#include <umk/types.h>

typedef unsigned short sa_family_t;

struct sockaddr {
	sa_family_t sa_family;
	char sa_data[14];
};

/* Room for any family's address (include/uapi/linux/socket.h). */
#define _K_SS_MAXSIZE 128
struct sockaddr_storage {
	sa_family_t ss_family;
	char __data[_K_SS_MAXSIZE - sizeof(unsigned short)];
} __attribute__((aligned(8)));

/* AF_UNIX (include/uapi/linux/un.h) */
#define UNIX_PATH_MAX 108
struct sockaddr_un {
	sa_family_t sun_family;
	char sun_path[UNIX_PATH_MAX];
};

/* The user's msghdr and mmsghdr (include/linux/socket.h). */
struct user_msghdr {
	void __user *msg_name;
	int msg_namelen;
	struct iovec __user *msg_iov;
	size_t msg_iovlen;
	void __user *msg_control;
	size_t msg_controllen;
	unsigned int msg_flags;
};

struct mmsghdr {
	struct user_msghdr msg_hdr;
	unsigned int msg_len;
};

struct cmsghdr {
	size_t cmsg_len;	/* header included */
	int cmsg_level;
	int cmsg_type;
};

#define CMSG_ALIGN(len) (((len) + sizeof(long) - 1) & ~(sizeof(long) - 1))
#define CMSG_LEN(len) (CMSG_ALIGN(sizeof(struct cmsghdr)) + (len))
#define CMSG_SPACE(len) (CMSG_ALIGN(sizeof(struct cmsghdr)) + CMSG_ALIGN(len))

#define SCM_RIGHTS 0x01
#define SCM_CREDENTIALS 0x02
#define SCM_MAX_FD 253		/* files in one SCM_RIGHTS message */

/* SCM_CREDENTIALS and SO_PEERCRED (include/linux/socket.h) */
struct ucred {
	u32 pid;
	u32 uid;
	u32 gid;
};

/* Message flags (include/linux/socket.h) */
#define MSG_OOB 1
#define MSG_PEEK 2
#define MSG_DONTROUTE 4
#define MSG_CTRUNC 8
#define MSG_PROBE 0x10
#define MSG_TRUNC 0x20
#define MSG_DONTWAIT 0x40
#define MSG_EOR 0x80
#define MSG_WAITALL 0x100
#define MSG_FIN 0x200
#define MSG_SYN 0x400
#define MSG_CONFIRM 0x800
#define MSG_RST 0x1000
#define MSG_ERRQUEUE 0x2000
#define MSG_NOSIGNAL 0x4000
#define MSG_MORE 0x8000
#define MSG_WAITFORONE 0x10000
#define MSG_BATCH 0x40000
#define MSG_ZEROCOPY 0x4000000
#define MSG_FASTOPEN 0x20000000
#define MSG_CMSG_CLOEXEC 0x40000000

/* shutdown(2)'s how */
#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2

#define SOMAXCONN 4096		/* net.core.somaxconn's default */

/* Option levels and SOL_SOCKET options (include/uapi/asm-generic/socket.h) */
#define SOL_SOCKET 1
#define SO_DEBUG 1
#define SO_REUSEADDR 2
#define SO_TYPE 3
#define SO_ERROR 4
#define SO_DONTROUTE 5
#define SO_BROADCAST 6
#define SO_SNDBUF 7
#define SO_RCVBUF 8
#define SO_KEEPALIVE 9
#define SO_OOBINLINE 10
#define SO_PRIORITY 12
#define SO_LINGER 13
#define SO_REUSEPORT 15
#define SO_PASSCRED 16
#define SO_PEERCRED 17
#define SO_RCVLOWAT 18
#define SO_SNDLOWAT 19
#define SO_RCVTIMEO_OLD 20
#define SO_SNDTIMEO_OLD 21
#define SO_SNDBUFFORCE 32
#define SO_RCVBUFFORCE 33
#define SO_ACCEPTCONN 30
#define SO_PROTOCOL 38
#define SO_DOMAIN 39
#define SO_PEEK_OFF 42
#define SO_RCVTIMEO_NEW 66
#define SO_SNDTIMEO_NEW 67

/* SO_RCVTIMEO_NEW's value (include/uapi/linux/time_types.h) */
struct __kernel_sock_timeval {
	s64 tv_sec;
	s64 tv_usec;
};

#endif
