/*
 * cloth — the command line over the library.
 *
 *   cloth run SCENE.ini [--set section.key=value]... [--out DIR]
 *   cloth info SCENE.ini [--set ...]
 *   cloth sweep SCENE.ini [--set section.key=value]... [--out DIR] [-j N]
 *   cloth stability SCENE.ini [--set ...]
 *   cloth list [--kernels]
 *   cloth serve SCENE.ini [--set section.key=value]... [--port N] [--web DIR]
 *
 * Exit codes: 0 success, 1 a run that failed (diverged, a failed step, I/O), 2 bad input.
 */
#include "cloth.h"
#include "app/serve/serve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_RUN_FAILED 1
#define EXIT_BAD_INPUT 2

static void usage(FILE *out)
{
    fprintf(out,
            "usage: cloth run SCENE.ini [--set section.key=value]... [--out DIR]\n"
            "       cloth info SCENE.ini [--set section.key=value]...\n"
            "       cloth sweep SCENE.ini [--set section.key=value]... [--out DIR] [-j N]\n"
            "       cloth stability SCENE.ini [--set section.key=value]...\n"
            "       cloth list [--kernels]\n"
            "       cloth serve SCENE.ini [--set section.key=value]... [--port N] [--web DIR]\n"
            "\n"
            "run    simulates the scene and writes series.csv, summary.csv, final.obj\n"
            "       (and newton.csv) into DIR (default build/runs/SCENE)\n"
            "sweep  runs every run the scene's [sweep] section declares into DIR/LABEL/\n"
            "       and joins their summaries in DIR/sweep.csv (default build/sweeps/SCENE);\n"
            "       --set applies to every run before the run's own overrides; -j N runs N\n"
            "       at a time\n"
            "stability  prints omega_max (the springs' fastest angular frequency about the\n"
            "       initial shape) and h_max = 2/omega_max, the explicit step bound\n"
            "info   prints the mesh's vertex, triangle, spring and pin counts\n"
            "list   prints the kernels and every scene key with its default; --kernels\n"
            "       prints what the kernel table says of each kernel as CSV (cloth.h,\n"
            "       cloth_kernel_facts; an empty field is none)\n"
            "serve  runs the scene in the browser viewer on 127.0.0.1 (default port 8080,\n"
            "       page from src/app/serve/web)\n");
}

static int bad_input(const char *msg)
{
    fprintf(stderr, "cloth: %s\n", msg);
    return EXIT_BAD_INPUT;
}

/* Loads the scene and applies the --set overrides; returns 0 or an exit code.  The
 * output folder, if asked for, comes back in *out_dir. */
static int load_scene(int argc, char **argv, cloth_scene *scene, const char **out_dir)
{
    cloth_error err;
    if (argc < 3)
        return bad_input("missing the scene file (see 'cloth help')");
    if (cloth_scene_load(argv[2], scene, &err) != CLOTH_OK)
        return bad_input(err.msg);
    int set_count = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
            if (cloth_scene_set(scene, argv[++i], ++set_count, &err) != CLOTH_OK)
                return bad_input(err.msg);
        } else if (strncmp(argv[i], "--set=", 6) == 0) {
            if (cloth_scene_set(scene, argv[i] + 6, ++set_count, &err) != CLOTH_OK)
                return bad_input(err.msg);
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc && out_dir) {
            *out_dir = argv[++i];
        } else {
            char msg[256];
            snprintf(msg, sizeof msg, "unexpected argument '%s' (see 'cloth help')", argv[i]);
            return bad_input(msg);
        }
    }
    return 0;
}

/* load_scene, then the sim; returns 0 or an exit code: 2 for bad input, 1 when the
 * machine failed (out of memory). */
static int make_sim(int argc, char **argv, cloth_sim **sim, const char **out_dir)
{
    cloth_scene scene;
    int code = load_scene(argc, argv, &scene, out_dir);
    if (code)
        return code;
    cloth_error err;
    cloth_status st = cloth_sim_create(&scene, sim, &err);
    if (st == CLOTH_ENOMEM) {
        fprintf(stderr, "cloth: %s\n", err.msg);
        return 1;
    }
    if (st != CLOTH_OK)
        return bad_input(err.msg);
    return 0;
}

/* <parent>/<scene file name without folder and .ini> */
static void default_out_dir(const char *parent, const char *scene_path, char *buf,
                            size_t size)
{
    const char *base = strrchr(scene_path, '/');
    base = base ? base + 1 : scene_path;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".ini") == 0)
        len -= 4;
    snprintf(buf, size, "%s/%.*s", parent, (int)len, base);
}

static int cmd_run(int argc, char **argv)
{
    const char *out_dir = NULL;
    cloth_sim *sim;
    int code = make_sim(argc, argv, &sim, &out_dir);
    if (code)
        return code;
    char dir[1024];
    if (!out_dir) {
        default_out_dir("build/runs", argv[2], dir, sizeof dir);
        out_dir = dir;
    }
    cloth_error err;
    cloth_summary s;
    cloth_status st = cloth_run_sim(sim, out_dir, stderr, &s, &err);
    cloth_sim_destroy(sim);
    if (st != CLOTH_OK) {
        fprintf(stderr, "cloth: %s\n", err.msg);
        return EXIT_RUN_FAILED;
    }
    printf("%s: %s, %ld frames, max |drift| %.3g, max stretch %.3g, %ld iterations, "
           "%.1f ms\n", out_dir, cloth_run_status_string(s.status), s.frames, s.max_abs_drift,
           s.max_stretch, s.total_iterations, s.wall_ms);
    if (s.status == CLOTH_RUN_STEP_FAILED) {
        fprintf(stderr, "cloth: %s\n", s.message);
        return EXIT_RUN_FAILED;
    }
    if (s.status == CLOTH_RUN_DIVERGED) {
        fprintf(stderr, "cloth: %s: %s\n", argv[2], s.message);
        fprintf(stderr, "cloth: %s: diverged at frame %ld; the %ld frames before it are "
                "kept in series.csv\n", argv[2], s.fail_frame, s.frames);
        return EXIT_RUN_FAILED;
    }
    if (s.status == CLOTH_RUN_NOT_CONVERGED)
        fprintf(stderr, "cloth: %s: warning: %ld kernel steps did not converge (see "
                "summary.csv)\n", argv[2], s.not_converged);
    if (s.lin_capped > 0)
        fprintf(stderr, "cloth: %s: warning: %ld Newton solves stopped at newton.pcg_max_iters "
                "(lin_capped in summary.csv)\n", argv[2], s.lin_capped);
    return 0;
}

/* cloth sweep: -j is ours; the scene, --set and --out go to load_scene. */
static int cmd_sweep(int argc, char **argv)
{
    int jobs = 1;
    char **rest = malloc(sizeof(char *) * (size_t)(argc + 1));
    if (!rest)
        return bad_input("out of memory");
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (i >= 3 && strcmp(argv[i], "-j") == 0 && i + 1 < argc) {
            char *end;
            long j = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || j < 1 || j > 256) {
                free(rest);
                return bad_input("-j: expected a whole number from 1 to 256");
            }
            jobs = (int)j;
        } else {
            rest[n++] = argv[i];
        }
    }
    rest[n] = NULL;
    /* the base scene every run starts from: the file with the --set overrides */
    cloth_scene base;
    const char *out_dir = NULL;
    int code = load_scene(n, rest, &base, &out_dir);
    free(rest);
    if (code)
        return code;
    char dir[1024];
    if (!out_dir) {
        default_out_dir("build/sweeps", argv[2], dir, sizeof dir);
        out_dir = dir;
    }
    cloth_error err;
    cloth_sweep *sweep;
    if (cloth_sweep_load(argv[2], &base, &sweep, &err) != CLOTH_OK)
        return bad_input(err.msg);
    int not_ok = 0;
    cloth_status st = cloth_sweep_run(sweep, out_dir, jobs, stderr, &not_ok, &err);
    int runs = cloth_sweep_count(sweep);
    cloth_sweep_destroy(sweep);
    if (st != CLOTH_OK) {
        fprintf(stderr, "cloth: %s\n", err.msg);
        return EXIT_RUN_FAILED;
    }
    printf("%s/sweep.csv: %d runs, %d ok, %d not ok\n", out_dir, runs, runs - not_ok, not_ok);
    return 0;
}

static int cmd_info(int argc, char **argv)
{
    cloth_scene scene;
    int code = load_scene(argc, argv, &scene, NULL);
    if (code)
        return code;
    cloth_error err;
    cloth_mesh *m;
    if (cloth_mesh_create(&scene, &m, &err) != CLOTH_OK)
        return bad_input(err.msg);
    printf("vertices: %d\ntriangles: %d\nsprings.structural: %d\nsprings.shear: %d\n"
           "springs.bend: %d\npinned: %d\n", m->n, m->n_tris,
           m->family_count[CLOTH_STRUCTURAL], m->family_count[CLOTH_SHEAR],
           m->family_count[CLOTH_BEND], m->n_pinned);
    cloth_mesh_destroy(m);
    return 0;
}

static int cmd_stability(int argc, char **argv)
{
    cloth_sim *sim;
    int code = make_sim(argc, argv, &sim, NULL);
    if (code)
        return code;
    cloth_error err;
    double w;
    cloth_status st = cloth_sim_omega_max(sim, &w, &err);
    cloth_sim_destroy(sim);
    if (st != CLOTH_OK)
        return bad_input(err.msg);
    printf("omega_max: %.17g\nh_max: %.17g\n", w, 2 / w);
    return 0;
}

/* cloth serve: the scene's sim behind the viewer's server (serve.c). */
static int cmd_serve(int argc, char **argv)
{
    cloth_serve_def def;
    cloth_default_serve_def(&def);
    /* --port and --web are ours; the rest goes to load_scene */
    char **rest = malloc(sizeof(char *) * (size_t)(argc + 1));
    if (!rest)
        return bad_input("out of memory");
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (i >= 3 && strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
            char *end;
            long port = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || port < 1 || port > 65535) {
                free(rest);
                return bad_input("--port: expected a port number in 1..65535");
            }
            def.port = (int)port;
        } else if (i >= 3 && strcmp(argv[i], "--web") == 0 && i + 1 < argc) {
            def.web_dir = argv[++i];
        } else {
            rest[n++] = argv[i];
        }
    }
    rest[n] = NULL;
    cloth_sim *sim;
    int code = make_sim(n, rest, &sim, NULL);
    free(rest);
    if (code)
        return code;
    cloth_error err;
    cloth_status st = cloth_serve(sim, &def, &err);
    cloth_sim_destroy(sim);
    if (st != CLOTH_OK) {
        fprintf(stderr, "cloth: serve: %s\n", err.msg);
        return EXIT_RUN_FAILED;
    }
    return 0;
}

/* cloth list --kernels: the kernel table's facts, one CSV row a kernel, for scripts. */
static int list_kernel_facts(void)
{
    printf("name,interactive_max,dense_max,iteration_key,stiffness_key,stiffness_max,"
           "reports_cond,cond_off,frame_substeps\n");
    cloth_kernel_facts f;
    for (int i = 0; cloth_kernel_info(i, &f) == CLOTH_OK; i++)
        printf("%s,%d,%d,%s,%s,%.17g,%d,%s,%d\n", f.name, f.interactive_max, f.dense_max,
               f.iteration_key ? f.iteration_key : "", f.stiffness_key ? f.stiffness_key : "",
               f.stiffness_max, f.reports_cond, f.cond_off ? f.cond_off : "",
               f.frame_substeps);
    return 0;
}

static int cmd_list(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[2], "--kernels") == 0)
        return list_kernel_facts();
    if (argc > 2)
        return bad_input("list: the only option is --kernels");
    printf("kernels:\n");
    for (int i = 0; cloth_kernel_name(i); i++)
        printf("  %-10s %s\n", cloth_kernel_name(i), cloth_kernel_summary(i));
    printf("\nscene keys (section.key = default):\n");
    cloth_scene_print_keys(stdout, NULL);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc, argv);
    if (strcmp(argv[1], "sweep") == 0)
        return cmd_sweep(argc, argv);
    if (strcmp(argv[1], "stability") == 0)
        return cmd_stability(argc, argv);
    if (strcmp(argv[1], "info") == 0)
        return cmd_info(argc, argv);
    if (strcmp(argv[1], "list") == 0)
        return cmd_list(argc, argv);
    if (strcmp(argv[1], "serve") == 0)
        return cmd_serve(argc, argv);
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "cloth: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_BAD_INPUT;
}
