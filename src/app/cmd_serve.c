/*
 * cloth serve: a scene's sim, or a recording (--replay), behind the viewer's server
 * (serve/serve.c).
 */
#include "app/cli.h"
#include "app/serve/serve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The run's dt from DIR/summary.csv (its "dt" column); 0 when it has none. */
static double summary_dt(const char *dir)
{
    char path[1100], head[2048], row[4096];
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    double dt = 0;
    if (fgets(head, sizeof head, f) && fgets(row, sizeof row, f)) {
        int col = -1, i = 0;
        for (char *h = strtok(head, ",\n"); h; h = strtok(NULL, ",\n"), i++)
            if (strcmp(h, "dt") == 0)
                col = i;
        const char *field = row;
        for (i = 0; col >= 0 && i < col && field; i++) {
            field = strchr(field, ',');
            field = field ? field + 1 : NULL;
        }
        if (col >= 0 && field)
            dt = strtod(field, NULL);
    }
    fclose(f);
    return dt > 0 && dt < 1e3 ? dt : 0;
}

/* DIR/body.pc2 and the triangles of DIR/body.obj when the recording has a body (a scene
 * with an [avatar]); 0 with nothing set when it has none, else the exit code. */
static int open_body_replay(const char *dir, cloth_pc2 **pc2, int **tris, int *n_tris)
{
    char path[1100];
    cloth_error err;
    *pc2 = NULL;
    *tris = NULL;
    snprintf(path, sizeof path, "%s/body.pc2", dir);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    if (cloth_pc2_open(path, pc2, &err) != CLOTH_OK)
        return cloth__bad_input(err.msg);
    snprintf(path, sizeof path, "%s/body.obj", dir);
    double *x;
    int n;
    if (cloth_obj_read(path, &x, &n, tris, n_tris, &err) != CLOTH_OK) {
        cloth_pc2_close(*pc2);
        *pc2 = NULL;
        return cloth__bad_input(err.msg);
    }
    free(x);
    return 0;
}

/* cloth serve --replay DIR: the mesh from DIR/cloth.obj, the frames from DIR/cloth.pc2
 * at the run's frame rate (1/dt, from DIR/summary.csv), and the body from DIR/body.pc2
 * and body.obj when the run had an avatar. */
static int serve_replay(const char *dir, cloth_serve_def *def)
{
    char path[1100], msg[1400];
    cloth_error err;
    cloth_scene scene;
    cloth_default_scene(&scene);
    snprintf(path, sizeof path, "mesh.obj=%s/cloth.obj", dir);
    if (cloth_scene_set(&scene, path, 1, &err) != CLOTH_OK ||
        cloth_scene_set(&scene, "mesh.pins=none", 2, &err) != CLOTH_OK)
        return cloth__bad_input(err.msg);
    double dt = summary_dt(dir);
    if (dt <= 0) {
        snprintf(msg, sizeof msg, "%s/summary.csv: no dt there: --replay takes the folder of "
                 "a finished 'cloth run --record'", dir);
        return cloth__bad_input(msg);
    }
    cloth_sim *sim;
    if (cloth_sim_create(&scene, &sim, &err) != CLOTH_OK)
        return cloth__bad_input(err.msg);
    snprintf(path, sizeof path, "%s/cloth.pc2", dir);
    cloth_pc2 *pc2;
    if (cloth_pc2_open(path, &pc2, &err) != CLOTH_OK) {
        cloth_sim_destroy(sim);
        return cloth__bad_input(err.msg);
    }
    cloth_pc2_info info;
    cloth_pc2_header(pc2, &info);
    int code = 0;
    if (info.points != cloth_sim_mesh(sim)->n || info.samples < 1) {
        snprintf(msg, sizeof msg, "%s: %d points in %d samples, but cloth.obj has %d vertices",
                 path, info.points, info.samples, cloth_sim_mesh(sim)->n);
        code = cloth__bad_input(msg);
    }
    def->replay = pc2;
    def->max_fps = fmin(1 / dt, 1000);
    cloth_pc2 *body = NULL;
    int *body_tris = NULL;
    if (!code)
        code = open_body_replay(dir, &body, &body_tris, &def->body_n_tris);
    def->replay_body = body;
    def->body_tris = body_tris;
    if (!code && cloth_serve(sim, def, &err) != CLOTH_OK) {
        fprintf(stderr, "cloth: serve: %s\n", err.msg);
        code = EXIT_RUN_FAILED;
    }
    if (body)
        cloth_pc2_close(body);
    free(body_tris);
    cloth_pc2_close(pc2);
    cloth_sim_destroy(sim);
    return code;
}

/* cloth serve: the scene's sim behind the viewer's server (serve.c). */
int cloth__cmd_serve(int argc, char **argv)
{
    cloth_serve_def def;
    cloth_default_serve_def(&def);
    /* --port, --web, --events and --replay are ours; the rest goes to load_scene */
    cloth__scene_args a;
    if (cloth__scene_args_init(&a, argc))
        return EXIT_BAD_INPUT;
    const char *events_dir = NULL, *replay_dir = NULL;
    for (int i = 0; i < argc; i++) {
        if (i >= 3 && strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
            char *end;
            long port = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || port < 1 || port > 65535) {
                cloth__scene_args_free(&a);
                return cloth__bad_input("--port: expected a port number in 1..65535");
            }
            def.port = (int)port;
        } else if (i >= 3 && strcmp(argv[i], "--web") == 0 && i + 1 < argc) {
            def.web_dir = argv[++i];
        } else if (i >= 3 && strcmp(argv[i], "--events") == 0 && i + 1 < argc) {
            events_dir = argv[++i];
        } else if (i == 2 && strcmp(argv[i], "--replay") == 0 && i + 1 < argc) {
            replay_dir = argv[++i];
        } else {
            cloth__scene_args_keep(&a, argc, argv, i);
        }
    }
    if (replay_dir) {
        int code = a.argc > 2 || events_dir
                       ? cloth__bad_input("serve --replay DIR takes only --port and --web")
                       : serve_replay(replay_dir, &def);
        cloth__scene_args_free(&a);
        return code;
    }
    cloth_sim *sim;
    int code = cloth__make_sim(a.argc, a.argv, &sim, NULL);
    cloth_error err;
    cloth_status st = CLOTH_OK;
    if (!code && events_dir)
        st = cloth_session_open(sim, events_dir, argv[2], (const char *const *)a.sets,
                                a.n_sets, &def.session, &err);
    cloth__scene_args_free(&a);
    if (code)
        return code;
    if (st == CLOTH_OK)
        st = cloth_serve(sim, &def, &err);
    cloth_error close_err;
    if (cloth_session_close(def.session, &close_err) != CLOTH_OK && st == CLOTH_OK) {
        st = CLOTH_EIO;
        err = close_err;
    }
    cloth_sim_destroy(sim);
    if (st != CLOTH_OK) {
        fprintf(stderr, "cloth: serve: %s\n", err.msg);
        return EXIT_RUN_FAILED;
    }
    return 0;
}
