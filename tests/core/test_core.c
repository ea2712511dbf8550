/* The core layer alone (src/core: status, ini, scene, mesh), linked without any kernel,
 * the sim, or LAPACK (the Makefile's test_core links libcloth_core.a and -lm only).  The
 * scene gets its kernels from a keyset made here: a made-up kernel "toy" with one key. */
#include "cloth.h"
#include "core/ini.h"
#include "core/scene.h"

#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The toy kernel's settings: its one key, in its block of the scene (kernel[0]). */
typedef struct toy_def {
    double tol;
} toy_def;

static double toy_tol(const cloth_scene *s)
{
    return ((const toy_def *)s->kernel[0].bytes)->tol;
}

static const cloth__key toy_keys[] = {
    {.section = "toy", .name = "tol", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(toy_def, tol), .lo = 0, .hi = 1, .lo_open = 1, .def = "0.5",
     .help = "a made-up key"},
};

static const cloth__key *toy_kernel_keys(int i, const char **name, int *n)
{
    if (i != 0)
        return NULL;
    *name = "toy";
    *n = 1;
    return toy_keys;
}

static const cloth__keyset toy = {toy_kernel_keys};

START_TEST(a_scene_takes_its_kernels_from_the_keyset)
{
    cloth_scene s;
    cloth_error err;
    cloth_status st = cloth__scene_parse(&toy, "[run]\nkernel = toy\n[toy]\ntol = 0.25\n",
                                         "toy.ini", &s, &err);
    ck_assert_msg(st == CLOTH_OK, "%s", err.msg);
    ck_assert_str_eq(s.run.kernel, "toy");
    ck_assert_double_eq(toy_tol(&s), 0.25);
    /* a kernel the keyset does not have is refused, and the message lists the known */
    st = cloth__scene_parse(&toy, "[run]\nkernel = newton\n", "k.ini", &s, &err);
    ck_assert_int_eq(st, CLOTH_EINVAL);
    ck_assert_msg(strstr(err.msg, "k.ini:2: run.kernel: unknown kernel 'newton' (one of: toy)"),
                  "%s", err.msg);
    /* without a keyset there are no kernel sections */
    st = cloth__scene_parse(NULL, "[toy]\ntol = 0.25\n", "n.ini", &s, &err);
    ck_assert_int_eq(st, CLOTH_EPARSE);
    ck_assert_msg(strstr(err.msg, "n.ini:1: [toy]: unknown section"), "%s", err.msg);
}
END_TEST

START_TEST(defaults_come_from_the_table)
{
    cloth_scene s;
    cloth__default_scene(&toy, &s);
    /* run.kernel's default, "explicit", is not a kernel of this keyset: it stays empty */
    ck_assert_str_eq(s.run.kernel, "");
    ck_assert_double_eq(toy_tol(&s), 0.5);
    ck_assert_int_eq(s.mesh.nx, 30);
    char value[64];
    cloth_error err;
    ck_assert(cloth__scene_get(&toy, &s, "toy.tol", value, sizeof value, &err) == CLOTH_OK);
    ck_assert_str_eq(value, "0.5");
}
END_TEST

/* Counts what the INI reader hands over. */
typedef struct counts {
    int headers, keys, last_line;
    char last_section[16];
} counts;

static cloth_status count_line(void *ctx, const cloth__ini_line *l, cloth_error *err)
{
    (void)err;
    counts *c = ctx;
    if (l->key)
        c->keys++;
    else
        c->headers++;
    c->last_line = l->line;
    strncpy(c->last_section, l->section, sizeof c->last_section - 1);
    return CLOTH_OK;
}

START_TEST(the_ini_reader_hands_over_headers_and_keys)
{
    counts c = {0, 0, 0, ""};
    cloth_error err;
    int content;
    const char *text = "# only a comment\n\n[a]\nx = 1 # tail\n  [ b ]  \ny=2\nz =\n";
    ck_assert(cloth__ini_parse(text, "t.ini", count_line, &c, &content, &err) == CLOTH_OK);
    ck_assert_int_eq(c.headers, 2);
    ck_assert_int_eq(c.keys, 3);
    ck_assert_int_eq(c.last_line, 7);
    ck_assert_str_eq(c.last_section, "b");
    ck_assert_int_eq(content, 1);
    ck_assert(cloth__ini_parse("# nothing\n", "e.ini", count_line, &c, &content, &err) ==
              CLOTH_OK);
    ck_assert_int_eq(content, 0);
}
END_TEST

START_TEST(the_ini_reader_names_file_and_line_of_bad_syntax)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"[a\n", "b.ini:1: [a: section header without ']'"},
        {"[a] x\n", "b.ini:1: [a] x: characters after the section header"},
        {"[a]\nnothing here\n", "b.ini:2: nothing here: expected 'key = value'"},
        {"[a]\n = 3\n", "b.ini:2: (no key): expected 'key = value'"},
        {"x = 1\n", "b.ini:1: x: key before any [section]"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        counts c = {0, 0, 0, ""};
        cloth_error err;
        ck_assert_int_eq(cloth__ini_parse(bad[i].text, "b.ini", count_line, &c, NULL, &err),
                         CLOTH_EPARSE);
        ck_assert_str_eq(err.msg, bad[i].msg);
    }
}
END_TEST

START_TEST(a_mesh_builds_without_any_kernel)
{
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth__scene_parse(NULL, "[mesh]\nnx = 4\nny = 3\n", "m.ini", &s, &err) == CLOTH_OK);
    cloth_mesh *m;
    ck_assert_msg(cloth_mesh_create(&s, &m, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(m->n, 12);
    ck_assert_int_eq(m->n_tris, 2 * 3 * 2); /* 2 (nx-1)(ny-1) */
    cloth_mesh_destroy(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, a_scene_takes_its_kernels_from_the_keyset);
    tcase_add_test(tc, defaults_come_from_the_table);
    tcase_add_test(tc, the_ini_reader_hands_over_headers_and_keys);
    tcase_add_test(tc, the_ini_reader_names_file_and_line_of_bad_syntax);
    tcase_add_test(tc, a_mesh_builds_without_any_kernel);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
