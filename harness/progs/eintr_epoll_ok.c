/* eintr_epoll_ok: eintr_epoll's correct twin, which waits again on EINTR. */
#define EINTR_CORRECT
#include "eintr_epoll.c"
