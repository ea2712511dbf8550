/* Private: the one INI reader.  Scene files and their [sweep] section are read by it; it
 * knows the syntax, its callers know the keys.
 *
 *   [section]          # a comment runs to the end of the line
 *   key = value        # white space around key and value is dropped
 */
#ifndef CLOTH_INI_H
#define CLOTH_INI_H

#include "cloth.h"

/* What the reader hands over for each section header and each key = value line. */
typedef struct cloth__ini_line {
    const char *file;           /* the name used in messages                          */
    int line;                   /* 1-based line number                                */
    const char *where;          /* "FILE:LINE", for messages                          */
    const char *section;        /* the section the line is in (the header's own name)  */
    const char *key;            /* NULL for a section header                          */
    const char *value;          /* NULL for a section header                          */
} cloth__ini_line;

/* Returns CLOTH_OK to go on; anything else stops the reader, which returns it. */
typedef cloth_status (*cloth__ini_visit)(void *ctx, const cloth__ini_line *line,
                                         cloth_error *err);

/* Reads text line by line and calls visit for each header and key = value line.  Syntax
 * errors ("FILE:LINE: ...": a header without ']' or with text after it, a line without
 * '=', an empty key, a key before any header, a line over 1023 characters) stop it with
 * CLOTH_EPARSE.  *content, if not NULL, is set to 1 when the text had anything besides
 * blank lines and comments. */
cloth_status cloth__ini_parse(const char *text, const char *name, cloth__ini_visit visit,
                              void *ctx, int *content, cloth_error *err);

/* Reads the whole file at path into *text (NUL-terminated; the caller frees it).  A file
 * that cannot be opened or read, or that holds a NUL byte, is an error "PATH:0: (file):". */
cloth_status cloth__ini_read_file(const char *path, char **text, cloth_error *err);

#endif
