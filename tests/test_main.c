/* Runs every suite listed in suites.h; exits non-zero when any check fails. */
#include "suites.h"

#include <stdlib.h>

int main(void)
{
    SRunner *runner = srunner_create(NULL);
#define CLOTH_ADD_SUITE(name) srunner_add_suite(runner, suite_##name());
    CLOTH_TEST_SUITES(CLOTH_ADD_SUITE)
#undef CLOTH_ADD_SUITE
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
