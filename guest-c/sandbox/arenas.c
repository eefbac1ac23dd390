/*
 * arenas.c: the zygote's object arenas in huge pages.
 *
 * A fork copies one page-table entry per resident page of every private
 * mapping the parent has written, and the child's exit drops them again:
 * for the zygote's 10 MiB of object arenas that is 2,600 entries per child,
 * most of which the child never touches. Backed by 2 MiB transparent huge
 * pages, the same memory is five entries. A child's first write to such a
 * page splits it in the child alone (the zygote keeps its huge page) and
 * copies the one small page written, as before.
 *
 * CPython maps each 1 MiB arena on its own, wherever the kernel puts it, so
 * few of them ever form an aligned 2 MiB range a huge page could back. The
 * allocator here carves the zygote's arenas out of chunks it maps 2 MiB
 * aligned and advises for huge pages (PyObject_SetArenaAllocator: CPython's
 * own hook for where arenas come from). The zygote must not write to the
 * chunks once children share them: its write would split its own huge page
 * (main.c forks without running Python).
 *
 * A child goes back to ordinary mappings for the arenas it makes (a huge
 * page would cost it a 2 MiB clear), and unmaps an arena it frees even in a
 * chunk (the split affects only its own page tables).
 */
#define _GNU_SOURCE
#include <Python.h>
#include <stdint.h>
#include <sys/mman.h>

#include "arenas.h"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

enum { k_huge = 2 << 20, k_max_chunks = 64 };

struct chunk {
  char *base;
  size_t used; /* bytes handed out from base, in arena-sized steps */
};

static struct chunk g_chunks[k_max_chunks];
static int g_chunk_count;
static int g_in_child;
/* Arenas the zygote freed, taken again before a chunk grows: the zygote
 * frees arenas only while warming up, and does not give chunk memory back
 * to the kernel (that would split the huge page). */
enum { k_max_spares = 64 };
static void *g_spares[k_max_spares];
static int g_spare_count;
static size_t g_arena_size; /* the one size CPython asks for */

static void *map_plain(size_t size) {
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* A new chunk: 2 MiB mapped at a 2 MiB boundary (over-map, trim both ends). */
static struct chunk *new_chunk(void) {
  if (g_chunk_count == k_max_chunks) {
    return NULL;
  }
  char *p = mmap(NULL, 2 * k_huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    return NULL;
  }
  char *base = (char *)(((uintptr_t)p + k_huge - 1) & ~(uintptr_t)(k_huge - 1));
  if (base > p) {
    munmap(p, (size_t)(base - p));
  }
  munmap(base + k_huge, (size_t)(p + 2 * k_huge - (base + k_huge)));
  madvise(base, k_huge, MADV_HUGEPAGE);
  struct chunk *c = &g_chunks[g_chunk_count++];
  c->base = base;
  c->used = 0;
  return c;
}

int spine_arenas_in_chunk(const void *p) {
  for (int i = 0; i < g_chunk_count; i++) {
    if ((const char *)p >= g_chunks[i].base && (const char *)p < g_chunks[i].base + k_huge) {
      return 1;
    }
  }
  return 0;
}

static void *arena_alloc(void *ctx, size_t size) {
  (void)ctx;
  if (g_in_child || size > k_huge || k_huge % size != 0 || (g_arena_size != 0 && size != g_arena_size)) {
    return map_plain(size);
  }
  g_arena_size = size;
  if (g_spare_count > 0) {
    return g_spares[--g_spare_count];
  }
  struct chunk *c = g_chunk_count > 0 ? &g_chunks[g_chunk_count - 1] : NULL;
  if (c == NULL || c->used + size > k_huge) {
    c = new_chunk();
    if (c == NULL) {
      return map_plain(size);
    }
  }
  void *p = c->base + c->used;
  c->used += size;
  return p;
}

static void arena_free(void *ctx, void *p, size_t size) {
  (void)ctx;
  if (g_in_child || !spine_arenas_in_chunk(p)) {
    munmap(p, size);
    return;
  }
  if (g_spare_count < k_max_spares) {
    g_spares[g_spare_count++] = p;
    return;
  }
  /* Its pages go back, splitting that huge page, which the collapse after
   * the warm-up may mend; the address range stays with its chunk. */
  madvise(p, size, MADV_DONTNEED);
}

void spine_arenas_use_huge_chunks(void) {
  PyObjectArenaAllocator huge = {NULL, arena_alloc, arena_free};
  PyObject_SetArenaAllocator(&huge);
}

void spine_arenas_collapse(void) {
  for (int i = 0; i < g_chunk_count; i++) {
    madvise(g_chunks[i].base, k_huge, MADV_COLLAPSE);
  }
}

void spine_arenas_after_fork(void) { g_in_child = 1; }


int spine_arenas_chunk_count(void) { return g_chunk_count; }
