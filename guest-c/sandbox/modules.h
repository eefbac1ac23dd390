/*
 * modules.h: the guest modules the host sends the zygote before its init
 * message, and the code the zygote compiles that the host keeps for the next
 * start.
 *
 * A module arrives as 'M' frames (name NUL source chunk), then, when the host
 * kept its code from an earlier start, 'B' frames (name NUL code chunk): the
 * chunks of one module are appended. spine_init() runs that code when this
 * interpreter made it, and compiles the source otherwise; what it compiled
 * goes back to the host as 'K' frames (name NUL code chunk), before the
 * hello. The zygote keeps no file of its own: the cache is the host's.
 */
#ifndef SPINE_SANDBOX_MODULES_H
#define SPINE_SANDBOX_MODULES_H

#include <stddef.h>
#include <stdint.h>

#include "spine_runtime.h"

typedef struct {
  spine_module_source *items;
  spine_compiled *compiled; /* one zeroed slot per item, for spine_init() */
  size_t count;
} module_list;

/* Append one 'M' (code == 0) or 'B' (code == 1) frame's payload; -1 if it is
 * malformed (no name, or code for a module whose source did not come last)
 * or memory runs out. */
int spine_modules_add(module_list *mods, int code, const unsigned char *payload, uint32_t len);

/* Send each module spine_init() compiled as 'K' frames through `send`
 * (kind, payload, length); -1 when a send fails. */
int spine_modules_send_compiled(const module_list *mods,
                                int (*send)(int kind, const void *payload, size_t len));

/* Free everything: the sources and code are compiled and run by now. */
void spine_modules_free(module_list *mods);

#endif /* SPINE_SANDBOX_MODULES_H */
