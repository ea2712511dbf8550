/* Private to the CLI: what its commands share (cli.c) and the commands that live in
 * files of their own (cmd_run.c: run and replay; cmd_sweep.c; cmd_serve.c). */
#ifndef CLOTH_APP_CLI_H
#define CLOTH_APP_CLI_H

#include "cloth.h"

#include <stddef.h>

#define EXIT_RUN_FAILED 1
#define EXIT_BAD_INPUT 2

/* "cloth: MSG" on stderr; returns EXIT_BAD_INPUT. */
int cloth__bad_input(const char *msg);

/* Loads the scene argv[2] and applies the --set overrides (argv[3..]); returns 0 or an
 * exit code.  The output folder, if asked for (out_dir not NULL), comes back in *out_dir. */
int cloth__load_scene(int argc, char **argv, cloth_scene *scene, const char **out_dir);

/* cloth__load_scene, then the sim; returns 0 or an exit code: 2 for bad input, 1 when
 * the machine failed (out of memory). */
int cloth__make_sim(int argc, char **argv, cloth_sim **sim, const char **out_dir);

/* A command's arguments without its own options: what cloth__load_scene reads (argv[0..2],
 * --set, --out), in order and NULL-terminated, and the --set values among them. */
typedef struct cloth__scene_args {
    char **argv;
    int argc;
    char **sets;
    int n_sets;
} cloth__scene_args;

/* Room for argc arguments; returns 0 or EXIT_BAD_INPUT (out of memory, said). */
int cloth__scene_args_init(cloth__scene_args *a, int argc);

/* Keeps argv[i]; a `--set` or `--set=` is also taken as a set. */
void cloth__scene_args_keep(cloth__scene_args *a, int argc, char **argv, int i);

void cloth__scene_args_free(cloth__scene_args *a);

/* <parent>/<scene file name without folder and .ini> into buf */
void cloth__default_out_dir(const char *parent, const char *scene_path, char *buf,
                            size_t size);

/* The commands: each returns the exit code (0, 1 a failed run or I/O, 2 bad input). */
int cloth__cmd_run(int argc, char **argv);
int cloth__cmd_replay(int argc, char **argv);
int cloth__cmd_sweep(int argc, char **argv);
int cloth__cmd_serve(int argc, char **argv);

#endif
