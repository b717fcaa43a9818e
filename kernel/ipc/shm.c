/*
 * kernel/ipc/shm.c: System V shared memory (Linux's ipc/shm.c): shmget,
 * shmat, shmdt, shmctl, and /proc/sysvipc/shm.
 *
 * A segment's pages are a shared memory object (struct hostmem, a host
 * memfd: docs/design.md, "Address spaces"), as Linux's are a shmem file.
 * shmat maps it as mmap maps MAP_SHARED memory (add_region, with the
 * regions' bookkeeping of kernel/mm/internal.h), so fork shares an
 * attachment and exec and exit drop it, as any shared region.
 *
 * Attachments are counted by the object's references: the segment holds
 * one, and every region mapping it one more, so shm_nattch is count - 1
 * and counts regions as Linux's does (a region split by munmap or
 * mprotect is two). IPC_RMID of an attached segment marks it SHM_DEST and
 * makes its key IPC_PRIVATE; it is destroyed once nothing maps it. Linux
 * destroys it in the last region's close; umk's regions call no one when
 * they go, so every call here and /proc/sysvipc/shm first destroys the
 * SHM_DEST segments nobody maps any more (shm_reap): nothing can see the
 * difference but the host, whose memfd lives until then. Likewise
 * shm_dtime and shm_lpid change at shmdt, not at a munmap or an exit.
 */
#include <umk/errno.h>
#include <umk/ipc.h>
#include <umk/kernel.h>
#include <umk/mm.h>
#include <umk/os.h>
#include <umk/resource.h>
#include <umk/sched.h>
#include <umk/syscalls.h>
#include <umk/uaccess.h>
#include <umk/uapi/mman.h>

#include "../mm/internal.h"
#include "util.h"

struct shmid_kernel {
	struct kern_ipc_perm shm_perm;
	struct hostmem *mem;		/* the pages; one reference is ours */
	size_t shm_segsz;
	long shm_atim, shm_dtim, shm_ctim;
	pid_t shm_cprid, shm_lprid;
};

static struct ipc_ids shm_ids = { .last_idx = -1, .max_idx = -1 };
static unsigned long shm_tot;	/* pages of every segment (Linux's shm_tot) */

static unsigned long shm_nattch(struct shmid_kernel *shp)
{
	return (unsigned long)shp->mem->count - 1;
}

/* The bytes of the segment's pages the host holds (the memfd's blocks,
 * at st_blocks of the 144-byte struct stat): Linux's shm rss. */
static unsigned long shm_rss(struct shmid_kernel *shp)
{
	u64 st[18];

	if (os_fstat(shp->mem->fd, st))
		return 0;
	return (unsigned long)st[8] * 512;
}

static void shm_destroy(struct shmid_kernel *shp)
{
	shm_tot -= PAGE_ALIGN(shp->shm_segsz) / PAGE_SIZE;
	ipc_rmid(&shm_ids, &shp->shm_perm);
	hostmem_put(shp->mem);
	kfree(shp);
}

/* Destroy the removed segments that nothing maps any more. */
static void shm_reap(void)
{
	int idx;

	for (idx = 0; idx <= shm_ids.max_idx; idx++) {
		struct kern_ipc_perm *p = ipc_obtain_object_idr(&shm_ids, idx);
		struct shmid_kernel *shp;

		if (!p || !(p->mode & SHM_DEST))
			continue;
		shp = container_of(p, struct shmid_kernel, shm_perm);
		if (!shm_nattch(shp))
			shm_destroy(shp);
	}
}

static struct shmid_kernel *shm_obtain_object_check(int id)
{
	struct kern_ipc_perm *p = ipc_obtain_object_check(&shm_ids, id);

	return p ? container_of(p, struct shmid_kernel, shm_perm) : NULL;
}

/* The segment whose pages obj is, or NULL. */
static struct shmid_kernel *shm_of_mem(struct hostmem *obj)
{
	int idx;

	for (idx = 0; obj && idx <= shm_ids.max_idx; idx++) {
		struct kern_ipc_perm *p = ipc_obtain_object_idr(&shm_ids, idx);

		if (p && container_of(p, struct shmid_kernel, shm_perm)->mem == obj)
			return container_of(p, struct shmid_kernel, shm_perm);
	}
	return NULL;
}

static int newseg(struct ipc_params *params)
{
	size_t size = params->u.size;
	size_t numpages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
	struct shmid_kernel *shp;
	int id;

	if (size < SHMMIN || size > SHMMAX)
		return -EINVAL;
	if (numpages * PAGE_SIZE < size)
		return -ENOSPC;
	if (shm_tot + numpages < shm_tot || shm_tot + numpages > SHMALL)
		return -ENOSPC;
	shp = kmalloc(sizeof(*shp));
	shp->mem = hostmem_create("SYSV");
	if (!shp->mem || os_ftruncate(shp->mem->fd, (s64)size)) {
		if (shp->mem)
			hostmem_put(shp->mem);
		kfree(shp);
		return -ENOMEM;
	}
	shp->shm_perm.key = params->key;
	shp->shm_perm.mode = params->flg & S_IRWXUGO;
	shp->shm_segsz = size;
	shp->shm_ctim = ipc_seconds();
	shp->shm_cprid = current->tgid;
	id = ipc_addid(&shm_ids, &shp->shm_perm, SHMMNI);
	if (id < 0) {
		hostmem_put(shp->mem);
		kfree(shp);
		return id;
	}
	shm_tot += numpages;
	return id;
}

static int shm_more_checks(struct kern_ipc_perm *ipcp, struct ipc_params *params)
{
	struct shmid_kernel *shp = container_of(ipcp, struct shmid_kernel, shm_perm);

	return shp->shm_segsz < params->u.size ? -EINVAL : 0;
}

long sys_shmget(key_t key, size_t size, int shmflg)
{
	static const struct ipc_ops shm_ops = { .getnew = newseg, .more_checks = shm_more_checks };
	struct ipc_params params = { .key = key, .flg = shmflg, .u.size = size };

	shm_reap();
	return ipcget(&shm_ids, &shm_ops, &params);
}

/* Linux's do_shmat, its checks in its order: the address, the mode
 * bits, then the range. The address, or -errno. */
static long do_shmat(int shmid, unsigned long addr, int shmflg)
{
	struct mm_struct *mm = current->mm;
	struct shmid_kernel *shp;
	unsigned long size;
	int prot, acc_mode, err;

	shm_reap();
	if (shmid < 0)
		return -EINVAL;
	if (addr) {
		if (addr & (SHMLBA - 1)) {
			if (!(shmflg & SHM_RND))
				return -EINVAL;
			addr &= ~(SHMLBA - 1);
			if (!addr && (shmflg & SHM_REMAP))
				return -EINVAL;
		}
	} else if (shmflg & SHM_REMAP) {
		return -EINVAL;
	}
	if (shmflg & SHM_RDONLY) {
		prot = PROT_READ;
		acc_mode = S_IRUGO;
	} else {
		prot = PROT_READ | PROT_WRITE;
		acc_mode = S_IRUGO | S_IWUGO;
	}
	if (shmflg & SHM_EXEC) {
		prot |= PROT_EXEC;
		acc_mode |= S_IXUGO;
	}
	shp = shm_obtain_object_check(shmid);
	if (!shp)
		return -EINVAL;
	if (ipcperms(&shp->shm_perm, (short)acc_mode))
		return -EACCES;

	size = PAGE_ALIGN(shp->shm_segsz);
	if (addr && !(shmflg & SHM_REMAP)) {
		if (addr + size < addr || range_intersects(mm, addr, addr + size))
			return -EINVAL;
	}
	/* as do_mmap: the window's bounds, RLIMIT_AS, vm.max_map_count */
	if (addr && (addr > TASK_SIZE - size || addr < USER_WINDOW_START))
		return addr < USER_WINDOW_START ? -EPERM : -ENOMEM;
	if (!may_expand_vm(mm, addr, size, addr != 0, false))
		return -ENOMEM;
	if (!addr) {
		addr = get_unmapped_area(mm, 0, size);
		if (!addr)
			return -ENOMEM;
	}
	if (mm->map_count >= DEFAULT_MAP_COUNT_MAX)
		return -ENOMEM;
	err = add_region(mm, addr, addr + size, prot, VMA_ANON, hostmem_get(shp->mem), 0, false,
			 (shmflg & SHM_RDONLY) ? 0 : VM_MAYWRITE);
	if (err)
		return err;
	shp->shm_atim = ipc_seconds();
	shp->shm_lprid = current->tgid;
	return (long)addr;
}

long sys_shmat(int shmid, char __user *shmaddr, int shmflg)
{
	return do_shmat(shmid, (unsigned long)shmaddr, shmflg);
}

/* Unmap the attachment that starts at addr: the first region from there
 * on that maps a segment from where addr is its offset 0, and the
 * regions after it, within the segment's size, that map the same segment
 * at their offset from addr (Linux's ksys_shmdt). */
long sys_shmdt(char __user *shmaddr)
{
	struct mm_struct *mm = current->mm;
	unsigned long addr = (unsigned long)shmaddr, size = 0;
	struct shmid_kernel *shp = NULL;
	struct vm_area_struct *vma, *next;
	struct hostmem *obj = NULL;
	long retval = -EINVAL;

	if (addr & ~PAGE_MASK)
		return -EINVAL;
	for (vma = vma_above(mm, addr); vma && &vma->list != &mm->mmap; vma = next) {
		next = list_next_entry(vma, list);
		shp = shm_of_mem(vma->shared);
		if (shp && vma->vm_start - addr == vma->vm_off) {
			obj = vma->shared;
			size = PAGE_ALIGN(shp->shm_segsz);
			mm_unmap(mm, vma->vm_start, vma->vm_end - vma->vm_start);
			retval = 0;
			vma = next;
			break;
		}
	}
	while (obj && vma && &vma->list != &mm->mmap && vma->vm_end - addr <= size) {
		next = list_next_entry(vma, list);
		if (vma->shared == obj && vma->vm_start - addr == vma->vm_off)
			mm_unmap(mm, vma->vm_start, vma->vm_end - vma->vm_start);
		vma = next;
	}
	if (obj) {
		shp->shm_dtim = ipc_seconds();
		shp->shm_lprid = current->tgid;
	}
	shm_reap();
	return retval;
}

static long shmctl_stat(int shmid, int cmd, void __user *buf)
{
	struct shmid64_ds ds;
	struct kern_ipc_perm *ipcp;
	struct shmid_kernel *shp;

	if (cmd == SHM_STAT || cmd == SHM_STAT_ANY)
		ipcp = ipc_obtain_object_idr(&shm_ids, shmid);
	else
		ipcp = ipc_obtain_object_check(&shm_ids, shmid);
	if (!ipcp)
		return -EINVAL;
	if (cmd != SHM_STAT_ANY && ipcperms(ipcp, S_IRUGO))
		return -EACCES;
	shp = container_of(ipcp, struct shmid_kernel, shm_perm);
	memset(&ds, 0, sizeof(ds));
	kernel_to_ipc64_perm(ipcp, &ds.shm_perm);
	ds.shm_segsz = shp->shm_segsz;
	ds.shm_atime = shp->shm_atim;
	ds.shm_dtime = shp->shm_dtim;
	ds.shm_ctime = shp->shm_ctim;
	ds.shm_cpid = shp->shm_cprid;
	ds.shm_lpid = shp->shm_lprid;
	ds.shm_nattch = shm_nattch(shp);
	if (copy_to_user(buf, &ds, sizeof(ds)))
		return -EFAULT;
	return cmd == IPC_STAT ? 0 : ipcp->id;
}

static long shmctl_down(int shmid, int cmd, void __user *buf)
{
	struct kern_ipc_perm *ipcp;
	struct shmid_kernel *shp;
	struct shmid64_ds ds;
	int err;

	if (cmd == IPC_SET && copy_from_user(&ds, buf, sizeof(ds)))
		return -EFAULT;
	ipcp = ipcctl_obtain_check(&shm_ids, shmid, &err);
	if (!ipcp)
		return err;
	shp = container_of(ipcp, struct shmid_kernel, shm_perm);
	if (cmd == IPC_RMID) {
		if (shm_nattch(shp)) {
			ipcp->mode |= SHM_DEST;
			ipcp->key = IPC_PRIVATE;	/* not found by its key any more */
		} else {
			shm_destroy(shp);
		}
		return 0;
	}
	if (ds.shm_perm.uid == (uid_t)-1 || ds.shm_perm.gid == (gid_t)-1)
		return -EINVAL;
	ipc_update_perm(&ds.shm_perm, ipcp);
	shp->shm_ctim = ipc_seconds();
	return 0;
}

static long shmctl_info(int cmd, void __user *buf)
{
	int max_idx = ipc_get_maxidx(&shm_ids);

	if (cmd == IPC_INFO) {
		struct shminfo64 info = {
			.shmmax = SHMMAX, .shmmin = SHMMIN, .shmmni = SHMMNI,
			.shmseg = SHMSEG, .shmall = SHMALL,
		};

		if (copy_to_user(buf, &info, sizeof(info)))
			return -EFAULT;
	} else {
		struct shm_info info = { .used_ids = shm_ids.in_use, .shm_tot = shm_tot };
		int idx;

		for (idx = 0; idx <= shm_ids.max_idx; idx++) {
			struct kern_ipc_perm *p = ipc_obtain_object_idr(&shm_ids, idx);

			if (p)
				info.shm_rss += shm_rss(container_of(p, struct shmid_kernel,
								     shm_perm)) / PAGE_SIZE;
		}
		if (copy_to_user(buf, &info, sizeof(info)))
			return -EFAULT;
	}
	return max_idx < 0 ? 0 : max_idx;
}

static long shmctl_lock(int shmid, int cmd)
{
	struct shmid_kernel *shp = shm_obtain_object_check(shmid);
	uid_t euid = current->cred.euid;

	if (!shp)
		return -EINVAL;
	if (!capable(CAP_IPC_LOCK)) {
		if (euid != shp->shm_perm.uid && euid != shp->shm_perm.cuid)
			return -EPERM;
		if (cmd == SHM_LOCK && !rlimit(RLIMIT_MEMLOCK))
			return -EPERM;
	}
	if (cmd == SHM_LOCK)
		shp->shm_perm.mode |= SHM_LOCKED;
	else
		shp->shm_perm.mode &= ~SHM_LOCKED;
	return 0;
}

long sys_shmctl(int shmid, int cmd, void __user *buf)
{
	shm_reap();
	if (cmd < 0 || shmid < 0)
		return -EINVAL;
	switch (cmd) {
	case IPC_INFO:
	case SHM_INFO:
		return shmctl_info(cmd, buf);
	case IPC_STAT:
	case SHM_STAT:
	case SHM_STAT_ANY:
		return shmctl_stat(shmid, cmd, buf);
	case IPC_SET:
	case IPC_RMID:
		return shmctl_down(shmid, cmd, buf);
	case SHM_LOCK:
	case SHM_UNLOCK:
		return shmctl_lock(shmid, cmd);
	}
	return -EINVAL;
}

int sysvipc_shm_show(char *buf, size_t size)
{
	int n = ksnprintf(buf, size, "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap\n");
	int idx;

	shm_reap();
	for (idx = 0; idx <= shm_ids.max_idx; idx++) {
		struct kern_ipc_perm *p = ipc_obtain_object_idr(&shm_ids, idx);
		struct shmid_kernel *shp;

		if (!p || (size_t)n >= size)
			continue;
		shp = container_of(p, struct shmid_kernel, shm_perm);
		n += ksnprintf(buf + n, size - n,
			       "%10d %10d  %4o %21lu %5u %5u  %5lu %5u %5u %5u %5u %10ld %10ld %10ld %21lu %21lu\n",
			       p->key, p->id, p->mode, (unsigned long)shp->shm_segsz, shp->shm_cprid,
			       shp->shm_lprid, shm_nattch(shp), p->uid, p->gid, p->cuid, p->cgid,
			       shp->shm_atim, shp->shm_dtim, shp->shm_ctim,
			       shm_rss(shp), 0UL);
	}
	return n;
}
