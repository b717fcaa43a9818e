/*
 * kernel/net/socket.c: the socket calls (net/socket.c) of a kernel built
 * without any address family: socket and socketpair find none
 * (EAFNOSUPPORT), and since no fd can then be a socket, every call on one
 * gets EBADF for an fd that is not open and ENOTSOCK otherwise, in that
 * order, as Linux's sockfd_lookup checks them. Programs rely on these:
 * bash asks getpeername(0) whether it runs from a network daemon, glibc's
 * name services try a socket to nscd and fall back.
 */
#include <umk/errno.h>
#include <umk/fs.h>
#include <umk/syscalls.h>

static long sockfd_lookup(int fd)
{
	struct file *f = fget((unsigned int)fd);

	if (!f)
		return -EBADF;
	fput(f);
	return -ENOTSOCK;
}

long sys_socket(int family, int type, int protocol)
{
	return -EAFNOSUPPORT;
}

long sys_socketpair(int family, int type, int protocol, int __user *usockvec)
{
	return -EAFNOSUPPORT;
}

long sys_connect(int fd, void __user *addr, int addrlen)
{
	return sockfd_lookup(fd);
}

long sys_accept(int fd, void __user *addr, int __user *addrlen)
{
	return sockfd_lookup(fd);
}

long sys_accept4(int fd, void __user *addr, int __user *addrlen, int flags)
{
	return sockfd_lookup(fd);
}

long sys_sendto(int fd, void __user *buff, size_t len, unsigned int flags, void __user *addr,
		int addrlen)
{
	return sockfd_lookup(fd);
}

long sys_recvfrom(int fd, void __user *ubuf, size_t size, unsigned int flags,
		  void __user *addr, int __user *addrlen)
{
	return sockfd_lookup(fd);
}

long sys_sendmsg(int fd, void __user *msg, unsigned int flags)
{
	return sockfd_lookup(fd);
}

long sys_recvmsg(int fd, void __user *msg, unsigned int flags)
{
	return sockfd_lookup(fd);
}

long sys_sendmmsg(int fd, void __user *mmsg, unsigned int vlen, unsigned int flags)
{
	return sockfd_lookup(fd);
}

long sys_recvmmsg(int fd, void __user *mmsg, unsigned int vlen, unsigned int flags,
		  void __user *timeout)
{
	return sockfd_lookup(fd);
}

long sys_shutdown(int fd, int how)
{
	return sockfd_lookup(fd);
}

long sys_bind(int fd, void __user *umyaddr, int addrlen)
{
	return sockfd_lookup(fd);
}

long sys_listen(int fd, int backlog)
{
	return sockfd_lookup(fd);
}

long sys_getsockname(int fd, void __user *usockaddr, int __user *usockaddr_len)
{
	return sockfd_lookup(fd);
}

long sys_getpeername(int fd, void __user *usockaddr, int __user *usockaddr_len)
{
	return sockfd_lookup(fd);
}

long sys_setsockopt(int fd, int level, int optname, char __user *optval, int optlen)
{
	return sockfd_lookup(fd);
}

long sys_getsockopt(int fd, int level, int optname, char __user *optval, int __user *optlen)
{
	return sockfd_lookup(fd);
}
