/* eintr_write_ok: eintr_write's correct twin, which writes what is left. */
#define EINTR_CORRECT
#include "eintr_write.c"
