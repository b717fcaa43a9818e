/* eintr_pipe_ok: eintr_pipe's correct twin, which retries its read on EINTR. */
#define EINTR_CORRECT
#include "eintr_pipe.c"
