/* Names of status codes. */
#include "cloth.h"

const char *cloth_status_string(cloth_status s)
{
    switch (s) {
    case CLOTH_OK: return "ok";
    case CLOTH_EINVAL: return "invalid argument";
    case CLOTH_ENOMEM: return "out of memory";
    case CLOTH_EPARSE: return "parse error";
    case CLOTH_ENUMERIC: return "numerical failure";
    case CLOTH_EIO: return "input/output error";
    }
    return "unknown status";
}

const char *cloth_run_status_string(cloth_run_status s)
{
    switch (s) {
    case CLOTH_RUN_OK: return "ok";
    case CLOTH_RUN_DIVERGED: return "diverged";
    case CLOTH_RUN_NOT_CONVERGED: return "not-converged";
    }
    return "unknown";
}
