/* eintr_sleep_ok: eintr_sleep's correct twin, which sleeps the time left. */
#define EINTR_CORRECT
#include "eintr_sleep.c"
