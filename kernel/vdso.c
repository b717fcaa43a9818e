/*
 * kernel/vdso.c: the vDSO's data page (Linux's kernel/time/vsyscall.c).
 *
 * The page tells the vDSO (arch/vdso/) how to answer without a trap: under
 * --clock=host, through the host vDSO's clock_gettime, since the kernel's
 * clocks are the host's (clock_get_ns); under --clock=virtual, from the
 * virtual time kernel/time/time.c copies here on every change. Only the clocks
 * clock_get_ns serves that way are marked: the CPU-time clocks and unknown
 * ids trap, so the kernel answers them. clock_getres answers come from
 * clock_res_ns at boot; they do not change.
 */
#include <umk/os.h>
#include <umk/timer.h>
#include <umk/vdso.h>

#include <umk/uapi/vdso.h>

static struct vdso_data *vdso_data;
static unsigned long vdso_base, vdso_size;

void vdso_init(void)
{
	void *page;
	int id;

	vdso_base = arch_vdso_map(&page, &vdso_size);
	vdso_data = page;
	vdso_data->virtual_ns = ktime_get();
	vdso_data->realtime_offset_ns = VIRTUAL_REALTIME_BOOT;
	vdso_data->host_clock_gettime = (unsigned long)os_host_clock_gettime();
	vdso_data->clocks = 0;
	for (id = 0; id < VDSO_NR_CLOCKS; id++) {
		s64 res = clock_res_ns(id);

		vdso_data->res_ns[id] = res > 0 ? res : 0;
		if (clock_valid(id))
			vdso_data->clocks |= 1UL << id;
	}
	if (clock_virtual)
		vdso_data->clock_mode = VDSO_CLOCK_VIRTUAL;
	else if (vdso_data->host_clock_gettime)
		vdso_data->clock_mode = VDSO_CLOCK_HOST;
	else
		vdso_data->clock_mode = VDSO_CLOCK_NONE;
}

unsigned long vdso_image_base(void)
{
	return vdso_base;
}

unsigned long vdso_image_size(void)
{
	return vdso_size;
}

void update_vsyscall(u64 ns)
{
	if (vdso_data)
		vdso_data->virtual_ns = ns;
}
