/* libumkdyn: a shared library of the host's C library's kind, for the
 * dynamic loader tests (tests/dynamic.bats): one function and one datum
 * that needlib prints. */
int umkdyn_answer = 42;

int umkdyn_twice(int x)
{
	return 2 * x;
}
