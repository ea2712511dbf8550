/* Fault injection for the tests, after SQLite's: the test binary carries its own
 * LAPACKE_dpotrf_work, which the library's linalg/dense.c then calls in place of LAPACKE's.
 * Unarmed, it passes every call on to LAPACKE.  Armed, it passes `pass` more calls on
 * and answers every later one with info > 0 without factoring, as dpotrf does when the
 * leading minor of order info is not positive definite, so that a test can make a
 * Newton solve fail however hard the Tikhonov fallback tries.  Lives only in tests/. */
#ifndef CLOTH_FAULT_H
#define CLOTH_FAULT_H

void tu_fault_dpotrf(long pass, int info);

/* The same for the sparse path: after `pass` calls, cholmod_factorize_p reports that
 * CHOLMOD ran out of memory, or ARPACK's dsaupd_c that it failed (info = -9999, "could not
 * build an Arnoldi factorization"). */
void tu_fault_cholmod(long pass);
void tu_fault_arpack(long pass);

/* Disarms every hook. */
void tu_fault_off(void);

#endif
