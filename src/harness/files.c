/*
 * A run's files (files.h): NAME.part while written, renamed when whole; folders made
 * on the way.
 */
#include "core/status.h"
#include "harness/files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

cloth_status cloth__out_open(cloth__out_file *o, const char *dir, const char *name,
                             cloth_error *err)
{
    snprintf(o->path, sizeof o->path, "%s/%s", dir, name);
    snprintf(o->part, sizeof o->part, "%s.part", o->path);
    o->f = fopen(o->part, "w");
    if (!o->f)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", o->part, strerror(errno));
    return CLOTH_OK;
}

cloth_status cloth__out_close(cloth__out_file *o, cloth_status st, cloth_error *err)
{
    if (!o->f)
        return st;
    int bad = ferror(o->f);
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (st != CLOTH_OK)
        return st; /* the run failed: what it wrote keeps its .part name */
    if (bad || rename(o->part, o->path) != 0) {
        if (st == CLOTH_OK)
            st = cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", o->path, strerror(errno));
    }
    return st;
}

/* mkdir -p */
cloth_status cloth__make_dir(const char *dir, cloth_error *err)
{
    char buf[1024];
    if (strlen(dir) >= sizeof buf)
        return cloth__fail(err, CLOTH_EIO, "%s: path too long", dir);
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return cloth__fail(err, CLOTH_EIO, "%s: cannot create folder: %s", buf,
                                   strerror(errno));
            *p = saved;
            if (!saved)
                break;
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cloth__fail(err, CLOTH_EIO, "%s: not a folder", dir);
    return CLOTH_OK;
}

