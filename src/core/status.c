/* Names of status codes, and filling a cloth_error. */
#include "core/status.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *cloth_status_string(cloth_status s)
{
    switch (s) {
    case CLOTH_OK: return "ok";
    case CLOTH_EINVAL: return "invalid argument";
    case CLOTH_ENOMEM: return "out of memory";
    case CLOTH_EPARSE: return "parse error";
    case CLOTH_ENUMERIC: return "numerical failure";
    case CLOTH_EIO: return "input/output error";
    case CLOTH_ENOTIMPL: return "not implemented";
    }
    return "unknown status";
}

const char *cloth_run_status_string(cloth_run_status s)
{
    switch (s) {
    case CLOTH_RUN_OK: return "ok";
    case CLOTH_RUN_DIVERGED: return "diverged";
    case CLOTH_RUN_NOT_CONVERGED: return "not-converged";
    case CLOTH_RUN_STEP_FAILED: return "step-failed";
    }
    return "unknown";
}

cloth_status cloth__fail(cloth_error *err, cloth_status st, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return st;
}

char *cloth__trim(char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    char *end = p + strlen(p);
    while (end > p && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return p;
}
