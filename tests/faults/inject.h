/* Fault injection for tests/faults/ (SQLite's method): the program is linked with
 * -Wl,--wrap for malloc, calloc, realloc, free, fopen, fclose and rename, so every call
 * the library makes goes through inject.c, which can make the k-th one fail. */
#ifndef CLOTH_INJECT_H
#define CLOTH_INJECT_H

typedef enum {
    INJECT_ALLOC,               /* malloc, calloc, realloc return NULL (ENOMEM)       */
    INJECT_IO                   /* fopen fails (ENOSPC), fclose of a stream opened for
                                 * writing closes but reports ENOSPC (a write the disk
                                 * could not take), rename fails (ENOENT: the folder
                                 * was removed)                                       */
} inject_kind;

/* From now on the k-th call of that kind (1-based) fails; with persistent, every call
 * from the k-th on fails. */
void inject_arm(inject_kind kind, long k, int persistent);

/* Stops failing; returns how many calls of the armed kind were made while armed, and
 * sets *failed to the number that were made to fail. */
long inject_disarm(long *failed);

/* Blocks allocated through the wrappers and not yet freed. */
long inject_live(void);

/* FILEs opened through the wrappers and not yet closed. */
long inject_open_files(void);

/* Distinct call sites (return addresses) that were made to fail so far. */
int inject_sites(inject_kind kind);

/* The i-th of them (0-based). */
void *inject_site(inject_kind kind, int i);

#endif
