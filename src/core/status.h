/* Private: filling a cloth_error, and small text helpers shared by the readers. */
#ifndef CLOTH_ERROR_H
#define CLOTH_ERROR_H

#include "cloth.h"

/* Writes the printf-style message into err (if not NULL) and returns st. */
cloth_status cloth__fail(cloth_error *err, cloth_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Strips leading and trailing white space in place; returns the first kept character. */
char *cloth__trim(char *text);

#endif
