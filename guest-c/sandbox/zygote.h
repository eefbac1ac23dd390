/*
 * zygote.h: the zygote's main loop (main.c), run by the _spine_zygote
 * extension module inside /usr/bin/python3 (zygote_module.c).
 */
#ifndef SPINE_ZYGOTE_H
#define SPINE_ZYGOTE_H

/* Serve the host on fd 3 until it goes away; the exit status. Called with
 * the GIL held, on the interpreter's main thread. */
int spine_zygote_serve(void);

#endif
