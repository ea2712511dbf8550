/*
 * OBJ files (SPEC 2): a mesh's positions and triangles written atomically (PATH.part,
 * then renamed), and the reader of an OBJ's vertices and faces (polygons fanned into
 * triangles; errors name the file and line).
 */
#include "cloth.h"
#include "core/status.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cloth_status cloth_mesh_write_obj(const cloth_mesh *m, const double *x, const char *path,
                                  cloth_error *err)
{
    char part[1024];
    snprintf(part, sizeof part, "%s.part", path);
    FILE *f = fopen(part, "w");
    if (!f)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", part, strerror(errno));
    fprintf(f, "# clothbench: %d vertices, %d triangles\n", m->n, m->n_tris);
    for (int i = 0; i < m->n; i++)
        fprintf(f, "v %.17g %.17g %.17g\n", x[3 * i], x[3 * i + 1], x[3 * i + 2]);
    for (int t = 0; t < m->n_tris; t++)
        fprintf(f, "f %d %d %d\n", m->tris[3 * t] + 1, m->tris[3 * t + 1] + 1,
                m->tris[3 * t + 2] + 1);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(part, path) != 0) {
        remove(part);
        return cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", path, strerror(errno));
    }
    return CLOTH_OK;
}

/* Grows *buf (of *cap elements of size elem) to hold need elements. */
static int grow(void **buf, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int next = *cap ? 2 * *cap : 256;
    while (next < need)
        next *= 2;
    void *p = realloc(*buf, (size_t)next * elem);
    if (!p)
        return 1;
    *buf = p;
    *cap = next;
    return 0;
}

/* One face corner "i", "i/t", "i//n" or "i/t/n"; negative i counts from the end. */
static int face_index(const char *tok, int n, int *out)
{
    char *end;
    long v = strtol(tok, &end, 10);
    if (end == tok || (*end && *end != '/'))
        return 1;
    if (v < 0)
        v = n + v + 1;
    if (v < 1 || v > n)
        return 1;
    *out = (int)v - 1;
    return 0;
}

cloth_status cloth_obj_read(const char *path, double **xs, int *n_out, int **tris_out,
                            int *n_tris_out, cloth_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cloth__fail(err, CLOTH_EIO, "cannot open '%s': %s", path, strerror(errno));
    double *x = NULL;
    int *tris = NULL, n = 0, n_tris = 0, cap_x = 0, cap_t = 0, line_no = 0;
    char line[4096];
    cloth_status st = CLOTH_OK;
    /* The last byte is a sentinel: when fgets fills the buffer without reaching a newline
     * the line is too long (or holds NUL bytes: /dev/zero would be read forever). */
    while ((line[sizeof line - 1] = 'x', fgets(line, sizeof line, f))) {
        line_no++;
        if (line[sizeof line - 1] == '\0' && line[sizeof line - 2] != '\n') {
            st = cloth__fail(err, CLOTH_EPARSE, "%s:%d: line longer than %zu characters, or not "
                             "text", path, line_no, sizeof line - 2);
            goto done;
        }
        char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
        if (!tok || tok[0] == '#')
            continue;
        if (strcmp(tok, "v") == 0) {
            double p[3];
            for (int c = 0; c < 3; c++) {
                char *num = strtok_r(NULL, " \t\r\n", &save), *end;
                p[c] = num ? strtod(num, &end) : NAN;
                if (!num || *end || !isfinite(p[c])) {
                    st = cloth__fail(err, CLOTH_EPARSE, "%s:%d: v: expected three finite numbers",
                                     path, line_no);
                    goto done;
                }
            }
            if (grow((void **)&x, &cap_x, 3 * (n + 1), sizeof *x)) {
                st = cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", path);
                goto done;
            }
            memcpy(x + 3 * n++, p, sizeof p);
        } else if (strcmp(tok, "f") == 0) {
            int corner[64], k = 0;
            char *c;
            while ((c = strtok_r(NULL, " \t\r\n", &save))) {
                if (k == 64) {
                    st = cloth__fail(err, CLOTH_EPARSE, "%s:%d: f: more than 64 vertices", path,
                                     line_no);
                    goto done;
                }
                if (face_index(c, n, &corner[k++])) {
                    st = cloth__fail(err, CLOTH_EPARSE, "%s:%d: f: bad vertex reference '%s'", path,
                                     line_no, c);
                    goto done;
                }
            }
            if (k < 3) {
                st = cloth__fail(err, CLOTH_EPARSE, "%s:%d: f: a face needs 3 or more vertices",
                                 path, line_no);
                goto done;
            }
            for (int t = 1; t + 1 < k; t++) { /* fan */
                if (grow((void **)&tris, &cap_t, 3 * (n_tris + 1), sizeof *tris)) {
                    st = cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", path);
                    goto done;
                }
                int tri[3] = {corner[0], corner[t], corner[t + 1]};
                memcpy(tris + 3 * n_tris++, tri, sizeof tri);
            }
        }
        /* other records (vn, vt, o, g, s, usemtl, mtllib) do not concern the cloth */
    }
done:
    fclose(f);
    if (st != CLOTH_OK) {
        free(x);
        free(tris);
        return st;
    }
    *xs = x;
    *n_out = n;
    *tris_out = tris;
    *n_tris_out = n_tris;
    return CLOTH_OK;
}
