/*
 * The wrapped allocation and file functions.  The linker turns every malloc, calloc,
 * realloc, aligned_alloc, free, fopen, fclose and rename of the objects it links (the
 * library and the tests, not the C library's own calls) into __wrap_NAME, and
 * __real_NAME is the original.  A sweep runs runs on threads, so the counters are atomic.
 */
#include "inject.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);
void __real_free(void *p);
FILE *__real_fopen(const char *path, const char *mode);
int __real_fclose(FILE *f);
int __real_rename(const char *from, const char *to);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_aligned_alloc(size_t alignment, size_t size);
void __wrap_free(void *p);
FILE *__wrap_fopen(const char *path, const char *mode);
int __wrap_fclose(FILE *f);
int __wrap_rename(const char *from, const char *to);

#define MAX_SITES 1024

static atomic_int armed = -1;          /* the armed inject_kind, or -1              */
static atomic_long calls, failed, fail_at;
static atomic_int persistent;
static atomic_long live, open_files;
static void *sites[2][MAX_SITES];      /* guarded by site_lock                       */
static int n_sites[2];
static atomic_flag site_lock = ATOMIC_FLAG_INIT;
static FILE *writers[64];              /* open for writing; guarded by site_lock     */

void inject_arm(inject_kind kind, long k, int persist)
{
    calls = 0;
    failed = 0;
    fail_at = k;
    persistent = persist;
    armed = (int)kind;
}

long inject_disarm(long *n_failed)
{
    armed = -1;
    if (n_failed)
        *n_failed = failed;
    return calls;
}

long inject_live(void)
{
    return live;
}

long inject_open_files(void)
{
    return open_files;
}

int inject_sites(inject_kind kind)
{
    return n_sites[kind];
}

void *inject_site(inject_kind kind, int i)
{
    return i >= 0 && i < n_sites[kind] ? sites[kind][i] : NULL;
}

static void lock(void)
{
    while (atomic_flag_test_and_set(&site_lock))
        ;
}

/* Adds f to the streams open for writing (add) or takes it out; 1 if it was there. */
static int writer(FILE *f, int add)
{
    int found = 0;
    lock();
    for (int i = 0; i < 64 && !found; i++)
        if (writers[i] == (add ? NULL : f)) {
            writers[i] = add ? f : NULL;
            found = 1;
        }
    atomic_flag_clear(&site_lock);
    return found;
}

static void record_site(inject_kind kind, void *site)
{
    lock();
    int known = 0;
    for (int i = 0; i < n_sites[kind]; i++)
        known |= sites[kind][i] == site;
    if (!known && n_sites[kind] < MAX_SITES)
        sites[kind][n_sites[kind]++] = site;
    atomic_flag_clear(&site_lock);
}

/* 1 when this call of kind must fail. */
static int should_fail(inject_kind kind, void *site)
{
    if (armed != (int)kind)
        return 0;
    long k = ++calls;
    if (k == fail_at || (persistent && k > fail_at)) {
        failed++;
        record_site(kind, site);
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t size)
{
    if (should_fail(INJECT_ALLOC, __builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __real_malloc(size);
    if (p)
        live++;
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    if (should_fail(INJECT_ALLOC, __builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __real_calloc(count, size);
    if (p)
        live++;
    return p;
}

void *__wrap_realloc(void *p, size_t size)
{
    if (should_fail(INJECT_ALLOC, __builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    void *q = __real_realloc(p, size);
    if (q && !p)
        live++;
    else if (!q && p && size == 0)
        live--;
    return q;
}

void *__wrap_aligned_alloc(size_t alignment, size_t size)
{
    if (should_fail(INJECT_ALLOC, __builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __real_aligned_alloc(alignment, size);
    if (p)
        live++;
    return p;
}

void __wrap_free(void *p)
{
    if (p)
        live--;
    __real_free(p);
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
    if (should_fail(INJECT_IO, __builtin_return_address(0))) {
        errno = ENOSPC;
        return NULL;
    }
    FILE *f = __real_fopen(path, mode);
    if (f) {
        open_files++;
        if (mode[0] == 'w' || mode[0] == 'a')
            writer(f, 1);
    }
    return f;
}

int __wrap_fclose(FILE *f)
{
    /* only a stream being written can lose data at its close */
    int written = writer(f, 0);
    int r = __real_fclose(f);
    open_files--;
    if (written && should_fail(INJECT_IO, __builtin_return_address(0))) {
        errno = ENOSPC;
        return EOF;
    }
    return r;
}

int __wrap_rename(const char *from, const char *to)
{
    if (should_fail(INJECT_IO, __builtin_return_address(0))) {
        errno = ENOENT;
        return -1;
    }
    return __real_rename(from, to);
}
