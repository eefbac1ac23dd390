/*
 * arenas.h: the zygote's object arenas in huge pages (arenas.c).
 */
#ifndef SPINE_ARENAS_H
#define SPINE_ARENAS_H

#ifdef __cplusplus
extern "C" {
#endif

/* From now on CPython's small-object allocator takes its arenas from
 * 2 MiB-aligned chunks advised for transparent huge pages. In the zygote,
 * before its preloads and warm-up. */
void spine_arenas_use_huge_chunks(void);

/* Asks the kernel to back every chunk with huge pages now, where it has
 * not already (after the warm-up, before the first fork). Chunks it cannot
 * collapse stay in small pages: a slower fork, nothing else. */
void spine_arenas_collapse(void);

/* In a new child: its own arenas are ordinary mappings again (a huge page
 * would cost it a 2 MiB clear for a few objects), and an arena it frees is
 * unmapped, whichever chunk held it. */
void spine_arenas_after_fork(void);

/* Whether `p` lies in one of the zygote's huge chunks; and how many chunks
 * there are (read by tests). */
int spine_arenas_in_chunk(const void *p);
int spine_arenas_chunk_count(void);

#ifdef __cplusplus
}
#endif

#endif
