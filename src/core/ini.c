/* The INI reader shared by scenes and sweeps (core/ini.h). */
#include "core/ini.h"
#include "core/status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_CHARS 1024
/* A scene with the largest sweep (4096 runs of 16 overrides) is under 16 MiB; a larger
 * "scene" is something else, and /dev/zero would fill the memory. */
#define FILE_MAX_BYTES (16L << 20)

/* Splits one comment-free, trimmed, non-empty line and hands it to visit. */
static cloth_status visit_line(char *body, char *section, size_t section_size,
                               cloth__ini_line *l, cloth__ini_visit visit, void *ctx,
                               cloth_error *err)
{
    if (*body == '[') {
        char *close = strchr(body, ']');
        if (!close)
            return cloth__fail(err, CLOTH_EPARSE, "%s: %s: section header without ']'",
                               l->where, body);
        if (*cloth__trim(close + 1))
            return cloth__fail(err, CLOTH_EPARSE, "%s: %s: characters after the section header",
                               l->where, body);
        *close = '\0';
        snprintf(section, section_size, "%s", cloth__trim(body + 1));
        l->key = l->value = NULL;
        return visit(ctx, l, err);
    }
    char *eq = strchr(body, '=');
    if (!eq)
        return cloth__fail(err, CLOTH_EPARSE, "%s: %s: expected 'key = value'", l->where, body);
    *eq = '\0';
    l->key = cloth__trim(body);
    l->value = cloth__trim(eq + 1);
    if (!*l->key)
        return cloth__fail(err, CLOTH_EPARSE, "%s: (no key): expected 'key = value'", l->where);
    if (!*section)
        return cloth__fail(err, CLOTH_EPARSE, "%s: %s: key before any [section]", l->where,
                           l->key);
    return visit(ctx, l, err);
}

cloth_status cloth__ini_parse(const char *text, const char *name, cloth__ini_visit visit,
                              void *ctx, int *content, cloth_error *err)
{
    char section[64] = "", where[CLOTH_PATH_MAX + 16], line[LINE_MAX_CHARS];
    cloth__ini_line l = {name, 0, where, section, NULL, NULL};
    if (content)
        *content = 0;
    for (const char *p = text; *p;) {
        l.line++;
        size_t len = strcspn(p, "\n");
        if (len >= sizeof line)
            return cloth__fail(err, CLOTH_EPARSE, "%s:%d: line longer than %zu characters", name,
                               l.line, sizeof line - 1);
        memcpy(line, p, len);
        line[len] = '\0';
        p += len + (p[len] == '\n');
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *body = cloth__trim(line);
        if (!*body)
            continue;
        if (content)
            *content = 1;
        snprintf(where, sizeof where, "%s:%d", name, l.line);
        cloth_status st = visit_line(body, section, sizeof section, &l, visit, ctx, err);
        if (st != CLOTH_OK)
            return st;
    }
    return CLOTH_OK;
}

cloth_status cloth__ini_read_file(const char *path, char **out, cloth_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cloth__fail(err, CLOTH_EIO, "%s:0: (file): cannot open: %s", path, strerror(errno));
    char *text = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size + 4096 + 1 > cap) {
            cap = 2 * cap + 8192;
            char *grown = realloc(text, cap);
            if (!grown) {
                free(text);
                fclose(f);
                return cloth__fail(err, CLOTH_ENOMEM, "%s:0: (file): out of memory", path);
            }
            text = grown;
        }
        size_t got = fread(text + size, 1, 4096, f);
        size += got;
        if (got < 4096)
            break;
        if (size > FILE_MAX_BYTES) {
            free(text);
            fclose(f);
            return cloth__fail(err, CLOTH_EPARSE, "%s:0: (file): larger than %ld MiB: not a "
                               "scene file", path, FILE_MAX_BYTES >> 20);
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        return cloth__fail(err, CLOTH_EIO, "%s:0: (file): read error", path);
    }
    text[size] = '\0';
    if (strlen(text) != size) {
        free(text);
        return cloth__fail(err, CLOTH_EPARSE, "%s:0: (file): contains a NUL byte: not a text file",
                           path);
    }
    *out = text;
    return CLOTH_OK;
}
