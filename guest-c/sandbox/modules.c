/*
 * modules.c: the guest modules and their compiled code (modules.h).
 */
#include "modules.h"

#include <stdlib.h>
#include <string.h>

#include "spine_protocol.h"

/* A chunk of a 'K' frame: well under the host's control datagram buffer. */
#define COMPILED_CHUNK (32u << 10)

static int append(const char **data, size_t *len, const char *chunk, size_t chunk_len) {
  char *grown = realloc((char *)*data, *len + chunk_len + 1);
  if (grown == NULL) {
    return -1;
  }
  memcpy(grown + *len, chunk, chunk_len);
  *len += chunk_len;
  grown[*len] = 0;
  *data = grown;
  return 0;
}

/* A new module named `name`, last in the list; NULL when memory runs out. */
static spine_module_source *add_module(module_list *mods, const char *name) {
  spine_module_source *items = realloc(mods->items, (mods->count + 1) * sizeof *items);
  if (items == NULL) {
    return NULL;
  }
  mods->items = items;
  spine_compiled *compiled = realloc(mods->compiled, (mods->count + 1) * sizeof *compiled);
  if (compiled == NULL) {
    return NULL;
  }
  mods->compiled = compiled;
  memset(&compiled[mods->count], 0, sizeof *compiled);
  spine_module_source *m = &items[mods->count];
  memset(m, 0, sizeof *m);
  m->name = strdup(name);
  if (m->name == NULL) {
    return NULL;
  }
  mods->count++;
  return m;
}

int spine_modules_add(module_list *mods, int code, const unsigned char *payload, uint32_t len) {
  const unsigned char *nul = memchr(payload, 0, len);
  if (nul == NULL || nul == payload) {
    return -1;
  }
  const char *name = (const char *)payload;
  const char *chunk = (const char *)nul + 1;
  size_t chunk_len = len - (size_t)(nul + 1 - payload);
  spine_module_source *m = NULL;
  if (mods->count > 0 && strcmp(mods->items[mods->count - 1].name, name) == 0) {
    m = &mods->items[mods->count - 1];
  } else if (code) {
    return -1; /* a module's code comes after its source */
  } else if ((m = add_module(mods, name)) == NULL) {
    return -1;
  }
  if (code) {
    return append(&m->code, &m->code_len, chunk, chunk_len);
  }
  if (m->code != NULL) {
    return -1; /* its source after its code: the code would be for part of it */
  }
  return append(&m->source, &m->source_len, chunk, chunk_len);
}

int spine_modules_send_compiled(const module_list *mods,
                                int (*send)(int kind, const void *payload, size_t len)) {
  unsigned char *frame = NULL;
  int rc = 0;
  for (size_t i = 0; i < mods->count && rc == 0; i++) {
    const spine_compiled *c = &mods->compiled[i];
    size_t name_len = strlen(mods->items[i].name) + 1;
    unsigned char *grown = realloc(frame, name_len + COMPILED_CHUNK);
    if (grown == NULL) {
      rc = -1;
      break;
    }
    frame = grown;
    memcpy(frame, mods->items[i].name, name_len);
    for (size_t off = 0; c->code != NULL && off < c->code_len && rc == 0; off += COMPILED_CHUNK) {
      size_t n = c->code_len - off < COMPILED_CHUNK ? c->code_len - off : COMPILED_CHUNK;
      memcpy(frame + name_len, c->code + off, n);
      rc = send(SPINE_FRAME_COMPILED, frame, name_len + n);
    }
  }
  free(frame);
  return rc;
}

void spine_modules_free(module_list *mods) {
  for (size_t i = 0; i < mods->count; i++) {
    free((char *)mods->items[i].name);
    free((char *)mods->items[i].source);
    free((char *)mods->items[i].code);
    free(mods->compiled[i].code);
  }
  free(mods->items);
  free(mods->compiled);
  mods->items = NULL;
  mods->compiled = NULL;
  mods->count = 0;
}
