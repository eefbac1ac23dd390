/* The C function the Python benchmark calls through ctypes: the same work
 * as testing.add, with no runtime in between. */
#include <stdint.h>

int64_t spine_bench_add(int64_t a, int64_t b) { return a + b; }
