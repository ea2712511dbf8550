/*
 * PC2 point caches: a mesh's vertex positions, one sample a frame, in the format of
 * 3ds Max's Point Cache 2 modifier that Blender's Mesh Cache modifier reads.
 *
 * The layout (footools.com, PointCache2_README, "PC2 File Format"; Blender,
 * source/blender/modifiers/intern/MOD_meshcache_pc2.cc, struct PC2Head), little-endian:
 *
 *   offset  0  char[12]  "POINTCACHE2\0"
 *           12 int32     file version, 1
 *           16 int32     numPoints
 *           20 float32   startFrame
 *           24 float32   sampleRate   (frames between two samples)
 *           28 int32     numSamples
 *           32 float32   x y z of every point, sample after sample
 *
 * Sample k of point i is at 32 + 12 (k numPoints + i).  Blender reads the header's
 * numSamples and seeks to the sample it wants, so a file must never claim more samples
 * than it holds: the writer appends a sample, flushes it, and only then writes the new
 * count at offset 28 and flushes again.  A recording that is killed leaves NAME.part
 * whose header counts only whole samples (a torn last sample lies beyond the count);
 * a finished one is renamed to NAME.
 *
 * Bytes are put in little-endian order one by one, so the files are the same on any
 * host; the float's bits are copied, so a sample reads back bit for bit.
 */
#include "core/status.h"
#include "cloth.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PC2_MAGIC "POINTCACHE2"     /* with its NUL, the 12 bytes of the signature      */
#define PC2_HEADER 32
#define PC2_COUNT_AT 28

struct cloth_pc2_writer {
    FILE *f;
    char path[1024];            /* final name                                         */
    char part[1040];            /* NAME.part while writing                            */
    int points;
    int samples;                /* whole samples written and counted in the header    */
    unsigned char *buf;         /* 12 points bytes: one sample, encoded               */
};

struct cloth_pc2 {
    FILE *f;
    char path[1024];
    cloth_pc2_info info;
    unsigned char *buf;         /* 12 points bytes: one sample as read                */
};

/* ------------------------------------------------------------ byte order */

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v & 0xff);
    p[1] = (unsigned char)((v >> 8) & 0xff);
    p[2] = (unsigned char)((v >> 16) & 0xff);
    p[3] = (unsigned char)((v >> 24) & 0xff);
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_f32(unsigned char *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    put_u32(p, u);
}

static float get_f32(const unsigned char *p)
{
    uint32_t u = get_u32(p);
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static int32_t get_i32(const unsigned char *p)
{
    uint32_t u = get_u32(p);
    int32_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* ---------------------------------------------------------------- writing */

void cloth_pc2_writer_destroy(cloth_pc2_writer *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    free(w->buf);
    free(w);
}

cloth_status cloth_pc2_create(const char *path, int points, float start_frame,
                              float sample_rate, cloth_pc2_writer **out, cloth_error *err)
{
    *out = NULL;
    if (points < 1 || points > INT32_MAX / 12)
        return cloth__fail(err, CLOTH_EINVAL, "%s: a point cache needs 1 to %d points, not %d",
                           path, INT32_MAX / 12, points);
    if (!isfinite(start_frame) || !(sample_rate > 0) || !isfinite(sample_rate))
        return cloth__fail(err, CLOTH_EINVAL, "%s: start frame and sample rate must be finite "
                           "and the rate > 0", path);
    cloth_pc2_writer *w = calloc(1, sizeof *w);
    if (w)
        w->buf = malloc(12 * (size_t)points);
    if (!w || !w->buf) {
        cloth_pc2_writer_destroy(w);
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory for %d points", path, points);
    }
    w->points = points;
    snprintf(w->path, sizeof w->path, "%s", path);
    snprintf(w->part, sizeof w->part, "%s.part", path);
    w->f = fopen(w->part, "wb");
    if (!w->f) {
        cloth_status st = cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", w->part,
                                      strerror(errno));
        cloth_pc2_writer_destroy(w);
        return st;
    }
    unsigned char h[PC2_HEADER];
    memcpy(h, PC2_MAGIC, 12);
    put_u32(h + 12, 1);
    put_u32(h + 16, (uint32_t)points);
    put_f32(h + 20, start_frame);
    put_f32(h + 24, sample_rate);
    put_u32(h + PC2_COUNT_AT, 0);
    if (fwrite(h, 1, sizeof h, w->f) != sizeof h || fflush(w->f) != 0) {
        cloth_status st = cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", w->part,
                                      strerror(errno));
        fclose(w->f);
        w->f = NULL;
        remove(w->part);
        cloth_pc2_writer_destroy(w);
        return st;
    }
    *out = w;
    return CLOTH_OK;
}

cloth_status cloth_pc2_append(cloth_pc2_writer *w, const double *x, cloth_error *err)
{
    for (int i = 0; i < 3 * w->points; i++)
        put_f32(w->buf + 4 * i, (float)x[i]);
    unsigned char count[4];
    put_u32(count, (uint32_t)(w->samples + 1));
    size_t bytes = 12 * (size_t)w->points;
    /* the sample reaches the file before the header counts it */
    if (fwrite(w->buf, 1, bytes, w->f) != bytes || fflush(w->f) != 0 ||
        fseek(w->f, PC2_COUNT_AT, SEEK_SET) != 0 || fwrite(count, 1, 4, w->f) != 4 ||
        fflush(w->f) != 0 || fseek(w->f, 0, SEEK_END) != 0)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot write sample %d: %s", w->part,
                           w->samples, strerror(errno));
    w->samples++;
    return CLOTH_OK;
}

int cloth_pc2_writer_samples(const cloth_pc2_writer *w)
{
    return w->samples;
}

cloth_status cloth_pc2_finish(cloth_pc2_writer *w, cloth_error *err)
{
    int bad = ferror(w->f);
    bad |= fclose(w->f) != 0;
    w->f = NULL;
    cloth_status st = CLOTH_OK;
    if (bad || rename(w->part, w->path) != 0)
        st = cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", w->path, strerror(errno));
    cloth_pc2_writer_destroy(w);
    return st;
}

/* ---------------------------------------------------------------- reading */

void cloth_pc2_close(cloth_pc2 *r)
{
    if (!r)
        return;
    if (r->f)
        fclose(r->f);
    free(r->buf);
    free(r);
}

/* The header's fields, each checked; the file's size against what they promise. */
static cloth_status read_header(cloth_pc2 *r, cloth_error *err)
{
    unsigned char h[PC2_HEADER];
    size_t got = fread(h, 1, sizeof h, r->f);
    if (got < 12 || memcmp(h, PC2_MAGIC, 12) != 0)
        return cloth__fail(err, CLOTH_EPARSE, "%s: not a PC2 point cache (it does not start "
                           "with \"POINTCACHE2\")", r->path);
    if (got < sizeof h)
        return cloth__fail(err, CLOTH_EPARSE, "%s: truncated header (%zu of %d bytes)",
                           r->path, got, PC2_HEADER);
    int32_t version = get_i32(h + 12), points = get_i32(h + 16), samples = get_i32(h + 28);
    float start = get_f32(h + 20), rate = get_f32(h + 24);
    if (version != 1)
        return cloth__fail(err, CLOTH_EPARSE, "%s: file version %d (only 1 is known)",
                           r->path, (int)version);
    if (points < 1 || points > INT32_MAX / 12)
        return cloth__fail(err, CLOTH_EPARSE, "%s: numPoints %d is out of range", r->path,
                           (int)points);
    if (samples < 0)
        return cloth__fail(err, CLOTH_EPARSE, "%s: numSamples %d is negative", r->path,
                           (int)samples);
    if (!isfinite(start) || !isfinite(rate) || !(rate > 0))
        return cloth__fail(err, CLOTH_EPARSE, "%s: startFrame %g and sampleRate %g must be "
                           "finite and the rate > 0", r->path, start, rate);
    if (fseek(r->f, 0, SEEK_END) != 0)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot read: %s", r->path, strerror(errno));
    long size = ftell(r->f);
    double sample_bytes = 12.0 * points;
    double want = PC2_HEADER + sample_bytes * samples;
    if (size < 0 || (double)size < want)
        return cloth__fail(err, CLOTH_EPARSE, "%s: truncated: the header promises %d samples "
                           "of %d points (%.0f bytes) but the file has %ld bytes", r->path,
                           (int)samples, (int)points, want, size);
    /* a torn sample after the counted ones is what a killed recording leaves; more than
     * a whole sample beyond the count is not a PC2 file we wrote */
    if ((double)size - want >= sample_bytes)
        return cloth__fail(err, CLOTH_EPARSE, "%s: %.0f bytes after the %d samples the "
                           "header counts", r->path, (double)size - want, (int)samples);
    r->info.points = points;
    r->info.samples = samples;
    r->info.start_frame = start;
    r->info.sample_rate = rate;
    return CLOTH_OK;
}

cloth_status cloth_pc2_open(const char *path, cloth_pc2 **out, cloth_error *err)
{
    *out = NULL;
    cloth_pc2 *r = calloc(1, sizeof *r);
    if (!r)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", path);
    snprintf(r->path, sizeof r->path, "%s", path);
    r->f = fopen(path, "rb");
    cloth_status st = r->f ? read_header(r, err)
                           : cloth__fail(err, CLOTH_EIO, "%s: cannot read: %s", path,
                                         strerror(errno));
    if (st == CLOTH_OK) {
        r->buf = malloc(12 * (size_t)r->info.points);
        if (!r->buf)
            st = cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory for %d points", path,
                             r->info.points);
    }
    if (st != CLOTH_OK) {
        cloth_pc2_close(r);
        return st;
    }
    *out = r;
    return CLOTH_OK;
}

void cloth_pc2_header(const cloth_pc2 *r, cloth_pc2_info *info)
{
    *info = r->info;
}

cloth_status cloth_pc2_sample(cloth_pc2 *r, int k, float *out, cloth_error *err)
{
    if (k < 0 || k >= r->info.samples)
        return cloth__fail(err, CLOTH_EINVAL, "%s: sample %d is out of range (0..%d)", r->path,
                           k, r->info.samples - 1);
    size_t bytes = 12 * (size_t)r->info.points;
    long at = PC2_HEADER + (long)bytes * k;
    if (fseek(r->f, at, SEEK_SET) != 0 || fread(r->buf, 1, bytes, r->f) != bytes)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot read sample %d (the file changed?)",
                           r->path, k);
    for (int i = 0; i < 3 * r->info.points; i++)
        out[i] = get_f32(r->buf + 4 * i);
    return CLOTH_OK;
}
