/*
 * pools.h: the zygote's small-object pools filled before it forks (pools.c).
 */
#ifndef SPINE_POOLS_H
#define SPINE_POOLS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Take every free block of every size class of CPython's small-object
 * allocator, so that a child's allocations start fresh pools of its own
 * instead of writing into pages it shares with the zygote. The number of
 * blocks taken, or -1 if the allocator is not laid out as expected (the
 * blocks taken until then stay taken, as ordinary allocations would). With
 * the GIL held, after the zygote's last warm-up. */
int spine_fill_pools(void);

/* The number of blocks allocated in the pool that holds `block`, a block of
 * up to 512 bytes from the object allocator. */
unsigned int spine_pool_blocks_in_use(const void *block);

#ifdef __cplusplus
}
#endif

#endif
