/*
 * What the CLI's commands share: loading a scene with its --set overrides, making
 * the sim, the default output folder.
 */
#include "app/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cloth__bad_input(const char *msg)
{
    fprintf(stderr, "cloth: %s\n", msg);
    return EXIT_BAD_INPUT;
}

/* Loads the scene and applies the --set overrides; returns 0 or an exit code.  The
 * output folder, if asked for, comes back in *out_dir. */
int cloth__load_scene(int argc, char **argv, cloth_scene *scene, const char **out_dir)
{
    cloth_error err;
    if (argc < 3)
        return cloth__bad_input("missing the scene file (see 'cloth help')");
    if (cloth_scene_load(argv[2], scene, &err) != CLOTH_OK)
        return cloth__bad_input(err.msg);
    int set_count = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
            if (cloth_scene_set(scene, argv[++i], ++set_count, &err) != CLOTH_OK)
                return cloth__bad_input(err.msg);
        } else if (strncmp(argv[i], "--set=", 6) == 0) {
            if (cloth_scene_set(scene, argv[i] + 6, ++set_count, &err) != CLOTH_OK)
                return cloth__bad_input(err.msg);
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc && out_dir) {
            *out_dir = argv[++i];
        } else {
            char msg[256];
            snprintf(msg, sizeof msg, "unexpected argument '%s' (see 'cloth help')", argv[i]);
            return cloth__bad_input(msg);
        }
    }
    return 0;
}

int cloth__scene_args_init(cloth__scene_args *a, int argc)
{
    a->argc = a->n_sets = 0;
    a->argv = malloc(sizeof(char *) * (size_t)(argc + 1));
    a->sets = malloc(sizeof(char *) * (size_t)(argc + 1));
    if (!a->argv || !a->sets) {
        cloth__scene_args_free(a);
        return cloth__bad_input("out of memory");
    }
    a->argv[0] = NULL;
    return 0;
}

void cloth__scene_args_keep(cloth__scene_args *a, int argc, char **argv, int i)
{
    if (i >= 3 && strcmp(argv[i], "--set") == 0 && i + 1 < argc)
        a->sets[a->n_sets++] = argv[i + 1];
    else if (i >= 3 && strncmp(argv[i], "--set=", 6) == 0)
        a->sets[a->n_sets++] = argv[i] + 6;
    a->argv[a->argc++] = argv[i];
    a->argv[a->argc] = NULL;
}

void cloth__scene_args_free(cloth__scene_args *a)
{
    free(a->argv);
    free(a->sets);
    a->argv = a->sets = NULL;
}

/* load_scene, then the sim; returns 0 or an exit code: 2 for bad input, 1 when the
 * machine failed (out of memory). */
int cloth__make_sim(int argc, char **argv, cloth_sim **sim, const char **out_dir)
{
    cloth_scene scene;
    int code = cloth__load_scene(argc, argv, &scene, out_dir);
    if (code)
        return code;
    cloth_error err;
    cloth_status st = cloth_sim_create(&scene, sim, &err);
    if (st == CLOTH_ENOMEM) {
        fprintf(stderr, "cloth: %s\n", err.msg);
        return 1;
    }
    if (st != CLOTH_OK)
        return cloth__bad_input(err.msg);
    return 0;
}

/* <parent>/<scene file name without folder and .ini> */
void cloth__default_out_dir(const char *parent, const char *scene_path, char *buf,
                            size_t size)
{
    const char *base = strrchr(scene_path, '/');
    base = base ? base + 1 : scene_path;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".ini") == 0)
        len -= 4;
    snprintf(buf, size, "%s/%.*s", parent, (int)len, base);
}
