/*
 * crossings.c: a child's crossings to the host, from any of its threads at
 * once.
 *
 * A program's threads call tools at the same time, and the host runs those
 * calls at the same time: a crossing must not hold the channel until its
 * answer comes. So each crossing carries an id (the next number, taken under
 * the write lock, so ids reach the host in order: internal/protocol's
 * CrossingIDs), every answer names the crossing it answers, and the host
 * answers in whatever order its calls end.
 *
 * Reading is done by the waiting threads themselves, one at a time (leader
 * and followers): a thread that has sent its frame and finds nobody reading
 * reads answers off the channel, hands each to the thread it belongs to,
 * and stops once its own has come, passing the reading on to a thread still
 * waiting. A single-threaded program, the usual case, thus reads its own
 * answer right after its request, as before, with no thread to start or
 * wake; no thread exists only to read.
 *
 * A native crossing has the channel to itself (the write side of
 * g_exclusive): its answer brings descriptors (the compiled modules,
 * SCM_RIGHTS), which arrive with the first byte read of that answer, so the
 * thread that reads it must be the one that asked, with room for them.
 * Native crossings are rare and short (a compile request, a poll).
 */
#define _GNU_SOURCE
#include "crossings.h"

#include <pthread.h>
#include <stdlib.h>

#include "frame.h"
#include "spine_protocol.h"

/* A thread waiting for the answer to its crossing. */
typedef struct waiter {
  uint64_t id;
  int answered;
  unsigned char *payload;
  uint32_t len;
  pthread_cond_t wake;
  struct waiter *next;
} waiter;

/* Whole frames, one at a time, and the ids in the order they are sent. */
static pthread_mutex_t g_write = PTHREAD_MUTEX_INITIALIZER;
static uint64_t g_last_id;
/* The waiting threads and whether one of them reads the channel. Never held
 * while blocked on the channel, so an answer can always be handed over while
 * a writer waits for room on a full channel. */
static pthread_mutex_t g_state = PTHREAD_MUTEX_INITIALIZER;
static waiter *g_waiters;
static int g_reading;
/* Shared by ordinary crossings, taken alone by a native one; writers first,
 * so a steady stream of calls from threads cannot starve a native crossing. */
static pthread_rwlock_t g_exclusive = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;

int spine_channel_send(int kind, const struct iovec *parts, int count) {
  pthread_mutex_lock(&g_write);
  int rc = send_frame(SPINE_CHILD_FD, kind, parts, count);
  pthread_mutex_unlock(&g_write);
  return rc;
}

/* Send the crossing's frame under its id; *id is the id it went with. */
static int send_crossing(int kind, uint64_t handle, const char *request, size_t request_len,
                         waiter *self, uint64_t *id) {
  unsigned char head[SPINE_CROSSING_HEAD_LEN];
  struct iovec parts[2] = {{head, sizeof head}, {(void *)request, request_len}};
  pthread_mutex_lock(&g_write);
  *id = ++g_last_id;
  if (self != NULL) {
    /* Registered before the frame leaves: its answer may come at once. */
    self->id = *id;
    pthread_mutex_lock(&g_state);
    self->next = g_waiters;
    g_waiters = self;
    pthread_mutex_unlock(&g_state);
  }
  put_u64(head, *id);
  put_u64(head + 8, handle);
  int rc = send_frame(SPINE_CHILD_FD, kind, parts, 2);
  pthread_mutex_unlock(&g_write);
  return rc;
}

/* An answer frame, or -1 if the frame read is not one. */
static int read_answer(unsigned char **payload, uint32_t *len, int *fds, int *nfds) {
  int kind;
  if (recv_frame(SPINE_CHILD_FD, &kind, payload, len, fds, nfds) < 0) {
    return -1;
  }
  if (kind != SPINE_FRAME_ANSWER || *len < SPINE_ANSWER_HEAD_LEN) {
    free(*payload);
    return -1;
  }
  return 0;
}

/* Read one answer and hand it to its thread; g_state is held on entry and
 * on return, released while reading. -1: the channel broke or the answer
 * belongs to no waiting thread. */
static int read_for_waiters(void) {
  g_reading = 1;
  pthread_mutex_unlock(&g_state);
  unsigned char *payload;
  uint32_t len;
  int rc = read_answer(&payload, &len, NULL, NULL);
  pthread_mutex_lock(&g_state);
  g_reading = 0;
  if (rc < 0) {
    return -1;
  }
  uint64_t id = get_u64(payload);
  waiter *owner = g_waiters;
  while (owner != NULL && (owner->id != id || owner->answered)) {
    owner = owner->next;
  }
  if (owner == NULL) {
    free(payload);
    return -1;
  }
  owner->payload = payload;
  owner->len = len;
  owner->answered = 1;
  pthread_cond_signal(&owner->wake);
  return 0;
}

/* Leave the waiters; if nobody reads now, wake one still waiting to read. */
static void leave(waiter *self) {
  waiter **link = &g_waiters;
  while (*link != self) {
    link = &(*link)->next;
  }
  *link = self->next;
  if (!g_reading) {
    for (waiter *w = g_waiters; w != NULL; w = w->next) {
      if (!w->answered) {
        pthread_cond_signal(&w->wake);
        break;
      }
    }
  }
}

static int shared_crossing(int kind, uint64_t handle, const char *request, size_t request_len,
                           unsigned char **payload, uint32_t *len) {
  waiter self = {0};
  pthread_cond_init(&self.wake, NULL);
  uint64_t id;
  pthread_rwlock_rdlock(&g_exclusive);
  int rc = send_crossing(kind, handle, request, request_len, &self, &id);
  pthread_mutex_lock(&g_state);
  while (rc == 0 && !self.answered) {
    if (!g_reading) {
      rc = read_for_waiters();
    } else {
      pthread_cond_wait(&self.wake, &g_state);
    }
  }
  leave(&self);
  pthread_mutex_unlock(&g_state);
  pthread_rwlock_unlock(&g_exclusive);
  pthread_cond_destroy(&self.wake);
  *payload = self.payload;
  *len = self.len;
  return rc;
}

static int exclusive_crossing(int kind, uint64_t handle, const char *request, size_t request_len,
                              unsigned char **payload, uint32_t *len, int *fds, int *nfds) {
  uint64_t id;
  pthread_rwlock_wrlock(&g_exclusive);
  int rc = send_crossing(kind, handle, request, request_len, NULL, &id);
  if (rc == 0) {
    rc = read_answer(payload, len, fds, nfds);
  }
  if (rc == 0 && get_u64(*payload) != id) {
    free(*payload);
    rc = -1;
  }
  pthread_rwlock_unlock(&g_exclusive);
  return rc;
}

int spine_crossing(int kind, uint64_t handle, const char *request, size_t request_len,
                   unsigned char **payload, uint32_t *len, int *fds, int *nfds) {
  return fds != NULL ? exclusive_crossing(kind, handle, request, request_len, payload, len, fds, nfds)
                     : shared_crossing(kind, handle, request, request_len, payload, len);
}
