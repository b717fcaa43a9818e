#!/usr/bin/env bats
# System V IPC and POSIX message queues (kernel/ipc/; docs/design.md,
# "System V IPC and message queues"): each case of build/harness/ipc runs
# natively and under umk, the output must be identical, and the lines that
# state Linux's behaviour are asserted, so a host that behaves otherwise
# fails too. No id, key, pid or time is printed; a child's result after a
# wake-up is reported through its exit status, so that no line races
# another process's. Natively the tests run as root, as umk's pid 1 is
# (the permission case drops to uid 1000 in a child).

load helper

@test "msgget finds a queue by its key, makes one with IPC_CREAT, refuses IPC_EXCL on an existing one" {
	same_as_native $H/ipc msg
	assert_line 'msgget(KEY, 0) of nothing = -1 ENOENT'
	assert_line 'msgget(KEY, IPC_CREAT | 0640) = id'
	assert_line 'msgget(KEY, IPC_CREAT | IPC_EXCL) = -1 EEXIST'
	assert_line 'msgget(KEY, 0) again is the same id: yes'
	assert_line 'msgget(IPC_PRIVATE) is a new id: yes'
	assert_line 'new queue: qnum 0 cbytes 0 qbytes 16384 mode 640'
}

@test "msgsnd and msgrcv check their arguments in Linux's order" {
	same_as_native $H/ipc msg
	assert_line 'msgsnd(type 0) = -1 EINVAL'
	assert_line 'msgsnd(size 8193) = -1 EINVAL'
	assert_line 'msgsnd(bad pointer) = -1 EFAULT'
	assert_line 'msgsnd(id of nothing) = -1 EINVAL'
	assert_line 'msgrcv(size -1) = -1 EINVAL'
	assert_line 'msgrcv(empty, IPC_NOWAIT) = -1 ENOMSG'
	assert_line 'msgrcv(MSG_COPY without IPC_NOWAIT) = -1 EINVAL'
	assert_line 'msgrcv(bad buffer) = -1 EFAULT'
	assert_line 'after the bad buffer: qnum 0 cbytes 0 qbytes 16384 mode 640'
}

@test "msgrcv picks by type: any, equal, the lowest up to -msgtyp, MSG_EXCEPT; E2BIG unless MSG_NOERROR; MSG_COPY" {
	same_as_native $H/ipc msg
	assert_line 'five messages: qnum 5 cbytes 24 qbytes 16384 mode 640'
	assert_line 'msgrcv(MSG_COPY, number 1) = 3: type 2 "two"'
	assert_line 'msgrcv(type 2, 2-byte buffer) = -1 E2BIG'
	assert_line 'msgrcv(type 2, 2-byte buffer, MSG_NOERROR) = 2: type 2 "tw"'
	assert_line 'msgrcv(type -3) = 3: type 1 "one"'
	assert_line 'msgrcv(type 5, MSG_EXCEPT) = 5: type 3 "three"'
	assert_line 'msgrcv(type 0) = 4: type 5 "five"'
	assert_line 'msgrcv(type 4, IPC_NOWAIT) = -1 ENOMSG'
	assert_line 'msgrcv(type 0) = 9: type 2 "two again"'
}

@test "a queue is full by bytes or by count, both bounded by msg_qbytes; msgctl's commands" {
	same_as_native $H/ipc msg
	assert_line 'msgsnd(1 byte, full by bytes, IPC_NOWAIT) = -1 EAGAIN'
	assert_line 'msgsnd(0 bytes, full by count, IPC_NOWAIT) = -1 EAGAIN'
	assert_line 'full by count: qnum 3 cbytes 0 qbytes 3 mode 640'
	assert_line 'after IPC_SET: qnum 3 cbytes 0 qbytes 16384 mode 600'
	assert_line 'msgctl(IPC_SET, uid -1) = -1 EINVAL'
	assert_line 'msgctl(cmd 99) = -1 EINVAL'
	assert_line 'msgctl(IPC_STAT | IPC_64) = -1 EINVAL'
	assert_line 'msgctl(IPC_INFO) >= 0: yes; msgmax 8192 msgmnb 16384 msgmni 32000 msgssz 16 msgseg 65535 msgpool 512000 msgmap 16384 msgtql 16384'
	assert_line 'msgctl(MSG_STAT) of some index gives our id: yes'
	assert_line 'msgctl(IPC_RMID) again = -1 EINVAL'
	assert_line 'msgget(KEY, 0) after IPC_RMID = -1 ENOENT'
}

@test "a message queue between two processes: a sleeping receiver gets its type, a blocked sender goes on, IPC_RMID is EIDRM" {
	same_as_native $H/ipc msg-procs
	assert_output - <<'OUT'
child: msgrcv(type 2) = 6: type 2 "second"
child: msgrcv(type -1) = 5: type 1 "first"
receiver: exit 0
msgsnd(type 1, "first") = 0
msgsnd(type 2, "second") = 0
after the receiver: qnum 0 cbytes 0 qbytes 16384 mode 600
msgsnd(type 3, 16 bytes) fills it = 0
child: msgsnd(type 4, "blocked") = 0
sender: exit 0
msgrcv(type 3) = 16
msgrcv(type 0) = 7: type 4 "blocked"
msgsnd(type 3, 16 bytes) fills it = 0
msgctl(IPC_RMID) = 0
child: msgrcv(type 9) = -1 EIDRM
child: msgsnd to the full queue = -1 EIDRM
OUT
}

@test "semget, semctl and semop: values, ranges, all-or-nothing operations, semtimedop's timeout" {
	same_as_native $H/ipc sem
	assert_line 'semget(KEY, 32001) = -1 EINVAL'
	assert_line 'semget(KEY, 0, IPC_CREAT) = -1 EINVAL'
	assert_line 'semget(KEY, 4) of a set of 3 = -1 EINVAL'
	assert_line 'semget(KEY, 2, IPC_CREAT | IPC_EXCL) = -1 EEXIST'
	assert_line 'after SETALL: 1 2 3'
	assert_line 'SETVAL(1, 32768) = -1 ERANGE'
	assert_line 'SETVAL(3, 0) = -1 EINVAL'
	assert_line 'SETALL(40000, ...) = -1 ERANGE'
	assert_line 'semop(0 -= 1, IPC_NOWAIT) at 0 = -1 EAGAIN'
	assert_line 'semop(1 -= 1, 2 -= 6, IPC_NOWAIT): none applied = -1 EAGAIN'
	assert_line 'semop(1 += 32767) past SEMVMX = -1 ERANGE'
	assert_line 'semop(sem 3 of 3) = -1 EFBIG'
	assert_line 'semop(501 operations) = -1 E2BIG'
	assert_line 'semtimedop(tv_nsec 1e9) = -1 EINVAL'
	assert_line 'semtimedop(0 -= 1, 20 ms) at 0 = -1 EAGAIN'
	assert_line 'IPC_INFO >= 0: yes; semmni 32000 semmsl 32000 semmns 1024000000 semopm 500 semvmx 32767 semaem 32767 semume 500 semusz 20'
	assert_line 'semop after IPC_RMID = -1 EINVAL'
}

@test "a semop sleeps until another process's makes it possible; GETNCNT, GETZCNT, GETPID; IPC_RMID is EIDRM" {
	same_as_native $H/ipc sem-wait
	assert_output - <<'OUT'
GETNCNT(0) with the child asleep = 1
GETNCNT(1) = 0
semop(0 += 1) = 0
GETNCNT(0) still = 1
child: semop(0 -= 2, 1 += 1) = 0
decrementer: exit 0
semop(0 += 1) = 0
after it: 0 1
GETPID(1) is the child's: yes
GETZCNT(1) = 2
semop(1 -= 1) = 0
child: semop(wait for 0 on 1) = 0
child: semop(wait for 0 on 1) = 0
child: semop(0 -= 1) = -1 EIDRM
sleeper: exit 0
IPC_RMID = 0
OUT
}

@test "SEM_UNDO's adjustments are undone at exit, cleared by SETVAL, clamped to 0..SEMVMX" {
	same_as_native $H/ipc sem-undo
	assert_line 'child: before exit: 2 8 4'
	assert_line "after the child's exit: 5 5 4"
	assert_line 'after: 0 back to 5, 1 stays 4, 2 back to 5: 5 4 5'
	assert_line 'after it: 2 is 2 - 3, clamped to 0: 5 4 0'
	assert_line 'child: semop(2 -= 1 undo) past the range = -1 ERANGE'
	assert_line 'after it: 2 is 1 + 32767, clamped to 32767: 5 4 32767'
}

@test "threads share SEM_UNDO's adjustments: a thread's exit undoes nothing, the process's exit does" {
	same_as_native $H/ipc sem-undo
	assert_line 'thread: semop(2 += 7 undo) = 0'
	assert_line "child: after its thread's exit: 5 4 7"
	assert_line "after the child's exit: 5 4 0"
}

@test "a segment shared by three processes; shm_nattch through fork, shmdt and exit" {
	same_as_native $H/ipc shm
	assert_line 'shmget(KEY, 0, IPC_CREAT) = -1 EINVAL'
	assert_line 'shmget(KEY, 20000) of a 10000-byte segment = -1 EINVAL'
	assert_line 'page-aligned: yes, zeros: yes'
	assert_line 'the children wrote: ABC abc'
	assert_line 'after the children exit: size 10000 nattch 1 mode 600 key KEY'
	assert_line 'child after fork: size 10000 nattch 2 mode 600 key KEY'
	assert_line 'child after shmdt: size 10000 nattch 1 mode 600 key KEY'
}

@test "shmat at an address: SHM_RND, SHM_REMAP, overlaps; SHM_RDONLY cannot be written; shmdt's errors" {
	same_as_native $H/ipc shm
	assert_line 'shmat(unaligned address) = -1 EINVAL'
	assert_line 'shmat(unaligned, SHM_RND) rounds down: yes'
	assert_line 'shmat(over that attachment) = -1 EINVAL'
	assert_line 'shmat(over it, SHM_REMAP): yes'
	assert_line 'shmat(NULL, SHM_REMAP) = -1 EINVAL'
	assert_line 'the second attach sees: B'
	assert_line 'shmdt(second) again = -1 EINVAL'
	assert_line 'shmdt(inside the segment) = -1 EINVAL'
	assert_line 'mprotect(SHM_RDONLY attach, PROT_WRITE) = -1 EACCES'
	assert_line 'child writing the SHM_RDONLY attach: killed by SIGSEGV'
}

@test "IPC_RMID of an attached segment: SHM_DEST, its key gone, destroyed at the last detach or exit" {
	same_as_native $H/ipc shm
	assert_line 'removed, attached: size 10000 nattch 1 mode 1600 key IPC_PRIVATE'
	assert_line 'shmget(KEY, 0) after IPC_RMID = -1 ENOENT'
	assert_line 'shmat of the removed segment by id: address'
	assert_line "child: the parent's attach remains: size 10000 nattch 1 mode 1600 key IPC_PRIVATE"
	assert_line 'after the last detach: IPC_STAT = -1 EINVAL'
	assert_line 'attached by the child: size 4096 nattch 1 mode 600 key IPC_PRIVATE'
	assert_line "after the child's exit: IPC_STAT = -1 EINVAL"
	assert_line 'locked: size 1 nattch 0 mode 2600 key IPC_PRIVATE'
}

@test "as uid 1000: the mode bits give EACCES, the owner's commands EPERM, the limits of a user without CAP_SYS_RESOURCE" {
	same_as_native $H/ipc perms
	assert_output - <<'OUT'
msgsnd(0600 queue) = -1 EACCES
msgrcv(0600 queue) = -1 EACCES
msgctl(IPC_STAT, 0600 queue) = -1 EACCES
msgctl(IPC_RMID, root's queue) = -1 EPERM
msgctl(IPC_SET, root's queue) = -1 EPERM
msgsnd(0666 queue) = 0
msgctl(IPC_STAT, 0666 queue) = 0
msgctl(IPC_RMID, 0666 queue of root's) = -1 EPERM
semop(0600 set) = -1 EACCES
GETVAL(0600 set) = -1 EACCES
SETVAL(0600 set) = -1 EACCES
semctl(IPC_RMID, root's set) = -1 EPERM
shmat(0640 segment, gid 0: read-write) = -1 EACCES
shmat(0640 segment, gid 0, SHM_RDONLY) = address
shmctl(IPC_RMID, root's segment) = -1 EPERM
shmctl(SHM_LOCK, root's segment) = -1 EPERM
msgget(IPC_PRIVATE) as uid 1000 = 0
msgctl(IPC_SET, qbytes past MSGMNB) as uid 1000 = -1 EPERM
msgctl(IPC_RMID, its own queue) = 0
mq_open(root's 0600 queue, O_RDONLY) = -1 EACCES
mq_open(root's 0600 queue, O_WRONLY) = -1 EACCES
mq_unlink(root's queue) = -1 EPERM
mq_open(O_CREAT, maxmsg 11) as uid 1000 = -1 EINVAL
mq_open(O_CREAT, msgsize 8193) as uid 1000 = -1 EINVAL
uid 1000 child: exit 0
mq_unlink(as root) = 0
OUT
}

@test "/proc/sysvipc/msg, sem and shm list the objects with Linux's columns" {
	same_as_native $H/ipc proc
	assert_line '/proc/sysvipc/msg: KEY+4 640 11 2 0 0 0 0'
	assert_line '/proc/sysvipc/sem: KEY+5 604 4 0 0'
	assert_line '/proc/sysvipc/shm: KEY+6 660 12345 1 0 0'
	assert_line --partial '/proc/sysvipc/shm header:        key      shmid perms                  size  cpid  lpid nattch'
	assert_equal "$(grep -c '^/proc/sysvipc/msg:' <<<"$output")" 1
}

@test "mq_open: names, attributes and their limits, O_CREAT and O_EXCL, close-on-exec descriptors" {
	same_as_native $H/ipc mq
	assert_line 'mq_open(no O_CREAT) of nothing = -1 ENOENT'
	assert_line 'mq_open("") = -1 ENOENT'
	assert_line 'mq_open("a/b") = -1 EACCES'
	assert_line 'mq_open(bad attr) = -1 EFAULT'
	assert_line 'mq_open(maxmsg 0) = -1 EINVAL'
	assert_line 'mq_open(msgsize 16 MiB + 1) as root = -1 EINVAL'
	assert_line 'mq_open(O_CREAT | O_EXCL) again = -1 EEXIST'
	assert_line 'mq_open(O_RDWR | O_WRONLY) = -1 EINVAL'
	assert_line 'fd flags: FD_CLOEXEC O_RDWR'
	assert_line 'F_GETFL: 02'
	assert_line 'second fd: flags O_NONBLOCK maxmsg 4 msgsize 16 curmsgs 0'
	assert_line 'queue with the defaults: flags 0 maxmsg 10 msgsize 8192 curmsgs 0'
	assert_line 'mq_unlink(umk-ipc-test2) again = -1 ENOENT'
}

@test "mq messages come out by priority, FIFO within one; send and receive errors; the fd's read; mq_getsetattr" {
	same_as_native $H/ipc mq
	assert_line 'read: QSIZE:11         NOTIFY:0     SIGNO:0     NOTIFY_PID:0'
	assert_line 'mq_send(full, O_NONBLOCK fd) = -1 EAGAIN'
	assert_line 'mq_send(17 bytes) = -1 EMSGSIZE'
	assert_line 'mq_send(prio 32768) = -1 EINVAL'
	assert_line 'mq_send(read-only fd) = -1 EBADF'
	assert_line 'mq_send(not a queue) = -1 EBADF'
	assert_line 'mq_receive(15-byte buffer) = -1 EMSGSIZE'
	assert_line 'mq_receive(empty, O_NONBLOCK) = -1 EAGAIN'
	assert_line 'mq_getsetattr(mq_flags O_APPEND) = -1 EINVAL'
	assert_line 'old flags: O_NONBLOCK'
	assert_line 'F_GETFL has O_NONBLOCK: no'
	assert_line 'mq_open(unlinked name) = -1 ENOENT'
	assert_line 'mq_receive = 5: prio 3 "still"'
	run grep -A4 '^mq_send(tv_nsec -1)' <<<"$output"
	assert_output 'mq_send(tv_nsec -1) = -1 EINVAL
mq_receive(15-byte buffer) = -1 EMSGSIZE
mq_receive = 4: prio 5 "high"
mq_receive = 3: prio 1 "low"
mq_receive = 4: prio 1 "low2"'
}

@test "an mq between two processes: handed to a sleeping receiver, senders sleep on a full queue" {
	same_as_native $H/ipc mq-procs
	assert_output - <<'OUT'
child: mq_receive (sleeps) = 11: prio 2 "handed over"
receiver: exit 0
mq_send(prio 2, "handed over") = 0
the message went to the receiver: flags 0 maxmsg 2 msgsize 32 curmsgs 0
mq_send(prio 1, "a") = 0
mq_send(prio 3, "b") = 0
child: mq_receive = 1: prio 3 "b"
child: mq_receive = 1: prio 9 "c"
child: mq_receive = 1: prio 1 "a"
child: mq_receive = 1: prio 0 "d"
receiver: exit 0
mq_send(prio 9, "c") slept on a full queue = 0
mq_send(prio 0, "d") slept on a full queue = 0
OUT
}

@test "mq_notify's signal comes once, for a message into an empty queue; one registration (EBUSY)" {
	same_as_native $H/ipc mq-notify
	assert_output - <<'OUT'
mq_notify(sigev_notify 7) = -1 EINVAL
mq_notify(SIGEV_SIGNAL, signal 65) = -1 EINVAL
mq_notify(bad pointer) = -1 EFAULT
mq_notify(not a queue) = -1 EBADF
mq_notify(SIGEV_SIGNAL, SIGUSR1, value 42) = 0
registered: QSIZE:0          NOTIFY:0     SIGNO:10    NOTIFY_PID:ours
mq_notify again = -1 EBUSY
child: mq_notify while the parent is registered = -1 EBUSY
child: mq_notify(NULL) is not the owner's = 0
child: mq_send = 0
child: exit 0
signal: SIGUSR1, si_code SI_MESGQ: yes, value 42
after the signal: QSIZE:2          NOTIFY:0     SIGNO:0     NOTIFY_PID:0
mq_send to a non-empty queue = 0
signal again: no
mq_notify again, the queue not empty = 0
mq_send to a non-empty queue = 0
signal: no
mq_send to the empty queue = 0
signal: yes
mq_notify(SIGEV_NONE) = 0
SIGEV_NONE: QSIZE:0          NOTIFY:1     SIGNO:0     NOTIFY_PID:ours
mq_notify(NULL) = 0
unregistered: QSIZE:0          NOTIFY:0     SIGNO:0     NOTIFY_PID:0
mq_notify(NULL) again = 0
OUT
}

@test "an mq descriptor in poll and epoll: POLLIN with messages, POLLOUT with room, woken by another process" {
	same_as_native $H/ipc mq-poll
	assert_output - <<'OUT'
poll(empty) = 1
revents: POLLOUT
poll(full) = 1
revents: POLLIN 
poll(POLLIN) woken by the child's send = 1
poll(POLLOUT) woken by the child's receive = 1
epoll_ctl(ADD, EPOLLIN) = 0
epoll_wait woken by the child's send = 1
events: EPOLLIN
child: exit 0
mq_receive = 5: prio 0 "epoll"
epoll_wait(empty) = 0
OUT
}

@test "mq_timedreceive and mq_timedsend time out at an absolute CLOCK_REALTIME time" {
	same_as_native $H/ipc mq-timeout
	assert_output - <<'OUT'
mq_timedreceive(empty, 50 ms from now) = -1 ETIMEDOUT
waited at least 40 ms: yes
mq_timedreceive(empty, a time past) = -1 ETIMEDOUT
mq_timedsend = 0
mq_timedsend(full, a time past) = -1 ETIMEDOUT
mq_timedsend(full, 50 ms from now) = -1 ETIMEDOUT
mq_timedreceive(a time past, a message there) = 1: prio 0 "x"
OUT
}

@test "exec drops a process's attachments; fork copied them" {
	same_as_native $H/ipc shm-exec
	assert_output - <<'OUT'
child before exec: size 4096 nattch 3 mode 600 key IPC_PRIVATE
after exec: size 4096 nattch 1 mode 600 key IPC_PRIVATE
child: exit 0
after the child: size 4096 nattch 1 mode 600 key IPC_PRIVATE
OUT
}
