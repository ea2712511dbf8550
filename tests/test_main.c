/* Runs every suite listed in suites.h, or with an argument K/N every N-th suite from the
 * K-th (0-based), so that `make check` can run the suites in N processes at once; exits
 * non-zero when any check fails. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int part = 0, parts = 1;
    if (argc > 1 && (sscanf(argv[1], "%d/%d", &part, &parts) != 2 || parts < 1 || part < 0 ||
                     part >= parts)) {
        fprintf(stderr, "usage: %s [K/N]   (the suites i with i mod N = K)\n", argv[0]);
        return 2;
    }
    SRunner *runner = srunner_create(NULL);
    int index = 0;
#define CLOTH_ADD_SUITE(name)                                                              \
    if (index++ % parts == part)                                                           \
        srunner_add_suite(runner, suite_##name());
    CLOTH_TEST_SUITES(CLOTH_ADD_SUITE)
#undef CLOTH_ADD_SUITE
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
