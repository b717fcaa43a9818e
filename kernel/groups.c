/*
 * kernel/groups.c: supplementary groups (kernel/groups.c): getgroups and
 * setgroups, and in_group_p, which the file permission checks ask.
 *
 * A task's groups are a sorted array shared by reference count
 * (struct group_info, include/umk/cred.h); setgroups makes a new one.
 * pid 1 starts with none, as Linux's init_groups.
 */
#include <umk/cred.h>
#include <umk/errno.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>

/* Move the larger of a[i]'s children up until a[i..n) is a heap again. */
static void sift_down(gid_t *a, int i, int n)
{
	for (;;) {
		int c = 2 * i + 1;
		gid_t t;

		if (c >= n)
			return;
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[i] >= a[c])
			return;
		t = a[i];
		a[i] = a[c];
		a[c] = t;
		i = c;
	}
}

/* groups_sort: ascending, in place, in O(n log n) (a heapsort, as
 * Linux's lib/sort.c). */
static void groups_sort(struct group_info *gi)
{
	gid_t *a = gi->gid, t;
	int n = gi->ngroups, i;

	for (i = n / 2 - 1; i >= 0; i--)
		sift_down(a, i, n);
	for (i = n - 1; i > 0; i--) {
		t = a[0];
		a[0] = a[i];
		a[i] = t;
		sift_down(a, 0, i);
	}
}

long sys_getgroups(int gidsetsize, gid_t __user *grouplist)
{
	const struct group_info *gi = current->cred.group_info;

	if (gidsetsize < 0)
		return -EINVAL;
	if (!gidsetsize)
		return gi->ngroups;
	if (gi->ngroups > gidsetsize)
		return -EINVAL;
	if (gi->ngroups && copy_to_user(grouplist, gi->gid, gi->ngroups * sizeof(gid_t)))
		return -EFAULT;
	return gi->ngroups;
}

long sys_setgroups(int gidsetsize, gid_t __user *grouplist)
{
	struct cred new = current->cred;
	struct group_info *gi;

	if (!capable(CAP_SETGID))
		return -EPERM;
	if ((unsigned int)gidsetsize > NGROUPS_MAX)
		return -EINVAL;
	gi = kmalloc(sizeof(*gi) + gidsetsize * sizeof(gid_t));
	gi->usage = 1;
	gi->ngroups = gidsetsize;
	if (gidsetsize && copy_from_user(gi->gid, grouplist, gidsetsize * sizeof(gid_t))) {
		kfree(gi);
		return -EFAULT;
	}
	groups_sort(gi);
	new.group_info = gi;
	commit_creds(&new);
	return 0;
}

/* Linux's groups_search over the sorted list, and in_group_p. */
static bool groups_search(const struct group_info *gi, gid_t gid)
{
	int lo = 0, hi = gi->ngroups;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (gi->gid[mid] == gid)
			return true;
		if (gi->gid[mid] < gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool in_group_p(gid_t gid)
{
	const struct cred *cred = &current->cred;

	return gid == cred->fsgid || groups_search(cred->group_info, gid);
}
