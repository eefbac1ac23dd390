/*
 * pools.c: the zygote's object-allocator pools filled before it forks.
 *
 * CPython's small-object allocator (pymalloc) serves an allocation of a
 * size class from the first pool of that class with a free block. After
 * start-up and the warm-up rounds, the zygote's pools of every class are
 * riddled with such blocks, scattered over its 11 MiB of arenas; a child's
 * allocations landed in them one page here, one page there, and each first
 * write to such a page is a copy-on-write fault (3-5 µs of CPU on our VMs,
 * together the largest part of a child's creation). Taking every free
 * block in the zygote (once, after the warm-up) sends a child's allocations
 * to fresh pools, where they pack densely into pages of its own.
 *
 * The filler blocks are never freed and never written after this, so every
 * child shares them: about 0.2 MiB more resident in the zygote (the blocks a
 * pool had not handed out yet), 60-80 fewer page faults per child
 * (bench/RESULTS.md, "Sandbox: cheaper creation").
 */
#include <Python.h>
#include <stdint.h>

#include "pools.h"

/* pymalloc's layout in CPython 3.11 on 64-bit (Objects/obmalloc.c): pools of
 * 16 KiB (POOL_BITS 14 with the radix tree, which 64-bit builds use),
 * aligned to their size, each starting with its header; size classes of 16
 * bytes up to 512. */
enum { k_pool_size = 1 << 14, k_alignment = 16, k_small_max = 512 };

struct pool_header {
  union {
    void *padding;
    unsigned int count; /* blocks allocated */
  } ref;
  void *freeblock;
  struct pool_header *nextpool, *prevpool;
  unsigned int arenaindex, szidx, nextoffset, maxnextoffset;
};

/* Bounds the work should the layout not be what it says above: the zygote's
 * pools hold well under a MiB of free blocks. */
enum { k_max_fillers = 1 << 17 };

static struct pool_header *pool_of(void *block) {
  return (struct pool_header *)((uintptr_t)block & ~(uintptr_t)(k_pool_size - 1));
}

unsigned int spine_pool_blocks_in_use(const void *block) {
  return pool_of((void *)block)->ref.count;
}

int spine_fill_pools(void) {
  PyMemAllocatorEx object;
  PyMem_GetAllocator(PYMEM_DOMAIN_OBJ, &object);
  int taken = 0;
  for (size_t size = k_alignment; size <= k_small_max; size += k_alignment) {
    unsigned int szidx = (unsigned int)((size - 1) / k_alignment);
    for (;;) {
      void *block = object.malloc(object.ctx, size);
      if (block == NULL) {
        return taken;
      }
      struct pool_header *pool = pool_of(block);
      if (pool->szidx != szidx || pool->ref.count == 0) {
        /* Not pymalloc's layout: stop, having changed nothing that
         * matters (the blocks taken so far are ordinary allocations). */
        object.free(object.ctx, block);
        return -1;
      }
      if (spine_pool_blocks_in_use(block) == 1 || taken >= k_max_fillers) {
        /* The first block of a pool: every older pool of this class is full. */
        object.free(object.ctx, block);
        break;
      }
      taken++;
    }
  }
  return taken;
}
