#!/usr/bin/env bats
# AF_INET and AF_INET6 through the host (kernel/net/af_inet_host.c,
# arch/net.c): TCP and UDP on the loopback, readiness for poll and epoll,
# and the socket restart rules of signal(7). Each case runs
# build/harness/inetsock natively and under umk: the output must be the
# same, and its key lines what Linux 6.x does, so that a harness or host
# that behaves otherwise fails too. First the host layer alone
# (tests/unit/host_socket.c); last, real programs: python3's http.server
# under umk fetched by curl on the host, curl under umk fetching from the
# host, and python3 (threads, asyncio) and node scripts that are an HTTP
# or TCP server and its clients in one process.

load helper

@test "arch/net.c's host sockets never wait, and raise SIGIO for every change the kernel sleeps on" {
	run --separate-stderr timeout 60 $B/tests/host_socket
	assert_success
	assert_output --regexp '^host_socket: [0-9]+ checks$'
}

@test "tcp: bind to port 0, accept, getpeername, 4 MiB each way, end of stream" {
	same_as_native $H/inetsock tcp
	assert_line 'listening on AF_INET 127.0.0.1, port chosen: yes'
	assert_line 'peer AF_INET 127.0.0.1'
	assert_line 'recv 5: hello'
	assert_line 'recv MSG_WAITALL 4 MiB = 4194304, same bytes yes'
	assert_line 'recv at the end of the stream = 0'
	refute_line --partial 'child:'
}

@test "tcp6: the same exchange on ::1" {
	grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6 2>/dev/null ||
		skip "no IPv6 loopback (::1) on this host"
	same_as_native $H/inetsock tcp6
	assert_line 'listening on AF_INET6 ::1, port chosen: yes'
	assert_line 'peer AF_INET6 ::1'
	assert_line 'recv MSG_WAITALL 4 MiB = 4194304, same bytes yes'
	refute_line --partial 'child:'
}

@test "udp: sendto and recvfrom with the sender's address, MSG_PEEK, MSG_TRUNC both ways, IP_PKTINFO control messages" {
	same_as_native $H/inetsock udp
	assert_line 'recvfrom = 12'
	assert_line "from AF_INET 127.0.0.1, the sender's port: yes"
	assert_line 'recv MSG_PEEK = 12'
	assert_line 'msg_flags MSG_TRUNC yes: data'
	assert_line 'recv(MSG_TRUNC) into 4 bytes = 14'
	assert_line 'recv MSG_DONTWAIT, nothing there = -1 EAGAIN'
	assert_line 'recv on a = 4'
	assert_line 'sendmsg with IP_PKTINFO = 12'
	assert_line 'IP_PKTINFO: controllen 32, ifindex of lo yes, to 127.0.0.1'
	assert_line 'MSG_CTRUNC yes, controllen 20'
}

@test "a non-blocking connect is EINPROGRESS, then writable for poll and epoll, then 0 and EISCONN" {
	same_as_native $H/inetsock nonblock
	assert_line 'accept on a non-blocking listener, nothing pending = -1 EAGAIN'
	assert_line 'connect non-blocking = -1 EINPROGRESS'
	assert_line 'epoll_wait = 1: data 2'
	assert_line 'poll = 1: POLLOUT'
	assert_line 'SO_ERROR = 0'
	assert_line --index 5 'connect again = 0'
	assert_line --index 6 'connect again = -1 EISCONN'
	assert_line 'listener: epoll_wait = 1: data 1'
	assert_line 'recv non-blocking, nothing there = -1 EAGAIN'
	assert_line 'epoll_wait = 1: data 3 EPOLLIN'
	assert_line "after the peer's shutdown: epoll_wait = 1: data 3 EPOLLIN EPOLLRDHUP"
}

@test "connect to a closed port is ECONNREFUSED" {
	same_as_native $H/inetsock refused
	assert_line 'connect to a closed port = -1 ECONNREFUSED'
	assert_line 'the error: ECONNREFUSED'
}

@test "SO_RCVTIMEO: EAGAIN when it expires, EINTR after an SA_RESTART handler" {
	same_as_native $H/inetsock rcvtimeo
	assert_line 'SO_RCVTIMEO = 0.200000'
	assert_line 'recv = -1 EAGAIN, waited >= 190 ms yes'
	assert_line 'recv, SA_RESTART handler at 50 ms = -1 EINTR, handler ran 1, before the timeout yes'
	assert_line 'accept = -1 EAGAIN, waited >= 90 ms yes'
}

@test "without a timeout recv is restarted under SA_RESTART, EINTR without; MSG_WAITALL across a signal" {
	same_as_native $H/inetsock restart
	assert_line 'recv, SA_RESTART handler at 100 ms, data at 500 ms = 5, handler ran 1: later'
	assert_line 'recv, handler without SA_RESTART = -1 EINTR, handler ran 1'
	assert_line 'recv MSG_WAITALL 16, 4 bytes at 100 ms, SA_RESTART handler at 500 ms = 4, handler ran 1'
	assert_line 'recv MSG_WAITALL 16, SA_RESTART handler at 100 ms, 4 bytes and the end at 500 ms = 4, handler ran 1'
}

@test "stop and continue: recv with SO_RCVTIMEO is EINTR, without it is restarted" {
	same_as_native $H/inetsock stop
	assert_line 'recv with SO_RCVTIMEO, stopped and continued = -1 EINTR'
	assert_line 'recv without a timeout, stopped and continued = 5: after'
}

@test "connect: SO_SNDTIMEO gives EINPROGRESS; an interrupted one goes on (EALREADY, 0, EISCONN); SA_RESTART completes it" {
	same_as_native $H/inetsock connect
	assert_line 'connect with SO_SNDTIMEO, backlog full = -1 EINPROGRESS, waited >= 190 ms yes'
	assert_line 'connect again, times out again = -1 EALREADY'
	assert_line 'connect, handler without SA_RESTART = -1 EINTR, handler ran 1'
	assert_line 'connect again, non-blocking = -1 EALREADY'
	assert_line --index 4 'poll = 1: POLLOUT'
	assert_line --index 5 'connect again = 0'
	assert_line --index 6 'connect again = -1 EISCONN'
	assert_line 'connect, SA_RESTART handler, accepted later = 0, handler ran 1'
}

@test "a partial send returns the bytes sent; a send after shutdown is EPIPE with SIGPIPE unless MSG_NOSIGNAL" {
	same_as_native $H/inetsock partial
	assert_line 'send 16 MiB, MSG_DONTWAIT: some but not all yes'
	assert_line 'send 16 MiB, SO_SNDTIMEO: some but not all yes, waited >= 190 ms yes'
	assert_line 'send 16 MiB, SA_RESTART handler: some but not all yes, handler ran 1'
	assert_line 'send after shutdown = -1 EPIPE, SIGPIPE 1'
	assert_line 'send after shutdown, MSG_NOSIGNAL = -1 EPIPE, SIGPIPE 0'
}

@test "a close with SO_LINGER and unsent data returns, and the peer still gets every byte" {
	same_as_native $H/inetsock linger
	assert_line 'filled the connection: yes'
	assert_line 'close = 0'
	assert_line 'close returned within 2 s yes'
	assert_line 'the peer got every byte yes, then the end'
}

@test "socket options pass through to the host socket" {
	same_as_native $H/inetsock options
	assert_line 'SO_PROTOCOL tcp = 6'
	assert_line 'SO_PROTOCOL udp = 17'
	assert_line 'TCP_NODELAY = 1'
	assert_line 'SO_KEEPALIVE = 1'
	assert_line 'TCP_KEEPIDLE = 77'
	assert_line 'IP_TOS = 16'
	assert_line 'IPV6_V6ONLY = 1'
	assert_line 'SO_LINGER = {1, 5} len 8'
	assert_line 'SO_ACCEPTCONN listener = 1'
	assert_line 'FIONREAD = 5'
}

@test "socket(): TCP and UDP exist, SOCK_SEQPACKET and a wrong protocol do not" {
	same_as_native $H/inetsock families
	assert_line 'socket(AF_INET, SOCK_STREAM) = 0'
	assert_line 'socket(AF_INET6, SOCK_STREAM) = 0'
	assert_line 'socket(AF_INET, SOCK_SEQPACKET) = -1 ESOCKTNOSUPPORT'
	assert_line 'socket(AF_INET, SOCK_STREAM, IPPROTO_UDP) = -1 EPROTONOSUPPORT'
}

@test "--net=none: socket(AF_INET) and socket(AF_INET6) are EAFNOSUPPORT" {
	umk --net=none $H/inetsock families
	assert_line 'socket(AF_INET, SOCK_STREAM) = -1 EAFNOSUPPORT'
	assert_line 'socket(AF_INET, SOCK_DGRAM) = -1 EAFNOSUPPORT'
	assert_line 'socket(AF_INET6, SOCK_STREAM) = -1 EAFNOSUPPORT'
	umk --net=host $H/inetsock families
	assert_line 'socket(AF_INET, SOCK_STREAM) = 0'
	umk -s 2 --net=bogus $H/inetsock families
	assert_equal "$stderr" "umk: unknown network 'bogus': host or none (try 'umk --help')"
}

# A TCP port on the loopback that nobody uses now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

@test "python3 -m http.server under umk serves curl on the host, and a python3 client inside umk" {
	require_umk
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	command -v curl >/dev/null || skip "no curl on this host"
	local port pid
	port=$(free_port)
	timeout -k 5 "$UMK_TIMEOUT" "$UMK" /usr/bin/python3 -m http.server --bind 127.0.0.1 \
		--directory "$ROOT/docs" "$port" >"$BATS_TEST_TMPDIR/server.out" 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		curl -s -m 5 -o "$BATS_TEST_TMPDIR/usage.md" "http://127.0.0.1:$port/usage.md" && break
		sleep 0.1
	done
	run cmp "$BATS_TEST_TMPDIR/usage.md" "$ROOT/docs/usage.md"
	local got=$status
	run curl -s -m 5 "http://127.0.0.1:$port/"
	local listing=$output
	umk /usr/bin/python3 -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:$port/design.md').read() == open('$ROOT/docs/design.md', 'rb').read())"
	local inside=$output
	kill "$pid"
	wait "$pid" || true
	assert_equal "$got" 0
	[[ $listing == *'<title>Directory listing for /</title>'* ]] || fail "no listing: $listing"
	assert_equal "$inside" True
	run grep -c '"GET /usage.md HTTP/1.1" 200' "$BATS_TEST_TMPDIR/server.out"
	assert_output 1
}

PY_HTTP='
import http.server, threading, urllib.request
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = ("you asked for " + self.path + "\n").encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
srv = http.server.HTTPServer(("127.0.0.1", 0), H)
t = threading.Thread(target=srv.serve_forever)
t.start()
for p in ("/a", "/b/c"):
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (srv.server_address[1], p)) as r:
        print(r.status, r.read().decode().strip())
srv.shutdown()
t.join()
print("done")
'

@test "python3: an HTTP server thread and a urllib client in one process" {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	same_as_native /usr/bin/python3 -c "$PY_HTTP"
	assert_output '200 you asked for /a
200 you asked for /b/c
done'
}

NODE_HTTP='
const http = require("http");
const srv = http.createServer((req, res) => res.end("you asked for " + req.url + "\n"));
srv.listen(0, "127.0.0.1", () => {
  http.get({ host: "127.0.0.1", port: srv.address().port, path: "/node" }, (res) => {
    let body = "";
    res.on("data", (d) => body += d);
    res.on("end", () => {
      console.log(res.statusCode, body.trim());
      srv.close(() => console.log("done"));
    });
  });
});
'

@test "node: an http server and client in one script" {
	command -v node >/dev/null || skip "no node on this host"
	same_as_native "$(command -v node)" -e "$NODE_HTTP"
	assert_output '200 you asked for /node
done'
}

PY_ASYNCIO='
import asyncio
async def handle(r, w):
    w.write(b"echo " + await r.readline())
    await w.drain()
    w.close()
async def main():
    srv = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = srv.sockets[0].getsockname()[1]
    outs = []
    async def client(i):
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(b"client %d\n" % i)
        await w.drain()
        outs.append((await r.readline()).decode().strip())
        w.close()
    await asyncio.gather(*(client(i) for i in range(20)))
    print(len(outs), sorted(outs, key=lambda s: int(s.split()[-1]))[::19])
    srv.close()
    await srv.wait_closed()
asyncio.run(main())
'

@test "python3 asyncio: a TCP server and 20 concurrent clients in one event loop" {
	[[ -x /usr/bin/python3 ]] || skip "no /usr/bin/python3 on this host"
	same_as_native /usr/bin/python3 -c "$PY_ASYNCIO"
	assert_output "20 ['echo client 0', 'echo client 19']"
}

@test "curl under umk fetches from a server on the host, by address and by localhost" {
	require_umk
	command -v curl >/dev/null || skip "no curl on this host"
	command -v python3 >/dev/null || skip "no python3 on this host"
	local port pid
	port=$(free_port)
	python3 -m http.server --bind 127.0.0.1 --directory "$ROOT/docs" "$port" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		curl -s -m 5 -o /dev/null "http://127.0.0.1:$port/" && break
		sleep 0.1
	done
	umk "$(command -v curl)" -s "http://127.0.0.1:$port/usage.md"
	local by_address=$output
	umk "$(command -v curl)" -s "http://localhost:$port/design.md"
	local by_name=$output
	kill "$pid"
	wait "$pid" || true
	assert_equal "$by_address" "$(cat "$ROOT/docs/usage.md")"
	assert_equal "$by_name" "$(cat "$ROOT/docs/design.md")"
}
