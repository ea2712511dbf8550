/*
 * cloth — the command line over the library.
 *
 *   cloth run SCENE.ini [--set section.key=value]... [--out DIR] [--record]
 *   cloth replay EVENTS.jsonl [--out DIR]
 *   cloth info SCENE.ini [--set ...]
 *   cloth sweep SCENE.ini [--set section.key=value]... [--out DIR] [-j N] [--plan | --resume]
 *   cloth sweep --collect DIR
 *   cloth stability SCENE.ini [--set ...]
 *   cloth list [--kernels | --logs]
 *   cloth serve SCENE.ini [--set section.key=value]... [--port N] [--web DIR] [--events DIR]
 *   cloth serve --replay DIR [--port N] [--web DIR]
 *   cloth garment PATTERN.json [--out DIR] [--kernel NAME] [--scene SCENE.ini]
 *                 [--avatar SCENE.ini] [--set ...]
 *   cloth body-distance SCENE.ini [--time T] [--set ...]
 *
 * Exit codes: 0 success, 1 a run that failed (diverged, a failed step, I/O), 2 bad input.
 */
#include "app/body_distance.h"
#include "app/cli.h"
#include "app/garment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* OpenBLAS's own (libopenblas is linked directly, Makefile LDLIBS). */
void openblas_set_num_threads(int num_threads);

/* One BLAS thread unless OPENBLAS_NUM_THREADS says otherwise.  The BLAS work of a run is
 * CHOLMOD's supernodal factorisation (newton) on blocks too small for OpenBLAS's threads
 * to pay: on the 64 x 64 cloth of experiments/ablation_grid.ini two BLAS threads cut the
 * wall time by 7 % for twice the CPU time, and in a sweep running two runs at once on two
 * cores their spinning (sched_yield) took the cores from the other run.  The kernels' own
 * threads are run.threads. */
static void one_blas_thread(void)
{
    if (!getenv("OPENBLAS_NUM_THREADS"))
        openblas_set_num_threads(1);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: cloth run SCENE.ini [--set section.key=value]... [--out DIR] [--sweep-id ID]\n"
            "                 [--record]\n"
            "       cloth replay EVENTS.jsonl [--out DIR]\n"
            "       cloth info SCENE.ini [--set section.key=value]...\n"
            "       cloth sweep SCENE.ini [--set section.key=value]... [--out DIR] [-j N]\n"
            "                   [--plan | --resume]\n"
            "       cloth sweep --collect DIR\n"
            "       cloth stability SCENE.ini [--set section.key=value]...\n"
            "       cloth list [--kernels | --logs]\n"
            "       cloth serve SCENE.ini [--set section.key=value]... [--port N] [--web DIR]\n"
            "                   [--events DIR]\n"
            "       cloth serve --replay DIR [--port N] [--web DIR]\n"
            "       cloth garment PATTERN.json [--out DIR] [--kernel NAME] [--scene SCENE.ini]\n"
            "                     [--avatar SCENE.ini] [--set section.key=value]...\n"
            "       cloth body-distance SCENE.ini [--time T] [--set section.key=value]...\n"
            "\n"
            "run    simulates the scene and writes series.csv, summary.csv, final.obj\n"
            "       (and newton.csv) into DIR (default build/runs/SCENE); --record adds\n"
            "       cloth.pc2 (every frame's positions, a PC2 point cache for Blender's Mesh\n"
            "       Cache modifier) and cloth.obj (its topology)\n"
            "replay re-simulates the inputs a viewer recorded (serve --events) headless:\n"
            "       series.csv ... into DIR (default: a folder replay/ beside the file)\n"
            "sweep  runs every run the scene's [sweep] section declares into DIR/LABEL/\n"
            "       and joins their summaries in DIR/sweep.csv (default build/sweeps/SCENE);\n"
            "       --set applies to every run before the run's own overrides; -j N runs N\n"
            "       at a time.  DIR/plan.json and DIR/jobs.tsv (a `cloth run` command per\n"
            "       run) come first; --plan stops there; --collect DIR makes DIR/sweep.csv\n"
            "       from the run folders; --resume runs what has no result, then collects\n"
            "stability  prints omega_max (the springs' fastest angular frequency about the\n"
            "       initial shape) and h_max = 2/omega_max, the explicit step bound\n"
            "info   prints the mesh's vertex, triangle, spring and pin counts\n"
            "list   prints the kernels and every scene key with its default; --kernels\n"
            "       prints what the kernel table says of each kernel as CSV (cloth.h,\n"
            "       cloth_kernel_facts; an empty field is none); --logs prints each\n"
            "       iterative kernel's log file and its columns (cloth_table_file)\n"
            "serve  runs the scene in the browser viewer on 127.0.0.1 (default port 8080,\n"
            "       page from src/app/serve/web); --events DIR records the page's inputs\n"
            "       to DIR/events.jsonl and the frames to DIR/series.csv (for cloth replay);\n"
            "       --replay DIR plays the recording of cloth run --record in DIR\n"
            "garment  meshes a sewing pattern's panels, sews them with the kernel (gravity\n"
            "       off) and welds the seams; writes DIR/panel_NAME.obj, placed.obj and\n"
            "       sewn.obj and prints vertices, triangles, smallest angle, steps to weld;\n"
            "       --avatar SCENE.ini (with an [avatar]) then tries it on: the scene's run\n"
            "       with the welded garment as its cloth, into DIR/tryon/\n"
            "body-distance  reads points \"x y z\" (m) from stdin and prints each one's\n"
            "       signed distance (m) to the scene's avatar posed at time T (default 0)\n");
}


static int cmd_info(int argc, char **argv)
{
    cloth_scene scene;
    int code = cloth__load_scene(argc, argv, &scene, NULL);
    if (code)
        return code;
    cloth_error err;
    cloth_mesh *m = NULL;
    cloth_sim *sim = NULL;
    if (scene.mesh.garment[0]) { /* sewn by the simulation */
        if (cloth_sim_create(&scene, &sim, &err) != CLOTH_OK)
            return cloth__bad_input(err.msg);
        m = (cloth_mesh *)cloth_sim_mesh(sim);
    } else if (cloth_mesh_create(&scene, &m, &err) != CLOTH_OK) {
        return cloth__bad_input(err.msg);
    }
    printf("vertices: %d\ntriangles: %d\nsprings.structural: %d\nsprings.shear: %d\n"
           "springs.bend: %d\npinned: %d\n", m->n, m->n_tris,
           m->family_count[CLOTH_STRUCTURAL], m->family_count[CLOTH_SHEAR],
           m->family_count[CLOTH_BEND], m->n_pinned);
    if (sim)
        cloth_sim_destroy(sim);
    else
        cloth_mesh_destroy(m);
    return 0;
}

static int cmd_stability(int argc, char **argv)
{
    cloth_sim *sim;
    int code = cloth__make_sim(argc, argv, &sim, NULL);
    if (code)
        return code;
    cloth_error err;
    double w;
    cloth_status st = cloth_sim_omega_max(sim, &w, &err);
    cloth_sim_destroy(sim);
    if (st != CLOTH_OK)
        return cloth__bad_input(err.msg);
    printf("omega_max: %.17g\nh_max: %.17g\n", w, 2 / w);
    return 0;
}


/* cloth list --kernels: the kernel table's facts, one CSV row a kernel, for scripts. */
static int list_kernel_facts(void)
{
    /* frame_substeps stays last: plots/make_figures.sh reads it as $NF */
    printf("name,interactive_max,dense_max,iteration_key,stiffness_key,stiffness_max,"
           "reports_cond,cond_off,interactive_set,frame_substeps\n");
    cloth_kernel_facts f;
    for (int i = 0; cloth_kernel_info(i, &f) == CLOTH_OK; i++)
        printf("%s,%d,%d,%s,%s,%.17g,%d,%s,%s,%d\n", f.name, f.interactive_max, f.dense_max,
               f.iteration_key ? f.iteration_key : "", f.stiffness_key ? f.stiffness_key : "",
               f.stiffness_max, f.reports_cond, f.cond_off ? f.cond_off : "",
               f.interactive_set ? f.interactive_set : "", f.frame_substeps);
    return 0;
}

/* cloth list --logs: kernel,file,columns (space-separated) of every kernel with an
 * iteration log, for scripts (plots/make_figures.sh finds a kernel's log file here). */
static int list_logs(void)
{
    printf("kernel,file,columns\n");
    for (int i = 0; i < cloth_kernel_count(); i++) {
        cloth_table t = (cloth_table)(CLOTH_TABLE_LOG + i);
        if (!cloth_table_file(t))
            continue;
        printf("%s,%s,", cloth_kernel_name(i), cloth_table_file(t));
        for (int c = 0; c < cloth_table_columns(t); c++)
            printf("%s%s", c ? " " : "", cloth_field_name(t, c));
        printf("\n");
    }
    return 0;
}

static int cmd_list(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[2], "--kernels") == 0)
        return list_kernel_facts();
    if (argc > 2 && strcmp(argv[2], "--logs") == 0)
        return list_logs();
    if (argc > 2)
        return cloth__bad_input("list: the options are --kernels and --logs");
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
    one_blas_thread();
    if (strcmp(argv[1], "run") == 0)
        return cloth__cmd_run(argc, argv);
    if (strcmp(argv[1], "sweep") == 0)
        return cloth__cmd_sweep(argc, argv);
    if (strcmp(argv[1], "stability") == 0)
        return cmd_stability(argc, argv);
    if (strcmp(argv[1], "info") == 0)
        return cmd_info(argc, argv);
    if (strcmp(argv[1], "list") == 0)
        return cmd_list(argc, argv);
    if (strcmp(argv[1], "serve") == 0)
        return cloth__cmd_serve(argc, argv);
    if (strcmp(argv[1], "replay") == 0)
        return cloth__cmd_replay(argc, argv);
    if (strcmp(argv[1], "garment") == 0)
        return cloth__cmd_garment(argc, argv);
    if (strcmp(argv[1], "body-distance") == 0)
        return cloth__cmd_body_distance(argc, argv);
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "cloth: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_BAD_INPUT;
}
