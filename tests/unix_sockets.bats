#!/usr/bin/env bats
# AF_UNIX sockets and the socket layer (kernel/net/af_unix.c,
# kernel/net/socket.c; design.md, "Sockets"). Each case runs
# build/harness/unixsock natively and under umk: the output must be
# identical, and its key lines Linux's, so that a host (or a harness) that
# behaves otherwise fails too. Then python3's socketpair, asyncio's event
# loop (its self-pipe is a socketpair), a signal handler through
# loop.add_signal_handler, a unix-socket server and multiprocessing.Manager()
# with the fork and forkserver start methods, natively and under umk.

load helper

@test "unix sockets: each type's socketpair carries data, keeps message boundaries, and ends" {
	same_as_native $H/unixsock types
	assert_line 'socket(AF_UNIX, 99) = -1 EINVAL'
	assert_line 'socket(AF_UNIX, SOCK_STREAM, 5) = -1 EPROTONOSUPPORT'
	assert_line 'socket(45, SOCK_STREAM) = -1 EAFNOSUPPORT'
	assert_line 'getsockname(pipe) = -1 ENOTSOCK'
	assert_line 'S_ISSOCK 1 mode 777'
	assert_line 'SO_TYPE 5 SO_DOMAIN 1 SO_PROTOCOL 0 SO_ACCEPTCONN 0 SO_ERROR 0'
	assert_line "read 64 = 6 'abcdef'"
	assert_line "read 64 = 3 'abc'"
	assert_line 'read (peer closed) = 0'
	assert_line 'write (peer closed) = -1 ECONNREFUSED'
	assert_line 'read(unconnected stream) = -1 EINVAL'
	assert_line 'write(unconnected stream) = -1 ENOTCONN'
	assert_line 'listen(dgram) = -1 EOPNOTSUPP'
	assert_line 'SOCK_NONBLOCK 1 SOCK_CLOEXEC 1'
	assert_line 'read (nonblocking, empty) = -1 EAGAIN'
}

@test "unix sockets: path names in umk's file system, abstract names and autobind" {
	same_as_native $H/unixsock names
	assert_line 'bind(again) = -1 EADDRINUSE'
	assert_line 'S_ISSOCK 1'
	assert_line 'open(socket node) = -1 ENXIO'
	assert_line 'connect(not listening) = -1 ECONNREFUSED'
	assert_line 'accept(nonblocking, none) = -1 EAGAIN'
	assert_line 'connect(again) = -1 EISCONN'
	assert_line 'getpeername(cli): path srv, len ok 1'
	assert_line "read(accepted) = 5 'early'"
	assert_line 'connect(no such path) = -1 ENOENT'
	assert_line 'connect(regular file) = -1 ECONNREFUSED'
	assert_line 'connect(stream to dgram) = -1 EPROTOTYPE'
	assert_line 'sender dgcli'
	assert_line 'connect(unlinked path) = -1 ENOENT'
	assert_line 'bind(abstract in use) = -1 EADDRINUSE'
	assert_line "recv = 6 'packet'"
	assert_line 'autobind: len 8, sun_path[0] 0, hex 5'
}

@test "unix sockets: MSG_PEEK, MSG_WAITALL, MSG_TRUNC, shutdown, EPIPE and SIGPIPE, ECONNRESET" {
	same_as_native $H/unixsock flags
	assert_line "recv PEEK 64 (two writes) = 8 'lloworld'"
	assert_line "recv WAITALL 10 = 10 'part1part2'"
	assert_line 'read(peer shut down writing) = 0'
	assert_line 'write(after SHUT_WR), NOSIGNAL = -1 EPIPE'
	assert_line 'write, SIGPIPE ignored = -1 EPIPE'
	assert_line 'write, SIGPIPE default: child killed by SIGPIPE'
	assert_line 'read(then) = -1 ECONNRESET'
	assert_line 'msg_flags MSG_TRUNC 1'
}

@test "unix sockets: SCM_RIGHTS passes a pipe end to a child; files in flight are freed" {
	same_as_native $H/unixsock rights
	assert_line 'child (received 1 fd and wrote into it): exit 0'
	assert_line "read(pipe) = 25 'hello through a passed fd'"
	assert_line '2 fds, FD_CLOEXEC 1 1, same pipe 1'
	assert_line '1 fd, MSG_CTRUNC 1'
	assert_line 'read(pipe: dropped write end closed) = 0'
	assert_line 'read(pipe: write end was in flight, sockets closed) = 0'
	assert_line 'sendmsg(SCM_RIGHTS bad fd) = -1 EBADF'
}

@test "unix sockets: MSG_OOB sends one urgent byte: the mark, SIOCATMARK, POLLPRI, SO_OOBINLINE, SIGURG" {
	same_as_native $H/unixsock oob
	assert_line 'poll: POLLIN 1 POLLPRI 1'
	assert_line "recv 64 (stops at the mark) = 4 'hell'"
	assert_line "recv OOB = 1 'o' MSG_OOB"
	assert_line 'recv OOB (again) = -1 EINVAL'
	assert_line "recv 64 (at the mark) = 2 'cd'"
	assert_line "recv OOB = 1 'y' MSG_OOB"
	assert_line 'recv OOB (inline) = -1 EINVAL'
	assert_line 'send(nothing, MSG_OOB) = -1 EOPNOTSUPP'
	assert_line 'send(dgram, MSG_OOB) = -1 EOPNOTSUPP'
	# SIGURG only once the receiving socket has an owner, only for MSG_OOB
	assert_output --partial 'send(u, MSG_OOB) without an owner = 1
SIGURG 0
fcntl(F_SETOWN, getpid()) = 0
send(v, MSG_OOB) = 1
SIGURG 1
send(w) without MSG_OOB = 1
SIGURG 1'
}

@test "unix sockets: the garbage collector frees sockets kept alive only by each other's messages in flight" {
	same_as_native $H/unixsock gc
	assert_line 'sent over itself, closed: 0 of 2 listed after gc'
	assert_line 'a cycle of two, one end each closed: 2 of 4 listed'
	assert_line 'a cycle of two, all closed: 0 of 4 listed after gc'
	assert_line 'listener in flight to itself: 0 of 2 listed after gc'
	assert_line 'in flight, its receiver open: 1 of 1 listed'
	assert_line "read(received b[0]) = 5 'alive'"
}

@test "unix sockets: SO_PEERCRED, SO_PASSCRED and SCM_CREDENTIALS" {
	same_as_native $H/unixsock creds
	assert_line 'unconnected: pid 0 uid -1 gid -1'
	assert_line 'accepted (the child): pid ok 1, uid ok 1, gid ok 1'
	assert_line "child's connected socket (the listener): pid ok 1, uid ok 1, gid ok 1"
	assert_line 'cmsg level 1 type 2 len 28: pid ok 1 uid ok 1'
	assert_line 'sender autobound: len 8 abstract 1'
}

@test "unix sockets: poll and epoll see data, room, hang-ups and pending connections" {
	same_as_native $H/unixsock poll
	assert_line 'poll(peer closed) = 1 revents IN OUT HUP RDHUP'
	assert_line 'poll(writer, full) = 0 revents'
	assert_line 'poll(writer, drained) = 1 revents OUT'
	assert_line 'poll(listener, connection pending) = 1 revents IN'
	assert_line 'epoll_wait = 1 events IN 1 RDHUP 1 HUP 1'
}

@test "unix sockets: a full backlog refuses a non-blocking connect and holds a blocking one" {
	same_as_native $H/unixsock backlog
	assert_line 'connects before the backlog was full: 2'
	assert_line 'connect 3 = -1 EAGAIN'
	assert_line 'child exit 0'
	assert_line 'accept(shut down listener) = -1 EINVAL'
}

@test "unix sockets: SO_RCVTIMEO and SO_SNDTIMEO expire with EAGAIN and make a handler EINTR" {
	same_as_native $H/unixsock timeo
	assert_line 'SO_RCVTIMEO = {0, 100000} len 16'
	assert_line 'setsockopt(SO_RCVTIMEO usec 1000000) = -1 EDOM'
	assert_line 'recv (timeout) = -1 EAGAIN'
	assert_line 'recv (SO_RCVTIMEO 5 s, SA_RESTART handler) = -1 EINTR'
	assert_line 'send (SO_SNDTIMEO 100 ms, full) = -1 EAGAIN'
	refute_line 'waited >= 90 ms no'
}

@test "unix sockets: MSG_WAITALL is restarted after a SA_RESTART handler and completes" {
	same_as_native $H/unixsock waitall
	assert_output "recv WAITALL 10 (SA_RESTART handler first) = 10 '0123456789'"
}

@test "unix sockets: 1 MiB through a stream socketpair to a child arrives whole" {
	same_as_native $H/unixsock bulk
	assert_output 'wrote 1048576, sum ok 1, child exit 0'
}

@test "unix sockets: /proc/self/fd names a socket, /proc/net/unix lists it" {
	same_as_native $H/unixsock proc
	assert_line 'fd link starts with socket:[ 1'
	assert_line 'line: flags 00010000 type 0001 st 01'
	assert_line 'header 1, our socket listed 1'
}

# A writable host directory (--rw): the socket node is made on the host,
# and umk's sockets find each other through it.
HOSTFS_SOCKET='
import os, socket, stat, sys
p = os.path.join(sys.argv[1], "s.sock")
s = socket.socket(socket.AF_UNIX); s.bind(p); s.listen(1)
print("S_ISSOCK", stat.S_ISSOCK(os.stat(p).st_mode))
c = socket.socket(socket.AF_UNIX); c.connect(p)
a, _ = s.accept(); c.send(b"hi"); print(a.recv(2))
d = socket.socket(socket.AF_UNIX)
try:
    d.bind(p)
except OSError as e:
    print("bind again:", os.strerror(e.errno))
s.close(); os.unlink(p)'

@test "unix sockets: a path name in a writable host directory (--rw) is a socket node on the host" {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	local dir=$BATS_TEST_TMPDIR/rw
	mkdir -p "$dir"
	same_as_native --rw="$dir" /usr/bin/python3 -c "$HOSTFS_SOCKET" "$dir"
	assert_output $'S_ISSOCK True\nb\'hi\'\nbind again: Address already in use'
}

@test "unix sockets: python3's socket.socketpair sends and receives" {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	same_as_native /usr/bin/python3 -c \
		'import socket; a,b=socket.socketpair(); a.send(b"x"); print(b.recv(1))'
	assert_output "b'x'"
}

@test "unix sockets: python3's asyncio.run runs its event loop" {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	same_as_native /usr/bin/python3 -c \
		'import asyncio; asyncio.run(asyncio.sleep(0.01)); print("ok")'
	assert_output 'ok'
}

# The signal reaches the loop through its self-pipe (signal.set_wakeup_fd
# on a socketpair); then a server and a client on a unix socket path in
# /tmp (umk's tmpfs under umk).
ASYNCIO_SIGNAL='
import asyncio, os, signal
async def main():
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    loop.add_signal_handler(signal.SIGUSR1, lambda: fut.set_result("got SIGUSR1"))
    loop.call_later(0.05, os.kill, os.getpid(), signal.SIGUSR1)
    print(await asyncio.wait_for(fut, 5))
    async def handle(r, w):
        w.write((await r.readline()).upper()); await w.drain(); w.close()
    path = "/tmp/umk-asyncio-%d.sock" % os.getpid()
    srv = await asyncio.start_unix_server(handle, path=path)
    r, w = await asyncio.open_unix_connection(path)
    w.write(b"hello unix\n"); await w.drain()
    print((await r.readline()).decode().strip())
    w.close(); srv.close(); await srv.wait_closed(); os.unlink(path)
asyncio.run(main())
print("done")'

@test "unix sockets: python3 asyncio with loop.add_signal_handler and a unix server" {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	same_as_native /usr/bin/python3 -c "$ASYNCIO_SIGNAL"
	assert_output $'got SIGUSR1\nHELLO UNIX\ndone'
}

# multiprocessing.Manager() starts a server process that listens on a unix
# socket path in a fresh /tmp/pymp-* directory (umk's tmpfs under umk) and
# authenticates each client with HMAC; the proxies (dict, list, Queue,
# Pool, Namespace, Lock) are connections to it from this process and from
# the children. forkserver's server is a spawned python3 that gets the
# children's pipes through SCM_RIGHTS. The targets are module functions
# and proxies' methods, which pickle by reference under -c.
MANAGER_PY='
import multiprocessing as mp, operator, sys
if __name__ == "__main__":
    mp.set_start_method(sys.argv[1])
    with mp.Manager() as m:
        d, l, q, ns, lock = m.dict(), m.list(), m.Queue(), m.Namespace(), m.Lock()
        ps = [mp.Process(target=operator.setitem, args=(d, i, i * i)) for i in range(3)]
        ps += [mp.Process(target=l.append, args=(i,)) for i in range(3)]
        ps += [mp.Process(target=q.put, args=(i,)) for i in range(3)]
        for p in ps: p.start()
        for p in ps: p.join()
        print(sys.argv[1], sorted(d.items()), sorted(l), sorted(q.get(timeout=5) for _ in range(3)))
        print("exit codes", [p.exitcode for p in ps])
        with m.Pool(2) as pool:
            print("pool", pool.map(abs, [-1, -2, -3]))
        ns.x = 7
        print("namespace", ns.x, "lock", lock.acquire(), lock.release())
        print("unix socket path", m.address.startswith("/"))
    print("manager exit code", m._process.exitcode)'

# manager_serves METHOD: MANAGER_PY with that start method, natively and
# under umk.
manager_serves() {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	UMK_TIMEOUT=120 same_as_native /usr/bin/python3 -c "$MANAGER_PY" "$1"
	assert_line "$1 [(0, 0), (1, 1), (2, 4)] [0, 1, 2] [0, 1, 2]"
	assert_line 'exit codes [0, 0, 0, 0, 0, 0, 0, 0, 0]'
	assert_line 'pool [1, 2, 3]'
	assert_line 'namespace 7 lock True None'
	assert_line 'unix socket path True'
	assert_line 'manager exit code 0'
}

@test "unix sockets: python3's multiprocessing.Manager() serves its children (fork start method)" {
	manager_serves fork
}

@test "unix sockets: python3's multiprocessing.Manager() serves its children (forkserver start method)" {
	manager_serves forkserver
}
