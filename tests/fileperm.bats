#!/usr/bin/env bats
# File permissions with credentials (harness/progs/fileperm.c): new files
# owned by their creator's fsuid and fsgid (a set-group-id directory's
# group), generic_permission's mode bits with CAP_DAC_OVERRIDE and
# CAP_DAC_READ_SEARCH on every call that checks them, the sticky bit,
# chown's and chmod's rules, utimensat's, access() with the real ids,
# O_NOATIME's owner rule and ETXTBSY. docs/design.md, "Credentials,
# policies and groups". Natively the tests run as root, as umk's pid 1 is;
# each scenario builds its files as root, then checks them as root or as
# nobody (65534, in group 2000) in a child. Each runs in umk's /tmp
# (tmpfs) and natively in the host's /tmp, and the last tests again in a
# --rw host directory (hostfs).

load helper

@test "the permission matrix as nobody: read, write, execute and search for owner, group and others" {
	same_as_native $H/fileperm matrix-nobody
	# a file: only the class that applies counts
	assert_line 'f-owner-0: open O_RDONLY = -1 EACCES'
	assert_line 'f-owner-4: open O_RDONLY = 0'
	assert_line 'f-owner-4: open O_WRONLY = -1 EACCES'
	assert_line 'f-group-2: open O_WRONLY = 0'
	assert_line 'f-group-2: open O_RDONLY|O_TRUNC = -1 EACCES'
	assert_line 'f-group-6: open O_RDONLY|O_TRUNC = 0'
	assert_line 'f-group-4: truncate to its size = -1 EACCES'
	assert_line 'f-other-1: execve = 0 (exit 0)'
	assert_line 'f-other-6: execve = -1 EACCES'
	assert_line 'f-group-1: access X_OK = 0'
	assert_line 'f-group-1: access R_OK = -1 EACCES'
	# a directory: x to reach a name, r to list, w and x to change names
	assert_line 'd-owner-4: stat d/f = -1 EACCES'
	assert_line 'd-owner-4: opendir d = 0'
	assert_line 'd-other-1: stat d/f = 0'
	assert_line 'd-other-1: opendir d = -1 EACCES'
	assert_line 'd-other-1: chdir d = 0'
	assert_line 'd-group-4: chdir d = -1 EACCES'
	assert_line 'd-group-4: fchdir d = -1 EACCES'
	assert_line 'd-group-2: creat d/new = -1 EACCES'
	assert_line 'd-group-3: creat d/new = 0'
	assert_line 'd-owner-5: unlink d/f = -1 EACCES'
	assert_line 'd-owner-3: unlink d/f = 0'
	assert_line 'd-other-3: rmdir d/e = 0'
	assert_line 'd-other-7: rename d/g d/h = 0'
	assert_line 'd-other-5: mkdir d/sub = -1 EACCES'
}

@test "the permission matrix as root: CAP_DAC_OVERRIDE allows all but executing a file without an x bit" {
	same_as_native $H/fileperm matrix-root
	assert_line 'f-owner-0: open O_RDWR = 0'
	assert_line 'f-owner-0: execve = 0 (exit 0)'
	assert_line 'd-owner-0: stat d/f = 0'
	assert_line 'd-owner-0: unlink d/f = 0'
	refute_line --partial 'EACCES'
	run grep -c 'execve = 0' <<<"$output"
	assert_output 15
}

@test "the sticky bit keeps a name for its file's owner, the directory's owner and CAP_FOWNER" {
	same_as_native $H/fileperm sticky
	assert_output "unlink s/theirs (sticky, another's file) = -1 EPERM
rename s/theirs2 s/moved (sticky) = -1 EPERM
rename s/mine over s/target (sticky, another's target) = -1 EPERM
rmdir s/theirdir (sticky) = -1 EPERM
unlink s/mine (sticky, own file) = 0
unlink own/theirs (sticky, own directory) = 0
unlink plain/theirs (not sticky) = 0"
	same_as_native $H/fileperm sticky-root
	refute_output --partial EPERM
}

@test "a set-group-id directory gives its group to new files and its S_ISGID to new directories" {
	same_as_native $H/fileperm setgid
	assert_output 'creat g/f = 0
g/f: uid 65534 gid 2000 mode 644
mkdir g/d = 0
g/d: uid 65534 gid 2000 mode 2755
mkdir g/d/e = 0
g/d/e: uid 65534 gid 2000 mode 2700
symlink g/l = 0
g/l: uid 65534 gid 2000 mode 777
creat g/x 02755 = 0
g/x: uid 65534 gid 2000 mode 2755
creat h/x 02755 = 0
h/x: uid 65534 gid 3000 mode 755
creat h/y 02745 = 0
h/y: uid 65534 gid 3000 mode 2745
creat n/f = 0
n/f: uid 65534 gid 65534 mode 640
mkdir n/d = 0
n/d: uid 65534 gid 65534 mode 755'
	same_as_native $H/fileperm setgid-root
	assert_line 'g/f: uid 0 gid 2000 mode 644'
	assert_line 'h/x: uid 0 gid 3000 mode 2755'
}

@test "chown: the owner may give the group to one of its groups, CAP_CHOWN the rest; -1 leaves alone; set-id bits drop" {
	same_as_native $H/fileperm chown
	assert_output 'chown mine -1 GROUP = 0
mine: uid 65534 gid 2000 mode 644
chown mine -1 OTHER (not its group) = -1 EPERM
chown mine NOBODY -1 (itself) = 0
chown mine OTHER -1 = -1 EPERM
mine: uid 65534 gid 2000 mode 644
chown theirs -1 -1 = 0
  ctime moved: yes
chown theirs -1 GROUP (not its owner) = -1 EPERM
chown theirs NOBODY NOBODY = -1 EPERM
theirs: uid 3000 gid 3000 mode 666
chown suid -1 GROUP = 0
suid: uid 65534 gid 2000 mode 755
chown sgid-noexec -1 -1 = 0
sgid-noexec: uid 65534 gid 2000 mode 2745
chown dir -1 GROUP = 0
dir: uid 65534 gid 2000 mode 6755
lchown link -1 GROUP = 0
link: uid 65534 gid 2000 mode 777
target: uid 3000 gid 3000 mode 644
fchownat link AT_SYMLINK_NOFOLLOW = 0
link: uid 65534 gid 65534 mode 777
chown link (follows) -1 GROUP = -1 EPERM
target: uid 3000 gid 3000 mode 644
fchownat bad flag = -1 EINVAL
fchown fd -1 NOBODY = 0
fchownat fd "" AT_EMPTY_PATH = 0
mine: uid 65534 gid 2000 mode 644
fchown O_PATH fd = -1 EBADF
chown missing = -1 ENOENT'
}

@test "chown as root: any owner and group, and the set-id bits still drop" {
	same_as_native $H/fileperm chown-root
	assert_line 'chown theirs NOBODY NOBODY = 0'
	assert_line 'theirs: uid 65534 gid 65534 mode 666'
	assert_line 'suid: uid 65534 gid 2000 mode 755'
	assert_line 'chown mine 1234 5678 as root = 0'
	assert_line 'mine: uid 1234 gid 5678 mode 644'
}

@test "chmod is the owner's, and drops S_ISGID for a group the caller is not in" {
	same_as_native $H/fileperm chmod
	assert_output 'chmod mine 02755 (its group is not ours) = 0
mine: uid 65534 gid 3000 mode 755
chmod mine-group 06755 = 0
mine-group: uid 65534 gid 2000 mode 6755
chmod theirs 0600 = -1 EPERM
theirs: uid 3000 gid 3000 mode 666'
}

@test "utimensat: now for the owner or a writer, explicit times for the owner" {
	same_as_native $H/fileperm utimes
	assert_output 'utimensat mine NULL = 0
utimensat mine NOW NOW = 0
utimensat mine OMIT NOW = 0
utimensat mine 1000 2000 = 0
utimensat writable NULL = 0
utimensat writable NOW NOW = 0
utimensat writable OMIT NOW = -1 EPERM
utimensat writable 1000 2000 = -1 EPERM
utimensat readonly NULL = -1 EACCES
utimensat readonly NOW NOW = -1 EACCES
utimensat readonly OMIT NOW = -1 EPERM
utimensat readonly 1000 2000 = -1 EPERM'
}

@test "access and faccessat ask with the real ids, faccessat2's AT_EACCESS with the effective ones" {
	same_as_native $H/fileperm access
	assert_output 'real nobody: access rootonly R_OK = -1 EACCES
real nobody: faccessat2 rootonly R_OK AT_EACCESS = 0
real nobody: access nobodys R_OK = 0
real nobody: open rootonly = 0
effective nobody: access rootonly R_OK = 0
effective nobody: faccessat rootonly W_OK = 0
effective nobody: faccessat2 rootonly R_OK AT_EACCESS = -1 EACCES
effective nobody: faccessat2 nobodys R_OK AT_EACCESS = 0
effective nobody: open rootonly = -1 EACCES
access bad mode = -1 EINVAL'
}

@test "O_NOATIME on another user's file is EPERM, in open and in F_SETFL" {
	same_as_native $H/fileperm noatime
	assert_output "open mine O_NOATIME = 0
open theirs O_NOATIME = -1 EPERM
fcntl theirs F_SETFL O_NOATIME = -1 EPERM
fcntl mine F_SETFL O_NOATIME = 0
mine's F_GETFL has O_NOATIME: yes"
	same_as_native $H/fileperm noatime-root
	refute_output --partial EPERM
}

@test "a running program cannot be opened for writing or truncated, nor a file open for writing run (ETXTBSY)" {
	same_as_native $H/fileperm txtbsy
	assert_output 'open prog O_WRONLY while it runs = -1 ETXTBSY
open prog O_RDWR while it runs = -1 ETXTBSY
creat prog while it runs = -1 ETXTBSY
open prog O_RDONLY|O_TRUNC while it runs = -1 ETXTBSY
truncate prog while it runs = -1 ETXTBSY
open prog O_RDONLY while it runs = 0
prog: exit 0
open prog O_WRONLY after it exited = 0
execve prog2 while open for writing = -1 ETXTBSY
execve prog2 once closed = 0 (exit 0)'
}

@test "a hard link to another user's file needs read and write permission on it (fs.protected_hardlinks)" {
	[[ $(cat /proc/sys/fs/protected_hardlinks) == 1 ]] ||
		skip "the host's fs.protected_hardlinks is not 1, umk's"
	same_as_native $H/fileperm link
	assert_output "link theirs-rw d/a = 0
link theirs-r d/b = -1 EPERM
link mine d/c = 0
link mine into theirs' directory = -1 EACCES"
}

# A --rw host directory that nobody can reach natively: the test's own
# temporary directory is private to root.
hostdir_setup() {
	HOSTDIR=$(mktemp -d /tmp/umk-fileperm.XXXXXX)
	chmod 755 "$HOSTDIR"
}

teardown() {
	[[ -z ${HOSTDIR:-} ]] || rm -rf "$HOSTDIR"
}

@test "in a --rw host directory, the host's owners and modes are checked as in tmpfs (hostfs)" {
	hostdir_setup
	local s
	for s in matrix-nobody matrix-root sticky setgid chmod utimes access noatime txtbsy; do
		same_as_native --rw="$HOSTDIR" $H/fileperm $s "$HOSTDIR"
	done
	assert_line 'open prog O_WRONLY while it runs = -1 ETXTBSY'
}

@test "in a --rw host directory, chown is the host's chown, after umk's checks (hostfs)" {
	hostdir_setup
	same_as_native --rw="$HOSTDIR" $H/fileperm chown "$HOSTDIR"
	assert_line 'chown theirs NOBODY NOBODY = -1 EPERM'
	assert_line 'suid: uid 65534 gid 2000 mode 755'
	assert_line '  ctime moved: yes'
	same_as_native --rw="$HOSTDIR" $H/fileperm chown-root "$HOSTDIR"
	assert_line 'mine: uid 1234 gid 5678 mode 644'
}
