/* include/umk/uapi/eventpoll.h: epoll's ABI (include/uapi/linux/eventpoll.h). */
#ifndef UMK_UAPI_EVENTPOLL_H
#define UMK_UAPI_EVENTPOLL_H

#include <umk/types.h>

#define EPOLL_CLOEXEC 02000000	/* O_CLOEXEC */

#define EPOLL_CTL_ADD 1
#define EPOLL_CTL_DEL 2
#define EPOLL_CTL_MOD 3

#define EPOLLIN 0x00000001
#define EPOLLPRI 0x00000002
#define EPOLLOUT 0x00000004
#define EPOLLERR 0x00000008
#define EPOLLHUP 0x00000010
#define EPOLLNVAL 0x00000020
#define EPOLLRDNORM 0x00000040
#define EPOLLRDBAND 0x00000080
#define EPOLLWRNORM 0x00000100
#define EPOLLWRBAND 0x00000200
#define EPOLLMSG 0x00000400
#define EPOLLRDHUP 0x00002000
#define EPOLLEXCLUSIVE (1U << 28)
#define EPOLLWAKEUP (1U << 29)
#define EPOLLONESHOT (1U << 30)
#define EPOLLET (1U << 31)

/* x86-64 packs it: 12 bytes, data at offset 4. */
struct epoll_event {
	u32 events;
	u64 data;
} __attribute__((packed));

#endif
